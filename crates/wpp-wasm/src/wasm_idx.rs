//! Indices into the rewritten module's index spaces: the locals of a rewritten function,
//! and the globals, memories and functions of the rewritten module (where the rewrite's
//! imports shift every defined function up, so these are not the original module's
//! [`wpp_model::FuncIdx`]). Each kind is its own type, so a local cannot be passed where a
//! global is meant; the bare `u32` appears only where an instruction is built.

use wasm_encoder::{Instruction, MemArg};

/// A local of a rewritten function (parameters first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LocalIdx(pub u32);

/// A global of the rewritten module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GlobalIdx(pub u32);

/// A memory of the rewritten module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemIdx(pub u32);

/// A function of the rewritten module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutFuncIdx(pub u32);

impl LocalIdx {
    /// `local.get`.
    pub fn get(self) -> Instruction<'static> {
        Instruction::LocalGet(self.0)
    }

    /// `local.set`.
    pub fn set(self) -> Instruction<'static> {
        Instruction::LocalSet(self.0)
    }

    /// `local.tee`.
    pub fn tee(self) -> Instruction<'static> {
        Instruction::LocalTee(self.0)
    }
}

impl GlobalIdx {
    /// `global.get`.
    pub fn get(self) -> Instruction<'static> {
        Instruction::GlobalGet(self.0)
    }

    /// `global.set`.
    pub fn set(self) -> Instruction<'static> {
        Instruction::GlobalSet(self.0)
    }
}

impl MemIdx {
    /// The immediate of a 64-bit access at `offset` in this memory.
    pub fn arg64(self, offset: u64) -> MemArg {
        MemArg { offset, align: 3, memory_index: self.0 }
    }

    /// The immediate of a 32-bit access at `offset` in this memory.
    pub fn arg32(self, offset: u64) -> MemArg {
        MemArg { offset, align: 2, memory_index: self.0 }
    }
}

impl OutFuncIdx {
    /// `call`.
    pub fn call(self) -> Instruction<'static> {
        Instruction::Call(self.0)
    }
}
