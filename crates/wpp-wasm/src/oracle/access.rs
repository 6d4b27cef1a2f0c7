//! The access log of the oracle rewrite: before every instruction that reads or writes
//! linear memory, a host call `access(at, address, length, kind)` with the instruction's
//! byte offset, the first byte it touches and how many (`kind`: [`abi::ACCESS_READ`] or
//! [`abi::ACCESS_WRITE`], plus the memory index times 16). `memory.copy` reports its read
//! and then its write. The operands are saved in scratch locals, logged, and put back.
//! Every call of an imported function (of integer parameters and result) is put between
//! `host_begin(import)` and `host_end(import, arguments..., result)`, so that the host can
//! say which bytes the call wrote.

use wasm_encoder::{Function, Instruction as I, ValType};
use wasmparser::{MemArg, Operator};

use crate::abi;
use crate::facts::{load_width, store_width};
use crate::wasm_idx::OutFuncIdx;

/// The scratch locals, in the order [`AccessLog::locals`] declares them.
const SCRATCH: [ValType; 8] = [ValType::I32, ValType::I32, ValType::I32, ValType::I32, ValType::I64, ValType::F32, ValType::F64, ValType::V128];
// Their roles: an address, a second operand, a length, then a store's value by type.
const T: u32 = 0;
const S: u32 = 1;
const N: u32 = 2;
const V32: u32 = 3;
const V64: u32 = 4;
const VF32: u32 = 5;
const VF64: u32 = 6;
const V128: u32 = 7;

