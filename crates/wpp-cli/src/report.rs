//! `wpp report`: one self-contained HTML page of a profile.

use std::path::PathBuf;

use clap::Args;
use wpp_dataflow::dff::Dff;
use wpp_report::Top;

/// Write an HTML report of a profile: one page, everything inline, nothing fetched.
///
/// The summary of the run; the hottest paths and the hot subpaths, each drawn on its
/// function's control flow graph (blocks labelled with their source lines, the path's
/// edges highlighted, every edge coloured by how often it ran; laid out by Graphviz's
/// `dot`); a flame graph of the calls read off the whole program path (inclusive
/// instructions per call stack, click to zoom); how concentrated each function's
/// execution is on few paths; for a PPP profile its interesting and residual paths and ρ
/// per function; and the source lines all of these link to.
///
/// With `--twpp`, the run's timestamped whole program path (`wpp twpp build`): invocations
/// against distinct traces per function, the most frequent traces. With `--dataflow F
/// --module M.wasm`, the exact data flow frequencies of `wpp dff` at every block of `F`,
/// beside the edge profile's estimate.
///
/// Without `dot` the page is written without drawings, and says so.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp report lua.wpp -o lua.html")]
pub struct Opts {
    /// A profile written by `wpp record` (a grammar or trace profile for hot subpaths and
    /// the flame graph).
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// The page to write (replaced whole, or left as it was if the report fails).
    #[arg(short, long, value_name = "OUT.html")]
    output: PathBuf,
    /// Hottest paths drawn.
    #[arg(long, value_name = "N", default_value_t = 10)]
    paths: usize,
    /// Hot subpaths listed and drawn.
    #[arg(long, value_name = "N", default_value_t = 10)]
    subpaths: usize,
    /// Longest hot subpath searched, in paths.
    #[arg(long, value_name = "L", default_value_t = 32)]
    max_len: usize,
    /// Least cost of a hot subpath: instructions, or a share of the run's (`1%`).
    #[arg(long, value_name = "C", default_value = "1%")]
    min_cost: wpp_report::MinCost,
    /// Functions in the path distribution table.
    #[arg(long, value_name = "N", default_value_t = 60)]
    functions: usize,
    /// Draw functions with more blocks than this with the blocks off the path collapsed.
    #[arg(long, value_name = "N", default_value_t = 40)]
    collapse_above: usize,
    /// Read source files whose DWARF name starts with FROM under TO instead (repeatable;
    /// the first that reads wins, then the name itself).
    #[arg(long, value_name = "FROM=TO", value_parser = crate::parse_source_map)]
    source_map: Vec<(String, PathBuf)>,
    /// Show this TWPP file of the same run (`wpp twpp build`).
    #[arg(long, value_name = "FILE.twpp")]
    twpp: Option<PathBuf>,
    /// Show the data flow frequencies at every block of this function (needs --module).
    #[arg(long, value_name = "F", requires = "module")]
    dataflow: Option<String>,
    /// The module the profile was recorded from, for --dataflow.
    #[arg(long, value_name = "M.wasm")]
    module: Option<PathBuf>,
    /// The data flow problem of --dataflow.
    #[arg(long, value_enum, default_value = "reaching-definitions")]
    problem: crate::Problem,
    /// Graphviz's `dot`, to lay the drawings out.
    #[arg(long, value_name = "PROGRAM", default_value = "dot")]
    dot: PathBuf,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let options = wpp_html::Options {
        paths: o.paths,
        subpaths: o.subpaths,
        hot_max_len: o.max_len.max(2),
        hot_min_cost: o.min_cost,
        functions: o.functions,
        collapse_above: o.collapse_above,
        ..wpp_html::Options::default()
    };
    let request =
        wpp_html::Request { profile: &o.profile, run: o.run.run, output: &o.output, options, twpp: o.twpp.as_deref(), dot: &o.dot, source_map: &o.source_map };
    // `wpp dff`'s frequencies at every block of the function, on the run decoded for the
    // page.
    let asked = o.dataflow.as_deref().zip(o.module.as_deref());
    let dataflow = |dag: &wpp_report::Dag| -> Result<wpp_report::dataflow::DffReport, wpp_dataflow::Error> {
        let (func, module) = asked.expect("called only when asked for");
        let module = wpp_dataflow::Module::open(&dag.profile, module)?;
        Dff::new(dag, &module)?.answer(o.problem.into(), Some(func), None, Top::All)
    };
    o.run.open(&o.profile)?.require_program("report")?;
    wpp_profile::check_writable(&o.output)?;
    let mut bar = crate::Bar::on_terminal();
    let written = wpp_html::write_report(&request, asked.map(|_| &dataflow as _), &mut bar).map_err(|e| match e {
        wpp_html::PipelineError::Page(e) => anyhow::Error::new(e),
        wpp_html::PipelineError::Dataflow(e) => anyhow::Error::new(e),
    })?;
    drop(bar);
    wpp_text::report::wrote(&mut std::io::stderr().lock(), &o.output, written.bytes, written.not_drawn.as_deref())?;
    Ok(())
}
