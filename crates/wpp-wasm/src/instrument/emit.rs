//! The code of one rewritten function: the registers it adds, a plan of which edges' code
//! goes before and after each instruction, each edge's action on the registers, the
//! recording of a finished path (event, array counter, PPP slot or hash table), `br_if`
//! and `br_table` dispatch.

use std::borrow::Cow;

use wasm_encoder::reencode::Reencode;
use wasm_encoder::{BlockType, Function, Instruction as I, ValType};
use wasmparser::{FunctionBody, Operator};
use wpp_model::access_event::ACCESS_TAG;
use wpp_model::FuncMap;
use wpp_model::{BlockIdx, EdgeIdx, FuncIdx, ESCAPE_FUNC, NARROW_ESCAPE};
use wpp_paths::{EdgeAction, Numbering, PppAction, PppNumbering, ProgramNumbering};

use super::additions::CarryTypes;
use super::env::Env;
use super::layout::{CounterKind, Layout};
use super::pads::Labels;
use super::Mode;
use crate::access::{bracketed_import, Access, HostArgs, MemOp, Scratch};
use crate::cfg_build::{FuncLayout, Term};
use crate::decode::Program;
use crate::rewrite::Shift;
use crate::wasm_idx::{LocalIdx, OutFuncIdx};
use crate::{abi, Error};

/// What the code of every function shares.
pub(super) struct Shared<'a> {
    pub program: &'a Program,
    pub mode: Mode,
    pub env: &'a Env,
    pub layout: &'a Layout,
    pub carry: &'a CarryTypes,
    /// By function index, `None` for imports.
    pub numberings: &'a ProgramNumbering,
    /// By function index, for functions with interesting paths.
    pub ppp: &'a FuncMap<PppNumbering>,
    /// When accesses are recorded: the number of the first access site of each defined
    /// function.
    pub first_site: Option<&'a [u32]>,
    /// Trace mode with 4-byte events: the dense ids.
    pub narrow: Option<&'a wpp_model::NarrowIds>,
}

/// The rewritten body of defined function `func`; `shift` translates its instructions.
pub(super) fn function(shift: &mut Shift, shared: &Shared<'_>, func: FuncIdx, body: FunctionBody<'_>) -> Result<Function, Error> {
    let program = shared.program;
    let defined = func.idx() - program.n_imported_funcs as usize;
    let num = &shared.numberings[func];
    let record = match shared.mode {
        Mode::Trace => match shared.narrow {
            Some(ids) => Record::Narrow { base: ids.base(func) },
            None => Record::Trace { wide: num.n_paths() > 1 << 32 },
        },
        Mode::Count => match shared.layout.counters[defined].1 {
            CounterKind::Array { base } => Record::Array { base },
            CounterKind::Hash => Record::Hash,
            CounterKind::Ppp { base, slots } => Record::Ppp { base, slots },
        },
    };
    let ppp = match (shared.ppp.get(func), record) {
        (Some(p), Record::Ppp { .. }) => Some(FuncPpp::new(p, num, program, func)?),
        _ => None,
    };
    let next_site = shared.first_site.map(|f| f[defined]);
    let ctx = FuncCtx { env: shared.env, func, num, record, ppp, regs: Regs::default(), carry: shared.carry, next_site };
    rewrite_body(shift, program, n_params(program, func.idx()), &program.layouts[defined], ctx, body).map_err(|e| with_place(e, program.name(func)))
}

/// Parameters of function `i` of `program`.
fn n_params(program: &Program, i: usize) -> u32 {
    let ty = program.func_type[i] as usize;
    program.types.get(ty).and_then(|t| t.as_ref()).map(|t| t.params.len()).unwrap_or(0) as u32
}

/// The rewritten body of check routine `i` of `routines` (the extended WPP's), numbered
/// `num`, its paths recorded as function `func`'s.
pub(super) fn routine(
    shift: &mut Shift,
    (env, carry): (&Env, &CarryTypes),
    routines: &Program,
    i: usize,
    num: &Numbering,
    func: FuncIdx,
    body: FunctionBody<'_>,
) -> Result<Function, Error> {
    let record = Record::Trace { wide: num.n_paths() > 1 << 32 };
    let ctx = FuncCtx { env, func, num, record, ppp: None, regs: Regs::default(), carry, next_site: None };
    rewrite_body(shift, routines, n_params(routines, i), &routines.layouts[i], ctx, body)
}

