//! The extended WPP's check routines: the two functions whose control flow records, for
//! each dependence of a load, which writer and which of its instances wrote the bytes
//! (Tallam & Gupta's disambiguation checks, §2–3).
//!
//! * `check(j, s, k, n, last)`: a `br_table` on `j` names the writer: 0 the initial
//!   memory, `1..=C` the load's `j`th candidate (a writer the filtering run saw it read
//!   from), anything else an unforeseen writer, whose site `s` a binary search over the
//!   sites then spells out (the generic check). For a writer, `k == n` (the instance is
//!   the writer's latest of its `n` executions) is one comparison; otherwise `gallop`
//!   spells out the distance `n - k`. Last, whether this is the load's last writer.
//! * `gallop(d)`: the bit length of `d` in unary, then `search` within it: the paths
//!   depend on the distance alone, so a load that keeps reading the instance a fixed
//!   number of writes back repeats them (they compress), and they are short when it is
//!   recent (Tallam & Gupta found matches near the latest).
//! * `search(lo, hi, t)`: the binary search for `t` in `lo..=hi`, one loop iteration per
//!   halving: each iteration's path says lower or higher, the last one found.
//!
//! The two are written once, as a small module of their own, decoded into CFGs like any
//! function, numbered, and instrumented by the path rewrite in the recording module: their
//! paths are events of the one trace. [`Roles`] names the blocks a recovery reads.

use wasm_encoder::{BlockType, CodeSection, Function, FunctionSection, Instruction as I, Module, TypeSection, ValType};
use wpp_model::ewpp::Roles;
use wpp_model::BlockIdx;

use crate::decode::Program;
use crate::Error;

/// The check routines for loads of at most `max_candidates` candidates, in a module of
/// `n_sites` access sites: the module holding them (`check` is function 0, `search` 1),
/// decoded (`check` is function 0, `search` 1, `gallop` 2), and what their blocks mean.
pub(crate) struct Routines {
    pub wasm: Vec<u8>,
    pub program: Program,
    pub roles: Roles,
}

/// `check`'s parameters.
const J: u32 = 0;
const S: u32 = 1;
const K: u32 = 2;
const N: u32 = 3;
const LAST: u32 = 4;
/// `search`'s.
const LO: u32 = 0;
const HI: u32 = 1;
const T: u32 = 2;
const MID: u32 = 3;

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
}

