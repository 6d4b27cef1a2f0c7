//! `wpp query`: questions about a whole program path, answered on the grammar's DAG.

use std::io::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::dag::{Dag, PathRef};

/// Answer questions about the path trace without expanding it: how often a sequence of
/// paths ran, whether one path ever ran before another, and what ran around a path.
///
/// Paths are written FUNCTION:PATH_ID, the function by name or index (as `wpp paths`
/// shows them).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  wpp query lua.wpp freq luaV_execute:12 luaV_execute:40\n  wpp query lua.wpp before main:0 luaH_resize:3\n  wpp query lua.wpp context luaH_resize:3 --k 2"
)]
pub struct Opts {
    /// A profile with a grammar or a trace.
    profile: PathBuf,
    #[command(subcommand)]
    question: Question,
    /// Print JSON.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
enum Question {
    /// How many times the paths ran consecutively, in this order. JSON: {"sequence", "frequency"}.
    Freq {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Whether P ever ran before an execution of Q. JSON: {"before", "first_p", "last_q"}
    /// (event positions, null if the path never ran).
    Before { p: String, q: String },
    /// The K paths before and after each execution of P, aggregated, most frequent first.
    /// JSON: {"path", "executions", "contexts": [{"count", "before", "after"}]}.
    Context {
        p: String,
        /// Paths on each side.
        #[arg(long, default_value_t = 1)]
        k: usize,
        /// Show at most N contexts [0 for all].
        #[arg(long, default_value_t = 20)]
        top: usize,
    },
}

#[derive(Serialize)]
struct Freq {
    sequence: Vec<PathRef>,
    frequency: u64,
}

#[derive(Serialize)]
struct Before {
    before: bool,
    first_p: Option<u64>,
    last_q: Option<u64>,
}

#[derive(Serialize)]
struct ContextRow {
    count: u64,
    before: Vec<PathRef>,
    after: Vec<PathRef>,
}

#[derive(Serialize)]
struct Contexts {
    path: String,
    executions: u64,
    contexts: Vec<ContextRow>,
}

fn print_json(v: &impl Serialize) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let dag = Dag::open(&o.profile)?;
    let mut out = std::io::stdout().lock();
    match o.question {
        Question::Freq { paths } => {
            let parsed: Vec<_> = paths.iter().map(|p| dag.parse_path(p)).collect::<anyhow::Result<_>>()?;
            let frequency = match parsed.iter().map(|x| x.1).collect::<Option<Vec<u32>>>() {
                Some(seq) => wpp_grammar::PatternCounts::count(&dag.grammar, &dag.grammar.rule_frequencies(), &[seq]).pattern(0),
                None => 0,
            };
            if o.json {
                let sequence = parsed.iter().map(|x| dag.describe_path(x.0)).collect();
                return print_json(&Freq { sequence, frequency });
            }
            writeln!(out, "{frequency}")?;
        }
        Question::Before { p, q } => {
            let (tp, tq) = (dag.parse_path(&p)?.1, dag.parse_path(&q)?.1);
            let first_p = tp.and_then(|t| wpp_grammar::first_and_last(&dag.grammar, t)).map(|(f, _)| f);
            let last_q = tq.and_then(|t| wpp_grammar::first_and_last(&dag.grammar, t)).map(|(_, l)| l);
            let before = matches!((first_p, last_q), (Some(f), Some(l)) if f < l);
            if o.json {
                return print_json(&Before { before, first_p, last_q });
            }
            let pos = |x: Option<u64>| x.map_or("never ran".to_string(), |v| format!("event {v}"));
            writeln!(out, "{}", if before { "yes" } else { "no" })?;
            writeln!(out, "first {p}: {}; last {q}: {}", pos(first_p), pos(last_q))?;
        }
        Question::Context { p, k, top } => {
            let t = dag.parse_path(&p)?.1;
            let mut all = t.map(|t| wpp_grammar::contexts(&dag.grammar, t, k)).unwrap_or_default();
            let executions: u64 = all.iter().map(|c| c.1).sum();
            let total = all.len();
            if top > 0 {
                all.truncate(top);
            }
            let rows: Vec<ContextRow> = all
                .iter()
                .map(|((b, a), count)| ContextRow {
                    count: *count,
                    before: b.iter().map(|&t| dag.describe(t)).collect(),
                    after: a.iter().map(|&t| dag.describe(t)).collect(),
                })
                .collect();
            if o.json {
                return print_json(&Contexts { path: p, executions, contexts: rows });
            }
            writeln!(out, "{p} ran {} times in {total} distinct contexts of {k} paths each side", crate::record::group(executions))?;
            for r in &rows {
                let names = |v: &[PathRef]| v.iter().map(|x| format!("{}:{}", x.function, x.path_id)).collect::<Vec<_>>().join(" ");
                writeln!(out, "{:>14}  {} [{p}] {}", crate::record::group(r.count), names(&r.before), names(&r.after))?;
            }
            if rows.len() < total {
                writeln!(out, "... {} more (--top 0 shows all)", total - rows.len())?;
            }
        }
    }
    Ok(())
}
