//! The naive rewrite used as an oracle: report every function entry, every basic block
//! entered, and every function exit, each through a host call. It shares nothing with
//! the path rewrite but the CFG; the host splits its log into paths independently.
//!
//! Imports (module [`abi::ORACLE_MODULE`]): `enter(func)`, `block(func, block)`,
//! `leave(func)` just before a block's final call, `throw`, `throw_ref` or `unreachable`
//! runs, `exit(func)` and `unwind(func)`. Each body is wrapped in a `block` of the
//! function's result type, so that every way out of the function (`return` becomes a
//! branch to it) passes one `exit` call; tail calls report `exit` just before they leave.
//! In a module with exception tags the wrapper is a `try_table` whose `catch_all_ref`
//! reports `unwind(func)` and rethrows: an exception leaving a frame says so, frame by
//! frame, so that the host knows which frame a handler runs in without reading the CFG.
//!
//! The access log ([`instrument_access_log`], `access`) adds a report of every memory
//! access and brackets every import call, for the memory dependence oracles.

use wasm_encoder::{BlockType, Function, Instruction as I, ValType};
use wasmparser::{FunctionBody, Operator};

mod access;

use crate::abi;
use crate::decode::Program;
use crate::rewrite::{rewrite, Additions};
use crate::wasm_idx::OutFuncIdx;
use crate::Error;

/// Rewrites `bytes` (decoded as `program`) to log function entries, block entries and
/// function exits.
pub fn instrument_block_log(bytes: &[u8], program: &Program) -> Result<Vec<u8>, Error> {
    block_log(bytes, program, false)
}

/// [`instrument_block_log`], and before every instruction that reads or writes linear
/// memory, which bytes it touches (import [`abi::ORACLE_ACCESS`]). 32-bit memories only.
pub fn instrument_access_log(bytes: &[u8], program: &Program) -> Result<Vec<u8>, Error> {
    block_log(bytes, program, true)
}

