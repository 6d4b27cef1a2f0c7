//! The registers each instruction reads and writes ([`wpp_model::stmts`]): locals,
//! globals and operand stack slots named by height, block by block.
//!
//! Heights and arities come from wasmparser's validator, run over each body alongside by
//! [`crate::body`]'s walk: an instruction that pops `p` values and pushes `q` at height `h` uses slots
//! `h-p..h` and defines slots `h-p..h-p+q`. Structured control (`block`, `loop`, `else`,
//! `end`) leaves values where they are and names none of them; `if` and `br_if` read
//! their condition. A branch to a label whose base is below the values it carries moves
//! them down ([`Shift`]); a branch to the function's own label, `return` and the body's
//! final `end` return the top results. In unreachable code (a polymorphic stack) an
//! instruction names nothing: it never runs.

use wasmparser::{FrameKind, FuncValidator, Operator, Parser, ValidatorResources};
use wpp_model::stmts::{BlockStmts, FuncStmts, Kind, Reg, Shift, Stmt};
use wpp_model::{FuncIdx, FuncMap};

use crate::access::MemOp;
use crate::body::{self, Instr, Visitor};
use crate::func_type::block_signature;
use crate::{Error, Program};

fn slots(range: std::ops::Range<u32>) -> impl Iterator<Item = Reg> {
    range.map(Reg::Slot)
}

/// Every defined function's instructions, block by block (`program` decoded from
/// `bytes`).
///
/// A module with exception tags is refused: the registers an instruction reads do not say
/// which values a catch clause passes on (the operands of the `throw` that reached it), nor
/// which frames an exception ends.
pub fn statements(bytes: &[u8], program: &Program) -> Result<FuncMap<FuncStmts>, Error> {
    let mut walk = Statements { program, out: FuncMap::new(program.functions.len()), fs: FuncStmts::default(), results: 0 };
    body::walk(bytes, program, &mut walk)?;
    Ok(walk.out)
}

/// The walk of [`statements`]: the function's statements so far.
struct Statements<'p> {
    program: &'p Program,
    out: FuncMap<FuncStmts>,
    fs: FuncStmts,
    /// How many values the function returns.
    results: u32,
}

impl Visitor for Statements<'_> {
    const REFUSES_EXCEPTIONS: Option<&'static str> =
        Some("exception handling in dynamic slicing (which values a catch clause passes on, which frames an exception ends)");

    fn enter(&mut self, func: FuncIdx, _v: &FuncValidator<ValidatorResources>) {
        let program = self.program;
        let ty = program.func_type.get(func.idx()).and_then(|&t| program.types.get(t as usize)).and_then(|t| t.as_ref());
        let (params, results) = ty.map_or((0, 0), |t| (t.params.len() as u32, t.results.len() as u32));
        let n_blocks = program.cfg(func).map_or(0, |cfg| cfg.n_blocks());
        self.fs = FuncStmts { blocks: vec![BlockStmts::default(); n_blocks], params };
        self.results = results;
    }

    fn instruction(&mut self, i: &Instr) -> Result<(), Error> {
        let h = i.height();
        let block = &mut self.fs.blocks[i.block];
        if i.first_in_block {
            block.entry = h;
        }
        // An unreachable instruction names nothing: it never runs.
        let stmt = match i.reachable() {
            true => stmt(i.op, i.at, h, self.results, i.v, self.program),
            false => Stmt { at: i.at, uses: vec![], defs: vec![], kind: Kind::Plain, shifts: vec![] },
        };
        block.stmts.push(stmt);
        Ok(())
    }

    fn exit(&mut self, func: FuncIdx) {
        self.out.insert(func, std::mem::take(&mut self.fs));
    }
}

/// Where a branch of relative depth `depth` at stack height `h` (its own operand popped)
/// goes: the function's return (`None`), or a label, with the values it moves.
fn branch<T: wasmparser::WasmModuleResources>(depth: u32, h: u32, v: &wasmparser::FuncValidator<T>, program: &Program) -> Option<Option<Shift>> {
    if depth + 1 >= v.control_stack_height() {
        return None;
    }
    let frame = v.get_control_frame(depth as usize)?;
    let (params, results) = block_signature(frame.block_type, &program.types);
    let n = if frame.kind == FrameKind::Loop { params.len() } else { results.len() } as u32;
    let base = frame.height as u32;
    Some((h >= n && h - n > base).then_some(Shift { entry: base + n, from: h - n, n }))
}

