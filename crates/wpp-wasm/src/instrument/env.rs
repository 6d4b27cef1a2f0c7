//! Where the rewrite's additions land in the rewritten module's index spaces, and the
//! layout constants the added code uses: what `additions` computes and the emitted code
//! (`emit`, `hash_fn`) refers to.

use crate::wasm_idx::{GlobalIdx, MemIdx, OutFuncIdx};

/// Indices of the additions in the rewritten module, and the layout constants the added
/// code uses.
pub(super) struct Env {
    /// The added memory.
    pub mem: MemIdx,
    /// Count mode: the stop word's memory ([`crate::abi::EXPORT_STOP`]).
    pub stop: Option<MemIdx>,
    /// Bytes used in the event buffer (i32).
    pub g_ptr: GlobalIdx,
    /// Entries used in the hash table (i32).
    pub g_hused: GlobalIdx,
    /// The `flush` import.
    pub flush: OutFuncIdx,
    /// The `host_call` import (when accesses are recorded).
    pub host_call: Option<OutFuncIdx>,
    /// The hash function (present when some path is hashed).
    pub hash_fn: OutFuncIdx,
    /// The extended WPP's functions and shadow memory (its collection run).
    pub ewpp: Option<EwppFuncs>,
    /// Event buffer capacity in bytes.
    pub cap: u32,
    pub hash_base: u32,
    pub hash_entries: u32,
}

impl Env {
    /// Count mode: adds the stop word to the counter address on the stack.
    pub fn poison(&self) -> impl Iterator<Item = wasm_encoder::Instruction<'static>> {
        use wasm_encoder::Instruction as I;
        self.stop.into_iter().flat_map(|m| [I::I32Const(0), I::I32Load(m.arg32(0)), I::I32Add])
    }
}

/// The functions the collection run of the extended WPP adds, in this order after the
/// hash function's place, and the shadow memory.
#[derive(Clone, Copy)]
pub(super) struct EwppFuncs {
    pub note_write: OutFuncIdx,
    pub check_load: OutFuncIdx,
    pub report: OutFuncIdx,
    pub check: OutFuncIdx,
    /// Type indices (among the added types) of the four, in order.
    pub types: [u32; 4],
    pub shadow: u32,
}
