//! Instructions that touch linear memory, as both rewrites that report accesses see them:
//! which accesses an instruction makes ([`MemOp`]), the code that saves its operands in
//! scratch locals, reports each access and puts the operands back ([`Scratch::around`]),
//! and the module's table of access sites ([`access_sites`]), which the path rewrite's
//! access events name and every reader of them rebuilds from the module.

use wasm_encoder::{Function, Instruction as I, ValType};
use wasmparser::{MemArg, Operator};
use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::{BlockIdx, FuncIdx};

use crate::body;
use crate::decode::Program;
use crate::facts::{load_width, store_width};
use crate::Error;

/// The scratch locals, in the order [`Scratch::locals`] declares them.
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

/// An instruction that reads or writes linear memory.
#[derive(Clone, Copy, Debug)]
pub(crate) enum MemOp {
    /// `[address] -> [value]`, `width` bytes.
    Load { m: MemArg, width: u32 },
    /// `[address, vector] -> [vector]`: one lane loaded.
    LaneLoad { m: MemArg, width: u32 },
    /// `[address, value] -> []`, the value in scratch local `value`.
    Store { m: MemArg, width: u32, value: u32 },
    /// `[destination, x, length] -> []`: `memory.fill` and `memory.init` (`src` `None`) or
    /// `memory.copy` (which reads memory `src` at `x` first).
    Bulk { mem: u32, src: Option<u32> },
}

impl MemOp {
    pub fn of(op: &Operator) -> Option<MemOp> {
        if let Some((m, width)) = load_width(op) {
            return Some(MemOp::Load { m, width });
        }
        if let Some((m, width)) = lane_load(op) {
            return Some(MemOp::LaneLoad { m, width });
        }
        if let Some((m, width)) = store_width(op) {
            return Some(MemOp::Store { m, width, value: store_value(op) });
        }
        match *op {
            Operator::MemoryFill { mem } | Operator::MemoryInit { mem, .. } => Some(MemOp::Bulk { mem, src: None }),
            Operator::MemoryCopy { dst_mem, src_mem } => Some(MemOp::Bulk { mem: dst_mem, src: Some(src_mem) }),
            _ => None,
        }
    }

    /// The accesses it makes, in order: (memory, kind).
    pub fn sites(&self) -> impl Iterator<Item = (u32, SiteKind)> {
        let (first, second) = match *self {
            MemOp::Load { m, width } | MemOp::LaneLoad { m, width } => ((m.memory, SiteKind::Read { width: Some(width) }), None),
            MemOp::Store { m, width, .. } => ((m.memory, SiteKind::Write { width: Some(width) }), None),
            MemOp::Bulk { mem, src: None } => ((mem, SiteKind::Write { width: None }), None),
            MemOp::Bulk { mem, src: Some(src) } => ((src, SiteKind::Read { width: None }), Some((mem, SiteKind::Write { width: None }))),
        };
        std::iter::once(first).chain(second)
    }
}

/// One access about to happen, its operands in scratch locals: the first byte is local
/// `base` (i32) plus `offset`, the length `len` bytes or (`None`) local [`Scratch::len`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Access {
    pub base: u32,
    pub offset: u64,
    pub len: Option<u32>,
    pub memory: u32,
    pub write: bool,
}

/// The scratch locals of one function, from local `first` on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scratch {
    pub first: u32,
}

impl Scratch {
    /// The locals to declare.
    pub fn locals() -> impl Iterator<Item = (u32, ValType)> {
        SCRATCH.into_iter().map(|t| (1, t))
    }

    /// How many locals [`Scratch::locals`] declares.
    pub const COUNT: u32 = SCRATCH.len() as u32;

    /// The local holding a bulk access's length (i32).
    pub fn len(&self) -> u32 {
        self.first + N
    }

    /// The code that saves `op`'s operands, calls `log` for each of its accesses in order
    /// (the operands in scratch locals, the operand stack below them as it was), and
    /// pushes the operands back.
    pub fn around(&self, f: &mut Function, op: MemOp, mut log: impl FnMut(&mut Function, Access)) {
        let local = |k: u32| self.first + k;
        let sized = |m: MemArg, width: u32, write: bool| Access { base: local(T), offset: m.offset, len: Some(width), memory: m.memory, write };
        match op {
            MemOp::Load { m, width } => {
                f.instruction(&I::LocalTee(local(T)));
                log(f, sized(m, width, false));
            }
            MemOp::LaneLoad { m, width } => {
                f.instruction(&I::LocalSet(local(V128)));
                f.instruction(&I::LocalSet(local(T)));
                log(f, sized(m, width, false));
                f.instruction(&I::LocalGet(local(T)));
                f.instruction(&I::LocalGet(local(V128)));
            }
            MemOp::Store { m, width, value } => {
                f.instruction(&I::LocalSet(local(value)));
                f.instruction(&I::LocalSet(local(T)));
                log(f, sized(m, width, true));
                f.instruction(&I::LocalGet(local(T)));
                f.instruction(&I::LocalGet(local(value)));
            }
            MemOp::Bulk { mem, src } => {
                f.instruction(&I::LocalSet(local(N)));
                f.instruction(&I::LocalSet(local(S)));
                f.instruction(&I::LocalSet(local(T)));
                if let Some(src) = src {
                    log(f, Access { base: local(S), offset: 0, len: None, memory: src, write: false });
                }
                log(f, Access { base: local(T), offset: 0, len: None, memory: mem, write: true });
                f.instruction(&I::LocalGet(local(T)));
                f.instruction(&I::LocalGet(local(S)));
                f.instruction(&I::LocalGet(local(N)));
            }
        }
    }
}

