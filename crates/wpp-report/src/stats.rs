//! What a profile holds and how well its trace compressed.

use std::collections::BTreeMap;

use serde::Serialize;
use wpp_profile::{Profile, RecordMode};

use crate::Error;

/// A profile's statistics; the JSON form is a stable contract.
#[derive(Serialize)]
pub struct Stats {
    pub module: String,
    /// SHA-256 of the module the profile was recorded from, in hexadecimal (null for a
    /// profile that does not record it: an older wpp's, or `wpp compress`'s).
    pub module_sha256: Option<String>,
    pub mode: String,
    /// A grammar profile's rule prediction (`wpp record --predict`): `rules` or `off`; null
    /// without a grammar or in a profile that does not record it.
    pub prediction: Option<&'static str>,
    /// How the run ended: `exited N`, `trapped: ...`, or why the recorder stopped it.
    pub ending: String,
    /// Whether the recorder stopped the program (a signal, a limit): the profile holds the
    /// run up to there, not all of it.
    pub partial: bool,
    /// Path events of the program.
    pub events: u64,
    /// An extended WPP's: path events of its check routine, recorded among the program's
    /// (not in `events`; the grammar and `raw_trace_bytes` hold both); null otherwise.
    pub check_events: Option<u64>,
    pub distinct_paths: u64,
    /// Grammar rules, the start rule included (null without a grammar).
    pub rules: Option<u64>,
    pub grammar_symbols: Option<u64>,
    pub depth: Option<u64>,
    /// 4 bytes per event: the trace as 32-bit symbols.
    pub raw_trace_bytes: u64,
    /// `raw_trace_bytes` over the bytes of the grammar section.
    pub ratio: Option<f64>,
    /// Bytes of every section, by name.
    pub sections: BTreeMap<String, u64>,
    /// A merged profile's runs, in the order merged (`wpp merge`); null for a profile of
    /// one run.
    pub merged_runs: Option<Vec<RunStats>>,
}

/// One run of a merged profile.
#[derive(Debug, Serialize)]
pub struct RunStats {
    /// The profile it was merged from.
    pub file: String,
    pub mode: String,
    pub args: Vec<String>,
    pub ending: String,
    pub partial: bool,
    pub events: u64,
    pub guest_nanos: u64,
}

/// What a profile's mode is called in reports (a grammar's with how it was built, when
/// known).
fn mode_name(mode: RecordMode, options: Option<wpp_profile::GrammarOptions>) -> String {
    match mode {
        RecordMode::Paths => "paths".into(),
        RecordMode::Trace => "trace".into(),
        RecordMode::Ppp => "ppp".into(),
        RecordMode::Grammar(b) => match options.map(|o| o.prediction) {
            Some(wpp_profile::Prediction::Rules) => format!("grammar ({}, predicting rules)", b.name()),
            _ => format!("grammar ({})", b.name()),
        },
        RecordMode::Addresses(b) => format!("addresses (grammars by {})", b.name()),
        RecordMode::EwppFilter => "ewpp-filter".into(),
        RecordMode::Ewpp(b) => format!("extended WPP (grammar by {})", b.name()),
    }
}

/// The statistics of `p` (decoding its grammar, if it has one).
pub fn stats(p: &Profile) -> Result<Stats, Error> {
    let g = if p.has_grammar() { Some(p.grammar_with_instrumentation()?) } else { None };
    stats_of(p, g.as_ref())
}

/// The statistics of `p`, whose grammar section decodes to `grammar` (`None` without one;
/// the instrumentation's paths included, as stored).
pub fn stats_of(p: &Profile, grammar: Option<&wpp_grammar::Grammar>) -> Result<Stats, Error> {
    let sections: BTreeMap<String, u64> = p.toc.iter().map(|e| (e.name.clone(), e.len)).collect();
    let raw = p.recorded_events().saturating_mul(4);
    let program_path = |e: &wpp_model::PathEvent| p.instrumentation.as_ref().is_none_or(|i| !i.has(e.func));
    let mut s = Stats {
        module: p.meta.module.clone(),
        module_sha256: p.module_id()?.map(|id| id.sha256_hex()),
        mode: match p.is_twpp() {
            true => format!("TWPP (wpp twpp build) of a {} recording", mode_name(p.meta.mode, p.grammar_options)),
            false => mode_name(p.meta.mode, p.grammar_options),
        },
        prediction: p.grammar_options.map(|o| o.prediction.name()),
        ending: p.meta.ending.to_string(),
        partial: p.meta.ending.is_partial(),
        events: p.meta.events,
        check_events: p.instrumentation.as_ref().map(|i| i.events),
        distinct_paths: match p.has_grammar() {
            true if !p.symbols.is_empty() => p.symbols.iter().filter(|e| program_path(e)).count() as u64,
            true => p.n_terminals() as u64,
            false => p.counts.len() as u64,
        },
        rules: None,
        grammar_symbols: None,
        depth: None,
        raw_trace_bytes: raw,
        ratio: None,
        sections,
        merged_runs: p.merged_runs()?.map(|runs| {
            runs.into_iter()
                .map(|r| RunStats {
                    file: r.file,
                    mode: mode_name(r.mode, None),
                    args: r.args,
                    partial: r.ending.is_partial(),
                    ending: r.ending.to_string(),
                    events: r.events,
                    guest_nanos: r.guest_nanos,
                })
                .collect()
        }),
    };
    if let Some(g) = grammar {
        let st = g.stats();
        s.rules = Some(st.rules as u64);
        s.grammar_symbols = Some(st.symbols as u64);
        s.depth = Some(st.depth as u64);
        let bytes = s.sections.get(wpp_profile::section::GRAMMAR).copied().unwrap_or(0);
        s.ratio = Some(raw as f64 / bytes.max(1) as f64);
    }
    Ok(s)
}
