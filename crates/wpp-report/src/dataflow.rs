//! The rows of the data flow reports (`wpp dataflow`, `wpp dff`): plain data that the
//! command line prints and the HTML report renders, filled in by `wpp-dataflow`.
//!
//! A program point or a definition is a [`Place`]: its function, its byte offset in the
//! module and its source line. The serde forms are the reports' JSON.

use serde::Serialize;

use crate::Truncation;

/// Where a program point or a site is: the function, the byte offset and the source line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    pub function: String,
    pub function_index: u32,
    /// Module byte offset of the instruction, `0x…`.
    pub at: String,
    /// `FILE:LINE` when the module has DWARF.
    pub source: Option<String>,
}

impl Place {
    /// `0x1a2b file.c:12`, or the offset alone without DWARF.
    pub fn at_source(&self) -> String {
        format!("{}{}", self.at, self.source.as_ref().map(|s| format!(" {s}")).unwrap_or_default())
    }

    /// `0x1a2b F file.c:12`: the offset, the function, and the line when there is one.
    pub fn at_function(&self) -> String {
        format!("{} {}{}", self.at, self.function, self.source.as_ref().map(|s| format!(" {s}")).unwrap_or_default())
    }
}

impl SiteCount {
    /// What a person reads for the site: the instruction, or what stands for it.
    pub fn name(&self) -> String {
        match (&self.place, self.kind) {
            (Some(p), _) => p.at_function(),
            (None, "entry") => "entry (parameter or zero)".into(),
            (None, "init") => "start of the run".into(),
            (None, "import") => "a call to an import".into(),
            (None, k) => k.into(),
        }
    }
}

/// How often one site generated or killed the fact.
#[derive(Clone, Debug, Serialize)]
pub struct SiteCount {
    /// `instruction`, `entry`, `init` or `import`.
    pub kind: &'static str,
    /// The instruction, for `instruction`.
    pub place: Option<Place>,
    pub count: u64,
}

/// A load and how often it was redundant.
#[derive(Clone, Debug, Serialize)]
pub struct LoadRow {
    pub load: Place,
    /// The address expression, e.g. `[local 3 + 8] (4 bytes)`.
    pub address: String,
    pub executions: u64,
    /// Executions at which the bytes were already loaded or stored there.
    pub redundant: u64,
    /// The accesses that made them available, most often first.
    pub available_from: Vec<SiteCount>,
    /// What made them unavailable the other times.
    pub killed_by: Vec<SiteCount>,
}

/// The loads a redundancy query selected that ran, most redundant first.
#[derive(Clone, Debug, Serialize)]
pub struct RedundancyReport {
    pub loads: Vec<LoadRow>,
    /// Selected loads that ran whose address the analysis does not follow (not a
    /// constant, nor a variable plus a constant).
    pub untracked_loads: usize,
    /// Selected loads that never ran (the path counts hold no path through their block).
    pub never_ran_loads: usize,
    /// What a limit cut off `loads`.
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// The definitions of a variable that reached a point.
#[derive(Clone, Debug, Serialize)]
pub struct ReachingReport {
    pub point: Place,
    pub variable: String,
    pub executions: u64,
    pub definitions: Vec<SiteCount>,
}

/// One fact at one point of a data flow frequency problem.
#[derive(Clone, Debug, Serialize)]
pub struct FactRow {
    /// `local`, `global`, `memory` or `available`.
    pub kind: &'static str,
    /// The variable, the location or the access, e.g. `local 3`, `[0x1040] (4 bytes)`.
    pub variable: String,
    /// The definition: `instruction` (with its place), `entry` or `init`; for available
    /// loads, the load itself.
    pub site: &'static str,
    pub place: Option<Place>,
    /// Executions of the point at which the fact held.
    pub exact: u64,
    /// What the edge profile's independence assumption gives (`null` when its system is
    /// singular).
    pub estimate: Option<f64>,
}

impl FactRow {
    /// What a person reads for the fact: `local 3 = 0x1a2b file.c:12`.
    pub fn name(&self) -> String {
        match (&self.place, self.site) {
            (Some(p), _) => format!("{} = {} {}", self.variable, p.at, p.source.as_deref().unwrap_or(&p.function)),
            (None, "entry") => format!("{} = entry (parameter or zero)", self.variable),
            (None, "init") => format!("{} = its value at the start", self.variable),
            (None, "load") => format!("{} available (load redundant)", self.variable),
            (None, s) => format!("{} = {s}", self.variable),
        }
    }
}

/// One point and the facts that held there.
#[derive(Clone, Debug, Serialize)]
pub struct PointRow {
    pub point: Place,
    pub block: u32,
    pub executions: u64,
    pub facts: Vec<FactRow>,
}

/// A fact at a point where exact and estimate differ.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub point: Place,
    pub block: u32,
    pub executions: u64,
    pub fact: FactRow,
    /// `estimate - exact`.
    pub error: f64,
}

/// How much of the function and of the grammar the computation touched (the Fig. 5
/// categories of Scholz & Mehofer for the function's blocks).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coverage {
    pub blocks: usize,
    pub executed_and_analysed: usize,
    pub executed_not_analysed: usize,
    pub not_executed: usize,
    pub facts: usize,
    pub grammar_rules: usize,
    pub rules_with_points: usize,
    pub rules_with_effect: usize,
    pub terminals_run: usize,
    pub terminals_with_points: usize,
    pub passes: usize,
}

/// The frequencies of one problem at the points of one function.
#[derive(Clone, Debug, Serialize)]
pub struct DffReport {
    pub problem: &'static str,
    pub function: String,
    pub function_index: u32,
    pub points: Vec<PointRow>,
    /// Facts at points whose estimate, rounded, is not the exact count; largest
    /// `|estimate - exact|` first.
    pub differences: Vec<Difference>,
    pub coverage: Coverage,
    /// What a limit cut off `points` and `differences`.
    #[serde(flatten)]
    pub truncation: Truncation,
}
