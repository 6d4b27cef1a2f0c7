//! Where the path register's additions go: Ball and Larus's placement of the increments on
//! the chords of a maximum spanning tree of the path DAG.
//!
//! Any assignment of increments whose sum along every path from ENTRY to EXIT equals the
//! sum of the Ball-Larus values gives each path its number. Potentials give one: with
//! `φ(ENTRY) = φ(EXIT) = 0` and any `φ` on the other nodes, `Inc(u → w) = Val(u → w) +
//! φ(u) - φ(w)` telescopes along a path to its value. Choosing `φ` so that `Inc` is zero on
//! the edges of a spanning tree that holds the edge EXIT → ENTRY leaves code on the chords
//! only; a tree of maximum weight (edges weighted by how often they are expected to run)
//! leaves it on the edges expected to run least. Arithmetic wraps: a path's increments sum
//! to its number modulo 2^64, and the number itself is below 2^64.

use std::cmp::Reverse;

/// Per edge of `dag` (for each node, its edges as (Ball-Larus value, target node); ENTRY
/// is node 0, EXIT the last), the increment that replaces its value: zero on a maximum
/// spanning tree of the DAG with EXIT → ENTRY added, by the weights `weight(from, to)`.
pub(crate) fn increments(dag: &[Vec<(u64, u32)>], weight: impl Fn(u32, u32) -> u64) -> Vec<Vec<u64>> {
    let n = dag.len();
    if n < 2 {
        return dag.iter().map(|out| out.iter().map(|&(val, _)| val).collect()).collect();
    }
    let (entry, exit) = (0u32, n as u32 - 1);
    let mut edges: Vec<(u64, u32, u32)> = dag
        .iter()
        .enumerate()
        .flat_map(|(v, out)| out.iter().enumerate().map(move |(i, _)| (v as u32, i as u32)))
        .map(|(v, i)| (weight(v, dag[v as usize][i as usize].1), v, i))
        .collect();
    // Heaviest first; ties in DAG order, so that the placement is deterministic.
    edges.sort_by_key(|&(w, v, i)| (Reverse(w), v, i));
    // Kruskal: EXIT → ENTRY first, then every edge joining two trees.
    let mut root: Vec<u32> = (0..n as u32).collect();
    let mut tree: Vec<Vec<(u32, u64, bool)>> = vec![Vec::new(); n];
    root[exit as usize] = entry;
    tree[entry as usize].push((exit, 0, false));
    tree[exit as usize].push((entry, 0, true));
    for &(_, v, i) in &edges {
        let (val, w) = dag[v as usize][i as usize];
        let (a, b) = (find(&mut root, v), find(&mut root, w));
        if a != b {
            root[a as usize] = b;
            // Forward from v to w, backward from w to v.
            tree[v as usize].push((w, val, true));
            tree[w as usize].push((v, val, false));
        }
    }
    // Potentials making every tree edge's increment zero, from ENTRY at 0.
    let mut phi = vec![0u64; n];
    let mut seen = vec![false; n];
    let mut stack = vec![entry];
    seen[entry as usize] = true;
    while let Some(u) = stack.pop() {
        for &(w, val, forward) in &tree[u as usize] {
            if !seen[w as usize] {
                seen[w as usize] = true;
                phi[w as usize] = if forward { phi[u as usize].wrapping_add(val) } else { phi[u as usize].wrapping_sub(val) };
                stack.push(w);
            }
        }
    }
    debug_assert_eq!(phi[exit as usize], 0, "EXIT → ENTRY is a tree edge");
    dag.iter().enumerate().map(|(v, out)| out.iter().map(|&(val, w)| val.wrapping_add(phi[v]).wrapping_sub(phi[w as usize])).collect()).collect()
}

