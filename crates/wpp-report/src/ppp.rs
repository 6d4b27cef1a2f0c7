//! The report of a run recorded with preferential path profiling: how often each
//! interesting path ran, the residual paths, and how compactly each function's
//! interesting paths were numbered.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;

use crate::{Error, PathRow, Top, Truncation};

/// JSON `{"set", "selection", "interesting", "residual", "functions",
/// "interesting_executed", "interesting_executions", "interesting_hashed",
/// "residual_executions", "truncated", "total_interesting", "total_residual"}` (see
/// [`Truncation`]).
#[derive(Serialize)]
pub struct PppReport {
    pub set: String,
    pub selection: String,
    /// The interesting paths, executed or not, most executed first (ties by function and
    /// path), as many as asked for.
    pub interesting: Vec<InterestingRow>,
    /// Paths that ran and are not interesting, most executed first (ties by function and
    /// path), as many as asked for.
    pub residual: Vec<PathRow>,
    /// Every function with interesting paths.
    pub functions: Vec<FunctionRow>,
    /// Interesting paths that ran, listed or not.
    pub interesting_executed: usize,
    /// Executions of all the interesting paths.
    pub interesting_executions: u64,
    /// Interesting paths counted in the hash table (`counted` is `hash`), listed or not.
    pub interesting_hashed: usize,
    /// Executions of all the residual paths.
    pub residual_executions: u64,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// An interesting path and its count.
#[derive(Serialize)]
pub struct InterestingRow {
    pub function: String,
    pub function_index: u32,
    /// The Ball-Larus number.
    pub path_id: u64,
    pub ppp_id: u64,
    pub count: u64,
    /// `slot` (the function's PPP array), `hash` (PPP id past the array) or `array` (the
    /// function's Ball-Larus counters).
    pub counted: &'static str,
}

/// A function with interesting paths.
#[derive(Serialize)]
pub struct FunctionRow {
    pub function: String,
    pub function_index: u32,
    pub n_interesting: usize,
    pub rho: f64,
    pub slots: u64,
    /// `slots`, `array` (Ball-Larus counters) or `hash`.
    pub counters: &'static str,
}

/// The PPP report of `p`, which must have been recorded with interesting paths; of each
/// list of paths the first `top`.
pub fn ppp_report(p: &Profile, top: Top) -> Result<PppReport, Error> {
    let Some(r) = &p.ppp else {
        return Err(Error::Unsuitable { profile: p.path.clone(), what: "not recorded with --mode ppp (it has no `ppp` section)".into() });
    };
    let count_of: HashMap<PathEvent, u64> = p.counts.iter().map(|c| (PathEvent { func: c.func, path: c.path }, c.count)).collect();
    let name = |f: FuncIdx| p.meta.func_name(f);
    let mut interesting = Vec::new();
    let mut is_interesting = HashSet::new();
    let mut functions = Vec::new();
    for f in &r.functions {
        for x in &f.paths {
            let e = PathEvent { func: f.func, path: x.path };
            is_interesting.insert(e);
            interesting.push(InterestingRow {
                function: name(f.func),
                function_index: f.func.0,
                path_id: x.path.0,
                ppp_id: x.ppp_id,
                count: count_of.get(&e).copied().unwrap_or(0),
                counted: if f.ball_larus_array {
                    "array"
                } else if x.ppp_id < f.slots {
                    "slot"
                } else {
                    "hash"
                },
            });
        }
        let counters = if f.ball_larus_array {
            "array"
        } else if f.slots > 0 {
            "slots"
        } else {
            "hash"
        };
        functions.push(FunctionRow { function: name(f.func), function_index: f.func.0, n_interesting: f.paths.len(), rho: f.rho(), slots: f.slots, counters });
    }
    interesting.sort_by(|a, b| b.count.cmp(&a.count).then(a.function_index.cmp(&b.function_index)).then(a.path_id.cmp(&b.path_id)));
    let mut residual: Vec<_> = p.counts.iter().filter(|h| !is_interesting.contains(&PathEvent { func: h.func, path: h.path })).collect();
    residual.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    let interesting_executed = interesting.iter().filter(|x| x.count > 0).count();
    let interesting_executions = interesting.iter().map(|x| x.count).sum();
    let interesting_hashed = interesting.iter().filter(|x| x.counted == "hash").count();
    let residual_executions = residual.iter().map(|h| h.count).sum();
    let mut truncation = Truncation::default();
    truncation.cut("interesting", &mut interesting, top);
    truncation.cut("residual", &mut residual, top);
    let residual = residual.iter().map(|h| PathRow::new(p, PathEvent { func: h.func, path: h.path }, Some(h.count))).collect();
    Ok(PppReport {
        set: r.set.clone(),
        selection: r.selection.clone(),
        interesting,
        residual,
        functions,
        interesting_executed,
        interesting_executions,
        interesting_hashed,
        residual_executions,
        truncation,
    })
}
