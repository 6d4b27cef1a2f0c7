//! The estimate an edge profile alone gives: at each block, the facts that hold are mixed
//! from its predecessors in proportion to the edge counts, whatever path led there. For
//! each variable (all of its definitions at once) a linear system over the function's
//! executed blocks is solved exactly by sparse elimination ([`eliminate`]). Locals start
//! at the function's entry with their entry definitions; program-wide facts are taken
//! from the exact result at the entry and after each call (an edge profile of one
//! function says nothing about its callers and callees), so the estimate differs from the
//! exact count only by what the function's own paths correlate.
//!
//! The edge counts are `wpp_report::heat`'s, the one derivation of block and edge counts
//! from paths and consecutive pairs.

use rustc_hash::FxHashMap;
use wpp_grammar::dff::{Frequencies, Transfer};
use wpp_model::{BlockIdx, EdgeKind, FuncIdx, Target};
use wpp_report::heat::heat;

use super::pairs::Between;
use super::problem::Built;
use super::{Dff, FactDesc};

impl Dff<'_> {
    /// The edge counts of `func` between its blocks (`wpp_report::heat` from its paths
    /// and the consecutive pairs where one of its invocations goes on), its blocks'
    /// executions, and its invocations.
    fn edge_profile(&self, func: FuncIdx, n_blocks: usize) -> (FxHashMap<(u32, u32), u64>, Vec<u64>, u64) {
        let mut invocations = 0u64;
        if self.run.first.is_some_and(|t| self.dag.paths[t as usize].func == func) {
            invocations += 1;
        }
        let mut pairs = Vec::new();
        for &(t1, t2, c, j) in &self.run.junctions {
            let (e1, e2) = (self.dag.paths[t1 as usize], self.dag.paths[t2 as usize]);
            if j.calls && e2.func == func {
                invocations += c;
            }
            if e1.func == func && j == Between::default() {
                let last = *self.run.path_blocks[t1 as usize].last().expect("a path has a block");
                pairs.push((last, self.run.path_blocks[t2 as usize][0], c));
            }
        }
        let f = self.dag.profile.meta.functions.get(func.idx());
        let (Some(cfg), Some(numbering)) = (f.and_then(|f| f.cfg.as_ref()), self.dag.profile.numberings.get(func)) else {
            return (FxHashMap::default(), vec![0; n_blocks], invocations);
        };
        let paths: Vec<(Vec<BlockIdx>, u64)> = (self.dag.paths.iter().enumerate())
            .filter(|&(t, e)| e.func == func && self.run.counts[t] > 0)
            .map(|(t, _)| (self.run.path_blocks[t].clone(), self.run.counts[t]))
            .collect();
        let h = heat(cfg, numbering.cut_points(), &paths, Some(&pairs));
        let mut edges: FxHashMap<(u32, u32), u64> = FxHashMap::default();
        for (e, count) in cfg.edges.iter().zip(&h.edges) {
            if let (Target::Block(to), Some(c)) = (e.to, *count) {
                if c > 0 {
                    *edges.entry((e.from.0, to.0)).or_insert(0) += c;
                }
            }
        }
        let mut node = h.blocks;
        node.resize(n_blocks, 0);
        (edges, node, invocations)
    }

    /// The estimate at every point: `estimate[point][fact]` for the facts of the problem
    /// as solved (the dual's, for an intersection problem).
    pub(super) fn estimate(&self, func: FuncIdx, built: &Built, exact: &Frequencies) -> Vec<FxHashMap<u32, f64>> {
        let n_blocks = built.block_steps.len();
        let (edges, node, invocations) = self.edge_profile(func, n_blocks);
        let cfg = self.dag.profile.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref());
        // Blocks after a call: where program-wide facts come back from callees.
        let mut after_call = vec![false; n_blocks];
        if let Some(cfg) = cfg {
            for e in &cfg.edges {
                if let (EdgeKind::Call, Target::Block(t)) = (e.kind, e.to) {
                    after_call[t.idx()] = true;
                }
            }
        }
        let p = &built.problem;
        // Each block's whole transfer.
        let whole: Vec<Transfer> = built.block_steps.iter().map(|s| s.iter().fold(Transfer::IDENTITY, |a, s| a.then(&s.transfer))).collect();
        // Groups of facts killed together.
        let mut groups: FxHashMap<(u8, u64), Vec<u32>> = FxHashMap::default();
        for (i, d) in built.facts.iter().enumerate() {
            let key = match *d {
                FactDesc::Local { var, .. } => (0, var as u64),
                FactDesc::Global { var, .. } => (1, var as u64),
                FactDesc::Memory { location, .. } => (2, ((location.memory as u64) << 48) ^ (location.offset << 8) ^ location.width as u64),
                FactDesc::Available { .. } => (3, i as u64),
            };
            groups.entry(key).or_default().push(i as u32);
        }
        let executed: Vec<usize> = (0..n_blocks).filter(|&b| node[b] > 0).collect();
        let mut preds: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n_blocks];
        for (&(u, v), &c) in &edges {
            let (u, v) = (u as usize, v as usize);
            if u < n_blocks && v < n_blocks && node[u] > 0 {
                preds[v].push((u, c as f64 / node[u] as f64));
            }
        }
        for p in &mut preds {
            p.sort_by_key(|x| x.0);
        }
        let mut at_block: Vec<FxHashMap<u32, f64>> = vec![FxHashMap::default(); n_blocks];
        let exact_at = |b: usize, d: u32| -> f64 { exact.holds[b].binary_search_by_key(&d, |x| x.0).map_or(0.0, |i| exact.holds[b][i].1 as f64) };
        for facts in groups.values() {
            let framed = facts[0] < p.frame_facts;
            let pinned = |b: usize| !framed && (b == 0 || after_call[b]);
            // Unknowns: executed blocks not pinned.
            let unknowns: Vec<usize> = executed.iter().copied().filter(|&b| !pinned(b)).collect();
            let mut slot = vec![usize::MAX; n_blocks];
            for (i, &b) in unknowns.iter().enumerate() {
                slot[b] = i;
            }
            let k = facts.len();
            // What block `u` passes on for the group: its own constant, or what held at
            // its entry.
            let constant = |u: usize| -> Option<Vec<f64>> {
                let t = &whole[u];
                let touches = facts.iter().any(|d| t.gen().binary_search(d).is_ok() || t.kill().binary_search(d).is_ok());
                touches.then(|| facts.iter().map(|d| if t.gen().binary_search(d).is_ok() { node[u] as f64 } else { 0.0 }).collect())
            };
            let mut rows: Vec<FxHashMap<usize, f64>> = vec![FxHashMap::default(); unknowns.len()];
            let mut rhs: Vec<Vec<f64>> = vec![vec![0.0; k]; unknowns.len()];
            for (i, &v) in unknowns.iter().enumerate() {
                if v == 0 && framed {
                    for (j, d) in facts.iter().enumerate() {
                        if p.frame_entry.binary_search(d).is_ok() {
                            rhs[i][j] += invocations as f64;
                        }
                    }
                }
                for &(u, w) in &preds[v] {
                    match constant(u) {
                        Some(c) => rhs[i].iter_mut().zip(&c).for_each(|(r, x)| *r += w * x),
                        None if pinned(u) => rhs[i].iter_mut().zip(facts).for_each(|(r, &d)| *r += w * exact_at(u, d)),
                        None => *rows[i].entry(slot[u]).or_insert(0.0) += w,
                    }
                }
            }
            let solved = eliminate(rows, rhs);
            for &b in &executed {
                let vals: Vec<Option<f64>> = if pinned(b) {
                    facts.iter().map(|&d| Some(exact_at(b, d))).collect()
                } else {
                    solved[slot[b]].iter().map(|&x| x.is_finite().then_some(x)).collect()
                };
                for (&d, v) in facts.iter().zip(vals) {
                    at_block[b].insert(d, v.unwrap_or(f64::NAN));
                }
            }
        }
        // Points: a block's entry, or inside it after the stretches before.
        let mut out = vec![FxHashMap::default(); built.points.len()];
        for (pi, pt) in built.points.iter().enumerate() {
            let b = pt.block.idx();
            let mut state = at_block[b].clone();
            let n = node[b] as f64;
            for s in &built.block_steps[b] {
                if s.point == Some(pi as u32) {
                    break;
                }
                for &d in s.transfer.kill() {
                    state.insert(d, 0.0);
                }
                for &d in s.transfer.gen() {
                    state.insert(d, n);
                }
            }
            out[pi] = state;
        }
        out
    }
}

