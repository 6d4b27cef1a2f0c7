//! What the rewrite adds to the module — the `flush` import (and `host_call` when
//! accesses are recorded), the memory, the event pointer
//! and hash fill globals with their exports, the hash function, the PPP slots' data, and a
//! block type for each list of values a `br_table` carries and for each catch clause's
//! landing pad — and where each addition lands
//! in the rewritten module's index spaces ([`Env`](super::env::Env)).

use wasm_encoder::reencode::Reencode;
use wasm_encoder::{BlockType, ConstExpr, ExportKind, GlobalType, MemoryType, ValType};

use super::env::Env;
use super::hash_fn::hash_count_function;
use super::layout::{Layout, PAGE};
use crate::access::HOST_ARGS;
use crate::decode::Program;
use crate::rewrite::{Additions, Shift};
use crate::wasm_idx::{GlobalIdx, MemIdx, OutFuncIdx};
use crate::{abi, Error};

/// Block types of the blocks the rewrite adds around values: `[t*] -> [t*]` of the
/// `br_table` dispatch blocks, one per list of carried value types, and `[params] ->
/// [label]` of the landing pads of `try_table` catch clauses.
pub(super) struct CarryTypes {
    /// Type index of the first.
    base: u32,
    types: Vec<(Vec<wasmparser::ValType>, Vec<wasmparser::ValType>)>,
}

impl CarryTypes {
    /// The dispatch block type for a `br_table` carrying values of types `t`.
    pub fn block_type(&self, t: &[wasmparser::ValType]) -> BlockType {
        self.func_type(t, t)
    }

    /// The block type `[params] -> [results]`, collected from every `br_table` and catch
    /// clause.
    pub fn func_type(&self, params: &[wasmparser::ValType], results: &[wasmparser::ValType]) -> BlockType {
        let i = self.types.iter().position(|(p, r)| p == params && r == results).expect("collected from every br_table and catch clause");
        BlockType::FunctionType(self.base + i as u32)
    }
}

