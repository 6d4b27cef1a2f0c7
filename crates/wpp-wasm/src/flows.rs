//! The uses at each write: for every store, bulk write and host call in the module's
//! table of access sites ([`crate::access_sites`]), the loads whose values its operands
//! were computed from (its address and the value written), as the chains of memory
//! dependences follow them: a load `u` "at" a store `d` in Tallam and Gupta's sense.
//!
//! Values are followed through the operand stack and through locals and globals set in
//! the same block, never across blocks. Calls end blocks, so a use and its write execute
//! in one straight run of code with no other execution of either in between: the Kth
//! execution of the write is the Kth of each of its uses, which is how a chain steps from
//! a write instance to the load instances at it. A host call's uses are unknown (what the
//! host read is not seen) and empty here; a `memory.copy` writes what its own read read.
//!
//! Like `facts`, a small symbolic interpretation of each body over [`crate::body`]'s walk,
//! wasmparser's validator giving every instruction's arity and the stack height (in
//! unreachable code everything is forgotten).

use std::collections::HashMap;

use wasmparser::{FuncValidator, Operator, ValidatorResources};
use wpp_model::{FuncIdx, SiteIdx};

use crate::access::{bracketed_import, MemOp};
use crate::body::{self, Instr, Visitor};
use crate::{Error, Program};

/// The set of load sites a value came from, sorted.
type Origins = Vec<SiteIdx>;

fn union(into: &mut Origins, from: &[SiteIdx]) {
    if from.is_empty() {
        return;
    }
    into.extend_from_slice(from);
    into.sort_unstable();
    into.dedup();
}

/// By access site (numbered as [`crate::access_sites`] numbers them): for a write site
/// (store, bulk write, host call), the read sites of its block whose values flowed into
/// its operands; empty for read sites and the final host-write site.
pub fn statement_uses(bytes: &[u8], program: &Program) -> Result<Vec<Vec<SiteIdx>>, Error> {
    let mut walk = Uses { program, uses: Vec::new(), stack: Vec::new(), vars: HashMap::new() };
    body::walk(bytes, program, &mut walk)?;
    let mut uses = walk.uses;
    uses.push(Vec::new()); // the host-write site
    Ok(uses)
}

/// The walk of [`statement_uses`]: the uses so far, and the origins of the values on the
/// stack and in the variables set in the current block.
struct Uses<'p> {
    program: &'p Program,
    uses: Vec<Vec<SiteIdx>>,
    stack: Vec<Origins>,
    vars: HashMap<(bool, u32), Origins>,
}

impl Visitor for Uses<'_> {
    fn enter(&mut self, _func: FuncIdx, _v: &FuncValidator<ValidatorResources>) {
        self.stack.clear();
        self.vars.clear();
    }

    fn instruction(&mut self, i: &Instr) -> Result<(), Error> {
        let op = i.op;
        if i.first_in_block || !i.reachable() {
            // Values from earlier blocks are not followed, and unreachable code has none.
            self.stack.iter_mut().for_each(Vec::clear);
        }
        if i.first_in_block {
            self.vars.clear();
        }
        let (pops, pushes) = i.arity();
        let mut operands: Origins = Vec::new();
        for s in self.stack.iter().rev().take(pops as usize) {
            union(&mut operands, s);
        }
        let mut result = operands.clone();
        if let Some(mem_op) = MemOp::of(op) {
            let mut read = None;
            for (_, kind) in mem_op.sites() {
                let site = SiteIdx(self.uses.len() as u32);
                match kind {
                    wpp_model::access_event::SiteKind::Read { .. } => {
                        read = Some(site);
                        self.uses.push(Vec::new());
                        union(&mut result, &[site]);
                    }
                    _ => {
                        let mut u = operands.clone();
                        union(&mut u, read.as_slice());
                        self.uses.push(u);
                    }
                }
            }
        } else if bracketed_import(self.program, op).is_some() {
            self.uses.push(Vec::new());
        }
        match *op {
            Operator::LocalGet { local_index } => result = self.vars.get(&(false, local_index)).cloned().unwrap_or_default(),
            Operator::GlobalGet { global_index } => result = self.vars.get(&(true, global_index)).cloned().unwrap_or_default(),
            Operator::LocalSet { local_index } | Operator::LocalTee { local_index } => {
                self.vars.insert((false, local_index), operands.clone());
            }
            Operator::GlobalSet { global_index } => {
                self.vars.insert((true, global_index), operands.clone());
            }
            _ => {}
        }
        if !i.reachable() {
            result.clear();
        }
        self.stack.truncate(self.stack.len().saturating_sub(pops as usize));
        for _ in 0..pushes {
            self.stack.push(result.clone());
        }
        Ok(())
    }

    fn after(&mut self, height: u32) {
        if self.stack.len() != height as usize {
            self.stack = vec![Vec::new(); height as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sites in code order: a load's value through a local, a load in the stored value,
    /// a load in the address, a copy's read, and a local set in another block (not
    /// followed).
    #[test]
    fn uses_follow_values_within_a_block() {
        let wat = r#"(module (memory 1)
            (func (param i32) (local i32)
              (local.set 1 (i32.load (i32.const 0)))          ;; site 0
              (i32.store (i32.const 8)                        ;; site 2
                 (i32.add (local.get 1) (i32.load (i32.const 4))))  ;; site 1
              (i32.store (i32.load (i32.const 12)) (i32.const 1))   ;; sites 3, 4: the address's load
              (memory.copy (i32.const 16) (i32.const 32) (i32.const 4)) ;; sites 5 (read), 6 (write)
              (if (local.get 0) (then
                (i32.store (i32.const 40) (local.get 1))))    ;; site 7: local 1 was set in an earlier block
            )
            (export "f" (func 0)))"#;
        let bytes = wat::parse_str(wat).unwrap();
        let program = crate::decode(&bytes).unwrap();
        let sites = crate::access_sites(&bytes, &program).unwrap();
        let uses = statement_uses(&bytes, &program).unwrap();
        assert_eq!(uses.len(), sites.len());
        let uses: Vec<Vec<u32>> = uses.iter().map(|u| u.iter().map(|s| s.0).collect()).collect();
        assert_eq!(uses, vec![vec![], vec![], vec![0, 1], vec![], vec![3], vec![], vec![5], vec![], vec![]]);
    }
}
