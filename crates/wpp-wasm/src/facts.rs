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
//! (`operator_arity`, through [`crate::body`]'s walk), so every instruction of every
//! supported proposal is handled; the validator's stack height is the check, and in
//! unreachable code, where the stack is polymorphic, everything is unknown.

use wasmparser::{FuncValidator, MemArg, Operator, ValidatorResources};
use wpp_model::effects::{Access, Action, Base, FuncEffects, Var};
use wpp_model::{FuncIdx, FuncMap};

use crate::body::{self, Instr, Visitor};
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
    let mut walk = Effects { program, out: FuncMap::new(program.functions.len()), fx: FuncEffects::default(), stack: Vec::new() };
    body::walk(bytes, program, &mut walk)?;
    Ok(walk.out)
}

/// The walk of [`effects`]: the function's effects so far and its symbolic stack.
struct Effects<'p> {
    program: &'p Program,
    out: FuncMap<FuncEffects>,
    fx: FuncEffects,
    stack: Vec<Sym>,
}

impl Visitor for Effects<'_> {
    fn enter(&mut self, func: FuncIdx, v: &FuncValidator<ValidatorResources>) {
        let program = self.program;
        let params =
            program.func_type.get(func.idx()).and_then(|&t| program.types.get(t as usize)).and_then(|t| t.as_ref()).map_or(0, |t| t.params.len() as u32);
        let n_blocks = program.cfg(func).map_or(0, |cfg| cfg.n_blocks());
        self.fx = FuncEffects { blocks: vec![Vec::new(); n_blocks], params, locals: v.len_locals() };
        self.stack.clear();
    }

    fn instruction(&mut self, i: &Instr) -> Result<(), Error> {
        let (op, at32, stack) = (i.op, i.at, &mut self.stack);
        // In unreachable code the stack is polymorphic: every value is unknown.
        if !i.reachable() {
            stack.iter_mut().for_each(|s| *s = Sym::Unknown);
        }
        let (pops, pushes) = i.arity();
        let arg = |depth: usize| stack.len().checked_sub(depth + 1).map_or(Sym::Unknown, |i| stack[i]);
        let actions = &mut self.fx.blocks[i.block];
        let mut result = None;
        if let Some((memarg, width)) = load_width(op) {
            let (base, k) = arg(0).base();
            actions.push(Action::Load { access: Access { memory: memarg.memory, base, offset: k.wrapping_add(memarg.offset), width }, at: at32 });
        } else if let Some((memarg, width)) = store_width(op) {
            let (base, k) = arg(1).base();
            actions.push(Action::Store { access: Access { memory: memarg.memory, base, offset: k.wrapping_add(memarg.offset), width }, at: at32 });
        } else if let Some(memory) = clobbered(op) {
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
        match *op {
            Operator::I32Const { value } => result = Some(Sym::Const(value as u32 as u64)),
            Operator::I64Const { value } => result = Some(Sym::Const(value as u64)),
            Operator::LocalGet { local_index } => result = Some(Sym::VarPlus(Var::Local(local_index), 0)),
            Operator::GlobalGet { global_index } => result = Some(Sym::VarPlus(Var::Global(global_index), 0)),
            Operator::LocalSet { local_index } | Operator::LocalTee { local_index } => {
                let var = Var::Local(local_index);
                actions.push(Action::Def { var, at: at32 });
                forget(stack, Some(var));
                if matches!(op, Operator::LocalTee { .. }) {
                    result = Some(Sym::VarPlus(var, 0));
                }
            }
            Operator::GlobalSet { global_index } => {
                let var = Var::Global(global_index);
                actions.push(Action::Def { var, at: at32 });
                forget(stack, Some(var));
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
            | Operator::ReturnCallRef { .. } => forget(stack, None),
            _ => {}
        }
        if !i.reachable() {
            result = None;
        }
        // The stack as the instruction leaves it.
        stack.truncate(stack.len().saturating_sub(pops as usize));
        for i in 0..pushes {
            stack.push(if i + 1 == pushes { result.unwrap_or(Sym::Unknown) } else { Sym::Unknown });
        }
        Ok(())
    }

    fn after(&mut self, height: u32) {
        // Values the interpretation does not follow (a branch's, a frame's end) are unknown.
        if self.stack.len() != height as usize {
            self.stack = vec![Sym::Unknown; height as usize];
        }
    }

    fn exit(&mut self, func: FuncIdx) {
        self.out.insert(func, std::mem::take(&mut self.fx));
    }
}
