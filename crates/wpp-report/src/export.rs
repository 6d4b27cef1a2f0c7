//! A whole profile as one JSON document, for other tools. The schema is written down in
//! `docs/export.md`; what it promises:
//!
//! - tags are plain snake_case strings (`"kind": "forward"`), never Rust's enum form;
//! - every integer is one a JSON reader keeps exact: those that can pass 2^53 − 1 (path
//!   ids, counts, events) are numbers up to it and decimal strings above it, and "no
//!   limit" is `null`, not the largest 64-bit number;
//! - the ending is data (`{"kind": "exited", "code": 0}`), its sentence beside it;
//! - a trace profile's export holds its trace, a grammar profile's its grammar.

use serde::{Serialize, Serializer};
use wpp_grammar::Sym;
use wpp_model::{EdgeKind, StopReason, Target};
use wpp_profile::{Ending, Profile, RecordMode};

use crate::Error;

/// The export format's version, bumped when a field changes meaning or goes away.
pub const EXPORT_VERSION: u32 = 3;

/// Largest integer every JSON reader keeps exact (2^53 − 1).
pub const MAX_SAFE: u64 = (1 << 53) - 1;

/// An integer as a number when JSON keeps it exact, otherwise as a decimal string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exact(pub u64);

impl Serialize for Exact {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 <= MAX_SAFE {
            s.serialize_u64(self.0)
        } else {
            s.serialize_str(&self.0.to_string())
        }
    }
}

/// The whole profile.
#[derive(Serialize)]
pub struct Export<'a> {
    pub format: &'static str,
    pub version: u32,
    pub module: &'a str,
    pub args: &'a [String],
    /// How the run was recorded (`paths`, `trace`, `ppp`, `grammar`, `addresses`,
    /// `ewpp-filter`, `ewpp`); for a merged profile, `merged`.
    pub mode: &'static str,
    /// A merged profile's runs, in the order merged; null for a profile of one run.
    pub runs: Option<Vec<RunRow>>,
    /// The grammar builder of a grammar profile (`sequitur`, `sequitur1`, `repair`, ...).
    pub builder: Option<&'static str>,
    /// A grammar profile's rule prediction (`off`, `rules`); null when not recorded.
    pub prediction: Option<&'static str>,
    pub ending: EndingRow,
    pub events: Exact,
    /// Most paths numbered per function before cut points are added; `null`: no limit.
    pub max_paths: Option<Exact>,
    pub functions: Vec<FunctionRow<'a>>,
    pub counts: Vec<Count>,
    /// A trace profile's events in order, each `[function, path_id]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<(u32, Exact)>>,
    /// A grammar profile's terminals: terminal `i` is the path `symbols[i]` (for a foreign
    /// trace of events, `wpp compress --format events`, the event as it was read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbols: Option<Vec<SymbolRow>>,
    /// A grammar of a foreign trace (`wpp compress`): terminal `i` is the number
    /// `terminals[i]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminals: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grammar: Option<GrammarRows>,
}

/// One run of a merged profile: the profile it came from and how it was recorded.
#[derive(Serialize)]
pub struct RunRow {
    pub file: String,
    pub mode: &'static str,
    pub builder: Option<&'static str>,
    pub args: Vec<String>,
    pub ending: EndingRow,
    pub events: Exact,
}

/// The export's name of a recording mode, and its grammar builder if it has one.
fn mode_row(mode: RecordMode) -> (&'static str, Option<&'static str>) {
    match mode {
        RecordMode::Paths => ("paths", None),
        RecordMode::Trace => ("trace", None),
        RecordMode::Ppp => ("ppp", None),
        RecordMode::Grammar(b) => ("grammar", Some(b.name())),
        RecordMode::Addresses(b) => ("addresses", Some(b.name())),
        RecordMode::EwppFilter => ("ewpp-filter", None),
        RecordMode::Ewpp(b) => ("ewpp", Some(b.name())),
    }
}

/// How the run ended, as data and as the sentence the text commands print.
#[derive(Serialize)]
pub struct EndingRow {
    /// `exited`, `trapped`, `signal`, `timeout`, `fuel` or `memory` (the last four: the
    /// recorder stopped the run, and the profile holds it until then).
    pub kind: &'static str,
    /// `exited`: the exit status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// `trapped`: the trap's message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trap: Option<String>,
    /// `signal`: its number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// `timeout`: the limit in milliseconds; `fuel`: the budget; `memory`: bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Exact>,
    /// Whether the profile holds only part of the run.
    pub partial: bool,
    pub text: String,
}

impl EndingRow {
    pub fn of(e: &Ending) -> EndingRow {
        let mut row = EndingRow { kind: "exited", code: None, trap: None, signal: None, limit: None, partial: e.is_partial(), text: e.to_string() };
        match e {
            Ending::Exited(code) => row.code = Some(*code),
            Ending::Trapped(t) => (row.kind, row.trap) = ("trapped", Some(t.clone())),
            Ending::Stopped(StopReason::Signal(n)) => (row.kind, row.signal) = ("signal", Some(*n)),
            Ending::Stopped(StopReason::Timeout { millis }) => (row.kind, row.limit) = ("timeout", Some(Exact(*millis))),
            Ending::Stopped(StopReason::Fuel(n)) => (row.kind, row.limit) = ("fuel", Some(Exact(*n))),
            Ending::Stopped(StopReason::Memory(n)) => (row.kind, row.limit) = ("memory", Some(Exact(*n))),
        }
        row
    }
}

