//! What each block of each function does to variables and memory ([`FuncEffects`]):
//! definitions of locals and globals, loads and stores with the expression of their
//! address, and bulk writes, in execution order. Data flow analyses read GEN and KILL
//! sets off these.
//!
//! Addresses are followed through the operand stack by a small symbolic interpretation
//! of each body in code order: a value is a constant, a variable plus a constant, or
//! unknown. Constants and `add`/`sub` of a constant fold in; a `local.set`/`local.tee` or
//! `global.set` (and, for globals, any call) makes the values read from that variable
//! before unknown, so an expression always names the variable's current value. Values
//! that join from several branches (block results, loop parameters) are unknown. How
//! many operands each instruction takes and gives comes from wasmparser's validator
//! (`operator_arity`), so every instruction of every supported proposal is handled; the
//! validator's stack height is the check (in unreachable code, where the stack is
//! polymorphic, everything is unknown).

use wasmparser::{MemArg, Operator, Parser, ValidPayload, Validator};
use wpp_model::effects::{Access, Action, Base, FuncEffects, Var};
use wpp_model::FuncMap;

use crate::decode::supported_features;
use crate::{Error, Program};

/// A value on the operand stack, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    Const(u64),
    /// A variable's value plus a constant (wrapping).
    VarPlus(Var, u64),
    Unknown,
}

impl Sym {
    fn base(self) -> (Base, u64) {
        match self {
            Sym::Const(c) => (Base::Const, c),
            Sym::VarPlus(v, k) => (Base::Var(v), k),
            Sym::Unknown => (Base::Unknown, 0),
        }
    }
}

/// Bytes a load reads, for the loads whose address is their only operand.
pub(crate) fn load_width(op: &Operator) -> Option<(MemArg, u32)> {
    use Operator::*;
    Some(match *op {
        I32Load { memarg } | F32Load { memarg } | I64Load32S { memarg } | I64Load32U { memarg } | V128Load32Splat { memarg } | V128Load32Zero { memarg } => {
            (memarg, 4)
        }
        I64Load { memarg }
        | F64Load { memarg }
        | V128Load8x8S { memarg }
        | V128Load8x8U { memarg }
        | V128Load16x4S { memarg }
        | V128Load16x4U { memarg }
        | V128Load32x2S { memarg }
        | V128Load32x2U { memarg }
        | V128Load64Splat { memarg }
        | V128Load64Zero { memarg } => (memarg, 8),
        I32Load8S { memarg } | I32Load8U { memarg } | I64Load8S { memarg } | I64Load8U { memarg } | V128Load8Splat { memarg } => (memarg, 1),
        I32Load16S { memarg } | I32Load16U { memarg } | I64Load16S { memarg } | I64Load16U { memarg } | V128Load16Splat { memarg } => (memarg, 2),
        V128Load { memarg } => (memarg, 16),
        _ => return None,
    })
}

/// Bytes a store writes, for the stores whose operands are the address and one value.
pub(crate) fn store_width(op: &Operator) -> Option<(MemArg, u32)> {
    use Operator::*;
    Some(match *op {
        I32Store { memarg } | F32Store { memarg } | I64Store32 { memarg } | V128Store32Lane { memarg, .. } => (memarg, 4),
        I64Store { memarg } | F64Store { memarg } | V128Store64Lane { memarg, .. } => (memarg, 8),
        I32Store8 { memarg } | I64Store8 { memarg } | V128Store8Lane { memarg, .. } => (memarg, 1),
        I32Store16 { memarg } | I64Store16 { memarg } | V128Store16Lane { memarg, .. } => (memarg, 2),
        V128Store { memarg } => (memarg, 16),
        _ => return None,
    })
}

/// Memory an instruction writes without naming the addresses.
fn clobbered(op: &Operator) -> Option<u32> {
    match *op {
        Operator::MemoryCopy { dst_mem, .. } => Some(dst_mem),
        Operator::MemoryFill { mem } | Operator::MemoryInit { mem, .. } => Some(mem),
        _ => None,
    }
}

