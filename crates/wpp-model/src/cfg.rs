//! Control flow graphs of basic blocks.

use crate::{BlockIdx, EdgeIdx};

/// A maximal straight-line run of instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Block {
    /// Byte offset of the block's first instruction in the original module.
    pub start: u32,
    /// Byte offset just past the block's last instruction.
    pub end: u32,
    /// Number of instructions in the block that do work: structure markers (`block`,
    /// `loop`, `try_table`, `else`, `end`) and `nop` are not counted.
    pub n_instrs: u32,
}

/// Where an edge goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Target {
    Block(BlockIdx),
    /// Leaving the function: a return, falling off its end, a tail call or a trap.
    Exit,
}

/// What kind of control transfer an edge is; decides whether taking it ends a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EdgeKind {
    /// A forward transfer inside the function (fall-through, forward branch, `if` arm).
    Forward,
    /// A branch to an enclosing loop's header.
    Back,
    /// From a block ending in a call to the block after the call.
    Call,
    /// To [`Target::Exit`]: return or fall off the end.
    Return,
    /// To [`Target::Exit`]: `unreachable`, which always traps.
    Trap,
    /// From a block whose last instruction may throw (a call or a `throw` inside a
    /// `try_table`) to the target of one of the `try_table`'s catch clauses: the handler,
    /// or [`Target::Exit`] for a clause that branches to the function's own label.
    Catch,
    /// To [`Target::Exit`]: a `throw` or `throw_ref` whose exception no catch clause of
    /// the function is sure to catch leaves the function, unwinding it.
    Throw,
}

impl EdgeKind {
    /// Whether taking an edge of this kind ends the current acyclic path.
    pub fn ends_path(self) -> bool {
        !matches!(self, EdgeKind::Forward)
    }
}

/// One control flow edge. A function has at most one edge per (from, to) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Edge {
    pub from: BlockIdx,
    pub to: Target,
    pub kind: EdgeKind,
}

/// The control flow graph of one function. Block 0 is the entry; blocks are in code order,
/// and every [`EdgeKind::Forward`] edge goes to a later block, so removing the path-ending
/// edges leaves a DAG whose topological order is the block order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Edges sorted by source block, then in the order the code lists its targets.
    pub edges: Vec<Edge>,
}

/// A structural defect found by [`Cfg::validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgError(pub String);

impl std::fmt::Display for CfgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CfgError {}

impl Cfg {
    /// Whether `other` is the CFG of the same code: the same blocks (byte ranges) and
    /// edges. The blocks' instruction counts may differ: a profile recorded before
    /// instructions counted only the operators that do work holds the older count.
    pub fn same_code(&self, other: &Cfg) -> bool {
        self.edges == other.edges
            && self.blocks.len() == other.blocks.len()
            && self.blocks.iter().zip(&other.blocks).all(|(a, b)| (a.start, a.end) == (b.start, b.end))
    }

    pub fn n_blocks(&self) -> usize {
        self.blocks.len()
    }

    pub fn edge(&self, e: EdgeIdx) -> &Edge {
        &self.edges[e.idx()]
    }

    /// For each block, the range of its outgoing edges in `edges`.
    pub fn out_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let mut ranges = vec![0..0; self.blocks.len()];
        let mut i = 0;
        while i < self.edges.len() {
            let from = self.edges[i].from.idx();
            let start = i;
            while i < self.edges.len() && self.edges[i].from.idx() == from {
                i += 1;
            }
            ranges[from] = start..i;
        }
        ranges
    }

    /// Blocks reachable from the entry block.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.blocks.len()];
        if self.blocks.is_empty() {
            return seen;
        }
        let out = self.out_ranges();
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(b) = stack.pop() {
            for e in &self.edges[out[b].clone()] {
                if let Target::Block(t) = e.to {
                    if !seen[t.idx()] {
                        seen[t.idx()] = true;
                        stack.push(t.idx());
                    }
                }
            }
        }
        seen
    }

    /// Checks the invariants every consumer relies on, so that a graph read from an
    /// untrusted file cannot make later code index out of bounds or loop forever.
    pub fn validate(&self) -> Result<(), CfgError> {
        let err = |m: String| Err(CfgError(m));
        if self.blocks.is_empty() {
            return err("function has no blocks".into());
        }
        let n = self.blocks.len();
        let mut prev: Option<(usize, Target)> = None;
        let mut has_out = vec![false; n];
        for (i, e) in self.edges.iter().enumerate() {
            let from = e.from.idx();
            if from >= n {
                return err(format!("edge {i} leaves block {from}, but there are {n} blocks"));
            }
            has_out[from] = true;
            match (e.to, e.kind) {
                (Target::Block(t), k) => {
                    if t.idx() >= n {
                        return err(format!("edge {i} enters block {t}, but there are {n} blocks"));
                    }
                    match k {
                        EdgeKind::Forward if t.idx() <= from => return err(format!("forward edge {i} goes from block {from} back to {t}")),
                        EdgeKind::Return | EdgeKind::Trap | EdgeKind::Throw => return err(format!("edge {i} of kind {k:?} must go to the exit")),
                        _ => {}
                    }
                }
                (Target::Exit, EdgeKind::Return | EdgeKind::Trap | EdgeKind::Catch | EdgeKind::Throw) => {}
                (Target::Exit, k) => return err(format!("edge {i} of kind {k:?} goes to the exit")),
            }
            if let Some((pf, pt)) = prev {
                if pf > from {
                    return err(format!("edge {i} is out of order"));
                }
                if pf == from && pt == e.to {
                    return err(format!("edge {i} duplicates an edge from block {from}"));
                }
            }
            prev = Some((from, e.to));
        }
        for (b, block) in self.blocks.iter().enumerate() {
            if block.start > block.end {
                return err(format!("block {b} ends before it starts"));
            }
            if !has_out[b] {
                return err(format!("block {b} has no successor"));
            }
        }
        // Duplicate (from, to) pairs need not be adjacent: check with a sort.
        let mut pairs: Vec<(u32, Target)> = self.edges.iter().map(|e| (e.from.0, e.to)).collect();
        pairs.sort_unstable();
        if pairs.windows(2).any(|w| w[0] == w[1]) {
            return err("two edges join the same pair of blocks".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same code with other instruction counts (a profile of an older wpp) is the same
    /// code; another block boundary or edge is not.
    #[test]
    fn same_code_ignores_only_instruction_counts() {
        let block = |start, end, n_instrs| Block { start, end, n_instrs };
        let edge = |from, to: Target, kind| Edge { from: BlockIdx(from), to, kind };
        let cfg = Cfg {
            blocks: vec![block(0, 4, 3), block(4, 6, 1)],
            edges: vec![edge(0, Target::Block(BlockIdx(1)), EdgeKind::Forward), edge(1, Target::Exit, EdgeKind::Return)],
        };
        let mut counted_otherwise = cfg.clone();
        counted_otherwise.blocks[0].n_instrs = 5;
        assert!(cfg.same_code(&counted_otherwise) && cfg != counted_otherwise);
        let mut moved = cfg.clone();
        moved.blocks[1].start = 5;
        assert!(!cfg.same_code(&moved));
        let mut rewired = cfg.clone();
        rewired.edges[0].kind = EdgeKind::Back;
        assert!(!cfg.same_code(&rewired));
    }
}