fn stmt<T: wasmparser::WasmModuleResources>(op: &Operator, at: u32, h: u32, results: u32, v: &wasmparser::FuncValidator<T>, program: &Program) -> Stmt {
    let (pops, pushes) = op.operator_arity(v).unwrap_or((0, 0));
    let low = h.saturating_sub(pops);
    let mut s = Stmt { at, uses: slots(low..h).collect(), defs: slots(low..low + pushes).collect(), kind: Kind::Plain, shifts: vec![] };
    let returns = |s: &mut Stmt, h: u32| {
        s.uses.extend(slots(h.saturating_sub(results)..h));
        s.kind = Kind::Return { values: results.min(h) };
    };
    match *op {
        Operator::Block { .. } | Operator::Loop { .. } | Operator::Else | Operator::Nop | Operator::Unreachable => {
            s.uses.clear();
            s.defs.clear();
        }
        Operator::End => {
            s.uses.clear();
            s.defs.clear();
            if v.control_stack_height() == 1 {
                returns(&mut s, h);
            }
        }
        Operator::If { .. } => {
            s.uses = vec![Reg::Slot(h - 1)];
            s.defs.clear();
        }
        Operator::Br { relative_depth } | Operator::BrIf { relative_depth } => {
            let conditional = matches!(op, Operator::BrIf { .. });
            let h = h - conditional as u32;
            s.uses = slots(h..h + conditional as u32).collect();
            s.defs.clear();
            match branch(relative_depth, h, v, program) {
                None => returns(&mut s, h),
                Some(shift) => s.shifts.extend(shift),
            }
        }
        Operator::BrTable { ref targets } => {
            let h = h - 1;
            s.uses = vec![Reg::Slot(h)];
            s.defs.clear();
            let depths: Vec<u32> = targets.targets().filter_map(Result::ok).chain([targets.default()]).collect();
            let mut returned = false;
            for d in depths {
                match branch(d, h, v, program) {
                    None if !returned => {
                        returned = true;
                        returns(&mut s, h);
                    }
                    None => {}
                    Some(Some(shift)) if !s.shifts.contains(&shift) => s.shifts.push(shift),
                    Some(_) => {}
                }
            }
        }
        Operator::Return => {
            s.uses.clear();
            s.defs.clear();
            returns(&mut s, h);
        }
        Operator::LocalGet { local_index } => s.uses = vec![Reg::Local(local_index)],
        Operator::GlobalGet { global_index } => s.uses = vec![Reg::Global(global_index)],
        Operator::LocalSet { local_index } => s.defs = vec![Reg::Local(local_index)],
        Operator::GlobalSet { global_index } => s.defs = vec![Reg::Global(global_index)],
        Operator::LocalTee { local_index } => s.defs.insert(0, Reg::Local(local_index)),
        Operator::Call { .. } | Operator::CallIndirect { .. } | Operator::CallRef { .. } => {
            let indirect = !matches!(op, Operator::Call { .. });
            s.kind = Kind::Call { args: pops - indirect as u32, tail: false };
        }
        Operator::ReturnCall { .. } | Operator::ReturnCallIndirect { .. } | Operator::ReturnCallRef { .. } => {
            let indirect = !matches!(op, Operator::ReturnCall { .. });
            s.kind = Kind::Call { args: pops - indirect as u32, tail: true };
            s.defs.clear();
        }
        _ => {
            if let Some(m) = MemOp::of(op) {
                let writes = m.sites().any(|(_, k)| matches!(k, wpp_model::access_event::SiteKind::Write { .. }));
                s.kind = if writes { Kind::Store } else { Kind::Load };
            }
        }
    }
    s
}

/// The instructions at `offsets` as text, in the text format's names (`local.get 2`,
/// `i32.load8_u`, `call 14`): what a listing of a slice shows.
pub fn instruction_texts(bytes: &[u8], offsets: &std::collections::BTreeSet<u32>) -> Result<std::collections::BTreeMap<u32, String>, Error> {
    let mut out = std::collections::BTreeMap::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let wasmparser::Payload::CodeSectionEntry(body) = payload? else { continue };
        let range = body.range();
        if offsets.range(range.start as u32..range.end as u32).next().is_none() {
            continue;
        }
        let mut ops = body.get_operators_reader()?;
        while !ops.eof() {
            let at = ops.original_position() as u32;
            let op = ops.read()?;
            if offsets.contains(&at) {
                out.insert(at, text(&op));
            }
        }
    }
    Ok(out)
}

