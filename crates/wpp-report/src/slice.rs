//! The rows of a dynamic slice (`wpp slice`), which `wpp-dataflow` fills in: the
//! criterion, then the instructions of the slice grouped by source line, each with how
//! many of its executions are in the slice and the dependences that put them there.

use serde::Serialize;

use crate::dataflow::Place;
use crate::Truncation;

/// What the slice was asked about: the value of a variable just before one execution of
/// an instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Criterion {
    pub place: Place,
    /// `local 3`, `global 0`.
    pub variable: String,
    /// Which execution of the instruction, from 1, in run order.
    pub execution: u64,
    /// How many times the instruction ran.
    pub executions: u64,
    /// What gave the variable its value there: an instruction, or `entry` (a local's zero
    /// or the host's argument) or `init` (a global's initial value); for bytes of memory,
    /// what wrote the first of them.
    pub defined_by: DepSource,
    /// For bytes of memory: each run of them with the write that put it there last (or
    /// `initial memory`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bytes: Vec<BytesFrom>,
}

impl Criterion {
    /// Where the value came from, as the listing's lines.
    pub fn origin(&self) -> Vec<String> {
        match self.bytes.as_slice() {
            [] | [_] => vec![format!("its value came from {}", self.defined_by.describe())],
            runs => runs
                .iter()
                .map(|b| {
                    let n = if b.len == 1 { "byte".to_string() } else { format!("{} bytes", b.len) };
                    let which = b.execution.map(|k| format!(", its execution {}", crate::format::group(k))).unwrap_or_default();
                    format!("{n} at {} from {}{which}", b.first, b.from.describe())
                })
                .collect(),
        }
    }
}

/// A run of the bytes a memory criterion names, and what wrote them last.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BytesFrom {
    /// The first byte's address.
    pub first: String,
    pub len: u64,
    pub from: DepSource,
    /// Which execution of its instruction the write was (from 1, in run order).
    pub execution: Option<u64>,
}

/// Where a dependence comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepSource {
    /// `instruction`, `entry`, `init`, `memory` (not followed) or `initial memory`.
    pub kind: &'static str,
    pub place: Option<Place>,
    /// The instruction as text (`local.get 2`; `the result of call 3`, `argument 0 of
    /// call 3` for what a call returned and passed).
    pub text: Option<String>,
}

impl DepSource {
    /// The source as the listing names it: `0x1a2 local.get 2 (main prog.c:14)`, or the
    /// leaf in words.
    pub fn describe(&self) -> String {
        match (&self.place, &self.text) {
            (Some(p), Some(t)) => format!("{} {t} ({}{})", p.at, p.function, p.source.as_ref().map(|s| format!(" {s}")).unwrap_or_default()),
            (Some(p), None) => p.at_function(),
            _ => self.leaf().into(),
        }
    }

    /// What a source that is not an instruction is, in words.
    pub fn leaf(&self) -> &'static str {
        match self.kind {
            "entry" => "the invocation's entry",
            "init" => "the global's initial value",
            "memory" => "memory (not followed)",
            "initial memory" => "the module's initial memory",
            k => k,
        }
    }
}

/// One kind of dependence of an instruction in the slice, with how many of its
/// executions in the slice had it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepRow {
    /// `data` (through `register`), `control`, `call` (a call's result on the call),
    /// `return` (on what the callee returned), `argument` (a parameter on the argument
    /// passed), `memory` (a load's value: the writer of the bytes it read, or memory not
    /// followed).
    pub kind: &'static str,
    /// For `data`: `local 3`, `global 0`, `stack slot 2`.
    pub register: Option<String>,
    pub from: DepSource,
    pub count: u64,
}

/// An instruction of the slice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SliceInstr {
    pub at: String,
    pub text: String,
    /// Its executions in the slice (a call's execution, result or arguments).
    pub instances: u64,
    pub deps: Vec<DepRow>,
}

/// The instructions of the slice on one source line of one function (or, without DWARF,
/// one function).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SliceLine {
    pub function: String,
    pub function_index: u32,
    /// `FILE:LINE` when the module has DWARF.
    pub source: Option<String>,
    pub instructions: Vec<SliceInstr>,
}

/// A dynamic slice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SliceReport {
    pub criterion: Criterion,
    /// Agrawal and Horgan's approach: 3, the precise slice (executions of instructions);
    /// 2, every execution of each instruction reached; 1, the executed instructions whose
    /// definitions can reach (dependence counts are then one per instruction).
    pub algorithm: u8,
    /// Whether memory dependences were followed (a load's value is otherwise where the
    /// slice stops).
    pub follows_memory: bool,
    /// Distinct instructions in the slice.
    pub statements: u64,
    /// Distinct source lines in the slice (0 without DWARF).
    pub source_lines: u64,
    /// Nodes of the dependence graph in the slice: executions, and calls' results and
    /// arguments.
    pub instances: u64,
    /// By function, then source line, in code order.
    pub lines: Vec<SliceLine>,
    #[serde(flatten)]
    pub truncation: Truncation,
}

impl SliceReport {
    /// What the listing says of how the slice was made: the approach, and whether memory
    /// was followed.
    pub fn notes(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        match self.algorithm {
            1 => v.push("approach 1: every executed instruction whose value can reach along executed code; each dependence counted once"),
            2 => v.push("approach 2: every execution of each instruction reached, not only those that influenced the value"),
            _ => {}
        }
        if !self.follows_memory {
            v.push("registers and control only: the TWPP keeps no memory dependences, so a load's value ends the slice");
            v.push("(build the TWPP from `wpp record --mode addresses` or `--mode ewpp` to follow loads to their stores)");
        }
        v
    }
}
