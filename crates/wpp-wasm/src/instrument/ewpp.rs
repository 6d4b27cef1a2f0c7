//! The extended WPP's collection run (Tallam & Gupta §2–3): the bookkeeping the rewrite
//! adds around memory accesses, and the tables it reads.
//!
//! * A last-writer table, the *shadow*: a 64-bit memory the rewrite adds, eight bytes per
//!   byte of the program's memory 0, each holding the write instance that last wrote it:
//!   `(site + 1) << 40 | instance` (0: nothing wrote it). Grown on demand.
//! * Each access site's executions so far (u64 counters in the added memory), the
//!   instances the shadow names. The host counts the calls of imports and writes their
//!   ranges into the shadow.
//! * Each load's candidate writers (from the filtering run) in a table of the added
//!   memory.
//!
//! Before a store or bulk write, `note_write(site, address, length)` counts the site and
//! writes its instance into the shadow. Before a load or bulk read, `check_load(site,
//! address, length)` reads the shadow of the bytes and, for each run of bytes of one
//! write instance, `report`s it: it finds the writer among the load's candidates and
//! calls the instrumented `check` (see `checks`), whose paths record which writer and
//! which of its instances it was. These three helpers are not instrumented: only the
//! checks' control flow is in the trace.

use std::collections::BTreeMap;

use wasm_encoder::{BlockType, Function, Instruction as I, MemArg, ValType};

use crate::wasm_idx::{MemIdx, OutFuncIdx};
use wpp_model::SiteIdx;

/// Which writers each load is expected to read from (the filtering run's dependences):
/// by load site, its candidate writer sites, most frequent first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EwppPlan {
    pub candidates: BTreeMap<SiteIdx, Vec<SiteIdx>>,
}

/// The most candidates a load's check names directly; more go the generic way.
pub const MAX_CANDIDATES: usize = 64;

/// Where the collection run's tables are in the added memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EwppLayout {
    /// Each access site's executions (u64), from this byte.
    pub counters_base: u32,
    /// Each site's candidate list (u32 offset, u32 length), from this byte.
    pub table_base: u32,
    /// The longest candidate list.
    pub max_candidates: u32,
}

/// Places the tables from byte `top` (8-aligned) for `n_sites` sites: the layout, the
/// data that fills the candidate table and lists, and the first byte after them.
pub(super) fn place(top: u64, n_sites: usize, plan: &EwppPlan) -> (EwppLayout, Vec<(u32, Vec<u8>)>, u64) {
    let counters_base = top;
    let table_base = counters_base + 8 * n_sites as u64;
    let lists_base = table_base + 8 * n_sites as u64;
    let mut table = vec![0u8; 8 * n_sites];
    let mut lists = Vec::new();
    let mut max_candidates = 0;
    for (&load, cands) in &plan.candidates {
        let cands = &cands[..cands.len().min(MAX_CANDIDATES)];
        let Some(entry) = table.get_mut(8 * load.idx()..8 * load.idx() + 8) else { continue };
        let off = lists_base + lists.len() as u64;
        entry[..4].copy_from_slice(&(off as u32).to_le_bytes());
        entry[4..].copy_from_slice(&(cands.len() as u32).to_le_bytes());
        for &c in cands {
            lists.extend_from_slice(&c.0.to_le_bytes());
        }
        max_candidates = max_candidates.max(cands.len() as u32);
    }
    let end = (lists_base + lists.len() as u64).next_multiple_of(8);
    let data = vec![(table_base as u32, table), (lists_base as u32, lists)];
    (EwppLayout { counters_base: counters_base as u32, table_base: table_base as u32, max_candidates }, data, end)
}

/// What the helpers refer to.
pub(super) struct HelperEnv {
    /// The added memory (counters, tables) and the shadow (64-bit).
    pub mem: MemIdx,
    pub shadow: u32,
    pub layout: EwppLayout,
    pub report: OutFuncIdx,
    pub check: OutFuncIdx,
}

