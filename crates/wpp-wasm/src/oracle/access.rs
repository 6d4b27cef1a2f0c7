//! The access log of the oracle rewrite: before every instruction that reads or writes
//! linear memory, a host call `access(at, address, length, kind)` with the instruction's
//! byte offset, the first byte it touches and how many (`kind`: [`abi::ACCESS_READ`] or
//! [`abi::ACCESS_WRITE`], plus the memory index times 16). `memory.copy` reports its read
//! and then its write. The operands are saved in scratch locals, logged, and put back.
//! Every call of an imported function (of integer parameters and result) is put between
//! `host_begin(import)` and `host_end(import, arguments..., result)`, so that the host can
//! say which bytes the call wrote.

use wasm_encoder::{Function, Instruction as I, ValType};
use wasmparser::Operator;

use crate::abi;
use crate::access::{Access, HostArgs, MemOp, Scratch};
use crate::wasm_idx::OutFuncIdx;

/// How one function logs its accesses.
pub(super) struct AccessLog {
    pub import: OutFuncIdx,
    /// `host_begin(import)` and `host_end(import, a0, .., a8, result)`.
    pub host_begin: OutFuncIdx,
    pub host_end: OutFuncIdx,
    /// The first scratch local (after the function's parameters and locals).
    pub first: u32,
}

impl AccessLog {
    /// The locals the log adds to a function: the accesses' scratch, then a host call's.
    pub fn locals() -> impl Iterator<Item = (u32, ValType)> {
        Scratch::locals().chain(HostArgs::locals())
    }

    /// A call of imported function `import` (its arguments on the stack) between
    /// `host_begin(import)` and `host_end(import, arguments..., result)`; `call` emits the
    /// call itself.
    pub fn host_call(&self, f: &mut Function, import: u32, params: &[wasmparser::ValType], results: &[wasmparser::ValType], call: impl FnOnce(&mut Function)) {
        let args = HostArgs { first: self.first + Scratch::COUNT };
        let before = |f: &mut Function| {
            f.instruction(&I::I32Const(import as i32));
            f.instruction(&I::Call(self.host_begin.0));
        };
        let after = |f: &mut Function| {
            f.instruction(&I::Call(self.host_end.0));
        };
        args.bracket(f, (import, params, results), before, call, after);
    }

    /// The code that logs what `op` (at byte offset `at`) is about to access, leaving the
    /// operand stack as it was. Nothing for an instruction that touches no memory.
    pub fn before(&self, f: &mut Function, op: &Operator, at: u32) {
        let Some(op) = MemOp::of(op) else { return };
        let scratch = Scratch { first: self.first };
        scratch.around(f, op, |f, a: Access| {
            // access(at, base + offset, len, kind)
            f.instruction(&I::I32Const(at as i32));
            f.instruction(&I::LocalGet(a.base));
            f.instruction(&I::I64ExtendI32U);
            f.instruction(&I::I64Const(a.offset as i64));
            f.instruction(&I::I64Add);
            match a.len {
                Some(n) => f.instruction(&I::I64Const(n as i64)),
                None => {
                    f.instruction(&I::LocalGet(scratch.len()));
                    f.instruction(&I::I64ExtendI32U)
                }
            };
            let kind = if a.write { abi::ACCESS_WRITE } else { abi::ACCESS_READ };
            f.instruction(&I::I32Const((kind | (a.memory << 4)) as i32));
            f.instruction(&I::Call(self.import.0));
        });
    }
}
