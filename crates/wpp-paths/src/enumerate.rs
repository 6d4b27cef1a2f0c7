//! The slow, obviously correct oracle for the numbering: list every path of a CFG
//! straight from its definition, without the DAG or any edge values.

use std::collections::BTreeSet;

use wpp_model::{BlockIdx, Cfg, Edge, Target};

/// Every path of `cfg` given its cut points, or `None` if there are more than `limit`.
///
/// Paths start at the entry block and at every target of a path-ending edge leaving a
/// reachable block; they follow non-ending edges; a block with a path-ending edge ends one.
pub fn all_paths(cfg: &Cfg, cut: &[BlockIdx], limit: usize) -> Option<BTreeSet<Vec<BlockIdx>>> {
    let reachable = cfg.reachable();
    let ends = |e: &Edge| match e.to {
        Target::Exit => true,
        Target::Block(w) => e.kind.ends_path() || cut.contains(&w),
    };
    let mut starts = BTreeSet::from([0u32]);
    for e in &cfg.edges {
        if reachable[e.from.idx()] && ends(e) {
            if let Target::Block(w) = e.to {
                starts.insert(w.0);
            }
        }
    }
    let out = cfg.out_ranges();
    let mut paths = BTreeSet::new();
    for s in starts {
        let mut stack = vec![vec![BlockIdx(s)]];
        while let Some(p) = stack.pop() {
            let v = *p.last().expect("paths are not empty");
            let edges = &cfg.edges[out[v.idx()].clone()];
            if edges.iter().any(ends) {
                paths.insert(p.clone());
                if paths.len() > limit {
                    return None;
                }
            }
            for e in edges {
                if let (false, Target::Block(w)) = (ends(e), e.to) {
                    let mut q = p.clone();
                    q.push(w);
                    stack.push(q);
                }
            }
        }
    }
    Some(paths)
}

/// Checks a numbering against [`all_paths`]: the numbers are exactly `0..n_paths`, each
/// decodes back to its path, and the edge actions run the way the instrumentation runs
/// them (the start value, each edge's addition, the end's, wrapping) give each path its
/// number, whichever path-ending edge leaves it, and restart at the start value of the
/// block they restart in. `None` when the function has more than `limit` paths.
pub fn check_numbering(cfg: &Cfg, num: &crate::Numbering, limit: usize) -> Option<Result<usize, String>> {
    if num.n_paths() > limit as u64 {
        return None;
    }
    let paths = all_paths(cfg, num.cut_points(), limit)?;
    if paths.len() as u64 != num.n_paths() {
        return Some(Err(format!("{} paths enumerated, numbering has {}", paths.len(), num.n_paths())));
    }
    let mut seen = vec![false; paths.len()];
    for p in &paths {
        let Some(id) = num.encode(p) else { return Some(Err(format!("path {p:?} has no number"))) };
        if id.0 >= num.n_paths() || std::mem::replace(&mut seen[id.0 as usize], true) {
            return Some(Err(format!("path {p:?} has number {id}, out of range or taken")));
        }
        match num.decode(id) {
            Ok(d) if &d == p => {}
            other => return Some(Err(format!("number {id} decodes to {other:?}, not {p:?}"))),
        }
        if let Err(e) = run_actions(cfg, num, p, id.0) {
            return Some(Err(e));
        }
    }
    Some(Ok(paths.len()))
}

/// Runs `num`'s actions along path `p`, whose number is `id`.
fn run_actions(cfg: &Cfg, num: &crate::Numbering, p: &[BlockIdx], id: u64) -> Result<(), String> {
    use crate::EdgeAction;
    let out = cfg.out_ranges();
    let edges = |v: BlockIdx| out[v.idx()].clone().map(|i| wpp_model::EdgeIdx(i as u32));
    let Some(mut reg) = num.start_value(p[0]) else { return Err(format!("path {p:?} starts where no path starts")) };
    for w in p.windows(2) {
        let e = edges(w[0]).find(|&e| cfg.edge(e).to == Target::Block(w[1])).ok_or_else(|| format!("no edge {} -> {}", w[0], w[1]))?;
        match num.action(e) {
            EdgeAction::Add(k) => reg = reg.wrapping_add(k),
            other => return Err(format!("edge {} -> {} inside path {p:?} does {other:?}", w[0], w[1])),
        }
    }
    let last = *p.last().expect("paths are not empty");
    let mut ended = false;
    for e in edges(last) {
        if let EdgeAction::End { add, restart } = num.action(e) {
            ended = true;
            if reg.wrapping_add(add) != id {
                return Err(format!("path {p:?} (number {id}) ends as {} through edge {e}", reg.wrapping_add(add)));
            }
            let expected = match cfg.edge(e).to {
                Target::Block(w) => num.start_value(w),
                Target::Exit => None,
            };
            if restart != expected {
                return Err(format!("edge {e} restarts at {restart:?}, not at {expected:?}"));
            }
        }
    }
    if !ended {
        return Err(format!("path {p:?} has no edge ending it"));
    }
    Ok(())
}
