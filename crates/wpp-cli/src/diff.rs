//! `wpp diff`: two runs side by side, of one module or of two builds of a program.

use std::path::PathBuf;

use clap::Args;

/// Compare two runs: per function and per path, how often each ran and the instructions
/// it executed in each run, and the change, largest first.
///
/// Runs of one module (by its SHA-256) are compared path by path, in any mode: counts are
/// compared, so a PPP or grammar profile compares with a counted one. Runs of two builds
/// of a program (before and after a change) are matched by function name (a name each
/// build has once) and, for paths, by their blocks' source lines (DWARF); what could not
/// be matched is listed: functions only one build has, and paths with a block without
/// source lines (all of them, without DWARF). Either profile may be a merged one, as the
/// sum of its runs or one run with --run-a / --run-b. Paths only one run executed are
/// marked `only A` or `only B`. --html OUT.html also writes the comparison as a page
/// (every row unless --top), with bars for the changes. With --json: {"profile_a", "profile_b", "run_a", "run_b"
/// (the run of a merged profile, or null), "matched_by" ("module" or "source lines"),
/// "unmatched_a", "unmatched_b" (two builds: {"functions": [NAME], "function_executions",
/// "function_instructions", "lineless_paths", "lineless_executions",
/// "lineless_instructions"}), "executions_a", "executions_b", "instructions_a",
/// "instructions_b", "only_a", "only_b" (distinct paths only one run executed),
/// "functions": [{"function", "function_index", "function_index_b" (two builds),
/// "executions_a", "executions_b", "instructions_a", "instructions_b", "change"}],
/// "paths": [{"function", "function_index", "path_id", "path_id_b" (two builds: the second
/// build's path with those lines, or null), "instructions" (one run of the path),
/// "blocks", "source", "count_a", "count_b", "instructions_a", "instructions_b", "change",
/// "only" ("a", "b" or null)}], "truncated", "total_functions", "total_paths"}; a change
/// is the second run's instructions less the first's.
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
    /// Also write the comparison as a page (every row unless --top).
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    #[command(flatten)]
    output: crate::Output,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let a = crate::Run { run: o.run_a }.open(&o.a)?;
    let b = crate::Run { run: o.run_b }.open(&o.b)?;
    o.html.as_deref().map(wpp_profile::check_writable).transpose()?;
    // The page has every row unless --top: the diff is made with the page's rows, and cut
    // for the text after the page is written.
    let top = if o.html.is_some() { wpp_report::Top::of(o.output.top, true) } else { o.output.top() };
    let mut d = wpp_report::diff(&a, &b, top)?;
    (d.run_a, d.run_b) = (o.run_a, o.run_b);
    if let Some(page) = &o.html {
        wpp_html::diff::write(&d, page)?;
        wpp_text::diff::wrote(&mut std::io::stderr().lock(), page, &d)?;
        d.cut(o.output.top());
    }
    if o.output.json {
        return crate::print_json(&d);
    }
    wpp_text::diff::render(&mut std::io::stdout().lock(), &d, a.source.is_some())?;
    Ok(())
}