/// Most parameters of an imported function whose calls are logged (WASI's have at most 9).
pub(super) const HOST_ARGS: u32 = 9;

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
    /// The locals the log adds to a function: the accesses' scratch, then an i32 and an
    /// i64 for each argument of a host call and for its result.
    pub fn locals() -> impl Iterator<Item = (u32, ValType)> {
        SCRATCH.into_iter().map(|t| (1, t)).chain([(HOST_ARGS + 1, ValType::I32), (HOST_ARGS + 1, ValType::I64)])
    }

    /// Whether calls of a function with these parameters and results can be logged: at
    /// most [`HOST_ARGS`] integers in, at most one integer out.
    pub fn loggable(params: &[wasmparser::ValType], results: &[wasmparser::ValType]) -> bool {
        let int = |t: &wasmparser::ValType| matches!(t, wasmparser::ValType::I32 | wasmparser::ValType::I64);
        params.len() <= HOST_ARGS as usize && params.iter().all(int) && results.len() <= 1 && results.iter().all(int)
    }

    /// The scratch local for argument `i` (or the result, `i` = [`HOST_ARGS`]) of type `t`.
    fn host_local(&self, i: u32, t: &wasmparser::ValType) -> u32 {
        let base = self.first + SCRATCH.len() as u32;
        match t {
            wasmparser::ValType::I32 => base + i,
            _ => base + HOST_ARGS + 1 + i,
        }
    }

    /// A call of imported function `import` (its arguments on the stack) between
    /// `host_begin(import)` and `host_end(import, arguments..., result)`; `call` emits the
    /// call itself.
    pub fn host_call(&self, f: &mut Function, import: u32, params: &[wasmparser::ValType], results: &[wasmparser::ValType], call: impl FnOnce(&mut Function)) {
        for (i, t) in params.iter().enumerate().rev() {
            f.instruction(&I::LocalSet(self.host_local(i as u32, t)));
        }
        f.instruction(&I::I32Const(import as i32));
        f.instruction(&I::Call(self.host_begin.0));
        for (i, t) in params.iter().enumerate() {
            f.instruction(&I::LocalGet(self.host_local(i as u32, t)));
        }
        call(f);
        if let Some(t) = results.first() {
            f.instruction(&I::LocalSet(self.host_local(HOST_ARGS, t)));
        }
        f.instruction(&I::I32Const(import as i32));
        for i in 0..HOST_ARGS as usize {
            match params.get(i) {
                Some(t) => {
                    f.instruction(&I::LocalGet(self.host_local(i as u32, t)));
                    if *t == wasmparser::ValType::I32 {
                        f.instruction(&I::I64ExtendI32U);
                    }
                }
                None => {
                    f.instruction(&I::I64Const(0));
                }
            }
        }
        match results.first() {
            Some(t) => {
                f.instruction(&I::LocalGet(self.host_local(HOST_ARGS, t)));
                if *t == wasmparser::ValType::I32 {
                    f.instruction(&I::I64ExtendI32U);
                }
            }
            None => {
                f.instruction(&I::I64Const(0));
            }
        }
        f.instruction(&I::Call(self.host_end.0));
        if let Some(t) = results.first() {
            f.instruction(&I::LocalGet(self.host_local(HOST_ARGS, t)));
        }
    }

    fn local(&self, k: u32) -> u32 {
        self.first + k
    }

    /// `access(at, base + offset, len, kind)`, the base in scratch local `base` (i32) and
    /// the length `len` bytes or, for `None`, scratch local N.
    fn call(&self, f: &mut Function, at: u32, base: u32, offset: u64, len: Option<u32>, kind: u32) {
        f.instruction(&I::I32Const(at as i32));
        f.instruction(&I::LocalGet(self.local(base)));
        f.instruction(&I::I64ExtendI32U);
        f.instruction(&I::I64Const(offset as i64));
        f.instruction(&I::I64Add);
        match len {
            Some(n) => f.instruction(&I::I64Const(n as i64)),
            None => {
                f.instruction(&I::LocalGet(self.local(N)));
                f.instruction(&I::I64ExtendI32U)
            }
        };
        f.instruction(&I::I32Const(kind as i32));
        f.instruction(&I::Call(self.import.0));
    }

    /// The code that logs what `op` (at byte offset `at`) is about to access, leaving the
    /// operand stack as it was. Nothing for an instruction that touches no memory.
    pub fn before(&self, f: &mut Function, op: &Operator, at: u32) {
        let kind = |m: MemArg, k: u32| k | (m.memory << 4);
        if let Some((m, width)) = load_width(op) {
            f.instruction(&I::LocalTee(self.local(T)));
            self.call(f, at, T, m.offset, Some(width), kind(m, abi::ACCESS_READ));
            return;
        }
        if let Some((m, width)) = lane_load(op) {
            f.instruction(&I::LocalSet(self.local(V128)));
            f.instruction(&I::LocalTee(self.local(T)));
            self.call(f, at, T, m.offset, Some(width), kind(m, abi::ACCESS_READ));
            f.instruction(&I::LocalGet(self.local(V128)));
            return;
        }
        if let Some((m, width)) = store_width(op) {
            let v = self.local(store_value(op));
            f.instruction(&I::LocalSet(v));
            f.instruction(&I::LocalTee(self.local(T)));
            self.call(f, at, T, m.offset, Some(width), kind(m, abi::ACCESS_WRITE));
            f.instruction(&I::LocalGet(v));
            return;
        }
        // Bulk instructions: [d, x, n] with x the fill value or the source.
        let (mem, read_mem) = match *op {
            Operator::MemoryFill { mem } | Operator::MemoryInit { mem, .. } => (mem, None),
            Operator::MemoryCopy { dst_mem, src_mem } => (dst_mem, Some(src_mem)),
            _ => return,
        };
        f.instruction(&I::LocalSet(self.local(N)));
        f.instruction(&I::LocalSet(self.local(S)));
        f.instruction(&I::LocalTee(self.local(T)));
        if let Some(src) = read_mem {
            self.call(f, at, S, 0, None, abi::ACCESS_READ | (src << 4));
        }
        self.call(f, at, T, 0, None, abi::ACCESS_WRITE | (mem << 4));
        f.instruction(&I::LocalGet(self.local(S)));
        f.instruction(&I::LocalGet(self.local(N)));
    }
}

/// Loads of one lane into a vector: [address, vector] on the stack.
fn lane_load(op: &Operator) -> Option<(MemArg, u32)> {
    Some(match *op {
        Operator::V128Load8Lane { memarg, .. } => (memarg, 1),
        Operator::V128Load16Lane { memarg, .. } => (memarg, 2),
        Operator::V128Load32Lane { memarg, .. } => (memarg, 4),
        Operator::V128Load64Lane { memarg, .. } => (memarg, 8),
        _ => return None,
    })
}

/// The scratch local that holds a store's value.
fn store_value(op: &Operator) -> u32 {
    use Operator::*;
    match op {
        I32Store { .. } | I32Store8 { .. } | I32Store16 { .. } => V32,
        I64Store { .. } | I64Store8 { .. } | I64Store16 { .. } | I64Store32 { .. } => V64,
        F32Store { .. } => VF32,
        F64Store { .. } => VF64,
        _ => V128,
    }
}