fn with_place(e: Error, name: &str) -> Error {
    match e {
        Error::Rewrite { message, .. } => Error::Rewrite { place: format!("function {name}"), message },
        other => other,
    }
}

/// How a function records a finished path: as a trace event (`wide`: the path number may
/// not fit 32 bits, so an escape word with the function comes first and the number takes
/// a word of its own), as a 4-byte event (its dense id: `base` plus the path number; a
/// function without a `base` writes the three-word escape), or in its counters (as
/// [`CounterKind`] says).
#[derive(Clone, Copy)]
enum Record {
    Trace { wide: bool },
    Narrow { base: Option<u32> },
    Array { base: u32 },
    Hash,
    Ppp { base: u32, slots: u64 },
}

/// Locals the rewrite adds to a function.
#[derive(Default, Clone, Copy)]
struct Regs {
    /// The path register (i64).
    r: LocalIdx,
    /// Scratch for a branch condition or table index (i32).
    c: LocalIdx,
    /// Scratch for an address (i32).
    p: LocalIdx,
    /// The PPP register (i64), in functions with PPP slots.
    q: LocalIdx,
}

/// A function's PPP register actions.
struct FuncPpp {
    /// By CFG edge.
    actions: Vec<PppAction>,
    /// The register's value on entry.
    start: Option<i64>,
}

impl FuncPpp {
    /// The PPP register's actions in function `func`, numbered `num` and `p`.
    fn new(p: &PppNumbering, num: &Numbering, program: &Program, func: FuncIdx) -> Result<FuncPpp, Error> {
        let cfg = program.cfg(func).expect("defined functions have CFGs");
        let err = |e: wpp_paths::PppError| Error::Rewrite { place: format!("function {}", program.name(func)), message: e.to_string() };
        let actions = (0..cfg.edges.len()).map(|e| p.action(num, cfg, EdgeIdx(e as u32))).collect::<Result<Vec<_>, _>>().map_err(err)?;
        let start = p.start_value(num, BlockIdx::ENTRY).map_err(err)?;
        Ok(FuncPpp { actions, start })
    }
}

/// What the code of one function is made from.
struct FuncCtx<'a> {
    /// The dispatch block types for `br_table`s carrying values.
    carry: &'a CarryTypes,
    env: &'a Env,
    func: FuncIdx,
    num: &'a Numbering,
    record: Record,
    ppp: Option<FuncPpp>,
    regs: Regs,
    /// When accesses are recorded: the site number of the next access.
    next_site: Option<u32>,
}

/// `reg += k`.
fn add_to(f: &mut Function, reg: LocalIdx, k: i64) {
    f.instruction(&reg.get());
    f.instruction(&I::I64Const(k));
    f.instruction(&I::I64Add);
    f.instruction(&reg.set());
}