/// The root of `x`'s tree, halving the paths on the way.
fn find(root: &mut [u32], mut x: u32) -> u32 {
    while root[x as usize] != x {
        root[x as usize] = root[root[x as usize] as usize];
        x = root[x as usize];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random DAG in the numbering's shape: nodes `0..n`, edges to later nodes only, every
    /// node but the last with at least one, as (Ball-Larus value, target) by value.
    fn arb_dag() -> impl Strategy<Value = (Vec<Vec<(u64, u32)>>, Vec<u64>)> {
        (3usize..12).prop_flat_map(|n| {
            let targets = proptest::collection::vec(proptest::collection::btree_set(1usize..n, 1..4), n - 1);
            (targets, proptest::collection::vec(0u64..5, n)).prop_map(move |(targets, node_weight)| {
                let mut out: Vec<Vec<u32>> =
                    targets.into_iter().enumerate().map(|(v, ws)| ws.into_iter().filter(|&w| w > v).map(|w| w as u32).collect()).collect();
                for (v, ws) in out.iter_mut().enumerate() {
                    if ws.is_empty() {
                        ws.push(v as u32 + 1);
                    }
                }
                out.push(Vec::new());
                // Ball-Larus values: paths to the last node, summed over the earlier edges.
                let mut to_exit = vec![0u64; n];
                to_exit[n - 1] = 1;
                for v in (0..n - 1).rev() {
                    to_exit[v] = out[v].iter().map(|&w| to_exit[w as usize]).sum();
                }
                let dag = out
                    .iter()
                    .map(|ws| {
                        let mut sum = 0;
                        ws.iter()
                            .map(|&w| {
                                let val = sum;
                                sum += to_exit[w as usize];
                                (val, w)
                            })
                            .collect()
                    })
                    .collect();
                (dag, node_weight)
            })
        })
    }

    /// Every path from the first node to the last, as (node, edge index) steps.
    fn paths(dag: &[Vec<(u64, u32)>]) -> Vec<Vec<(usize, usize)>> {
        let mut done = Vec::new();
        let mut stack = vec![(0usize, Vec::new())];
        while let Some((v, p)) = stack.pop() {
            if v == dag.len() - 1 {
                done.push(p);
                continue;
            }
            for (i, &(_, w)) in dag[v].iter().enumerate() {
                let mut q = p.clone();
                q.push((v, i));
                stack.push((w as usize, q));
            }
        }
        done
    }

    proptest! {
        /// Along every path the increments sum to the Ball-Larus values' sum, and the edges
        /// left without an addition weigh at least as much as those Ball-Larus leaves
        /// without one (its zeros, the first edge out of each node, form a spanning tree
        /// too).
        #[test]
        fn increments_keep_path_sums_and_free_the_heaviest_edges((dag, node_weight) in arb_dag()) {
            let weight = |v: u32, w: u32| node_weight[v as usize].min(node_weight[w as usize]);
            let inc = increments(&dag, weight);
            for p in paths(&dag) {
                let val: u64 = p.iter().map(|&(v, i)| dag[v][i].0).sum();
                let sum = p.iter().fold(0u64, |s, &(v, i)| s.wrapping_add(inc[v][i]));
                prop_assert_eq!(sum, val);
            }
            let free = |zero: &dyn Fn(usize, usize) -> bool| -> u64 {
                dag.iter().enumerate().flat_map(|(v, out)| out.iter().enumerate().map(move |(i, &(_, w))| (v, i, w))).filter(|&(v, i, _)| zero(v, i)).map(|(v, _, w)| weight(v as u32, w)).sum()
            };
            let ours = free(&|v, i| inc[v][i] == 0);
            let ball_larus = free(&|v, i| dag[v][i].0 == 0) - dag[0].first().map_or(0, |&(_, w)| weight(0, w));
            prop_assert!(ours >= ball_larus, "{ours} < {ball_larus}");
            // A spanning tree of n nodes has n - 1 edges, one of them EXIT -> ENTRY.
            let zeros = inc.iter().flatten().filter(|&&x| x == 0).count();
            prop_assert!(zeros + 2 >= dag.len(), "{zeros} zero increments on {} nodes", dag.len());
        }
    }
}
