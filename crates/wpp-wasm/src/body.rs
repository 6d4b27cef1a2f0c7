//! One walk over every defined function's body, shared by the analyses that read bodies
//! instruction by instruction ([`crate::effects`], [`crate::statement_uses`],
//! [`crate::statements`], [`crate::access_sites`]): the module parsed and validated once,
//! each body's locals defined, each instruction given with the CFG block it is in (by its
//! index in the body, [`crate::cfg_build::FuncLayout::first_op`]) and wasmparser's
//! validator as it stands before the instruction, so that arities, stack heights, control
//! frames and reachability are read the same way by every analysis.
//!
//! Reachability is the validator's: an instruction is unreachable when its innermost
//! control frame is (after `unreachable`, `br`, `return`, a `throw` and the like, until
//! the frame ends), where the operand stack is polymorphic and the instruction never runs.

use wasmparser::{FuncValidator, Operator, Parser, ValidPayload, Validator, ValidatorResources};
use wpp_model::FuncIdx;

use crate::decode::supported_features;
use crate::{Error, Program};

/// One instruction of a body as a walk gives it: where it is, and the validator's state
/// before it.
pub(crate) struct Instr<'o, 'a> {
    pub func: FuncIdx,
    /// Its byte offset in the module.
    pub at: u32,
    /// The CFG block it is in, and whether it is the block's first instruction.
    pub block: usize,
    pub first_in_block: bool,
    pub op: &'o Operator<'a>,
    pub v: &'o FuncValidator<ValidatorResources>,
}

impl Instr<'_, '_> {
    /// The operand stack's height before it.
    pub fn height(&self) -> u32 {
        self.v.operand_stack_height()
    }

    /// Whether it can run: its innermost control frame is not unreachable.
    pub fn reachable(&self) -> bool {
        self.v.get_control_frame(0).is_some_and(|f| !f.unreachable)
    }

    /// How many values it pops and pushes.
    pub fn arity(&self) -> (u32, u32) {
        self.op.operator_arity(self.v).unwrap_or((0, 0))
    }
}

/// What a walk tells an analysis.
pub(crate) trait Visitor {
    /// Why the analysis refuses a module with exception tags, if it does.
    const REFUSES_EXCEPTIONS: Option<&'static str> = None;

    /// A body begins; its locals are defined in `v`.
    fn enter(&mut self, _func: FuncIdx, _v: &FuncValidator<ValidatorResources>) {}

    fn instruction(&mut self, i: &Instr) -> Result<(), Error>;

    /// The validator took the instruction: the operand stack's height after it.
    fn after(&mut self, _height: u32) {}

    /// The body ended.
    fn exit(&mut self, _func: FuncIdx) {}
}

/// Walks every defined function's body of `bytes` (decoded into `program`) in order.
pub(crate) fn walk<V: Visitor>(bytes: &[u8], program: &Program, visitor: &mut V) -> Result<(), Error> {
    if let (Some(feature), true) = (V::REFUSES_EXCEPTIONS, program.n_tags > 0) {
        return Err(Error::Unsupported { feature: feature.into(), place: "the tag section".into() });
    }
    let mut validator = Validator::new_with_features(supported_features());
    let mut defined = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        let ValidPayload::Func(to_validate, body) = validator.payload(&payload)? else { continue };
        let func = FuncIdx(program.n_imported_funcs + defined as u32);
        let layout = &program.layouts[defined];
        defined += 1;
        let mut v = to_validate.into_validator(Default::default());
        for local in body.get_locals_reader()? {
            let (count, ty) = local?;
            v.define_locals(body.range().start, count, ty)?;
        }
        visitor.enter(func, &v);
        let mut block = 0usize;
        let mut index = 0u32;
        let mut ops = body.get_operators_reader()?;
        while !ops.eof() {
            let at = ops.original_position();
            let op = ops.read()?;
            let mut first_in_block = index == 0;
            while block + 1 < layout.first_op.len() && index >= layout.first_op[block + 1] {
                block += 1;
                first_in_block = true;
            }
            index += 1;
            visitor.instruction(&Instr { func, at: at as u32, block, first_in_block, op: &op, v: &v })?;
            v.op(at, &op)?;
            visitor.after(v.operand_stack_height());
        }
        visitor.exit(func);
    }
    Ok(())
}
