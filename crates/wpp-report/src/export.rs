//! A whole profile as one document, for other tools.

use serde::Serialize;
use wpp_grammar::Sym;
use wpp_profile::{Profile, RecordMode};

use crate::Error;

/// The run (module, arguments, ending), every function with its CFG, the path counts,
/// and for a grammar profile the symbol table and the grammar's rules. A symbol on a
/// rule's right side is `{"t": TERMINAL}` or `{"r": RULE}`; rule 0 is the start rule and
/// terminal `i` is the path `symbols[i]`.
#[derive(Serialize)]
pub struct Export<'a> {
    pub module: &'a str,
    pub args: &'a [String],
    pub mode: String,
    pub ending: String,
    pub events: u64,
    pub max_paths: u64,
    pub functions: &'a [wpp_model::Function],
    pub counts: Vec<Count>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbols: Option<Vec<SymbolRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminals: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grammar: Option<GrammarRows>,
}

#[derive(Serialize)]
pub struct Count {
    pub function: u32,
    pub path_id: u64,
    pub count: u64,
}

#[derive(Serialize)]
pub struct SymbolRow {
    pub function: u32,
    pub path_id: u64,
}

#[derive(Serialize)]
pub struct GrammarRows {
    pub rules: Vec<Vec<SymRow>>,
}

#[derive(Serialize)]
pub enum SymRow {
    #[serde(rename = "t")]
    T(u32),
    #[serde(rename = "r")]
    R(u32),
}

/// The export of `p` (decoding its grammar, if it has one).
pub fn export(p: &Profile) -> Result<Export<'_>, Error> {
    let grammar = if p.has_grammar() { Some(p.grammar()?) } else { None };
    Ok(Export {
        module: &p.meta.module,
        args: &p.meta.args,
        mode: match p.meta.mode {
            RecordMode::Paths => "paths".into(),
            RecordMode::Trace => "trace".into(),
            RecordMode::Ppp => "ppp".into(),
            RecordMode::Grammar(b) => format!("grammar/{}", b.name()),
        },
        ending: p.meta.ending.to_string(),
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
                            Sym::T(t) => SymRow::T(t.0),
                            Sym::N(r) => SymRow::R(r.0),
                        })
                        .collect()
                })
                .collect(),
        }),
    })
}
