//! `wpp diff`: two runs side by side, of one module or of two builds of a program.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_report::format::{group, signed, truncate};

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
    // The page has every row unless --top: the diff is made with the page's rows, and cut
    // for the text after the page is written.
    let top = if o.html.is_some() { wpp_report::Top::of(o.output.top, true) } else { o.output.top() };
    let mut d = wpp_report::diff(&a, &b, top)?;
    (d.run_a, d.run_b) = (o.run_a, o.run_b);
    if let Some(page) = &o.html {
        wpp_html::diff::write(&d, page)?;
        eprintln!("wpp: wrote {} ({} functions, {} paths)", page.display(), d.functions.len(), d.paths.len());
        d.cut(o.output.top());
    }
    if o.output.json {
        return crate::print_json(&d);
    }
    let mut out = std::io::stdout().lock();
    let [name_a, name_b] = d.labels();
    writeln!(out, "A: {name_a}: {} path executions, {} instructions", group(d.executions_a), group(d.instructions_a))?;
    writeln!(out, "B: {name_b}: {} path executions, {} instructions", group(d.executions_b), group(d.instructions_b))?;
    writeln!(
        out,
        "change in instructions: {}; paths only A ran: {}, only B ran: {}",
        signed(d.instructions_b as i128 - d.instructions_a as i128),
        d.only_a,
        d.only_b
    )?;
    if d.unmatched_a.is_some() {
        writeln!(out, "two builds: functions matched by name, paths by source lines")?;
    }
    for line in d.unmatched() {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(out, "functions by change in instructions (B - A):")?;
    writeln!(out, "{:>16} {:>16} {:>16}  function", "change", "instrs A", "instrs B")?;
    for f in &d.functions {
        writeln!(out, "{:>16} {:>16} {:>16}  {}", signed(f.change), group(f.instructions_a), group(f.instructions_b), f.function)?;
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
    let builds = d.unmatched_a.is_some();
    for p in &d.paths {
        let id = match (builds, p.only) {
            (false, _) => p.path.path_id.to_string(),
            (true, Some("b")) => format!("-/{}", p.path.path_id),
            (true, _) => format!("{}/{}", p.path.path_id, p.path_id_b.map_or("-".into(), |x| x.to_string())),
        };
        let only = match p.only {
            Some("a") => "  [only A]",
            Some(_) => "  [only B]",
            None => "",
        };
        writeln!(
            out,
            "{:>16} {:>12} {:>12}  {:<32} {:>10} {:>7}  {}{only}",
            signed(p.change),
            group(p.count_a),
            group(p.count_b),
            truncate(&p.path.function, 32),
            id,
            p.path.instructions,
            p.path.places(source)
        )?;
    }
    if let Some(note) = d.truncation.note("paths", "paths") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