/// An instruction's text-format name, with its index or constant operand.
fn text(op: &Operator) -> String {
    let debug = format!("{op:?}");
    let name = debug.split([' ', '{']).next().unwrap_or_default();
    // `I32Load8U` -> words `I32 Load8 U`: a type or namespace prefix joins with `.`, the
    // rest with `_`.
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        match words.last_mut() {
            Some(w) if !c.is_ascii_uppercase() => w.push(c),
            _ => words.push(c.to_ascii_lowercase().to_string()),
        }
    }
    let prefixes = ["i32", "i64", "f32", "f64", "v128", "local", "global", "memory", "table", "ref", "i8x16", "i16x8", "i32x4", "i64x2", "f32x4", "f64x2"];
    let mut s = match words.split_first() {
        Some((first, rest)) if prefixes.contains(&first.as_str()) && !rest.is_empty() => format!("{first}.{}", rest.join("_")),
        _ => words.join("_"),
    };
    let operand = match *op {
        Operator::LocalGet { local_index } | Operator::LocalSet { local_index } | Operator::LocalTee { local_index } => Some(local_index.to_string()),
        Operator::GlobalGet { global_index } | Operator::GlobalSet { global_index } => Some(global_index.to_string()),
        Operator::Call { function_index } | Operator::ReturnCall { function_index } => Some(function_index.to_string()),
        Operator::Br { relative_depth } | Operator::BrIf { relative_depth } => Some(relative_depth.to_string()),
        Operator::I32Const { value } => Some(value.to_string()),
        Operator::I64Const { value } => Some(value.to_string()),
        _ => None,
    };
    if let Some(o) = operand {
        s.push(' ');
        s.push_str(&o);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use wpp_model::FuncIdx;

    fn of(wat: &str) -> FuncStmts {
        let bytes = wat::parse_str(wat).unwrap();
        let program = crate::decode(&bytes).unwrap();
        let all = statements(&bytes, &program).unwrap();
        all.get(FuncIdx(program.n_imported_funcs + 1)).or(all.get(FuncIdx(program.n_imported_funcs))).cloned().unwrap()
    }

    /// An instruction's uses, definitions, kind and shifts.
    type Flat = (Vec<Reg>, Vec<Reg>, Kind, Vec<Shift>);

    fn flat(f: &FuncStmts) -> Vec<Flat> {
        f.blocks.iter().flat_map(|b| &b.stmts).map(|s| (s.uses.clone(), s.defs.clone(), s.kind, s.shifts.clone())).collect()
    }

    #[test]
    fn instructions_as_text() {
        let bytes = wat::parse_str(
            r#"(module (memory 1) (table 1 funcref) (type (func (param i32) (result i32)))
            (func (param i32) (result i32)
              local.get 0 i32.load8_u offset=4 i32.const -3 i32.add local.tee 0
              local.get 0 local.get 0 call_indirect (type 0) br_if 0 drop i32.const 1))"#,
        )
        .unwrap();
        let program = crate::decode(&bytes).unwrap();
        let all: std::collections::BTreeSet<u32> =
            statements(&bytes, &program).unwrap().values().flat_map(|f| &f.blocks).flat_map(|b| &b.stmts).map(|s| s.at).collect();
        let texts = instruction_texts(&bytes, &all).unwrap();
        let want = [
            "local.get 0",
            "i32.load8_u",
            "i32.const -3",
            "i32.add",
            "local.tee 0",
            "local.get 0",
            "local.get 0",
            "call_indirect",
            "br_if 0",
            "drop",
            "i32.const 1",
            "end",
        ];
        assert_eq!(texts.values().map(String::as_str).collect::<Vec<_>>(), want);
    }

    #[test]
    fn registers_of_straight_code() {
        use Reg::*;
        let f = of(r#"(module (memory 1) (global (mut i32) (i32.const 0))
            (func (param i32) (result i32) (local i32)
              local.get 0
              i32.load
              local.tee 1
              global.get 0
              i32.add
              global.set 0
              local.get 1))"#);
        assert_eq!(f.params, 1);
        let p = Kind::Plain;
        assert_eq!(
            flat(&f),
            vec![
                (vec![Local(0)], vec![Slot(0)], p, vec![]),
                (vec![Slot(0)], vec![Slot(0)], Kind::Load, vec![]),
                (vec![Slot(0)], vec![Local(1), Slot(0)], p, vec![]),
                (vec![Global(0)], vec![Slot(1)], p, vec![]),
                (vec![Slot(0), Slot(1)], vec![Slot(0)], p, vec![]),
                (vec![Slot(0)], vec![Global(0)], p, vec![]),
                (vec![Local(1)], vec![Slot(0)], p, vec![]),
                (vec![Slot(0)], vec![], Kind::Return { values: 1 }, vec![]),
            ]
        );
    }

    #[test]
    fn branches_move_values_and_return() {
        use Reg::*;
        let f = of(r#"(module
            (func $g (param i32) (result i32) local.get 0)
            (func (param i32) (result i32)
              i32.const 7
              block (result i32)
                i32.const 1
                i32.const 2
                local.get 0
                br_if 0
                drop
                drop
                local.get 0
                call $g
              end
              i32.add
              local.get 0
              br_if 0
              drop
              i32.const 3))"#);
        let flat = flat(&f);
        // br_if 0 at height 3 (condition popped) to a block of base 1 with one result.
        assert_eq!(flat[5].3, vec![Shift { entry: 2, from: 2, n: 1 }]);
        assert_eq!(flat[5].0, vec![Slot(3)]);
        assert_eq!(flat[9].2, Kind::Call { args: 1, tail: false });
        assert_eq!((flat[9].0.clone(), flat[9].1.clone()), (vec![Slot(1)], vec![Slot(1)]));
        // br_if to the function's label returns its top value.
        assert_eq!(flat[13].2, Kind::Return { values: 1 });
        assert_eq!(flat[13].0, vec![Slot(1), Slot(0)]);
        assert_eq!(flat.last().unwrap().2, Kind::Return { values: 1 });
        assert_eq!(f.blocks.iter().map(|b| b.entry).collect::<Vec<_>>().first(), Some(&0));
    }
}
