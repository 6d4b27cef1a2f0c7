//! `wpp query`: questions about a whole program path, answered on the grammar's DAG.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use wpp_report::Dag;

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
    #[command(flatten)]
    run: crate::Run,
    #[command(subcommand)]
    question: Question,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(Subcommand)]
enum Question {
    /// How many times the paths ran consecutively, in this order: every occurrence, overlapping
    /// ones included (as `wpp hot` counts), and, when a sequence overlaps itself, how many fit
    /// side by side. JSON: {"sequence", "frequency", "disjoint"}.
    Freq {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Whether P ever ran before an execution of Q. JSON: {"before", "first_p", "last_q"}
    /// (event positions, null if the path never ran).
    Before { p: String, q: String },
    /// The K paths before and after each execution of P, aggregated, most frequent first.
    /// JSON: {"path", "executions", "contexts": [{"count", "before", "after"}], "truncated",
    /// "total_contexts"}.
    Context {
        p: String,
        /// Paths on each side.
        #[arg(long, default_value_t = 1)]
        k: usize,
    },
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let dag = Dag::of(o.run.open(&o.profile)?)?;
    let mut out = std::io::stdout().lock();
    match o.question {
        Question::Freq { paths } => {
            let r = wpp_report::freq(&dag, &paths)?;
            if o.output.json {
                return crate::print_json(&r);
            }
            wpp_text::query::freq(&mut out, &r)?;
        }
        Question::Before { p, q } => {
            let r = wpp_report::before(&dag, &p, &q)?;
            if o.output.json {
                return crate::print_json(&r);
            }
            wpp_text::query::before(&mut out, &r, &p, &q)?;
        }
        Question::Context { p, k } => {
            let r = wpp_report::contexts(&dag, &p, k, o.output.top())?;
            if o.output.json {
                return crate::print_json(&r);
            }
            wpp_text::query::contexts(&mut out, &r, &p, k)?;
        }
    }
    Ok(())
}