fn shadow_arg(shadow: u32) -> MemArg {
    MemArg { offset: 0, align: 3, memory_index: shadow }
}

/// Bits of a write instance that hold the instance; the site plus one is above them.
pub const INSTANCE_BITS: u32 = 40;

/// `note_write(site: i32, address: i32, length: i32)`.
pub(super) fn note_write(e: &HelperEnv) -> Function {
    const SITE: u32 = 0;
    const ADDR: u32 = 1;
    const LEN: u32 = 2;
    const C: u32 = 3; // i32: the counter's byte
    const ID: u32 = 4; // i64
    const P: u32 = 5; // i64: shadow byte
    const END: u32 = 6; // i64
    const MISS: u32 = 7; // i64
    let mut f = Function::new([(1, ValType::I32), (4, ValType::I64)]);
    let counters = e.mem.arg64(e.layout.counters_base as u64);
    // The site's instance: its counter plus one.
    f.instruction(&I::LocalGet(SITE)).instruction(&I::I32Const(3)).instruction(&I::I32Shl).instruction(&I::LocalTee(C));
    f.instruction(&I::LocalGet(C)).instruction(&I::I64Load(counters)).instruction(&I::I64Const(1)).instruction(&I::I64Add);
    f.instruction(&I::LocalTee(ID)).instruction(&I::I64Store(counters));
    f.instruction(&I::LocalGet(SITE)).instruction(&I::I64ExtendI32U).instruction(&I::I64Const(1)).instruction(&I::I64Add);
    f.instruction(&I::I64Const(INSTANCE_BITS as i64))
        .instruction(&I::I64Shl)
        .instruction(&I::LocalGet(ID))
        .instruction(&I::I64Or)
        .instruction(&I::LocalSet(ID));
    // The shadow of the bytes written.
    f.instruction(&I::LocalGet(ADDR)).instruction(&I::I64ExtendI32U).instruction(&I::I64Const(3)).instruction(&I::I64Shl).instruction(&I::LocalSet(P));
    f.instruction(&I::LocalGet(ADDR)).instruction(&I::I64ExtendI32U).instruction(&I::LocalGet(LEN)).instruction(&I::I64ExtendI32U).instruction(&I::I64Add);
    f.instruction(&I::I64Const(3)).instruction(&I::I64Shl).instruction(&I::LocalSet(END));
    grow_to(&mut f, e.shadow, END, MISS);
    f.instruction(&I::Block(BlockType::Empty)).instruction(&I::Loop(BlockType::Empty));
    f.instruction(&I::LocalGet(P)).instruction(&I::LocalGet(END)).instruction(&I::I64GeU).instruction(&I::BrIf(1));
    f.instruction(&I::LocalGet(P)).instruction(&I::LocalGet(ID)).instruction(&I::I64Store(shadow_arg(e.shadow)));
    f.instruction(&I::LocalGet(P)).instruction(&I::I64Const(8)).instruction(&I::I64Add).instruction(&I::LocalSet(P)).instruction(&I::Br(0));
    f.instruction(&I::End).instruction(&I::End).instruction(&I::End);
    f
}

/// Grows the shadow so that it holds byte `end` (local, i64) exclusive: by what is
/// missing or by its size, whichever is more; traps if it cannot. `miss` is a scratch
/// i64 local.
fn grow_to(f: &mut Function, shadow: u32, end: u32, miss: u32) {
    f.instruction(&I::LocalGet(end)).instruction(&I::MemorySize(shadow)).instruction(&I::I64Const(16)).instruction(&I::I64Shl).instruction(&I::I64GtU);
    f.instruction(&I::If(BlockType::Empty));
    // Pages missing: ceil(end / 64 KiB) - size.
    f.instruction(&I::LocalGet(end)).instruction(&I::I64Const(65535)).instruction(&I::I64Add).instruction(&I::I64Const(16)).instruction(&I::I64ShrU);
    f.instruction(&I::MemorySize(shadow)).instruction(&I::I64Sub).instruction(&I::LocalSet(miss));
    // max(missing, size)
    f.instruction(&I::LocalGet(miss)).instruction(&I::MemorySize(shadow)).instruction(&I::LocalGet(miss)).instruction(&I::MemorySize(shadow));
    f.instruction(&I::I64GtU).instruction(&I::Select);
    f.instruction(&I::MemoryGrow(shadow)).instruction(&I::I64Const(-1)).instruction(&I::I64Eq);
    f.instruction(&I::If(BlockType::Empty)).instruction(&I::Unreachable).instruction(&I::End);
    f.instruction(&I::End);
}

