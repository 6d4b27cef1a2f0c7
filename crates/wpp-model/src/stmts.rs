//! What each instruction of a function reads and writes among the values a slice follows
//! without memory: locals, globals and the slots of the operand stack ([`Reg`]).
//!
//! A value on the operand stack is named by its height: the slot it sits in. The value in
//! slot `h` at some moment is the one most recently pushed at height `h` (nothing can be
//! pushed there without first popping what was there), so a use of a slot is resolved
//! like a use of a variable, by its latest definition. The one exception is a branch that
//! carries values to a label below other values ([`Shift`]): it moves them down, and only
//! when it is taken.
//!
//! Calls, returns and memory accesses are marked ([`Kind`]), so that an analysis can
//! follow values across frames (arguments, results) and know where memory was read.
//! `wpp-wasm` builds these from a module; the slicer reads only this.

/// A register: a local of the running frame, a global, or a slot of the operand stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Reg {
    Local(u32),
    Global(u32),
    Slot(u32),
}

impl std::fmt::Display for Reg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reg::Local(i) => write!(f, "local {i}"),
            Reg::Global(i) => write!(f, "global {i}"),
            Reg::Slot(i) => write!(f, "stack slot {i}"),
        }
    }
}

/// Values a taken branch moves down the stack: when the block control goes to starts at
/// stack height `entry`, slots `entry - n .. entry` get the values of slots
/// `from .. from + n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shift {
    pub entry: u32,
    pub from: u32,
    pub n: u32,
}

impl Shift {
    /// The slot whose value ends up in `slot`, if the shift moves one there.
    pub fn source(&self, slot: u32) -> Option<u32> {
        (slot + self.n >= self.entry && slot < self.entry).then(|| self.from + slot + self.n - self.entry)
    }
}

/// What kind of instruction it is, where that matters to a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    Plain,
    /// Reads linear memory: the value it pushes comes from memory, which registers do not
    /// show.
    Load,
    /// Writes linear memory.
    Store,
    /// A call whose first `args` operands are the callee's arguments (a `call_indirect`'s
    /// last operand is the table index); `tail` for a `return_call`.
    Call {
        args: u32,
        tail: bool,
    },
    /// May return from the function: its last `values` operands are the results.
    Return {
        values: u32,
    },
}

/// One instruction: its byte offset in the module, the registers it reads and writes (in
/// operand order), and what it moves when taken.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stmt {
    pub at: u32,
    pub uses: Vec<Reg>,
    pub defs: Vec<Reg>,
    pub kind: Kind,
    pub shifts: Vec<Shift>,
}

impl Stmt {
    /// The slots a `Return` returns, in order.
    pub fn returned(&self) -> &[Reg] {
        match self.kind {
            Kind::Return { values } => &self.uses[self.uses.len() - values as usize..],
            _ => &[],
        }
    }

    /// The argument slots of a call, in order.
    pub fn args(&self) -> &[Reg] {
        match self.kind {
            Kind::Call { args, .. } => &self.uses[..args as usize],
            _ => &[],
        }
    }
}

/// One block's instructions, and the stack height at its start.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlockStmts {
    pub entry: u32,
    pub stmts: Vec<Stmt>,
}

/// A function's instructions block by block.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FuncStmts {
    pub blocks: Vec<BlockStmts>,
    /// Parameters: locals `0..params` hold the arguments at entry; the rest start at zero.
    pub params: u32,
}

impl FuncStmts {
    /// The block holding the instruction at byte offset `at`, and its index there.
    pub fn find(&self, at: u32) -> Option<(usize, usize)> {
        let b = self.blocks.partition_point(|b| b.stmts.first().is_none_or(|s| s.at <= at)).checked_sub(1)?;
        let i = self.blocks[b].stmts.binary_search_by_key(&at, |s| s.at).ok()?;
        Some((b, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shift_names_the_slots_it_fills() {
        let s = Shift { entry: 3, from: 5, n: 2 };
        assert_eq!((0..8).map(|h| s.source(h)).collect::<Vec<_>>(), vec![None, Some(5), Some(6), None, None, None, None, None]);
    }
}