/// A function: imported (no CFG) or with its blocks and edges.
#[derive(Serialize)]
pub struct FunctionRow<'a> {
    pub index: u32,
    pub name: &'a str,
    pub imported: bool,
    pub blocks: Vec<BlockRow>,
    pub edges: Vec<EdgeRow>,
}

/// A block: its bytes in the module and its instructions.
#[derive(Serialize)]
pub struct BlockRow {
    pub start: u32,
    pub end: u32,
    pub instructions: u32,
}

/// An edge; `to` is `null` for leaving the function.
#[derive(Serialize)]
pub struct EdgeRow {
    pub from: u32,
    pub to: Option<u32>,
    /// `forward`, `back`, `call`, `return` or `trap`.
    pub kind: &'static str,
}

#[derive(Serialize)]
pub struct Count {
    pub function: u32,
    pub path_id: Exact,
    pub count: Exact,
}

#[derive(Serialize)]
pub struct SymbolRow {
    pub function: u32,
    pub path_id: Exact,
}

#[derive(Serialize)]
pub struct GrammarRows {
    pub rules: Vec<Vec<SymRow>>,
}

/// A symbol on a rule's right side: `{"t": TERMINAL}` or `{"r": RULE}`.
#[derive(Serialize)]
pub enum SymRow {
    #[serde(rename = "t")]
    T(u32),
    #[serde(rename = "r")]
    R(u32),
}

/// An edge kind's name in the exports (`forward`, `back`, `call`, `return`, `trap`,
/// `catch`, `throw`).
pub fn kind(k: EdgeKind) -> &'static str {
    match k {
        EdgeKind::Forward => "forward",
        EdgeKind::Back => "back",
        EdgeKind::Call => "call",
        EdgeKind::Return => "return",
        EdgeKind::Trap => "trap",
        EdgeKind::Catch => "catch",
        EdgeKind::Throw => "throw",
    }
}

/// The export of `p` (decoding its grammar or reading its trace, if it has one).
pub fn export(p: &Profile) -> Result<Export<'_>, Error> {
    let mut grammar = if p.has_grammar() { Some(p.grammar()?) } else { None };
    // The instrumentation's paths are not the program's: their symbols go, and the
    // grammar's terminals are numbered among the program's symbols alone.
    let mut symbols = p.symbols.clone();
    if let Some(i) = &p.instrumentation {
        let mut number = vec![u32::MAX; symbols.len()];
        let mut kept = Vec::with_capacity(symbols.len());
        for (t, e) in symbols.iter().enumerate() {
            if !i.has(e.func) {
                number[t] = kept.len() as u32;
                kept.push(*e);
            }
        }
        symbols = kept;
        for s in grammar.iter_mut().flat_map(|g| g.rules.symbols_mut()) {
            if let Sym::T(t) = s {
                t.0 = number[t.idx()];
            }
        }
    }
    let trace = match p.meta.mode {
        RecordMode::Trace => {
            let mut events = Vec::new();
            p.for_each_event(|e| events.push((e.func.0, Exact(e.path.0))))?;
            Some(events)
        }
        _ => None,
    };
    let runs = p.merged_runs()?.map(|runs| {
        runs.into_iter()
            .map(|r| {
                let (mode, builder) = mode_row(r.mode);
                RunRow { file: r.file, mode, builder, args: r.args, ending: EndingRow::of(&r.ending), events: Exact(r.events) }
            })
            .collect::<Vec<_>>()
    });
    let (mode, builder) = match runs {
        Some(_) => ("merged", None),
        None => mode_row(p.meta.mode),
    };
    Ok(Export {
        format: "wpp-profile",
        version: EXPORT_VERSION,
        module: &p.meta.module,
        args: &p.meta.args,
        mode,
        runs,
        builder,
        prediction: p.grammar_options.map(|o| o.prediction.name()),
        ending: EndingRow::of(&p.meta.ending),
        events: Exact(p.meta.events),
        max_paths: (p.meta.max_paths != u64::MAX).then_some(Exact(p.meta.max_paths)),
        functions: p
            .meta
            .functions
            .iter()
            .map(|f| FunctionRow {
                index: f.index.0,
                name: &f.name,
                imported: f.cfg.is_none(),
                blocks: f.cfg.iter().flat_map(|c| &c.blocks).map(|b| BlockRow { start: b.start, end: b.end, instructions: b.n_instrs }).collect(),
                edges: f
                    .cfg
                    .iter()
                    .flat_map(|c| &c.edges)
                    .map(|e| EdgeRow {
                        from: e.from.0,
                        to: match e.to {
                            Target::Block(b) => Some(b.0),
                            Target::Exit => None,
                        },
                        kind: kind(e.kind),
                    })
                    .collect(),
            })
            .collect(),
        counts: p.counts.iter().map(|c| Count { function: c.func.0, path_id: Exact(c.path.0), count: Exact(c.count) }).collect(),
        trace,
        symbols: if !symbols.is_empty() {
            Some(symbols.iter().map(|e| SymbolRow { function: e.func.0, path_id: Exact(e.path.0) }).collect())
        } else {
            (!p.terminal_events.is_empty()).then(|| p.terminal_events.iter().map(|&(f, path)| SymbolRow { function: f, path_id: Exact(path) }).collect())
        },
        terminals: (!p.terminals.is_empty()).then_some(&p.terminals[..]),
        grammar: grammar.map(|g| GrammarRows {
            rules: g
                .rules
                .iter()
                .map(|body| {
                    body.iter()
                        .map(|s| match *s {
                            Sym::T(t) => SymRow::T(t.0),
                            Sym::N(r) => SymRow::R(r.0),
                        })
                        .collect()
                })
                .collect(),
        }),
    })
}
