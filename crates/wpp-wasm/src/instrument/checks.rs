//! The extended WPP's check routine: the function whose control flow records, for each
//! dependence of a load, which writer and which of its instances wrote the bytes (Tallam &
//! Gupta's disambiguation checks, §2–3).
//!
//! `check(j, s, k, n, last)`: a `br_table` on `j` names the writer: 0 the initial memory,
//! `1..=C` the load's `j`th candidate (a writer the filtering run saw it read from),
//! anything else an unforeseen writer, whose site `s` is then spelled out (the generic
//! check). For a writer, `k == n` (the instance is the writer's latest of its `n`
//! executions) is one comparison; otherwise the distance back, `n - k`, is spelled out.
//! Last, whether this is the load's last writer.
//!
//! A number is spelled in base 256, its most significant digit first, by a loop whose
//! every iteration is one 256-way `br_table` on a digit, each target a block of its own:
//! one iteration's path names eight bits, and since the loop is inside `check`, the first
//! digit is on the same Ball-Larus path as the writer's name and the last on the same path
//! as `last`. A dependence on a candidate's latest instance, or on one fewer than 256
//! instances back, is one path event; the paths depend on the candidate and the distance
//! alone, so a load that keeps reading the same way repeats them (they compress).
//!
//! The routine is written once, as a small module of its own, decoded into a CFG like any
//! function, numbered, and instrumented by the path rewrite in the recording module: its
//! paths are events of the one trace. [`Roles`] names the blocks a recovery reads.

use wasm_encoder::{BlockType, CodeSection, Function, FunctionSection, Instruction as I, Module, TypeSection, ValType};
use wpp_model::ewpp::{Roles, Spelling};
use wpp_model::BlockIdx;

use crate::decode::Program;
use crate::Error;

/// The check routine for loads of at most `max_candidates` candidates: the module holding
/// it, decoded, and what its blocks mean.
pub(crate) struct Routines {
    pub wasm: Vec<u8>,
    pub program: Program,
    pub roles: Roles,
}

/// `check`'s parameters, and its locals: the number being spelled and the shift of its
/// next digit.
const J: u32 = 0;
const S: u32 = 1;
const K: u32 = 2;
const N: u32 = 3;
const LAST: u32 = 4;
const V: u32 = 5;
const SHIFT: u32 = 6;

/// A function body being written, counting its instructions so that the marker `nop`s can
/// be found in its CFG.
struct Body {
    f: Function,
    ops: u32,
}

impl Body {
    fn new(locals: Vec<(u32, ValType)>) -> Body {
        Body { f: Function::new(locals), ops: 0 }
    }
    fn op(&mut self, i: I<'_>) -> &mut Self {
        self.f.instruction(&i);
        self.ops += 1;
        self
    }
    /// A marker: a `nop` whose op index names its block.
    fn mark(&mut self) -> u32 {
        self.op(I::Nop);
        self.ops - 1
    }

    /// Spells out local `V` (an i64) in base 256, most significant digit first, one loop
    /// iteration per digit: the markers of each digit's block and of the loop's end.
    fn spell(&mut self) -> (Vec<u32>, u32) {
        // The shift of the first digit: 8 × (digits - 1), at least one digit.
        self.op(I::I64Const(63)).op(I::LocalGet(V)).op(I::I64Const(1)).op(I::I64Or).op(I::I64Clz).op(I::I64Sub);
        self.op(I::I64Const(3)).op(I::I64ShrU).op(I::I64Const(3)).op(I::I64Shl).op(I::LocalSet(SHIFT));
        self.op(I::Loop(BlockType::Empty));
        self.op(I::Block(BlockType::Empty)); // $next
        for _ in 0..256 {
            self.op(I::Block(BlockType::Empty)); // $d255 .. $d0
        }
        self.op(I::LocalGet(V)).op(I::LocalGet(SHIFT)).op(I::I64ShrU).op(I::I64Const(255)).op(I::I64And).op(I::I32WrapI64);
        let table: Vec<u32> = (0..256).collect();
        self.op(I::BrTable(table.into(), 255));
        let mut digits = Vec::new();
        for d in 0..256u32 {
            self.op(I::End); // $d_d
            digits.push(self.mark());
            self.op(I::Br(255 - d)); // to $next
        }
        self.op(I::End); // $next
        self.op(I::LocalGet(SHIFT)).op(I::I64Eqz).op(I::I32Eqz).op(I::If(BlockType::Empty));
        self.op(I::LocalGet(SHIFT)).op(I::I64Const(8)).op(I::I64Sub).op(I::LocalSet(SHIFT)).op(I::Br(1));
        self.op(I::End);
        let done = self.mark();
        self.op(I::End); // loop
        (digits, done)
    }
}