impl FuncCtx<'_> {
    /// The PPP register's action on edge `e` (`Add(0)` without one).
    fn ppp_action(&self, e: EdgeIdx) -> PppAction {
        self.ppp.as_ref().map_or(PppAction::Add(0), |p| p.actions[e.idx()])
    }

    /// Whether taking edge `e` needs no code.
    fn is_noop(&self, e: EdgeIdx) -> bool {
        matches!(self.num.action(e), EdgeAction::Add(0) | EdgeAction::Dead) && matches!(self.ppp_action(e), PppAction::Add(0) | PppAction::Dead)
    }

    /// The code for taking edge `e`.
    fn edge(&self, f: &mut Function, e: EdgeIdx) {
        let ppp = self.ppp_action(e);
        match self.num.action(e) {
            EdgeAction::Dead => {}
            EdgeAction::Add(k) => {
                if k != 0 {
                    add_to(f, self.regs.r, k as i64);
                }
                if let PppAction::Add(w) = ppp {
                    if w != 0 {
                        add_to(f, self.regs.q, w);
                    }
                }
            }
            EdgeAction::End { add, restart } => {
                let (ppp_add, ppp_restart) = match ppp {
                    PppAction::End { add, restart } => (add, restart),
                    _ => (0, None),
                };
                self.record(f, add, ppp_add);
                if let Some(v) = restart {
                    f.instruction(&I::I64Const(v as i64));
                    f.instruction(&self.regs.r.set());
                }
                if let Some(v) = ppp_restart {
                    f.instruction(&I::I64Const(v));
                    f.instruction(&self.regs.q.set());
                }
            }
        }
    }

    /// Of the catch edges `edges` taken through one catch clause, one whose landing
    /// restarts a path (they all restart alike: at the clause's target); `None` when the
    /// landing needs no code (the clause leaves the function, or no edge can run).
    fn landing(&self, edges: &[EdgeIdx]) -> Option<EdgeIdx> {
        edges.iter().copied().find(|&e| {
            let bl = matches!(self.num.action(e), EdgeAction::End { restart: Some(_), .. });
            bl || matches!(self.ppp_action(e), PppAction::End { restart: Some(_), .. })
        })
    }

    /// The code where catch edge `e` lands: the path registers restart at its target (the
    /// path itself was recorded before the instruction that threw).
    fn restart(&self, f: &mut Function, e: EdgeIdx) {
        if let EdgeAction::End { restart: Some(v), .. } = self.num.action(e) {
            f.instruction(&I::I64Const(v as i64));
            f.instruction(&self.regs.r.set());
        }
        if let PppAction::End { restart: Some(v), .. } = self.ppp_action(e) {
            f.instruction(&I::I64Const(v));
            f.instruction(&self.regs.q.set());
        }
    }

    /// Pushes `r + add (+ extra)` as an i64.
    fn path_value(&self, f: &mut Function, add: u64) {
        f.instruction(&self.regs.r.get());
        if add != 0 {
            f.instruction(&I::I64Const(add as i64));
            f.instruction(&I::I64Add);
        }
    }

    /// Moves the event pointer past the `step` bytes just written, flushing a full buffer.
    fn advance(&self, f: &mut Function, step: i32) {
        let env = self.env;
        let p = self.regs.p;
        f.instruction(&env.g_ptr.get());
        f.instruction(&I::I32Const(step));
        f.instruction(&I::I32Add);
        f.instruction(&p.tee());
        f.instruction(&env.g_ptr.set());
        f.instruction(&p.get());
        f.instruction(&I::I32Const(env.cap as i32));
        f.instruction(&I::I32GeU);
        f.instruction(&I::If(BlockType::Empty));
        f.instruction(&I::I32Const(abi::FLUSH_EVENTS));
        f.instruction(&p.get());
        f.instruction(&env.flush.call());
        f.instruction(&I::I32Const(0));
        f.instruction(&env.g_ptr.set());
        f.instruction(&I::End);
    }

    /// Appends the access event of site `site` for access `a` (a bulk one's length in
    /// local `len`).
    fn access_event(&self, f: &mut Function, site: u32, a: Access, len: u32) {
        let env = self.env;
        f.instruction(&env.g_ptr.get());
        f.instruction(&I::LocalGet(a.base));
        if a.offset != 0 {
            // The address wraps as a 32-bit number: an access past 4 GiB traps anyway.
            f.instruction(&I::I32Const(a.offset as u32 as i32));
            f.instruction(&I::I32Add);
        }
        f.instruction(&I::I64ExtendI32U);
        f.instruction(&I::I64Const((((ACCESS_TAG | site) as u64) << 32) as i64));
        f.instruction(&I::I64Or);
        f.instruction(&I::I64Store(env.mem.arg64(0)));
        let step = match a.len {
            Some(_) => 8,
            None => {
                f.instruction(&env.g_ptr.get());
                f.instruction(&I::LocalGet(len));
                f.instruction(&I::I64ExtendI32U);
                f.instruction(&I::I64Store(env.mem.arg64(8)));
                16
            }
        };
        self.advance(f, step);
    }

    /// `helper(site, address, length)` for access `a` of site `site` (a bulk one's length in
    /// local `len`).
    fn ewpp_call(&self, f: &mut Function, site: u32, a: Access, len: u32, helper: OutFuncIdx) {
        f.instruction(&I::I32Const(site as i32));
        f.instruction(&I::LocalGet(a.base));
        if a.offset != 0 {
            f.instruction(&I::I32Const(a.offset as u32 as i32));
            f.instruction(&I::I32Add);
        }
        match a.len {
            Some(n) => f.instruction(&I::I32Const(n as i32)),
            None => f.instruction(&I::LocalGet(len)),
        };
        f.instruction(&helper.call());
    }

    /// Records the path ending with Ball-Larus constant `add` (and PPP constant `ppp_add`).
    fn record(&self, f: &mut Function, add: u64, ppp_add: i64) {
        let env = self.env;
        let p = self.regs.p;
        match self.record {
            Record::Trace { wide } => {
                f.instruction(&env.g_ptr.get());
                let step = if wide {
                    f.instruction(&I::I64Const((((ESCAPE_FUNC as u64) << 32) | self.func.0 as u64) as i64));
                    f.instruction(&I::I64Store(env.mem.arg64(0)));
                    f.instruction(&env.g_ptr.get());
                    self.path_value(f, add);
                    f.instruction(&I::I64Store(env.mem.arg64(8)));
                    16
                } else {
                    f.instruction(&self.regs.r.get());
                    f.instruction(&I::I64Const(add.wrapping_add((self.func.0 as u64) << 32) as i64));
                    f.instruction(&I::I64Add);
                    f.instruction(&I::I64Store(env.mem.arg64(0)));
                    8
                };
                self.advance(f, step);
            }
            Record::Narrow { base } => {
                f.instruction(&env.g_ptr.get());
                let step = match base {
                    Some(base) => {
                        // The id is below 2³¹: its low 32 bits are the event.
                        self.path_value(f, add.wrapping_add(base as u64));
                        f.instruction(&I::I64Store32(env.mem.arg32(0)));
                        4
                    }
                    None => {
                        f.instruction(&I::I32Const((NARROW_ESCAPE | self.func.0) as i32));
                        f.instruction(&I::I32Store(env.mem.arg32(0)));
                        f.instruction(&env.g_ptr.get());
                        self.path_value(f, add);
                        f.instruction(&I::I64Store(env.mem.arg32(4)));
                        12
                    }
                };
                self.advance(f, step);
            }
            Record::Array { base } => {
                self.path_value(f, add);
                f.instruction(&I::I32WrapI64);
                f.instruction(&I::I32Const(3));
                f.instruction(&I::I32Shl);
                env.poison().for_each(|i| {
                    f.instruction(&i);
                });
                f.instruction(&p.tee());
                f.instruction(&p.get());
                f.instruction(&I::I64Load(env.mem.arg64(base as u64)));
                f.instruction(&I::I64Const(1));
                f.instruction(&I::I64Add);
                f.instruction(&I::I64Store(env.mem.arg64(base as u64)));
            }
            Record::Hash => {
                f.instruction(&I::I32Const(self.func.0 as i32));
                self.path_value(f, add);
                f.instruction(&env.hash_fn.call());
            }
            Record::Ppp { base, slots } => {
                // p = 16 × ((PPP id) mod slots)
                f.instruction(&self.regs.q.get());
                f.instruction(&I::I32WrapI64);
                if ppp_add != 0 {
                    f.instruction(&I::I32Const(ppp_add as i32));
                    f.instruction(&I::I32Add);
                }
                f.instruction(&I::I32Const((slots - 1) as i32));
                f.instruction(&I::I32And);
                f.instruction(&I::I32Const(4));
                f.instruction(&I::I32Shl);
                env.poison().for_each(|i| {
                    f.instruction(&i);
                });
                f.instruction(&p.tee());
                f.instruction(&I::I64Load(env.mem.arg64(base as u64)));
                self.path_value(f, add);
                f.instruction(&I::I64Eq);
                f.instruction(&I::If(BlockType::Empty));
                f.instruction(&p.get());
                f.instruction(&p.get());
                f.instruction(&I::I64Load(env.mem.arg64(base as u64 + 8)));
                f.instruction(&I::I64Const(1));
                f.instruction(&I::I64Add);
                f.instruction(&I::I64Store(env.mem.arg64(base as u64 + 8)));
                f.instruction(&I::Else);
                // Residual: counted by its Ball-Larus number.
                f.instruction(&I::I32Const(self.func.0 as i32));
                self.path_value(f, add);
                f.instruction(&env.hash_fn.call());
                f.instruction(&I::End);
            }
        }
    }
}

