//! Minimal hot subpaths of a whole program path, as report rows.

use std::collections::HashMap;

use serde::Serialize;
use wpp_grammar::HotParams;

use crate::row::brief_paths;
use crate::{Dag, PathRow, Top, Truncation};

/// The least cost of a hot subpath: a number in the cost's unit, or a share of the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MinCost {
    Absolute(u64),
    /// Percent of the run's cost (`1%`).
    Percent(f64),
}

impl MinCost {
    /// The least cost for a run costing `run_cost` (a share rounds up, and is at least 1).
    pub fn resolve(self, run_cost: u64) -> u64 {
        match self {
            MinCost::Absolute(c) => c,
            MinCost::Percent(p) => ((run_cost as f64 * p / 100.0).ceil() as u64).max(1),
        }
    }
}

impl std::str::FromStr for MinCost {
    type Err = String;

    /// `1000000` or `1%` (`0.5%`, up to `100%`).
    fn from_str(s: &str) -> Result<MinCost, String> {
        match s.strip_suffix('%') {
            Some(p) => match p.trim().parse::<f64>() {
                Ok(p) if p > 0.0 && p <= 100.0 => Ok(MinCost::Percent(p)),
                _ => Err(format!("`{s}` is not a share of the run (a percentage above 0 and at most 100, like 1%)")),
            },
            None => s.parse::<u64>().map(MinCost::Absolute).map_err(|_| format!("`{s}` is not a cost (a whole number, or a share of the run like 1%)")),
        }
    }
}

impl std::fmt::Display for MinCost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MinCost::Absolute(c) => write!(f, "{c}"),
            MinCost::Percent(p) => write!(f, "{p}%"),
        }
    }
}

/// Each terminal's cost under `cost` (the run boundary's is 0).
fn costs(dag: &Dag, cost: Cost) -> Vec<u64> {
    match cost {
        Cost::Instructions => dag.instruction_costs(),
        Cost::Paths => (0..dag.paths.len() as u32).map(|t| u64::from(Some(t) != dag.boundary)).collect(),
    }
}

/// The run's cost under `cost`: every path's executions times its cost.
pub fn run_cost(dag: &Dag, cost: Cost) -> u64 {
    let costs = costs(dag, cost);
    dag.grammar.rule_costs(|t| costs.get(t.idx()).copied().unwrap_or(0)).first().copied().unwrap_or(0)
}

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

/// One hot subpath; JSON `{"frequency", "cost", "disjoint", "disjoint_cost", "share",
/// "length", "paths": [PATH...]}` with the paths brief (see [`PathRow`]).
///
/// A subpath's frequency is Larus's: every place it occurs, overlapping occurrences
/// included, and its cost is that times the cost of one run of it; that is what makes it
/// hot. A subpath that overlaps itself (`a a` in a run of a's) can so cost more than the
/// whole run. Its share of the run is therefore taken from the occurrences that fit side by
/// side, counted left to right (`disjoint`), never more than the run.
#[derive(Serialize)]
pub struct HotRow {
    /// Occurrences, overlapping ones included.
    pub frequency: u64,
    /// `frequency` × the cost of one run.
    pub cost: u64,
    /// Occurrences that do not overlap, counted left to right; `frequency` unless the
    /// subpath overlaps itself.
    pub disjoint: u64,
    /// `disjoint` × the cost of one run: the part of the run spent in it.
    pub disjoint_cost: u64,
    /// `disjoint_cost` over the run's cost, from 0 to 1.
    pub share: f64,
    pub length: usize,
    #[serde(serialize_with = "brief_paths")]
    pub paths: Vec<PathRow>,
}

/// The minimal hot subpaths found; JSON `{"run_cost", "subpaths", "truncated",
/// "total_subpaths"}` (see [`Truncation`]).
#[derive(Serialize)]
pub struct HotSubpaths {
    /// The whole run's cost, in the unit of the subpaths' costs.
    pub run_cost: u64,
    /// In the search's order, as many as asked for.
    pub subpaths: Vec<HotRow>,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// Every minimal hot subpath, found on the DAG (see [`wpp_grammar::hot_subpaths`]), in
/// its order, each with its exact frequency and cost, the first `top` described.
pub fn hot_subpaths(dag: &Dag, cost: Cost, params: &HotParams, top: Top) -> HotSubpaths {
    let costs = costs(dag, cost);
    let mut found = wpp_grammar::hot_subpaths(&dag.grammar, &costs, params);
    // Of several runs, a subpath across a run boundary never ran.
    if let Some(b) = dag.boundary {
        found.retain(|h| !h.symbols.iter().any(|t| t.0 == b));
    }
    let run_cost = dag.grammar.rule_costs(|t| costs.get(t.idx()).copied().unwrap_or(0)).first().copied().unwrap_or(0);
    let mut truncation = Truncation::default();
    truncation.cut("subpaths", &mut found, top);
    // A subpath repeats few paths many times: describe each path once.
    let mut described: HashMap<u32, PathRow> = HashMap::new();
    // Occurrences that cannot overlap all fit side by side; the others are counted.
    let overlapping: Vec<&[wpp_grammar::Terminal]> = found.iter().filter(|h| wpp_grammar::can_overlap(&h.symbols)).map(|h| &h.symbols[..]).collect();
    let mut counted = wpp_grammar::disjoint_occurrences_of(&dag.grammar, &overlapping).into_iter();
    let subpaths = found
        .iter()
        .map(|h| {
            let disjoint = if wpp_grammar::can_overlap(&h.symbols) { counted.next().unwrap_or(0) } else { h.frequency };
            let one: u128 = h.symbols.iter().map(|t| costs[t.idx()] as u128).sum();
            let disjoint_cost = u64::try_from(one * disjoint as u128).unwrap_or(u64::MAX);
            HotRow {
                frequency: h.frequency,
                cost: h.cost,
                disjoint,
                disjoint_cost,
                share: if run_cost == 0 { 0.0 } else { disjoint_cost as f64 / run_cost as f64 },
                length: h.symbols.len(),
                paths: h.symbols.iter().map(|&t| described.entry(t.0).or_insert_with(|| dag.describe(t.0)).clone()).collect(),
            }
        })
        .collect();
    HotSubpaths { run_cost, subpaths, truncation }
}