fn block_log(bytes: &[u8], program: &Program, accesses: bool) -> Result<Vec<u8>, Error> {
    let n_imported = program.n_imported_funcs;
    let mut add = Additions {
        types: vec![(vec![ValType::I32], vec![]), (vec![ValType::I32, ValType::I32], vec![])],
        imports: vec![
            (abi::ORACLE_MODULE.into(), "enter".into(), 0),
            (abi::ORACLE_MODULE.into(), "block".into(), 1),
            (abi::ORACLE_MODULE.into(), "exit".into(), 0),
            (abi::ORACLE_MODULE.into(), "leave".into(), 0),
            (abi::ORACLE_MODULE.into(), abi::ORACLE_UNWIND.into(), 0),
        ],
        ..Additions::default()
    };
    if accesses {
        add.types.push((vec![ValType::I32, ValType::I64, ValType::I64, ValType::I32], vec![]));
        add.imports.push((abi::ORACLE_MODULE.into(), abi::ORACLE_ACCESS.into(), 2));
        add.imports.push((abi::ORACLE_MODULE.into(), abi::ORACLE_HOST_BEGIN.into(), 0));
        let mut end = vec![ValType::I32];
        end.extend(std::iter::repeat_n(ValType::I64, crate::access::HOST_ARGS as usize + 1));
        add.types.push((end, vec![]));
        add.imports.push((abi::ORACLE_MODULE.into(), abi::ORACLE_HOST_END.into(), 3));
    }
    let n_added = add.imports.len() as u32;
    // Block types for multi-value results need a type of their own.
    let type_base = program.types.len() as u32;
    let mut result_types: Vec<(Vec<ValType>, u32)> = Vec::new();
    let mut block_types = Vec::new();
    let mut shift = crate::rewrite::Shift::new(n_imported, n_added);
    for i in 0..program.layouts.len() {
        let ty = program.func_type[n_imported as usize + i] as usize;
        let results = program.types.get(ty).and_then(|t| t.as_ref()).map(|t| t.results.clone()).unwrap_or_default();
        let results: Vec<ValType> = results
            .into_iter()
            .map(|t| wasm_encoder::reencode::Reencode::val_type(&mut shift, t))
            .collect::<Result<_, _>>()
            .map_err(|e| Error::Rewrite { place: "result types".into(), message: e.to_string() })?;
        let bt = match results.as_slice() {
            [] => BlockType::Empty,
            [t] => BlockType::Result(*t),
            many => {
                let idx = match result_types.iter().find(|(r, _)| r.as_slice() == many) {
                    Some((_, idx)) => *idx,
                    None => {
                        let idx = add.types.len() as u32;
                        add.types.push((vec![], many.to_vec()));
                        result_types.push((many.to_vec(), idx));
                        idx
                    }
                };
                BlockType::FunctionType(type_base + idx)
            }
        };
        block_types.push(bt);
    }
    let (enter, block, exit, leave) = (OutFuncIdx(n_imported), OutFuncIdx(n_imported + 1), OutFuncIdx(n_imported + 2), OutFuncIdx(n_imported + 3));
    let unwind = OutFuncIdx(n_imported + 4);
    let tags = program.n_tags > 0;
    rewrite(bytes, program, add, |shift, i, body: FunctionBody<'_>| {
        let func = (n_imported + i) as i32;
        let layout = &program.layouts[i as usize];
        let mut locals = Vec::new();
        let ty = program.func_type[(n_imported + i) as usize] as usize;
        let mut n_locals = program.types.get(ty).and_then(|t| t.as_ref()).map_or(0, |t| t.params.len() as u32);
        for pair in body.get_locals_reader()? {
            let (count, ty) = pair?;
            let ty = wasm_encoder::reencode::Reencode::val_type(shift, ty).map_err(|e| Error::Rewrite { place: String::new(), message: e.to_string() })?;
            locals.push((count, ty));
            n_locals += count;
        }
        let log = accesses.then(|| access::AccessLog {
            import: OutFuncIdx(n_imported + 5),
            host_begin: OutFuncIdx(n_imported + 6),
            host_end: OutFuncIdx(n_imported + 7),
            first: n_locals,
        });
        if log.is_some() {
            locals.extend(access::AccessLog::locals());
        }
        let mut f = Function::new(locals);
        let ops: Vec<(Operator<'_>, usize)> = body.get_operators_reader()?.into_iter_with_offsets().collect::<Result<_, _>>()?;
        // Where each block's log call goes: after its first instruction if that is a
        // `loop` (back edges land inside it), before it otherwise.
        let mut log_before = vec![None; ops.len()];
        let mut log_after = vec![None; ops.len()];
        for (b, &first) in layout.first_op.iter().enumerate() {
            if matches!(ops[first as usize].0, Operator::Loop { .. }) {
                log_after[first as usize] = Some(b as i32);
            } else {
                log_before[first as usize] = Some(b as i32);
            }
        }
        f.instruction(&I::I32Const(func));
        f.instruction(&enter.call());
        let bt = block_types[i as usize];
        if tags {
            // block $ok; block $unwound (result exnref); try_table (catch_all_ref $unwound)
            f.instruction(&I::Block(bt));
            f.instruction(&I::Block(BlockType::Result(ValType::EXNREF)));
            f.instruction(&I::TryTable(bt, vec![wasm_encoder::Catch::AllRef { label: 0 }].into()));
        } else {
            f.instruction(&I::Block(bt));
        }
        let mut depth = 0u32; // open blocks between here and the wrapper
        let last = ops.len() - 1;
        for (k, (op, at)) in ops.into_iter().enumerate() {
            if let Some(b) = log_before[k] {
                f.instruction(&I::I32Const(func));
                f.instruction(&I::I32Const(b));
                f.instruction(&block.call());
            }
            if let Some(log) = &log {
                log.before(&mut f, &op, at as u32);
            }
            if matches!(op, Operator::Call { .. } | Operator::CallIndirect { .. } | Operator::Unreachable | Operator::Throw { .. } | Operator::ThrowRef) {
                f.instruction(&I::I32Const(func));
                f.instruction(&leave.call());
            }
            match op {
                Operator::Return => f.instruction(&I::Br(depth)),
                Operator::ReturnCall { .. } | Operator::ReturnCallIndirect { .. } => {
                    f.instruction(&I::I32Const(func));
                    f.instruction(&exit.call());
                    f.instruction(&shift.translate(op)?)
                }
                // The function's own `end` closes the wrapper; the exit call follows it.
                Operator::End if k == last => {
                    f.instruction(&I::End);
                    if tags {
                        f.instruction(&I::Br(1));
                        f.instruction(&I::End);
                        f.instruction(&I::I32Const(func));
                        f.instruction(&unwind.call());
                        f.instruction(&I::ThrowRef);
                        f.instruction(&I::End);
                    }
                    f.instruction(&I::I32Const(func));
                    f.instruction(&exit.call());
                    f.instruction(&I::End)
                }
                Operator::Block { .. } | Operator::Loop { .. } | Operator::If { .. } | Operator::TryTable { .. } => {
                    depth += 1;
                    f.instruction(&shift.translate(op)?)
                }
                Operator::End => {
                    depth -= 1;
                    f.instruction(&I::End)
                }
                Operator::Call { function_index } if function_index < n_imported && log.is_some() => {
                    let ty = program.types.get(program.func_type[function_index as usize] as usize).and_then(|t| t.as_ref());
                    let translated = shift.translate(op)?;
                    match (ty, &log) {
                        (Some(ty), Some(log)) if crate::access::HostArgs::bracketable(&ty.params, &ty.results) => {
                            log.host_call(&mut f, function_index, &ty.params, &ty.results, |f| {
                                f.instruction(&translated);
                            });
                            &mut f
                        }
                        _ => f.instruction(&translated),
                    }
                }
                other => f.instruction(&shift.translate(other)?),
            };
            if let Some(b) = log_after[k] {
                f.instruction(&I::I32Const(func));
                f.instruction(&I::I32Const(b));
                f.instruction(&block.call());
            }
        }
        Ok(f)
    })
    .map(|(wasm, _)| wasm)
}