/// Edges whose code to place around each instruction of a function.
struct Plan {
    before: Vec<Vec<EdgeIdx>>,
    after: Vec<Vec<EdgeIdx>>,
    /// At the `end` of an `if` without `else`: add an `else` taking this edge.
    else_add: Vec<Option<EdgeIdx>>,
    br_if: Vec<Option<(EdgeIdx, EdgeIdx)>>,
    br_table: Vec<Option<Vec<EdgeIdx>>>,
}

/// Where the code of each edge of a function laid out as `layout` goes (`is_end`: which
/// instructions are an `end`).
fn plan(layout: &FuncLayout, ctx: &FuncCtx<'_>, is_end: &[bool]) -> Plan {
    let n = layout.n_ops as usize;
    let mut p = Plan { before: vec![Vec::new(); n], after: vec![Vec::new(); n], else_add: vec![None; n], br_if: vec![None; n], br_table: vec![None; n] };
    for (b, term) in layout.terms.iter().enumerate() {
        let next = layout.first_op.get(b + 1).copied().unwrap_or(layout.n_ops);
        let last = next as usize - 1;
        match term {
            Term::Fall(e) => {
                if is_end[last] {
                    p.before[last].push(*e);
                } else {
                    p.after[last].push(*e);
                }
            }
            Term::Br(e) | Term::Else(e) | Term::Call(e) | Term::Return(e) | Term::Unreachable(e) | Term::Throw(e) => p.before[last].push(*e),
            Term::BrIf { taken, fall } => p.br_if[last] = Some((*taken, *fall)),
            Term::BrTable(es) => p.br_table[last] = Some(es.clone()),
            Term::If { then, other, else_op, end_op } => {
                p.after[last].push(*then);
                if !ctx.is_noop(*other) {
                    match else_op {
                        Some(e) => p.after[*e as usize].push(*other),
                        None => p.else_add[*end_op as usize] = Some(*other),
                    }
                }
            }
        }
    }
    p
}