pub(crate) fn routines(max_candidates: u32, n_sites: u32) -> Result<Routines, Error> {
    let c = max_candidates;
    // check
    let mut b = Body::new(vec![]);
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
    b.op(I::I64Const(0)).op(I::I64Const(n_sites.saturating_sub(1) as i64)).op(I::LocalGet(S)).op(I::I64ExtendI32U).op(I::Call(1));
    b.op(I::End); // $inst
    b.op(I::LocalGet(K)).op(I::LocalGet(N)).op(I::I64Eq).op(I::If(BlockType::Empty));
    let latest = b.mark();
    b.op(I::Else);
    let earlier = b.mark();
    // The distance back from the latest, n - k >= 1, spelled out by `gallop`.
    b.op(I::LocalGet(N)).op(I::LocalGet(K)).op(I::I64Sub).op(I::Call(2));
    b.op(I::End);
    b.op(I::End); // $done
    b.op(I::LocalGet(LAST)).op(I::If(BlockType::Empty));
    let last = b.mark();
    b.op(I::Else);
    let more = b.mark();
    b.op(I::End);
    b.op(I::End);
    let check = b;

    // search
    let mut b = Body::new(vec![(1, ValType::I64)]);
    b.op(I::Loop(BlockType::Empty));
    // A target outside the range would loop for ever: trap instead.
    b.op(I::LocalGet(LO)).op(I::LocalGet(HI)).op(I::I64GtU).op(I::If(BlockType::Empty)).op(I::Unreachable).op(I::End);
    b.op(I::LocalGet(LO)).op(I::LocalGet(HI)).op(I::LocalGet(LO)).op(I::I64Sub).op(I::I64Const(1)).op(I::I64ShrU).op(I::I64Add).op(I::LocalSet(MID));
    b.op(I::LocalGet(T)).op(I::LocalGet(MID)).op(I::I64LtU).op(I::If(BlockType::Empty));
    let lower = b.mark();
    b.op(I::LocalGet(MID)).op(I::I64Const(1)).op(I::I64Sub).op(I::LocalSet(HI)).op(I::Br(1));
    b.op(I::End);
    b.op(I::LocalGet(T)).op(I::LocalGet(MID)).op(I::I64GtU).op(I::If(BlockType::Empty));
    let higher = b.mark();
    b.op(I::LocalGet(MID)).op(I::I64Const(1)).op(I::I64Add).op(I::LocalSet(LO)).op(I::Br(1));
    b.op(I::End);
    let found = b.mark();
    b.op(I::End); // loop
    b.op(I::End);
    let search = b;

    // gallop(d): the bit length of d >= 1 in unary (a loop doubling a bound while d is
    // at least it), then `search` in [bound / 2, bound - 1]: a path sequence that depends
    // on the distance alone, as short as it is small.
    const D: u32 = 0;
    const BOUND: u32 = 1;
    let mut b = Body::new(vec![(1, ValType::I64)]);
    b.op(I::I64Const(2)).op(I::LocalSet(BOUND));
    b.op(I::Loop(BlockType::Empty));
    b.op(I::LocalGet(D)).op(I::LocalGet(BOUND)).op(I::I64GeU).op(I::If(BlockType::Empty));
    let wider = b.mark();
    b.op(I::LocalGet(BOUND)).op(I::I64Const(1)).op(I::I64Shl).op(I::LocalSet(BOUND)).op(I::Br(1));
    b.op(I::End);
    b.op(I::End); // loop
    let narrowed = b.mark();
    b.op(I::LocalGet(BOUND)).op(I::I64Const(1)).op(I::I64ShrU).op(I::LocalGet(BOUND)).op(I::I64Const(1)).op(I::I64Sub).op(I::LocalGet(D)).op(I::Call(1));
    b.op(I::End);
    let gallop = b;

    let mut types = TypeSection::new();
    types.ty().function([ValType::I32, ValType::I32, ValType::I64, ValType::I64, ValType::I32], []);
    types.ty().function([ValType::I64, ValType::I64, ValType::I64], []);
    types.ty().function([ValType::I64], []);
    let mut funcs = FunctionSection::new();
    funcs.function(0);
    funcs.function(1);
    funcs.function(2);
    let mut code = CodeSection::new();
    code.function(&check.f);
    code.function(&search.f);
    code.function(&gallop.f);
    let mut m = Module::new();
    m.section(&types).section(&funcs).section(&code);
    let wasm = m.finish();
    let program = crate::decode(&wasm)?;
    let block = |func: usize, op: u32| -> Result<BlockIdx, Error> {
        let l = &program.layouts[func];
        let b = l
            .first_op
            .iter()
            .rposition(|&first| first <= op)
            .ok_or_else(|| Error::Rewrite { place: "check routines".into(), message: format!("no block holds op {op}") })?;
        Ok(BlockIdx(b as u32))
    };
    let roles = Roles {
        initial: block(0, initial)?,
        candidates: candidates.iter().map(|&op| block(0, op)).collect::<Result<_, _>>()?,
        generic: block(0, generic)?,
        latest: block(0, latest)?,
        earlier: block(0, earlier)?,
        last: block(0, last)?,
        more: block(0, more)?,
        lower: block(1, lower)?,
        higher: block(1, higher)?,
        found: block(1, found)?,
        wider: block(2, wider)?,
        narrowed: block(2, narrowed)?,
    };
    // Every role its own block.
    let mut all: Vec<(usize, BlockIdx)> = [roles.initial, roles.generic, roles.latest, roles.earlier, roles.last, roles.more].iter().map(|&b| (0, b)).collect();
    all.extend(roles.candidates.iter().map(|&b| (0, b)));
    all.extend([roles.lower, roles.higher, roles.found].iter().map(|&b| (1, b)));
    all.extend([roles.wider, roles.narrowed].iter().map(|&b| (2, b)));
    let n = all.len();
    all.sort();
    all.dedup();
    if all.len() != n {
        return Err(Error::Rewrite { place: "check routines".into(), message: "two roles share a block".into() });
    }
    Ok(Routines { wasm, program, roles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_has_a_block_of_its_own() {
        for c in [0, 1, 3, 17] {
            let r = routines(c, 100).unwrap();
            assert_eq!(r.roles.candidates.len(), c as usize);
            assert!(r.program.functions.iter().all(|f| f.cfg.is_some()));
        }
    }
}