/// Every defined function's effects, block by block (`program` decoded from `bytes`).
pub fn effects(bytes: &[u8], program: &Program) -> Result<FuncMap<FuncEffects>, Error> {
    let mut out = FuncMap::new(program.functions.len());
    let mut validator = Validator::new_with_features(supported_features());
    let mut defined = 0u32;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        let ValidPayload::Func(to_validate, body) = validator.payload(&payload)? else { continue };
        let index = wpp_model::FuncIdx(program.n_imported_funcs + defined);
        defined += 1;
        let Some(cfg) = program.cfg(index) else { continue };
        let mut v = to_validate.into_validator(Default::default());
        let params =
            program.func_type.get(index.idx()).and_then(|&t| program.types.get(t as usize)).and_then(|t| t.as_ref()).map_or(0, |t| t.params.len() as u32);
        for local in body.get_locals_reader()? {
            let offset = body.range().start;
            let (count, ty) = local?;
            v.define_locals(offset, count, ty)?;
        }
        let mut fx = FuncEffects { blocks: vec![Vec::new(); cfg.n_blocks()], params, locals: v.len_locals() };
        let mut stack: Vec<Sym> = Vec::new();
        let mut block = 0usize;
        let mut ops = body.get_operators_reader()?;
        while !ops.eof() {
            let at = ops.original_position();
            let op = ops.read()?;
            while block + 1 < cfg.blocks.len() && at as u32 >= cfg.blocks[block].end {
                block += 1;
            }
            let (pops, pushes) = op.operator_arity(&v).unwrap_or((0, 0));
            let at32 = at as u32;
            let arg = |depth: usize| stack.len().checked_sub(depth + 1).map_or(Sym::Unknown, |i| stack[i]);
            let actions = &mut fx.blocks[block];
            let mut result = None;
            if let Some((memarg, width)) = load_width(&op) {
                let (base, k) = arg(0).base();
                actions.push(Action::Load { access: Access { memory: memarg.memory, base, offset: k.wrapping_add(memarg.offset), width }, at: at32 });
            } else if let Some((memarg, width)) = store_width(&op) {
                let (base, k) = arg(1).base();
                actions.push(Action::Store { access: Access { memory: memarg.memory, base, offset: k.wrapping_add(memarg.offset), width }, at: at32 });
            } else if let Some(memory) = clobbered(&op) {
                actions.push(Action::Clobber { memory, at: at32 });
            }
            let forget = |stack: &mut Vec<Sym>, var: Option<Var>| {
                for s in stack.iter_mut() {
                    if let Sym::VarPlus(v, _) = *s {
                        if var.is_none_or(|var| var == v) && (var.is_some() || matches!(v, Var::Global(_))) {
                            *s = Sym::Unknown;
                        }
                    }
                }
            };
            match op {
                Operator::I32Const { value } => result = Some(Sym::Const(value as u32 as u64)),
                Operator::I64Const { value } => result = Some(Sym::Const(value as u64)),
                Operator::LocalGet { local_index } => result = Some(Sym::VarPlus(Var::Local(local_index), 0)),
                Operator::GlobalGet { global_index } => result = Some(Sym::VarPlus(Var::Global(global_index), 0)),
                Operator::LocalSet { local_index } | Operator::LocalTee { local_index } => {
                    let var = Var::Local(local_index);
                    actions.push(Action::Def { var, at: at32 });
                    forget(&mut stack, Some(var));
                    if matches!(op, Operator::LocalTee { .. }) {
                        result = Some(Sym::VarPlus(var, 0));
                    }
                }
                Operator::GlobalSet { global_index } => {
                    let var = Var::Global(global_index);
                    actions.push(Action::Def { var, at: at32 });
                    forget(&mut stack, Some(var));
                }
                Operator::I32Add | Operator::I64Add | Operator::I32Sub | Operator::I64Sub => {
                    let mask = if matches!(op, Operator::I32Add | Operator::I32Sub) { u32::MAX as u64 } else { u64::MAX };
                    let sub = matches!(op, Operator::I32Sub | Operator::I64Sub);
                    let (a, b) = (arg(1), arg(0));
                    let k = |c: u64| if sub { c.wrapping_neg() } else { c };
                    result = Some(match (a, b) {
                        (Sym::Const(x), Sym::Const(y)) => Sym::Const(x.wrapping_add(k(y)) & mask),
                        (Sym::VarPlus(v, x), Sym::Const(y)) => Sym::VarPlus(v, x.wrapping_add(k(y)) & mask),
                        (Sym::Const(x), Sym::VarPlus(v, y)) if !sub => Sym::VarPlus(v, x.wrapping_add(y) & mask),
                        _ => Sym::Unknown,
                    });
                }
                Operator::Call { .. }
                | Operator::CallIndirect { .. }
                | Operator::CallRef { .. }
                | Operator::ReturnCall { .. }
                | Operator::ReturnCallIndirect { .. }
                | Operator::ReturnCallRef { .. } => forget(&mut stack, None),
                _ => {}
            }
            // The stack as the instruction leaves it.
            stack.truncate(stack.len().saturating_sub(pops as usize));
            for i in 0..pushes {
                stack.push(if i + 1 == pushes { result.unwrap_or(Sym::Unknown) } else { Sym::Unknown });
            }
            v.op(at, &op)?;
            let height = v.operand_stack_height() as usize;
            if stack.len() != height {
                stack = vec![Sym::Unknown; height];
            }
        }
        out.insert(index, fx);
    }
    Ok(out)
}
