//! The calling context tree of a whole program path: every distinct call stack of the
//! run, with the cost of the paths that ran in it. What a flame graph draws.
//!
//! Calls and returns are read off the events by [`Calls`], so the tree is built in one
//! pass over the path trace, in the memory of the tree itself and the open invocations
//! (no invocation is kept once it returned).

use rustc_hash::FxHashMap;
use wpp_model::{FuncIdx, Function, PathEvent};
use wpp_paths::ProgramNumbering;

use crate::partition::{Calls, Move, PartitionError};

/// One call stack: a node of the tree, an index into [`CallTree::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StackIdx(pub u32);

/// One distinct call stack: its innermost function under its parent's stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackNode {
    /// `None` for the root, which stands for the host.
    pub func: Option<FuncIdx>,
    /// `None` for the root.
    pub parent: Option<StackIdx>,
    /// Invocations that ran with this stack.
    pub calls: u64,
    /// The cost of the paths that ran with this stack innermost.
    pub own: u64,
    /// The paths that ran with this stack innermost.
    pub paths: u64,
}

/// Every call stack of a run, parents before children (the root is node 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallTree {
    pub nodes: Vec<StackNode>,
    /// Events read.
    pub events: u64,
    /// Choices between a loop iteration and a return the events could not decide (see
    /// [`crate::partition`]).
    pub ambiguous: u64,
}

impl CallTree {
    /// Each node's inclusive cost: its own and that of every stack above it.
    pub fn inclusive(&self) -> Vec<u64> {
        let mut total: Vec<u64> = self.nodes.iter().map(|n| n.own).collect();
        // Children come after their parents.
        for i in (1..self.nodes.len()).rev() {
            let p = self.nodes[i].parent.expect("a node other than the root has a parent").0 as usize;
            total[p] = total[p].saturating_add(total[i]);
        }
        total
    }

    /// The functions of stack `s`, outermost first (the root's is empty).
    pub fn stack(&self, s: StackIdx) -> Vec<FuncIdx> {
        let mut out = Vec::new();
        let mut at = Some(s);
        while let Some(i) = at {
            let n = &self.nodes[i.0 as usize];
            out.extend(n.func);
            at = n.parent;
        }
        out.reverse();
        out
    }
}

/// Builds a [`CallTree`] one event at a time.
pub struct CallTreeBuilder<'a> {
    calls: Calls<'a>,
    nodes: Vec<StackNode>,
    children: FxHashMap<(u32, FuncIdx), u32>,
    /// The open invocations' stacks, innermost last.
    open: Vec<u32>,
}

impl<'a> CallTreeBuilder<'a> {
    /// A builder for runs of the program whose functions are `functions` (by index),
    /// numbered by `numberings`.
    pub fn new(functions: &[Function], numberings: &'a ProgramNumbering) -> CallTreeBuilder<'a> {
        CallTreeBuilder {
            calls: Calls::new(functions, numberings),
            nodes: vec![StackNode { func: None, parent: None, calls: 0, own: 0, paths: 0 }],
            children: FxHashMap::default(),
            open: Vec::new(),
        }
    }

    fn enter(&mut self, func: FuncIdx) {
        let parent = self.open.last().copied().unwrap_or(0);
        let nodes = &mut self.nodes;
        let child = *self.children.entry((parent, func)).or_insert_with(|| {
            nodes.push(StackNode { func: Some(func), parent: Some(StackIdx(parent)), calls: 0, own: 0, paths: 0 });
            nodes.len() as u32 - 1
        });
        self.nodes[child as usize].calls += 1;
        self.open.push(child);
    }

    /// Reads the next event, which cost `cost`; returns what it did to the stack.
    pub fn push(&mut self, e: PathEvent, cost: u64) -> Result<Move, PartitionError> {
        let m = self.calls.push(e)?;
        match m {
            Move::Root | Move::Call { .. } => self.enter(e.func),
            Move::Continue => {}
            Move::Return { ended } => {
                let keep = self.open.len().saturating_sub(ended as usize);
                self.open.truncate(keep);
            }
        }
        let top = *self.open.last().expect("an invocation is open after an event");
        let node = &mut self.nodes[top as usize];
        node.own = node.own.saturating_add(cost);
        node.paths += 1;
        Ok(m)
    }

    pub fn finish(self) -> CallTree {
        CallTree { nodes: self.nodes, events: self.calls.events(), ambiguous: self.calls.ambiguous() }
    }
}

/// The calling context tree of a whole run's events, each costing `cost(event)`.
pub fn call_tree(
    functions: &[Function],
    numberings: &ProgramNumbering,
    events: impl IntoIterator<Item = PathEvent>,
    cost: impl Fn(PathEvent) -> u64,
) -> Result<CallTree, PartitionError> {
    let mut b = CallTreeBuilder::new(functions, numberings);
    for e in events {
        b.push(e, cost(e))?;
    }
    Ok(b.finish())
}
