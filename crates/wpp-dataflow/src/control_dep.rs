//! Control dependence of a function's blocks (Ferrante, Ottenstein and Warren): block `y`
//! is control dependent on the edge `a → b` when `y` post-dominates `b` but does not
//! strictly post-dominate `a`, that is, taking the edge decides that `y` runs. A dynamic
//! slice follows it from a statement to the branch that let it execute.
//!
//! Post-dominators come from the iterative algorithm of Cooper, Harvey and Kennedy on the
//! reversed CFG, with one virtual exit node that every return, trap and tail call leads
//! to. A block from which the exit cannot be reached (an endless loop) is given an edge to
//! the exit, as if the loop ended the function; without it such blocks would
//! post-dominate nothing and be post-dominated by nothing. Every edge counts, whatever its
//! kind: a `br_table`'s targets, an `if`'s arms, a call's return, an early `return` and an
//! `unreachable`.

use wpp_model::{BlockIdx, Cfg, EdgeIdx, Target};

/// The post-dominator tree of a CFG: each block's immediate post-dominator, `None` for
/// the virtual exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostDominators {
    ipdom: Vec<Option<BlockIdx>>,
}

impl PostDominators {
    /// The immediate post-dominator of `b` (`None`: the exit).
    pub fn immediate(&self, b: BlockIdx) -> Option<BlockIdx> {
        self.ipdom[b.idx()]
    }

    /// Whether `a` post-dominates `b` (every block post-dominates itself).
    pub fn post_dominates(&self, a: BlockIdx, b: BlockIdx) -> bool {
        let mut at = Some(b);
        while let Some(x) = at {
            if x == a {
                return true;
            }
            at = self.ipdom[x.idx()];
        }
        false
    }
}

/// Successors of each block, the exit as `n` (the CFG's block count), with an edge to the
/// exit added from every block that cannot reach it.
fn successors(cfg: &Cfg) -> Vec<Vec<usize>> {
    let n = cfg.n_blocks();
    let mut succ = vec![Vec::new(); n];
    for e in &cfg.edges {
        succ[e.from.idx()].push(match e.to {
            Target::Block(b) => b.idx(),
            Target::Exit => n,
        });
    }
    let mut preds = vec![Vec::new(); n + 1];
    for (a, s) in succ.iter().enumerate() {
        for &b in s {
            preds[b].push(a);
        }
    }
    let mut reaches = vec![false; n + 1];
    reaches[n] = true;
    let mut stack = vec![n];
    while let Some(b) = stack.pop() {
        for &a in &preds[b] {
            if !reaches[a] {
                reaches[a] = true;
                stack.push(a);
            }
        }
    }
    for (a, s) in succ.iter_mut().enumerate() {
        if !reaches[a] {
            s.push(n);
        }
    }
    succ
}

/// The post-dominator tree of `cfg`.
pub fn post_dominators(cfg: &Cfg) -> PostDominators {
    let n = cfg.n_blocks();
    let succ = successors(cfg);
    // Reverse post-order of the reversed graph from the exit: a DFS over predecessors.
    let mut preds = vec![Vec::new(); n + 1];
    for (a, s) in succ.iter().enumerate() {
        for &b in s {
            preds[b].push(a);
        }
    }
    let mut order = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(n, 0)];
    seen[n] = true;
    while let Some((b, i)) = stack.pop() {
        if let Some(&p) = preds[b].get(i) {
            stack.push((b, i + 1));
            if !seen[p] {
                seen[p] = true;
                stack.push((p, 0));
            }
        } else {
            order.push(b);
        }
    }
    order.reverse();
    let mut rank = vec![usize::MAX; n + 1];
    for (i, &b) in order.iter().enumerate() {
        rank[b] = i;
    }
    // ipdom by rank; the exit is its own.
    let mut ipdom: Vec<Option<usize>> = vec![None; n + 1];
    ipdom[n] = Some(n);
    let intersect = |ipdom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while rank[a] > rank[b] {
                a = ipdom[a].expect("processed");
            }
            while rank[b] > rank[a] {
                b = ipdom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &s in &succ[b] {
                if ipdom[s].is_some() {
                    new = Some(match new {
                        None => s,
                        Some(x) => intersect(&ipdom, s, x),
                    });
                }
            }
            if new.is_some() && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    PostDominators { ipdom: (0..n).map(|b| ipdom[b].filter(|&p| p != n).map(|p| BlockIdx(p as u32))).collect() }
}

/// For each edge of `cfg` (by index), the blocks control dependent on it, in block order.
pub fn control_dependences(cfg: &Cfg, pdom: &PostDominators) -> Vec<Vec<BlockIdx>> {
    cfg.edges
        .iter()
        .map(|e| {
            let Target::Block(to) = e.to else { return Vec::new() };
            // An edge to a strict post-dominator of its source decides nothing.
            if to != e.from && pdom.post_dominates(to, e.from) {
                return Vec::new();
            }
            // From the target up the tree to the source's immediate post-dominator
            // (exclusive): the source itself when it is reached (a loop's header).
            let stop = pdom.immediate(e.from);
            let mut out = Vec::new();
            let mut at = Some(to);
            while at != stop {
                let Some(x) = at else { break };
                out.push(x);
                at = pdom.immediate(x);
            }
            out.sort_unstable();
            out
        })
        .collect()
}

/// For each block, the blocks whose branches decide whether it runs: the sources of the
/// edges it is control dependent on, in block order.
pub fn controllers(cfg: &Cfg) -> Vec<Vec<BlockIdx>> {
    let deps = control_dependences(cfg, &post_dominators(cfg));
    let mut out = vec![Vec::new(); cfg.n_blocks()];
    for (e, blocks) in deps.iter().enumerate() {
        for b in blocks {
            out[b.idx()].push(cfg.edges[e].from);
        }
    }
    for c in &mut out {
        c.sort_unstable();
        c.dedup();
    }
    out
}

/// The controllers of every function with code ([`controllers`]).
pub fn program_controllers(functions: &[wpp_model::Function]) -> wpp_model::FuncMap<Vec<Vec<BlockIdx>>> {
    let mut out = wpp_model::FuncMap::new(functions.len());
    for f in functions {
        if let Some(cfg) = &f.cfg {
            out.insert(f.index, controllers(cfg));
        }
    }
    out
}

/// The edges each block is control dependent on (its controlling branches), by block.
pub fn controlling_edges(cfg: &Cfg, deps: &[Vec<BlockIdx>]) -> Vec<Vec<EdgeIdx>> {
    let mut out = vec![Vec::new(); cfg.n_blocks()];
    for (e, blocks) in deps.iter().enumerate() {
        for b in blocks {
            out[b.idx()].push(EdgeIdx(e as u32));
        }
    }
    out
}
