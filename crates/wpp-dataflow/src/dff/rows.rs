//! The report rows of a solved problem: each point that ran with the facts that held
//! there, exact and estimated, the points where the two differ most, and how much of the
//! function and of the grammar the computation touched.

use rustc_hash::FxHashMap;
use wpp_grammar::dff::Frequencies;
use wpp_model::FuncIdx;
use wpp_report::dataflow::{Coverage, DffReport, Difference, FactRow, Place, PointRow};
use wpp_report::Truncation;
use wpp_twpp::dataflow::Site;

use super::problem::Built;
use super::{Dff, FactDesc, ProblemKind};

impl Dff<'_> {
    fn place(&self, f: FuncIdx, at: u32) -> Place {
        self.module.place(&self.dag.profile, Some(f), at)
    }

    pub(super) fn report(
        &self,
        kind: ProblemKind,
        func: FuncIdx,
        at: Option<u32>,
        built: &Built,
        freq: &Frequencies,
        estimate: &[FxHashMap<u32, f64>],
    ) -> DffReport {
        let n_blocks = built.block_steps.len();
        let cfg = self.dag.profile.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref());
        let fact_row = |d: u32, exact: u64, est: Option<f64>| -> FactRow {
            let (kind, variable, site) = match built.facts[d as usize] {
                FactDesc::Local { var, site } => ("local", format!("local {var}"), site),
                FactDesc::Global { var, site } => ("global", format!("global {var}"), site),
                FactDesc::Memory { location, site } => ("memory", location.to_string(), site),
                FactDesc::Available { access } => ("available", access.to_string(), Site::Init),
            };
            let (site_kind, place) = match (kind, site) {
                ("available", _) => ("load", None),
                (_, Site::At(at)) => ("instruction", Some(self.place(self.module.block_at(at).map_or(func, |x| x.0), at))),
                (_, Site::Entry) => ("entry", None),
                (_, Site::Init) => ("init", None),
                (_, Site::Import) => ("import", None),
            };
            FactRow { kind, variable, site: site_kind, place, exact, estimate: est.filter(|x| x.is_finite()) }
        };
        let mut points = Vec::new();
        let mut differences = Vec::new();
        for (pi, pt) in built.points.iter().enumerate() {
            let executions = freq.executions[pi];
            if executions == 0 {
                continue;
            }
            // Reaching definitions: a named instruction shows only its own point.
            if at.is_some() && kind == ProblemKind::ReachingDefinitions && pt.at.is_none() {
                continue;
            }
            if kind == ProblemKind::AvailableLoads && pt.fact.is_none() {
                continue;
            }
            let offset = pt.at.unwrap_or_else(|| cfg.map_or(0, |c| c.blocks[pt.block.idx()].start));
            let place = self.place(func, offset);
            let exact_of = |d: u32| freq.holds[pi].binary_search_by_key(&d, |x| x.0).map_or(0, |i| freq.holds[pi][i].1);
            let est_of = |d: u32| estimate[pi].get(&d).copied();
            let mut facts = Vec::new();
            match pt.fact {
                Some(d) => {
                    // The dual's count is how often the load's bytes were not available.
                    let exact = executions - exact_of(d);
                    let est = est_of(d).map(|x| executions as f64 - x);
                    facts.push(fact_row(d, exact, est));
                }
                None => {
                    let mut ds: Vec<u32> = freq.holds[pi].iter().map(|x| x.0).collect();
                    ds.extend(estimate[pi].iter().filter(|(_, &v)| v >= 0.5).map(|(&d, _)| d));
                    ds.sort_unstable();
                    ds.dedup();
                    for d in ds {
                        facts.push(fact_row(d, exact_of(d), est_of(d)));
                    }
                    // The function's own locals first, then globals, then memory; each
                    // most often holding first.
                    let rank = |kind: &str| ["local", "global", "memory"].iter().position(|&k| k == kind).unwrap_or(3);
                    facts.sort_by_key(|f| (rank(f.kind), std::cmp::Reverse(f.exact)));
                }
            }
            for f in &facts {
                if let Some(e) = f.estimate {
                    let error = e - f.exact as f64;
                    if error.abs() >= 0.5 {
                        differences.push(Difference { point: place.clone(), block: pt.block.0, executions, fact: f.clone(), error });
                    }
                }
            }
            points.push(PointRow { point: place, block: pt.block.0, executions, facts });
        }
        // The most executed points first.
        points.sort_by_key(|p: &PointRow| (std::cmp::Reverse(p.executions), p.block));
        differences.sort_by(|a, b| b.error.abs().total_cmp(&a.error.abs()));
        let mut coverage = Coverage { blocks: n_blocks, facts: built.facts.len(), ..Coverage::default() };
        for b in 0..n_blocks {
            let run = freq.executions.get(b).copied().unwrap_or(0) > 0;
            let analysed = built.block_steps[b].iter().any(|s| !s.transfer.is_identity());
            match (run, analysed) {
                (true, true) => coverage.executed_and_analysed += 1,
                (true, false) => coverage.executed_not_analysed += 1,
                (false, _) => coverage.not_executed += 1,
            }
        }
        let s = freq.stats;
        coverage.grammar_rules = s.rules;
        coverage.rules_with_points = s.rules_with_points;
        coverage.rules_with_effect = s.rules_with_effect;
        coverage.terminals_run = s.terminals_run;
        coverage.terminals_with_points = s.terminals_with_points;
        coverage.passes = s.passes;
        DffReport {
            problem: kind.name(),
            function: self.dag.profile.meta.func_name(func),
            function_index: func.0,
            points,
            differences,
            coverage,
            truncation: Truncation::default(),
        }
    }
}
