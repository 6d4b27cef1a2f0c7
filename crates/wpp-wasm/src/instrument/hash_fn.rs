//! The generated hash function `hash_count(func: i32, path: i64)`: counts a path in an
//! open-addressing table in the added memory (linear probing; entries as
//! [`abi::HASH_ENTRY_BYTES`] describes), and asks the host to drain the table when half
//! its entries are used.

use wasm_encoder::{BlockType, Function, Instruction as I, ValType};

use super::env::Env;
use crate::abi;
use crate::wasm_idx::LocalIdx;

/// The body of `hash_count`, for the table and indices of `env`.
pub(super) fn hash_count_function(env: &Env) -> Function {
    // Parameters, then the locals declared below.
    let (fp, pp, i, a, key) = (LocalIdx(0), LocalIdx(1), LocalIdx(2), LocalIdx(3), LocalIdx(4));
    let h = env.hash_base as u64;
    let bits = env.hash_entries.trailing_zeros() as i64;
    let ma = |off: u64| env.mem.arg64(h + off);
    let mut f = Function::new([(2, ValType::I32), (1, ValType::I64)]);
    let ins = [
        fp.get(),
        I::I64ExtendI32U,
        I::I64Const(1),
        I::I64Add,
        key.set(),
        pp.get(),
        key.get(),
        I::I64Const(0x9E37_79B9_7F4A_7C15u64 as i64),
        I::I64Mul,
        I::I64Xor,
        I::I64Const(0xff51_afd7_ed55_8ccdu64 as i64),
        I::I64Mul,
        I::I64Const(64 - bits),
        I::I64ShrU,
        I::I32WrapI64,
        i.set(),
        I::Loop(BlockType::Empty),
        i.get(),
        I::I32Const(abi::HASH_ENTRY_BYTES.trailing_zeros() as i32),
        I::I32Shl,
    ];
    for x in ins.iter().chain(env.poison().collect::<Vec<_>>().iter()) {
        f.instruction(x);
    }
    let ins = [
        a.set(),
        a.get(),
        I::I64Load(ma(8)),
        key.get(),
        I::I64Eq,
        I::If(BlockType::Empty),
        a.get(),
        I::I64Load(ma(0)),
        pp.get(),
        I::I64Eq,
        I::If(BlockType::Empty),
        a.get(),
        a.get(),
        I::I64Load(ma(16)),
        I::I64Const(1),
        I::I64Add,
        I::I64Store(ma(16)),
        I::Return,
        I::End,
        I::Else,
        a.get(),
        I::I64Load(ma(8)),
        I::I64Eqz,
        I::If(BlockType::Empty),
        a.get(),
        pp.get(),
        I::I64Store(ma(0)),
        a.get(),
        key.get(),
        I::I64Store(ma(8)),
        a.get(),
        I::I64Const(1),
        I::I64Store(ma(16)),
        env.g_hused.get(),
        I::I32Const(1),
        I::I32Add,
        i.tee(),
        env.g_hused.set(),
        i.get(),
        I::I32Const((env.hash_entries / 2) as i32),
        I::I32GeU,
        I::If(BlockType::Empty),
        I::I32Const(abi::FLUSH_HASH),
        I::I32Const(0),
        env.flush.call(),
        I::I32Const(0),
        env.g_hused.set(),
        I::End,
        I::Return,
        I::End,
        I::End,
        i.get(),
        I::I32Const(1),
        I::I32Add,
        I::I32Const(env.hash_entries as i32 - 1),
        I::I32And,
        i.set(),
        I::Br(0),
        I::End,
        I::End,
    ];
    for x in &ins {
        f.instruction(x);
    }
    f
}
