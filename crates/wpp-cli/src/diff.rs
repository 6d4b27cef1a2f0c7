//! `wpp diff`: two runs of one module side by side.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_report::format::{group, truncate};

/// Compare two runs of one module: per function and per path, how often each ran and the
/// instructions it executed in each run, and the change, largest first.
///
/// The runs must have been recorded from the same module (by its SHA-256), in any mode:
/// counts are compared, so a PPP or grammar profile compares with a counted one. Either
/// may be a merged profile, as the sum of its runs or one run with --run-a / --run-b.
/// Paths only one run executed are marked `only A` or `only B`. With --json: {"profile_a",
/// "profile_b", "run_a", "run_b" (the run of a merged profile, or null), "executions_a", "executions_b", "instructions_a", "instructions_b",
/// "only_a", "only_b" (distinct paths only one run executed), "functions": [{"function",
/// "function_index", "executions_a", "executions_b", "instructions_a", "instructions_b",
/// "change"}], "paths": [{"function", "function_index", "path_id", "instructions" (one
/// run of the path), "blocks", "source", "count_a", "count_b", "instructions_a",
/// "instructions_b", "change", "only" ("a", "b" or null)}], "truncated",
/// "total_functions", "total_paths"}; a change is the second run's instructions less the
/// first's.
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp diff before.wpp after.wpp\n  wpp diff tests.wpp field.wpp --top 10 --json")]
pub struct Opts {
    /// The first run (A).
    a: PathBuf,
    /// The second run (B).
    b: PathBuf,
    /// Of a merged A, only its run N.
    #[arg(long, value_name = "N")]
    run_a: Option<usize>,
    /// Of a merged B, only its run N.
    #[arg(long, value_name = "N")]
    run_b: Option<usize>,
    #[command(flatten)]
    output: crate::Output,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let a = crate::Run { run: o.run_a }.open(&o.a)?;
    let b = crate::Run { run: o.run_b }.open(&o.b)?;
    let mut d = wpp_report::diff(&a, &b, o.output.top())?;
    (d.run_a, d.run_b) = (o.run_a, o.run_b);
    if o.output.json {
        return crate::print_json(&d);
    }
    let mut out = std::io::stdout().lock();
    let change = |c: i128| {
        if c > 0 {
            format!("+{}", group(c as u64))
        } else if c < 0 {
            format!("-{}", group(c.unsigned_abs() as u64))
        } else {
            "0".into()
        }
    };
    let name = |file: &str, run: Option<usize>| run.map_or(file.to_owned(), |n| format!("{file} (run {n})"));
    writeln!(out, "A: {}: {} path executions, {} instructions", name(&d.profile_a, d.run_a), group(d.executions_a), group(d.instructions_a))?;
    writeln!(out, "B: {}: {} path executions, {} instructions", name(&d.profile_b, d.run_b), group(d.executions_b), group(d.instructions_b))?;
    writeln!(
        out,
        "change in instructions: {}; paths only A ran: {}, only B ran: {}",
        change(d.instructions_b as i128 - d.instructions_a as i128),
        d.only_a,
        d.only_b
    )?;
    writeln!(out)?;
    writeln!(out, "functions by change in instructions (B - A):")?;
    writeln!(out, "{:>16} {:>16} {:>16}  function", "change", "instrs A", "instrs B")?;
    for f in &d.functions {
        writeln!(out, "{:>16} {:>16} {:>16}  {}", change(f.change), group(f.instructions_a), group(f.instructions_b), f.function)?;
    }
    if let Some(note) = d.truncation.note("functions", "functions") {
        writeln!(out, "{note}")?;
    }
    writeln!(out)?;
    let source = a.source.is_some();
    writeln!(out, "paths by change in instructions (B - A):")?;
    writeln!(
        out,
        "{:>16} {:>12} {:>12}  {:<32} {:>10} {:>7}  {}",
        "change",
        "count A",
        "count B",
        "function",
        "path",
        "instrs",
        wpp_report::PathRow::places_header(source)
    )?;
    for p in &d.paths {
        let only = match p.only {
            Some("a") => "  [only A]",
            Some(_) => "  [only B]",
            None => "",
        };
        writeln!(
            out,
            "{:>16} {:>12} {:>12}  {:<32} {:>10} {:>7}  {}{only}",
            change(p.change),
            group(p.count_a),
            group(p.count_b),
            truncate(&p.path.function, 32),
            p.path.path_id,
            p.path.instructions,
            p.path.places(source)
        )?;
    }
    if let Some(note) = d.truncation.note("paths", "paths") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