pub(crate) fn routines(max_candidates: u32) -> Result<Routines, Error> {
    let c = max_candidates;
    let mut b = Body::new(vec![(2, ValType::I64)]);
    b.op(I::Block(BlockType::Empty)); // $done
    b.op(I::Block(BlockType::Empty)); // $inst
    b.op(I::Block(BlockType::Empty)); // $generic
    for _ in 0..c {
        b.op(I::Block(BlockType::Empty)); // $c_C .. $c_1
    }
    b.op(I::Block(BlockType::Empty)); // $init
    b.op(I::LocalGet(J));
    let table: Vec<u32> = (0..=c).collect();
    b.op(I::BrTable(table.into(), c + 1));
    b.op(I::End); // $init
    let initial = b.mark();
    b.op(I::Br(c + 2)); // to $done
    let mut candidates = Vec::new();
    for i in 1..=c {
        b.op(I::End); // $c_i
        candidates.push(b.mark());
        b.op(I::Br(c - i + 1)); // to $inst
    }
    b.op(I::End); // $generic
    let generic = b.mark();
    b.op(I::LocalGet(S)).op(I::I64ExtendI32U).op(I::LocalSet(V));
    let site = b.spell();
    b.op(I::End); // $inst
    b.op(I::LocalGet(K)).op(I::LocalGet(N)).op(I::I64Eq).op(I::If(BlockType::Empty));
    let latest = b.mark();
    b.op(I::Else);
    let earlier = b.mark();
    // The distance back from the latest, n - k >= 1.
    b.op(I::LocalGet(N)).op(I::LocalGet(K)).op(I::I64Sub).op(I::LocalSet(V));
    let distance = b.spell();
    b.op(I::End);
    b.op(I::End); // $done
    b.op(I::LocalGet(LAST)).op(I::If(BlockType::Empty));
    let last = b.mark();
    b.op(I::Else);
    let more = b.mark();
    b.op(I::End);
    b.op(I::End);

    let mut types = TypeSection::new();
    types.ty().function([ValType::I32, ValType::I32, ValType::I64, ValType::I64, ValType::I32], []);
    let mut funcs = FunctionSection::new();
    funcs.function(0);
    let mut code = CodeSection::new();
    code.function(&b.f);
    let mut m = Module::new();
    m.section(&types).section(&funcs).section(&code);
    let wasm = m.finish();
    let program = crate::decode(&wasm)?;
    let block = |op: u32| -> Result<BlockIdx, Error> {
        let l = &program.layouts[0];
        let b = l
            .first_op
            .iter()
            .rposition(|&first| first <= op)
            .ok_or_else(|| Error::Rewrite { place: "check routine".into(), message: format!("no block holds op {op}") })?;
        Ok(BlockIdx(b as u32))
    };
    let spelling = |(digits, done): &(Vec<u32>, u32)| -> Result<Spelling, Error> {
        Ok(Spelling { digits: digits.iter().map(|&op| block(op)).collect::<Result<_, _>>()?, done: block(*done)? })
    };
    let roles = Roles {
        initial: block(initial)?,
        candidates: candidates.iter().map(|&op| block(op)).collect::<Result<_, _>>()?,
        generic: block(generic)?,
        site: spelling(&site)?,
        latest: block(latest)?,
        earlier: block(earlier)?,
        distance: spelling(&distance)?,
        last: block(last)?,
        more: block(more)?,
    };
    // Every role its own block.
    let mut all: Vec<BlockIdx> = vec![roles.initial, roles.generic, roles.latest, roles.earlier, roles.last, roles.more, roles.site.done, roles.distance.done];
    all.extend(roles.candidates.iter().chain(&roles.site.digits).chain(&roles.distance.digits));
    let n = all.len();
    all.sort();
    all.dedup();
    if all.len() != n {
        return Err(Error::Rewrite { place: "check routine".into(), message: "two roles share a block".into() });
    }
    Ok(Routines { wasm, program, roles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_has_a_block_of_its_own() {
        for c in [0, 1, 3, 17, 64] {
            let r = routines(c).unwrap();
            assert_eq!(r.roles.candidates.len(), c as usize);
            assert_eq!((r.roles.site.digits.len(), r.roles.distance.digits.len()), (256, 256));
            assert!(r.program.functions.iter().all(|f| f.cfg.is_some()));
        }
    }
}