/// The additions for the memory laid out as `layout` (with the hash function if
/// `needs_hash`, and the PPP slots' initial content `slot_data`), their indices, and the
/// dispatch block types.
pub(super) fn additions(
    program: &Program,
    layout: &Layout,
    needs_hash: bool,
    slot_data: Vec<(u32, Vec<u8>)>,
    accesses: bool,
    ewpp: bool,
    count: bool,
) -> Result<(Additions, Env, CarryTypes), Error> {
    for name in [abi::EXPORT_MEMORY, abi::EXPORT_EVENT_PTR, abi::EXPORT_HASH_USED, abi::EXPORT_SHADOW, abi::EXPORT_STOP] {
        if program.export_names.contains(name) {
            return Err(Error::Unsupported { feature: format!("the module already exports `{name}`"), place: "export section".into() });
        }
    }
    let n_imported = program.n_imported_funcs;
    let n_funcs = program.functions.len() as u32;
    // Our imports come after the module's, our memory and globals after its own, and the
    // hash function after every defined function (shifted by our imports).
    let host_call = accesses || ewpp;
    let n_added = 1 + host_call as u32;
    let env = Env {
        mem: MemIdx(program.n_memories),
        // Count mode never has the extended WPP's shadow: the stop word's memory comes next.
        stop: count.then_some(MemIdx(program.n_memories + 1)),
        g_ptr: GlobalIdx(program.n_globals),
        g_hused: GlobalIdx(program.n_globals + 1),
        flush: OutFuncIdx(n_imported),
        host_call: host_call.then_some(OutFuncIdx(n_imported + 1)),
        hash_fn: OutFuncIdx(n_funcs + n_added),
        ewpp: None,
        cap: layout.buffer_bytes,
        hash_base: layout.hash_base,
        hash_entries: layout.hash_entries,
    };
    let pages = layout.memory_bytes / PAGE;
    let mut add = Additions {
        types: vec![(vec![ValType::I32, ValType::I32], vec![]), (vec![ValType::I32, ValType::I64], vec![])],
        imports: vec![(abi::IMPORT_MODULE.into(), abi::IMPORT_FLUSH.into(), 0)],
        memories: vec![MemoryType { minimum: pages, maximum: Some(pages), memory64: false, shared: false, page_size_log2: None }],
        globals: vec![
            (GlobalType { val_type: ValType::I32, mutable: true, shared: false }, ConstExpr::i32_const(0)),
            (GlobalType { val_type: ValType::I32, mutable: true, shared: false }, ConstExpr::i32_const(0)),
        ],
        exports: vec![
            (abi::EXPORT_MEMORY.into(), ExportKind::Memory, env.mem.0),
            (abi::EXPORT_EVENT_PTR.into(), ExportKind::Global, env.g_ptr.0),
            (abi::EXPORT_HASH_USED.into(), ExportKind::Global, env.g_hused.0),
        ],
        functions: Vec::new(),
        data: slot_data.into_iter().map(|(base, bytes)| (env.mem, base, bytes)).collect(),
    };
    if let Some(stop) = env.stop {
        if layout.memory_bytes >= abi::STOP_POISON as u64 {
            return Err(Error::Unsupported { feature: format!("{} bytes of counters", layout.memory_bytes), place: "count mode".into() });
        }
        add.memories.push(MemoryType { minimum: 1, maximum: Some(1), memory64: false, shared: false, page_size_log2: None });
        add.exports.push((abi::EXPORT_STOP.into(), ExportKind::Memory, stop.0));
    }
    if host_call {
        let mut params = vec![ValType::I32];
        params.extend(std::iter::repeat_n(ValType::I64, HOST_ARGS as usize + 1));
        params.push(ValType::I32);
        add.types.push((params, vec![]));
        add.imports.push((abi::IMPORT_MODULE.into(), abi::IMPORT_HOST_CALL.into(), add.types.len() as u32 - 1));
    }
    if needs_hash {
        add.functions.push((1, hash_count_function(&env)));
    }
    let mut env = env;
    if ewpp {
        // The shadow: a 64-bit memory after the recording memory, grown on demand.
        let shadow = program.n_memories + 1;
        add.memories.push(MemoryType { minimum: 1, maximum: None, memory64: true, shared: false, page_size_log2: None });
        add.exports.push((abi::EXPORT_SHADOW.into(), ExportKind::Memory, shadow));
        let first = add.types.len() as u32;
        add.types.push((vec![ValType::I32, ValType::I32, ValType::I32], vec![]));
        add.types.push((vec![ValType::I32, ValType::I64, ValType::I32], vec![]));
        add.types.push((vec![ValType::I32, ValType::I32, ValType::I64, ValType::I64, ValType::I32], vec![]));
        let base = n_funcs + n_added + needs_hash as u32;
        env.ewpp = Some(super::env::EwppFuncs {
            note_write: OutFuncIdx(base),
            check_load: OutFuncIdx(base + 1),
            report: OutFuncIdx(base + 2),
            check: OutFuncIdx(base + 3),
            types: [first, first, first + 1, first + 2],
            shadow,
        });
    }
    let carry = CarryTypes { base: program.types.len() as u32 + add.types.len() as u32, types: carried_types(program) };
    let mut conv = Shift::new(n_imported, n_added);
    for (params, results) in &carry.types {
        let mut conv_all = |ts: &[wasmparser::ValType]| -> Result<Vec<ValType>, Error> {
            ts.iter().map(|&v| conv.val_type(v)).collect::<Result<_, _>>().map_err(|e| Error::Rewrite { place: "block types".into(), message: e.to_string() })
        };
        let params = conv_all(params)?;
        add.types.push((params, conv_all(results)?));
    }
    Ok((add, env, carry))
}

/// Every distinct block type the rewrite adds: the lists of types that a `br_table`'s
/// labels carry, and a catch clause's landing pad's (its `try_table`'s parameters to its
/// label's types), in order of appearance.
fn carried_types(program: &Program) -> Vec<(Vec<wasmparser::ValType>, Vec<wasmparser::ValType>)> {
    let mut types = Vec::new();
    let mut add = |t: (Vec<wasmparser::ValType>, Vec<wasmparser::ValType>)| {
        if !types.contains(&t) {
            types.push(t);
        }
    };
    for l in &program.layouts {
        for t in l.br_table_types.values() {
            add((t.clone(), t.clone()));
        }
        for tt in l.try_tables.values() {
            for c in &tt.clauses {
                add((tt.params.clone(), c.label.clone()));
            }
        }
    }
    types
}