/// Most parameters of an imported function whose calls are bracketed (WASI's have at
/// most 9).
pub(crate) const HOST_ARGS: u32 = 9;

/// The locals that keep a host call's arguments and result, from local `first` on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HostArgs {
    pub first: u32,
}

impl HostArgs {
    /// The locals to declare: an i32 and an i64 for each argument and for the result.
    pub fn locals() -> impl Iterator<Item = (u32, ValType)> {
        [(HOST_ARGS + 1, ValType::I32), (HOST_ARGS + 1, ValType::I64)].into_iter()
    }

    /// Whether calls of a function with these parameters and results can be bracketed: at
    /// most [`HOST_ARGS`] integers in, at most one integer out.
    pub fn bracketable(params: &[wasmparser::ValType], results: &[wasmparser::ValType]) -> bool {
        let int = |t: &wasmparser::ValType| matches!(t, wasmparser::ValType::I32 | wasmparser::ValType::I64);
        params.len() <= HOST_ARGS as usize && params.iter().all(int) && results.len() <= 1 && results.iter().all(int)
    }

    /// The local for argument `i` (or the result, `i` = [`HOST_ARGS`]) of type `t`.
    fn local(&self, i: u32, t: &wasmparser::ValType) -> u32 {
        match t {
            wasmparser::ValType::I32 => self.first + i,
            _ => self.first + HOST_ARGS + 1 + i,
        }
    }

    /// A call of imported function `import` (its index, parameters and results), its
    /// arguments on the stack: `before`, the call (`call` emits it), then `after` with
    /// the import's index (i32), the
    /// [`HOST_ARGS`] arguments and the result (i64, zero-extended, absent ones 0) pushed for
    /// it to consume; the result is pushed back last.
    pub fn bracket(
        &self,
        f: &mut Function,
        (import, params, results): (u32, &[wasmparser::ValType], &[wasmparser::ValType]),
        before: impl FnOnce(&mut Function),
        call: impl FnOnce(&mut Function),
        after: impl FnOnce(&mut Function),
    ) {
        for (i, t) in params.iter().enumerate().rev() {
            f.instruction(&I::LocalSet(self.local(i as u32, t)));
        }
        before(f);
        for (i, t) in params.iter().enumerate() {
            f.instruction(&I::LocalGet(self.local(i as u32, t)));
        }
        call(f);
        if let Some(t) = results.first() {
            f.instruction(&I::LocalSet(self.local(HOST_ARGS, t)));
        }
        f.instruction(&I::I32Const(import as i32));
        let push = |f: &mut Function, i: u32, t: Option<&wasmparser::ValType>| match t {
            Some(t) => {
                f.instruction(&I::LocalGet(self.local(i, t)));
                if *t == wasmparser::ValType::I32 {
                    f.instruction(&I::I64ExtendI32U);
                }
            }
            None => {
                f.instruction(&I::I64Const(0));
            }
        };
        for i in 0..HOST_ARGS {
            push(f, i, params.get(i as usize));
        }
        push(f, HOST_ARGS, results.first());
        after(f);
        if let Some(t) = results.first() {
            f.instruction(&I::LocalGet(self.local(HOST_ARGS, t)));
        }
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

/// Every access site of the module: each memory-touching instruction's accesses and each
/// call of an imported function the rewrite brackets ([`HostArgs::bracketable`]), by
/// function and offset (a `memory.copy` gives its read, then its write), then the one
/// [`SiteKind::HostWrite`] site. Site numbers are indices into this.
pub fn access_sites(bytes: &[u8], program: &Program) -> Result<Vec<AccessSite>, Error> {
    let mut walk = Sites { program, sites: Vec::new() };
    body::walk(bytes, program, &mut walk)?;
    let mut sites = walk.sites;
    sites.push(AccessSite { func: FuncIdx(0), at: 0, block: BlockIdx(0), memory: 0, kind: SiteKind::HostWrite });
    Ok(sites)
}

/// The walk of [`access_sites`]: every instruction's sites, reachable or not (the rewrite
/// numbers them all).
struct Sites<'p> {
    program: &'p Program,
    sites: Vec<AccessSite>,
}

impl body::Visitor for Sites<'_> {
    fn instruction(&mut self, i: &body::Instr) -> Result<(), Error> {
        let site = |memory, kind| AccessSite { func: i.func, at: i.at, block: BlockIdx(i.block as u32), memory, kind };
        if let Some(mem_op) = MemOp::of(i.op) {
            self.sites.extend(mem_op.sites().map(|(memory, kind)| site(memory, kind)));
        } else if let Some((import, _)) = bracketed_import(self.program, i.op) {
            self.sites.push(site(0, SiteKind::HostCall { import: FuncIdx(import) }));
        }
        Ok(())
    }
}

/// A `call` of an imported function whose calls are bracketed: its index and type.
pub(crate) fn bracketed_import<'p>(program: &'p Program, op: &Operator<'_>) -> Option<(u32, &'p crate::func_type::FuncType)> {
    let Operator::Call { function_index } = *op else { return None };
    if function_index >= program.n_imported_funcs {
        return None;
    }
    let ty = program.types.get(*program.func_type.get(function_index as usize)? as usize)?.as_ref()?;
    HostArgs::bracketable(&ty.params, &ty.results).then_some((function_index, ty))
}