/// The function `body` with the path registers and the code of every edge.
/// `n_params`: the function's parameters; `program`: the module it is in (the module's,
/// or the check routines').
fn rewrite_body(
    shift: &mut Shift,
    program: &Program,
    n_params: u32,
    layout: &FuncLayout,
    mut ctx: FuncCtx<'_>,
    body: FunctionBody<'_>,
) -> Result<Function, Error> {
    let mut locals = Vec::new();
    let mut n_locals = n_params;
    for pair in body.get_locals_reader()? {
        let (count, ty) = pair?;
        n_locals += count;
        locals.push((count, shift.val_type(ty).map_err(|e| Error::Rewrite { place: String::new(), message: e.to_string() })?));
    }
    ctx.regs = Regs { r: LocalIdx(n_locals), c: LocalIdx(n_locals + 1), p: LocalIdx(n_locals + 2), q: LocalIdx(n_locals + 3) };
    locals.push((1, ValType::I64));
    locals.push((2, ValType::I32));
    if ctx.ppp.is_some() {
        locals.push((1, ValType::I64));
    }
    let scratch = Scratch { first: n_locals + 3 + ctx.ppp.is_some() as u32 };
    let host = HostArgs { first: scratch.first + Scratch::COUNT };
    if ctx.next_site.is_some() {
        locals.extend(Scratch::locals().chain(HostArgs::locals()));
    }
    let mut f = Function::new(locals);

    let ops: Vec<(Operator<'_>, usize)> = body.get_operators_reader()?.into_iter_with_offsets().collect::<Result<_, _>>()?;
    let is_end: Vec<bool> = ops.iter().map(|(op, _)| matches!(op, Operator::End)).collect();
    let plan = plan(layout, &ctx, &is_end);
    let mut labels = Labels::default();

    if let Some(v) = ctx.num.start_value(BlockIdx::ENTRY).filter(|&v| v != 0) {
        f.instruction(&I::I64Const(v as i64));
        f.instruction(&ctx.regs.r.set());
    }
    if let Some(v) = ctx.ppp.as_ref().and_then(|p| p.start).filter(|&v| v != 0) {
        f.instruction(&I::I64Const(v));
        f.instruction(&ctx.regs.q.set());
    }
    for (i, (op, at)) in ops.into_iter().enumerate() {
        // Code added before the instruction, or in place of it, stands for it.
        if !plan.before[i].is_empty() || plan.else_add[i].is_some() || plan.br_if[i].is_some() || plan.br_table[i].is_some() {
            shift.mark(&f, at);
        }
        for &e in &plan.before[i] {
            ctx.edge(&mut f, e);
        }
        if let Some(e) = plan.else_add[i] {
            f.instruction(&I::Else);
            ctx.edge(&mut f, e);
        }
        if let Some((taken, fall)) = plan.br_if[i] {
            let Operator::BrIf { relative_depth } = op else { unreachable!("planned at a br_if") };
            br_if(&mut f, &ctx, labels.depth(relative_depth), taken, fall);
        } else if let Some(edges) = &plan.br_table[i] {
            let Operator::BrTable { targets } = &op else { unreachable!("planned at a br_table") };
            let mut depths = targets.targets().map(|d| d.map(|d| labels.depth(d))).collect::<Result<Vec<u32>, _>>()?;
            depths.push(labels.depth(targets.default()));
            let bt = layout.br_table_types.get(&(i as u32)).map(|t| ctx.carry.block_type(t)).unwrap_or(BlockType::Empty);
            br_table_dispatch(&mut f, &ctx, &depths, edges, bt);
        } else if let Some(structural) = Structural::of(&op) {
            // Control structure: the frames the pads' depths are counted over.
            shift.mark(&f, at);
            match structural {
                Structural::Open => {
                    labels.open();
                    f.instruction(&shift.translate(op)?);
                }
                Structural::Br(d) => {
                    f.instruction(&I::Br(labels.depth(d)));
                }
                Structural::TryTable => {
                    let I::TryTable(bt, catches) = shift.translate(op)? else { unreachable!("a try_table translates to one") };
                    let tt = layout.try_tables.get(&(i as u32)).cloned().unwrap_or_default();
                    let pad_type = |c: usize| ctx.carry.func_type(&tt.params, &tt.clauses[c].label);
                    labels.open_try_table(&mut f, &tt, (bt, &catches), |edges| ctx.landing(edges), pad_type);
                }
                Structural::End => labels.close(&mut f, |f, e| ctx.restart(f, e)),
            }
        } else if let Some(site) = ctx.next_site {
            // Recording accesses: the access events before the instruction, the host's
            // writes after a call of an import.
            if let Some(mem_op) = MemOp::of(&op) {
                let mut k = site;
                scratch.around(&mut f, mem_op, |f, a| {
                    match ctx.env.ewpp {
                        // The extended WPP: note a write's instance, check a read's writers.
                        Some(e) => ctx.ewpp_call(f, k, a, scratch.len(), if a.write { e.note_write } else { e.check_load }),
                        None => ctx.access_event(f, k, a, scratch.len()),
                    }
                    k += 1;
                });
                ctx.next_site = Some(k);
            }
            match bracketed_import(program, &op) {
                Some((_, ty)) => {
                    // The host is told the call's site; the site names the import.
                    let k = ctx.next_site.expect("accesses are recorded");
                    ctx.next_site = Some(k + 1);
                    let mut copied = Ok(());
                    let env = ctx.env;
                    let host_call = env.host_call.expect("accesses are recorded");
                    let after = |f: &mut Function| {
                        f.instruction(&env.g_ptr.get());
                        f.instruction(&host_call.call());
                        f.instruction(&I::I32Const(0));
                        f.instruction(&env.g_ptr.set());
                    };
                    host.bracket(&mut f, (k, &ty.params, &ty.results), |_| {}, |f| copied = shift.copy(f, op, at), after);
                    copied?;
                }
                None => shift.copy(&mut f, op, at)?,
            }
        } else {
            shift.copy(&mut f, op, at)?;
        }
        for &e in &plan.after[i] {
            ctx.edge(&mut f, e);
        }
    }
    Ok(f)
}

/// The instructions that open or close a frame or branch by depth, whose depths the
/// landing pads of [`Labels`] shift (`br_if` and `br_table` go through their dispatch).
enum Structural {
    Open,
    TryTable,
    End,
    Br(u32),
}

impl Structural {
    fn of(op: &Operator<'_>) -> Option<Structural> {
        Some(match op {
            Operator::Block { .. } | Operator::Loop { .. } | Operator::If { .. } => Structural::Open,
            Operator::TryTable { .. } => Structural::TryTable,
            Operator::End => Structural::End,
            Operator::Br { relative_depth } => Structural::Br(*relative_depth),
            _ => return None,
        })
    }
}

/// `br_if` to `relative_depth` taking edge `taken` or `fall`: the taken edge's action before
/// the branch (branch-free `select`s for register increments, an `if` on the saved
/// condition for a path end), the fall-through edge's after it.
fn br_if(f: &mut Function, ctx: &FuncCtx<'_>, relative_depth: u32, taken: EdgeIdx, fall: EdgeIdx) {
    let c = ctx.regs.c;
    match ctx.num.action(taken) {
        EdgeAction::Dead => {}
        EdgeAction::Add(k) => {
            // Branch-free: each register adds its weight when the branch is taken.
            let ppp = match ctx.ppp_action(taken) {
                PppAction::Add(w) => w,
                _ => 0,
            };
            let regs = [(ctx.regs.r, k as i64), (ctx.regs.q, ppp)];
            if regs.iter().any(|&(_, w)| w != 0) {
                f.instruction(&c.set());
                for (reg, w) in regs.into_iter().filter(|&(_, w)| w != 0) {
                    f.instruction(&reg.get());
                    f.instruction(&I::I64Const(w));
                    f.instruction(&I::I64Const(0));
                    f.instruction(&c.get());
                    f.instruction(&I::Select);
                    f.instruction(&I::I64Add);
                    f.instruction(&reg.set());
                }
                f.instruction(&c.get());
            }
        }
        EdgeAction::End { .. } => {
            f.instruction(&c.tee());
            f.instruction(&I::If(BlockType::Empty));
            ctx.edge(f, taken);
            f.instruction(&I::End);
            f.instruction(&c.get());
        }
    }
    f.instruction(&I::BrIf(relative_depth));
    ctx.edge(f, fall);
}

/// `br_table` with per-target actions. Entries (and the default, last) that go to the same
/// edge through the same label share one dispatch slot:
///
/// ```text
/// local.set c
/// block ×k            ;; slot j is the (j+1)th innermost block
///   local.get c
///   br_table <slot of each entry>
/// end  action_0  br (L_0 + k-1)
/// end  action_1  br (L_1 + k-2)
/// ...
/// end  action_{k-1}  br L_{k-1}
/// ```
/// When the labels carry values, every dispatch block takes and returns them (`bt` is
/// `[t*] -> [t*]`), so they pass through to the final `br`.
fn br_table_dispatch(f: &mut Function, ctx: &FuncCtx<'_>, depths: &[u32], edges: &[EdgeIdx], bt: BlockType) {
    if edges.iter().all(|&e| ctx.is_noop(e)) {
        let (default, table) = depths.split_last().expect("br_table has a default");
        f.instruction(&I::BrTable(Cow::Owned(table.to_vec()), *default));
        return;
    }
    let mut slots: Vec<(u32, EdgeIdx)> = Vec::new();
    let slot_of: Vec<u32> = depths
        .iter()
        .zip(edges)
        .map(|(&d, &e)| match slots.iter().position(|&s| s == (d, e)) {
            Some(j) => j as u32,
            None => {
                slots.push((d, e));
                slots.len() as u32 - 1
            }
        })
        .collect();
    let k = slots.len() as u32;
    f.instruction(&ctx.regs.c.set());
    for _ in 0..k {
        f.instruction(&I::Block(bt));
    }
    f.instruction(&ctx.regs.c.get());
    let (default, table) = slot_of.split_last().expect("br_table has a default");
    f.instruction(&I::BrTable(Cow::Owned(table.to_vec()), *default));
    for (j, &(depth, e)) in slots.iter().enumerate() {
        f.instruction(&I::End);
        ctx.edge(f, e);
        f.instruction(&I::Br(depth + (k - 1 - j as u32)));
    }
}
