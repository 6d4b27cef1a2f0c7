//! Minimal hot subpaths of a whole program path, as report rows.

use std::collections::HashMap;

use serde::Serialize;
use wpp_grammar::HotParams;

use crate::row::brief_paths;
use crate::{Dag, PathRow, Top, Truncation};

/// What a path's one run costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Instructions along the path.
    Instructions,
    /// 1 per path: a subpath's cost is its frequency times its length.
    Paths,
}

impl Cost {
    /// The unit of a cost, as reports name it.
    pub fn unit(self) -> &'static str {
        match self {
            Cost::Instructions => "instructions",
            Cost::Paths => "paths",
        }
    }
}

/// One hot subpath; JSON `{"frequency", "cost", "length", "paths": [PATH...]}` with the
/// paths brief (see [`PathRow`]).
#[derive(Serialize)]
pub struct HotRow {
    pub frequency: u64,
    pub cost: u64,
    pub length: usize,
    #[serde(serialize_with = "brief_paths")]
    pub paths: Vec<PathRow>,
}

/// The minimal hot subpaths found; JSON `{"subpaths", "truncated", "total_subpaths"}` (see
/// [`Truncation`]).
#[derive(Serialize)]
pub struct HotSubpaths {
    /// In the search's order, as many as asked for.
    pub subpaths: Vec<HotRow>,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// The minimal hot subpaths the DAG search finds (see [`wpp_grammar::hot_subpaths`]), in
/// its order, each with its exact frequency and cost, the first `top` described.
pub fn hot_subpaths(dag: &Dag, cost: Cost, params: &HotParams, top: Top) -> HotSubpaths {
    let costs = match cost {
        Cost::Instructions => dag.instruction_costs(),
        Cost::Paths => vec![1; dag.paths.len()],
    };
    let mut found = wpp_grammar::hot_subpaths(&dag.grammar, &costs, params);
    let mut truncation = Truncation::default();
    truncation.cut("subpaths", &mut found, top);
    // A subpath repeats few paths many times: describe each path once.
    let mut described: HashMap<u32, PathRow> = HashMap::new();
    let subpaths = found
        .iter()
        .map(|h| HotRow {
            frequency: h.frequency,
            cost: h.cost,
            length: h.symbols.len(),
            paths: h.symbols.iter().map(|&t| described.entry(t.0).or_insert_with(|| dag.describe(t.0)).clone()).collect(),
        })
        .collect();
    HotSubpaths { subpaths, truncation }
}