/// Solves `y = A y + b` (rows of `A` sparse over the unknowns, `b` one vector per
/// unknown) by Gaussian elimination in index order and back substitution. An unknown
/// whose equation is singular gets NaN.
fn eliminate(mut rows: Vec<FxHashMap<usize, f64>>, mut rhs: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = rows.len();
    // Rows after `i` that mention `i`.
    let mut refs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (j, r) in rows.iter().enumerate() {
        for &i in r.keys() {
            if i < j {
                refs[i].push(j);
            }
        }
    }
    for i in 0..n {
        let self_coef = rows[i].remove(&i).unwrap_or(0.0);
        let denom = 1.0 - self_coef;
        if denom.abs() < 1e-12 {
            rows[i].clear();
            rhs[i].iter_mut().for_each(|x| *x = f64::NAN);
        } else if self_coef != 0.0 {
            rows[i].values_mut().for_each(|x| *x /= denom);
            rhs[i].iter_mut().for_each(|x| *x /= denom);
        }
        let row_i: Vec<(usize, f64)> = rows[i].iter().map(|(&k, &v)| (k, v)).collect();
        let rhs_i = rhs[i].clone();
        let mut users = std::mem::take(&mut refs[i]);
        users.sort_unstable();
        users.dedup();
        for j in users {
            let Some(c) = rows[j].remove(&i) else { continue };
            for &(k, v) in &row_i {
                let e = rows[j].entry(k).or_insert(0.0);
                if *e == 0.0 && k > i && k != j {
                    if k < j {
                        refs[k].push(j);
                    } else {
                        // j < k: `j` is eliminated before `k`, which `j` now mentions.
                    }
                }
                *e += c * v;
            }
            for (x, y) in rhs[j].iter_mut().zip(&rhs_i) {
                *x += c * y;
            }
        }
    }
    let mut y: Vec<Vec<f64>> = vec![Vec::new(); n];
    for i in (0..n).rev() {
        let mut v = rhs[i].clone();
        for (&k, &c) in &rows[i] {
            debug_assert!(k > i, "eliminated rows mention later unknowns only");
            for (x, z) in v.iter_mut().zip(&y[k]) {
                *x += c * z;
            }
        }
        y[i] = v;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sparse elimination against plain fixed-point iteration `y ← A y + b`, on random
    /// systems whose rows sum to at most 0.9 (so the iteration converges quickly).
    #[test]
    fn elimination_solves_the_system() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..200 {
            let n = 1 + (next() % 30) as usize;
            let k = 1 + (next() % 3) as usize;
            let mut rows: Vec<FxHashMap<usize, f64>> = vec![FxHashMap::default(); n];
            for row in rows.iter_mut() {
                let m = next() % 4;
                let mut left = 0.9;
                for _ in 0..m {
                    let j = (next() % n as u64) as usize;
                    let w = left * (next() % 1000) as f64 / 1000.0;
                    left -= w;
                    *row.entry(j).or_insert(0.0) += w;
                }
            }
            let rhs: Vec<Vec<f64>> = (0..n).map(|_| (0..k).map(|_| (next() % 100) as f64).collect()).collect();
            let mut y = vec![vec![0.0; k]; n];
            for _ in 0..2000 {
                y = (0..n).map(|i| (0..k).map(|c| rhs[i][c] + rows[i].iter().map(|(&j, &w)| w * y[j][c]).sum::<f64>()).collect()).collect();
            }
            let got = eliminate(rows.clone(), rhs.clone());
            for i in 0..n {
                for c in 0..k {
                    assert!((got[i][c] - y[i][c]).abs() < 1e-6 * (1.0 + y[i][c].abs()), "case {case}: y[{i}][{c}] {} vs {}", got[i][c], y[i][c]);
                }
            }
        }
    }
}