/// `check_load(site: i32, address: i32, length: i32)`: a `report` for each run of bytes of
/// one write instance, the last one marked.
pub(super) fn check_load(e: &HelperEnv) -> Function {
    const SITE: u32 = 0;
    const ADDR: u32 = 1;
    const LEN: u32 = 2;
    const P: u32 = 3; // i64
    const END: u32 = 4;
    const SIZE: u32 = 5;
    const W: u32 = 6;
    const PREV: u32 = 7;
    const HAVE: u32 = 8; // i32
    let mut f = Function::new([(5, ValType::I64), (1, ValType::I32)]);
    f.instruction(&I::LocalGet(ADDR)).instruction(&I::I64ExtendI32U).instruction(&I::I64Const(3)).instruction(&I::I64Shl).instruction(&I::LocalSet(P));
    f.instruction(&I::LocalGet(ADDR)).instruction(&I::I64ExtendI32U).instruction(&I::LocalGet(LEN)).instruction(&I::I64ExtendI32U).instruction(&I::I64Add);
    f.instruction(&I::I64Const(3)).instruction(&I::I64Shl).instruction(&I::LocalSet(END));
    f.instruction(&I::MemorySize(e.shadow)).instruction(&I::I64Const(16)).instruction(&I::I64Shl).instruction(&I::LocalSet(SIZE));
    f.instruction(&I::Block(BlockType::Empty)).instruction(&I::Loop(BlockType::Empty));
    f.instruction(&I::LocalGet(P)).instruction(&I::LocalGet(END)).instruction(&I::I64GeU).instruction(&I::BrIf(1));
    // w = shadow[p], 0 past the shadow's end
    f.instruction(&I::LocalGet(P)).instruction(&I::LocalGet(SIZE)).instruction(&I::I64LtU);
    f.instruction(&I::If(BlockType::Result(ValType::I64)));
    f.instruction(&I::LocalGet(P)).instruction(&I::I64Load(shadow_arg(e.shadow)));
    f.instruction(&I::Else).instruction(&I::I64Const(0)).instruction(&I::End).instruction(&I::LocalSet(W));
    // A new run of bytes: report the one before.
    f.instruction(&I::LocalGet(HAVE))
        .instruction(&I::I32Eqz)
        .instruction(&I::LocalGet(W))
        .instruction(&I::LocalGet(PREV))
        .instruction(&I::I64Ne)
        .instruction(&I::I32Or);
    f.instruction(&I::If(BlockType::Empty));
    f.instruction(&I::LocalGet(HAVE)).instruction(&I::If(BlockType::Empty));
    f.instruction(&I::LocalGet(SITE)).instruction(&I::LocalGet(PREV)).instruction(&I::I32Const(0)).instruction(&e.report.call());
    f.instruction(&I::End);
    f.instruction(&I::LocalGet(W)).instruction(&I::LocalSet(PREV)).instruction(&I::I32Const(1)).instruction(&I::LocalSet(HAVE));
    f.instruction(&I::End);
    f.instruction(&I::LocalGet(P)).instruction(&I::I64Const(8)).instruction(&I::I64Add).instruction(&I::LocalSet(P)).instruction(&I::Br(0));
    f.instruction(&I::End).instruction(&I::End);
    f.instruction(&I::LocalGet(HAVE)).instruction(&I::If(BlockType::Empty));
    f.instruction(&I::LocalGet(SITE)).instruction(&I::LocalGet(PREV)).instruction(&I::I32Const(1)).instruction(&e.report.call());
    f.instruction(&I::End);
    f.instruction(&I::End);
    f
}

