//! The function table (`wpp functions`, and the HTML report's): per function that ran, how
//! much of the run it executed, and how concentrated that is on few of its paths.

use serde::Serialize;
use wpp_model::{BlockIdx, FuncIdx, PathEvent};
use wpp_profile::Profile;

use crate::row::path_instructions;
use crate::source::block_source;
use crate::{Top, Truncation};

/// One function that ran.
///
/// JSON: `{"function", "function_index", "executions", "instructions", "share", "paths",
/// "paths_to_90_executions", "paths_to_90_instructions", "source"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FunctionRow {
    pub function: String,
    pub function_index: u32,
    /// Executions of its paths (a path runs once per loop iteration, and again after each
    /// call the function makes: not its invocations).
    pub executions: u64,
    /// Instructions its paths executed: each path's count × its instructions.
    pub instructions: u64,
    /// `instructions` as a share of the whole run's, from 0 to 1.
    pub share: f64,
    /// Its distinct paths that ran.
    pub paths: usize,
    /// The fewest of its paths whose executions make 90% of its executions.
    pub paths_to_90_executions: usize,
    /// The fewest of its paths whose instructions make 90% of its instructions.
    pub paths_to_90_instructions: usize,
    /// Where it starts: its entry block's source lines, or its bytes in the module.
    pub source: String,
    /// Its paths that ran with their counts, most executed first (ties by path number).
    #[serde(skip)]
    pub path_counts: Vec<(PathEvent, u64)>,
}

/// The order of the function table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FunctionSort {
    /// Most instructions first.
    #[default]
    Instructions,
    /// Most path executions first.
    Executions,
    /// Most distinct paths first.
    Paths,
    /// By name, A to Z.
    Name,
}

/// The function table; JSON `{"functions", "executions", "instructions", "truncated",
/// "total_functions"}`.
#[derive(Clone, Debug, Serialize)]
pub struct Functions {
    pub functions: Vec<FunctionRow>,
    /// Executions of every path of the run, in listed functions or not.
    pub executions: u64,
    /// Instructions of the whole run.
    pub instructions: u64,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// The fewest of `counts` (sorted, largest first) whose sum reaches `share` of the total
/// (0 when they are all 0).
pub fn paths_to_reach(counts: &[u64], share: f64) -> usize {
    let total: u64 = counts.iter().fold(0, |a, &c| a.saturating_add(c));
    if total == 0 {
        return 0;
    }
    let goal = (total as f64 * share).ceil() as u64;
    let mut sum = 0u64;
    for (i, &c) in counts.iter().enumerate() {
        sum = sum.saturating_add(c);
        if sum >= goal {
            return i + 1;
        }
    }
    counts.len()
}

/// Every function of `p` that ran, in `sort` order (ties by function index), the first
/// `top` of them.
pub fn functions(p: &Profile, sort: FunctionSort, top: Top) -> Functions {
    let mut by_func: std::collections::BTreeMap<FuncIdx, Vec<(PathEvent, u64, u64)>> = Default::default();
    for c in p.counts.iter().filter(|c| c.count > 0) {
        let e = PathEvent { func: c.func, path: c.path };
        by_func.entry(c.func).or_default().push((e, c.count, path_instructions(p, e).saturating_mul(c.count)));
    }
    let run: u64 = by_func.values().flatten().map(|x| x.2).fold(0, u64::saturating_add);
    let executions: u64 = by_func.values().flatten().map(|x| x.1).sum();
    let mut rows: Vec<FunctionRow> = by_func
        .into_iter()
        .map(|(func, mut paths)| {
            let instructions = paths.iter().map(|x| x.2).fold(0, u64::saturating_add);
            let mut costs: Vec<u64> = paths.iter().map(|x| x.2).collect();
            costs.sort_unstable_by(|a, b| b.cmp(a));
            paths.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.path.cmp(&b.0.path)));
            let counts: Vec<u64> = paths.iter().map(|x| x.1).collect();
            FunctionRow {
                function: p.meta.func_name(func),
                function_index: func.0,
                executions: counts.iter().sum(),
                instructions,
                share: if run == 0 { 0.0 } else { instructions as f64 / run as f64 },
                paths: paths.len(),
                paths_to_90_executions: paths_to_reach(&counts, 0.9),
                paths_to_90_instructions: paths_to_reach(&costs, 0.9),
                source: block_source(p, func, BlockIdx(0)),
                path_counts: paths.into_iter().map(|x| (x.0, x.1)).collect(),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        let order = match sort {
            FunctionSort::Instructions => b.instructions.cmp(&a.instructions),
            FunctionSort::Executions => b.executions.cmp(&a.executions),
            FunctionSort::Paths => b.paths.cmp(&a.paths),
            FunctionSort::Name => a.function.cmp(&b.function),
        };
        order.then(a.function_index.cmp(&b.function_index))
    });
    let mut truncation = Truncation::default();
    truncation.cut("functions", &mut rows, top);
    Functions { functions: rows, executions, instructions: run, truncation }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::paths_to_reach;

    proptest! {
        /// Against trying every subset: the answer is the smallest k such that some k
        /// counts reach the share, and the largest k do.
        #[test]
        fn fewest_paths_to_a_share(mut counts in proptest::collection::vec(0u64..50, 0..12), share in 0.05f64..1.0) {
            counts.sort_unstable_by(|a, b| b.cmp(a));
            let total: u64 = counts.iter().sum();
            let k = paths_to_reach(&counts, share);
            if total == 0 {
                prop_assert_eq!(k, 0);
            } else {
                let reaches = |subset: u64| counts.iter().enumerate().filter(|(i, _)| subset >> i & 1 == 1).map(|(_, &c)| c).sum::<u64>() as f64 >= total as f64 * share;
                let fewest = (0u64..1 << counts.len()).filter(|&s| reaches(s)).map(|s| s.count_ones() as usize).min().unwrap();
                prop_assert_eq!(k, fewest);
            }
        }
    }
}
