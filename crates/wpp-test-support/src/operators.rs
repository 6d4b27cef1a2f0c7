//! An independent count of instructions: the byte offset of every operator in a module's
//! code that does work, read from wasmparser's operator stream, so that a test can count
//! the instructions in any byte range without the CFG builder's bookkeeping. The rule
//! (docs/testing.md): structure markers and `nop` are not instructions.

use std::ops::Range;

use wasmparser::{Operator, Parser, Payload};

/// Every operator of a module's function bodies, by offset.
pub struct Operators {
    /// Offsets of the operators that do work, ascending.
    offsets: Vec<u32>,
    /// Per defined function, in order: the offsets of its operators (from its first
    /// operator to just past its final `end`).
    bodies: Vec<Range<u32>>,
}

impl Operators {
    /// Reads the code section of `wasm`.
    pub fn of(wasm: &[u8]) -> Result<Operators, wasmparser::BinaryReaderError> {
        let mut offsets = Vec::new();
        let mut bodies = Vec::new();
        for payload in Parser::new(0).parse_all(wasm) {
            if let Payload::CodeSectionEntry(body) = payload? {
                let mut ops = body.get_operators_reader()?;
                let mut first = None;
                while !ops.eof() {
                    let (op, offset) = ops.read_with_offset()?;
                    first.get_or_insert(offset as u32);
                    let marker = matches!(
                        op,
                        Operator::Nop
                            | Operator::Block { .. }
                            | Operator::Loop { .. }
                            | Operator::End
                            | Operator::Else
                            | Operator::TryTable { .. }
                            | Operator::Try { .. }
                            | Operator::Catch { .. }
                            | Operator::CatchAll
                            | Operator::Delegate { .. }
                    );
                    if !marker {
                        offsets.push(offset as u32);
                    }
                }
                let end = body.range().end as u32;
                bodies.push(first.unwrap_or(end)..end);
            }
        }
        Ok(Operators { offsets, bodies })
    }

    /// Operators that do work starting in `start..end`.
    pub fn count(&self, start: u32, end: u32) -> u64 {
        (self.offsets.partition_point(|&o| o < end) - self.offsets.partition_point(|&o| o < start)) as u64
    }

    /// The byte range of the `i`th defined function's operators.
    pub fn body(&self, i: usize) -> Range<u32> {
        self.bodies[i].clone()
    }

    /// Number of defined functions.
    pub fn n_bodies(&self) -> usize {
        self.bodies.len()
    }
}