/// `report(site: i32, write: i64, last: i32)`: `check(j, s, k, n, last)` for write
/// instance `write` read by load site `site`.
pub(super) fn report(e: &HelperEnv) -> Function {
    const SITE: u32 = 0;
    const W: u32 = 1;
    const LAST: u32 = 2;
    const S: u32 = 3; // i32: the writer's site
    const J: u32 = 4; // i32
    const OFF: u32 = 5; // i32: the candidate list
    const CNT: u32 = 6; // i32
    const I_: u32 = 7; // i32
    let mut f = Function::new([(5, ValType::I32)]);
    let generic = e.layout.max_candidates as i32 + 1;
    // The initial memory.
    f.instruction(&I::LocalGet(W)).instruction(&I::I64Eqz).instruction(&I::If(BlockType::Empty));
    f.instruction(&I::I32Const(0)).instruction(&I::I32Const(0)).instruction(&I::I64Const(0)).instruction(&I::I64Const(0)).instruction(&I::LocalGet(LAST));
    f.instruction(&e.check.call()).instruction(&I::Return);
    f.instruction(&I::End);
    f.instruction(&I::LocalGet(W)).instruction(&I::I64Const(INSTANCE_BITS as i64)).instruction(&I::I64ShrU).instruction(&I::I32WrapI64);
    f.instruction(&I::I32Const(1)).instruction(&I::I32Sub).instruction(&I::LocalSet(S));
    // j: the writer's place among the load's candidates (from 1), else generic.
    let table = e.mem.arg32(e.layout.table_base as u64);
    let table_len = e.mem.arg32(e.layout.table_base as u64 + 4);
    f.instruction(&I::LocalGet(SITE)).instruction(&I::I32Const(3)).instruction(&I::I32Shl).instruction(&I::I32Load(table)).instruction(&I::LocalSet(OFF));
    f.instruction(&I::LocalGet(SITE)).instruction(&I::I32Const(3)).instruction(&I::I32Shl).instruction(&I::I32Load(table_len)).instruction(&I::LocalSet(CNT));
    f.instruction(&I::I32Const(generic)).instruction(&I::LocalSet(J));
    f.instruction(&I::Block(BlockType::Empty)).instruction(&I::Loop(BlockType::Empty));
    f.instruction(&I::LocalGet(I_)).instruction(&I::LocalGet(CNT)).instruction(&I::I32GeU).instruction(&I::BrIf(1));
    f.instruction(&I::LocalGet(OFF)).instruction(&I::LocalGet(I_)).instruction(&I::I32Const(2)).instruction(&I::I32Shl).instruction(&I::I32Add);
    f.instruction(&I::I32Load(e.mem.arg32(0))).instruction(&I::LocalGet(S)).instruction(&I::I32Eq);
    f.instruction(&I::If(BlockType::Empty));
    f.instruction(&I::LocalGet(I_)).instruction(&I::I32Const(1)).instruction(&I::I32Add).instruction(&I::LocalSet(J)).instruction(&I::Br(2));
    f.instruction(&I::End);
    f.instruction(&I::LocalGet(I_)).instruction(&I::I32Const(1)).instruction(&I::I32Add).instruction(&I::LocalSet(I_)).instruction(&I::Br(0));
    f.instruction(&I::End).instruction(&I::End);
    // check(j, s, k, n, last)
    f.instruction(&I::LocalGet(J)).instruction(&I::LocalGet(S));
    f.instruction(&I::LocalGet(W)).instruction(&I::I64Const((1i64 << INSTANCE_BITS) - 1)).instruction(&I::I64And);
    f.instruction(&I::LocalGet(S)).instruction(&I::I32Const(3)).instruction(&I::I32Shl).instruction(&I::I64Load(e.mem.arg64(e.layout.counters_base as u64)));
    f.instruction(&I::LocalGet(LAST)).instruction(&e.check.call());
    f.instruction(&I::End);
    f
}
