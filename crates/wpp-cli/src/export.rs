//! `wpp export`: a whole profile as JSON, for other tools.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use wpp_grammar::Sym;
use wpp_profile::{Ending, Profile, RecordMode};

/// Write a profile as one JSON document.
///
/// Holds the run (module, arguments, ending), every function with its CFG, the path
/// counts, and for a grammar profile the symbol table and the grammar's rules. A symbol on
/// a rule's right side is `{"t": TERMINAL}` or `{"r": RULE}`; rule 0 is the start rule
/// and terminal `i` is the path `symbols[i]`.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp export lua.wpp --json > lua.json")]
pub struct Opts {
    /// A profile.
    profile: PathBuf,
    /// Write JSON (the only format).
    #[arg(long, required = true)]
    json: bool,
}

#[derive(Serialize)]
struct Export<'a> {
    module: &'a str,
    args: &'a [String],
    mode: String,
    ending: String,
    events: u64,
    max_paths: u64,
    functions: &'a [wpp_model::Function],
    counts: Vec<Count>,
    #[serde(skip_serializing_if = "Option::is_none")]
    symbols: Option<Vec<SymbolRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    terminals: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grammar: Option<GrammarRows>,
}

#[derive(Serialize)]
struct Count {
    function: u32,
    path_id: u64,
    count: u64,
}

#[derive(Serialize)]
struct SymbolRow {
    function: u32,
    path_id: u64,
}

#[derive(Serialize)]
struct GrammarRows {
    rules: Vec<Vec<SymRow>>,
}

#[derive(Serialize)]
enum SymRow {
    #[serde(rename = "t")]
    T(u32),
    #[serde(rename = "r")]
    R(u32),
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let grammar = if p.has_grammar() { Some(p.grammar()?) } else { None };
    let e = Export {
        module: &p.meta.module,
        args: &p.meta.args,
        mode: match p.meta.mode {
            RecordMode::Paths => "paths".into(),
            RecordMode::Trace => "trace".into(),
            RecordMode::Ppp => "ppp".into(),
            RecordMode::Grammar(b) => format!("grammar/{}", b.name()),
        },
        ending: match &p.meta.ending {
            Ending::Exited(s) => format!("exited {s}"),
            Ending::Trapped(t) => format!("trapped: {t}"),
        },
        events: p.meta.events,
        max_paths: p.meta.max_paths,
        functions: &p.meta.functions,
        counts: p.counts.iter().map(|c| Count { function: c.func.0, path_id: c.path.0, count: c.count }).collect(),
        symbols: (!p.symbols.is_empty()).then(|| p.symbols.iter().map(|e| SymbolRow { function: e.func.0, path_id: e.path.0 }).collect()),
        terminals: (!p.terminals.is_empty()).then_some(&p.terminals[..]),
        grammar: grammar.map(|g| GrammarRows {
            rules: g
                .rules
                .iter()
                .map(|body| {
                    body.iter()
                        .map(|s| match *s {
                            Sym::T(t) => SymRow::T(t),
                            Sym::N(r) => SymRow::R(r),
                        })
                        .collect()
                })
                .collect(),
        }),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &e)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}
