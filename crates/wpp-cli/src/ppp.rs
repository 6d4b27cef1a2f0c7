//! `wpp ppp`: preferential path profiling — choosing the interesting paths, and reporting
//! what a run recorded with them (`wpp record --mode ppp`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use wpp_model::{PathEvent, PathId};
use wpp_profile::{PppFunction, PppPath, PppRecord, Profile};

/// Preferential path profiling: number a chosen set of interesting paths compactly.
#[derive(Args)]
pub struct Opts {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Select(SelectOpts),
    Report(ReportOpts),
}

/// Choose the interesting paths from an earlier profile and write them as a set file.
///
/// Exactly one of: every path the profiled run executed (`--all-executed`, e.g. what a
/// test suite covered), the hottest paths that together account for PERCENT of the run's
/// path executions (`--hot`), or the paths listed in a file, one `FUNCTION:PATH_ID` per
/// line (`--paths`; `#` starts a comment). The set file is JSON: {"module", "module_bytes",
/// "max_paths", "selection", "paths": [{"function", "function_index", "path_id",
/// "count"}], "functions": [{"function", "function_index", "n_interesting", "rho"}]},
/// paths sorted by function and path; `count` is the executions in the profile the set was
/// chosen from, `rho` how compactly preferential path profiling numbers the function's
/// interesting paths ((max id − min id + 1) / n_interesting; 1 is a dense range).
#[derive(Args)]
#[command(after_help = "Example:\n  wpp ppp select tests.wpp --all-executed -o tested.json")]
#[command(group = clap::ArgGroup::new("how").required(true).args(["all_executed", "hot", "paths"]))]
pub struct SelectOpts {
    /// A profile of the same module (any mode).
    profile: PathBuf,
    /// Every path the profiled run executed.
    #[arg(long)]
    all_executed: bool,
    /// The hottest paths covering this percentage of all path executions.
    #[arg(long, value_name = "PERCENT")]
    hot: Option<f64>,
    /// The paths listed in this file, one FUNCTION:PATH_ID per line.
    #[arg(long, value_name = "FILE")]
    paths: Option<PathBuf>,
    /// Where to write the set.
    #[arg(short, long)]
    output: PathBuf,
}

/// A set of interesting paths; its JSON form is the set file.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct PathSet {
    pub module: String,
    pub module_bytes: u64,
    pub max_paths: u64,
    /// How the set was chosen.
    pub selection: String,
    pub paths: Vec<SetPath>,
    /// Per function with interesting paths, how compactly PPP numbers them.
    pub functions: Vec<SetFunction>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct SetFunction {
    pub function: String,
    pub function_index: u32,
    pub n_interesting: usize,
    /// (max id − min id + 1) / n_interesting under the PPP numbering.
    pub rho: f64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct SetPath {
    pub function: String,
    pub function_index: u32,
    pub path_id: u64,
    pub count: u64,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    match o.command {
        Command::Select(o) => select(o),
        Command::Report(o) => report(o),
    }
}

impl PathSet {
    /// Reads a set file.
    pub fn load(file: &Path) -> anyhow::Result<PathSet> {
        let text = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        serde_json::from_slice(&text).with_context(|| format!("{}: not a set file of `wpp ppp select`", file.display()))
    }

    /// The set's paths by function, checked against the module it is used with: the same
    /// size, and every function at its index with its name and the path among its paths.
    pub fn interesting(&self, file: &Path, module: &Path, wasm: &[u8], program: &wpp_wasm::Program) -> anyhow::Result<wpp_wasm::Interesting> {
        if self.module_bytes != wasm.len() as u64 {
            bail!(
                "{}: chosen for {} ({} bytes), but {} has {} bytes; select the paths from a profile of this module",
                file.display(),
                self.module,
                self.module_bytes,
                module.display(),
                wasm.len()
            );
        }
        let opts = wpp_paths::Options { max_paths: self.max_paths };
        let mut out = wpp_wasm::Interesting::new();
        for p in &self.paths {
            let f = program.functions.get(p.function_index as usize);
            let Some(f) = f.filter(|f| f.name == p.function) else {
                bail!("{}: {} has no function {} at index {}", file.display(), module.display(), p.function, p.function_index);
            };
            let Some(cfg) = &f.cfg else { bail!("{}: function {} of {} has no code", file.display(), p.function, module.display()) };
            let n = wpp_paths::number(cfg, &opts).with_context(|| format!("{}: function {}", file.display(), p.function))?.n_paths();
            if p.path_id >= n {
                bail!("{}: function {} has {n} paths, so no path {}", file.display(), p.function, p.path_id);
            }
            out.entry(f.index).or_default().push(PathId(p.path_id));
        }
        Ok(out)
    }
}

/// What a PPP run recorded besides its counts, for the profile's `ppp` section.
pub fn record_of(file: &Path, set: &PathSet, inst: &wpp_wasm::Instrumented, hashed: &wpp_runtime::PathCounts) -> anyhow::Result<PppRecord> {
    let mut functions = Vec::new();
    for (i, ppp) in inst.ppp.iter().enumerate() {
        let Some(ppp) = ppp else { continue };
        let kind = inst.layout.counters.iter().find(|c| c.0.idx() == i).map(|c| c.1);
        let slots = if let Some(wpp_wasm::CounterKind::Ppp { slots, .. }) = kind { slots } else { 0 };
        let ball_larus_array = matches!(kind, Some(wpp_wasm::CounterKind::Array { .. }));
        let paths = ppp
            .ids()
            .iter()
            .map(|&(path, id)| Ok(PppPath { path, ppp_id: u64::try_from(id).with_context(|| format!("PPP id {id} out of range"))? }))
            .collect::<anyhow::Result<_>>()?;
        functions.push(PppFunction { func: wpp_model::FuncIdx(i as u32), slots, ball_larus_array, paths });
    }
    Ok(PppRecord { set: file.display().to_string(), selection: set.selection.clone(), functions, hashed: crate::record::sorted_counts(hashed) })
}

fn select(o: SelectOpts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let counts: std::collections::HashMap<PathEvent, u64> = p.counts.iter().map(|c| (PathEvent { func: c.func, path: c.path }, c.count)).collect();
    let count_of = |e: PathEvent| counts.get(&e).copied().unwrap_or(0);
    let (chosen, selection): (BTreeSet<PathEvent>, String) = if o.all_executed {
        (p.counts.iter().map(|c| PathEvent { func: c.func, path: c.path }).collect(), "all executed".into())
    } else if let Some(percent) = o.hot {
        anyhow::ensure!((0.0..=100.0).contains(&percent), "--hot {percent}: a percentage is between 0 and 100");
        (hottest(&p, percent), format!("hot {percent}%"))
    } else {
        let file = o.paths.as_ref().expect("clap requires one of the three");
        (listed(&p, file)?, format!("listed in {}", file.display()))
    };
    let mut functions = Vec::new();
    let mut by_func: std::collections::BTreeMap<wpp_model::FuncIdx, Vec<wpp_model::PathId>> = Default::default();
    for e in &chosen {
        by_func.entry(e.func).or_default().push(e.path);
    }
    for (f, paths) in &by_func {
        let numbering = p.numberings[f.idx()].as_ref().expect("validated: chosen paths decode");
        let ppp = wpp_paths::ppp_number(numbering, paths).with_context(|| format!("function {}", p.meta.functions[f.idx()].name))?;
        functions.push(SetFunction {
            function: p.meta.functions[f.idx()].name.clone(),
            function_index: f.0,
            n_interesting: paths.len(),
            rho: ppp.rho().unwrap_or(1.0),
        });
    }
    let set = PathSet {
        module: p.meta.module.clone(),
        module_bytes: p.meta.module_bytes,
        max_paths: p.meta.max_paths,
        selection,
        paths: chosen
            .iter()
            .map(|&e| SetPath { function: p.meta.functions[e.func.idx()].name.clone(), function_index: e.func.0, path_id: e.path.0, count: count_of(e) })
            .collect(),
        functions,
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(&o.output).with_context(|| format!("cannot create {}", o.output.display()))?);
    serde_json::to_writer_pretty(&mut out, &set)?;
    writeln!(out)?;
    out.flush()?;
    eprintln!(
        "wpp: {} interesting paths in {} functions ({}) -> {}\nPPP compactness, rho = (max id - min id + 1) / interesting paths, by interesting paths per function:\n{}",
        crate::record::group(set.paths.len() as u64),
        set.functions.len(),
        set.selection,
        o.output.display(),
        rho_table(set.functions.iter().map(|f| (f.n_interesting, f.rho))),
    );
    Ok(())
}

/// The fewest hottest paths whose executions reach `percent` of all (ties broken by
/// function and path).
fn hottest(p: &Profile, percent: f64) -> BTreeSet<PathEvent> {
    let mut counts: Vec<_> = p.counts.iter().collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    let total: u128 = counts.iter().map(|c| c.count as u128).sum();
    let goal = (total as f64 * percent / 100.0).ceil() as u128;
    let mut sum = 0u128;
    let mut out = BTreeSet::new();
    for c in counts {
        if sum >= goal {
            break;
        }
        sum += c.count as u128;
        out.insert(PathEvent { func: c.func, path: c.path });
    }
    out
}

/// The paths of a list file.
fn listed(p: &Profile, file: &Path) -> anyhow::Result<BTreeSet<PathEvent>> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        match crate::dag::parse_path(p, line) {
            Ok(e) => {
                out.insert(e);
            }
            Err(e) => bail!("{}:{}: {e}", file.display(), i + 1),
        }
    }
    Ok(out)
}

/// Report a run recorded with `wpp record --mode ppp`: how often each interesting path
/// ran, the residual paths (executed but not interesting), and how compactly PPP numbered
/// each function's interesting paths.
///
/// An interesting path is counted in its function's slot array (`slot`); one whose PPP id
/// lies past the array (a function with a very sparse numbering) is counted by the hash
/// table with the residual paths and sorted back here (`hash`); in a function whose
/// Ball-Larus numbers fit a counter array, every path is counted there and sorted into
/// interesting and residual here (`array`). With --json:
/// {"set", "selection", "interesting": [{"function", "function_index", "path_id" (Ball-Larus),
/// "ppp_id", "count", "counted"}], "residual": [{"function", "function_index", "path_id",
/// "count", "instructions", "blocks", "source"}], "functions": [{"function",
/// "function_index", "n_interesting", "rho", "slots", "counters"}]}; interesting paths (executed or
/// not) by function and path, residual paths most executed first.
#[derive(Args)]
#[command(
    after_help = "Example:\n  wpp ppp select tests.wpp --all-executed -o tested.json\n  wpp record --mode ppp --interesting tested.json -o field.wpp prog.wasm\n  wpp ppp report field.wpp"
)]
pub struct ReportOpts {
    /// A profile recorded with `wpp record --mode ppp`.
    profile: PathBuf,
    /// Show at most N paths of each list [default: 20; 0 for all] (JSON lists all).
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    set: String,
    selection: String,
    interesting: Vec<InterestingRow>,
    residual: Vec<crate::paths::PathRow>,
    functions: Vec<FunctionRow>,
}

#[derive(Serialize)]
struct InterestingRow {
    function: String,
    function_index: u32,
    path_id: u64,
    ppp_id: u64,
    count: u64,
    /// `slot` (the function's PPP array), `hash` (PPP id past the array) or `array` (the
    /// function's Ball-Larus counters).
    counted: &'static str,
}

#[derive(Serialize)]
struct FunctionRow {
    function: String,
    function_index: u32,
    n_interesting: usize,
    rho: f64,
    slots: u64,
    /// `slots`, `array` (Ball-Larus counters) or `hash`.
    counters: &'static str,
}

fn report(o: ReportOpts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let Some(r) = &p.ppp else {
        bail!("{}: not recorded with --mode ppp (it has no `ppp` section)", o.profile.display());
    };
    let count_of: std::collections::HashMap<PathEvent, u64> = p.counts.iter().map(|c| (PathEvent { func: c.func, path: c.path }, c.count)).collect();
    let name = |f: wpp_model::FuncIdx| p.meta.functions[f.idx()].name.clone();
    let mut interesting = Vec::new();
    let mut is_interesting = std::collections::HashSet::new();
    let mut functions = Vec::new();
    for f in &r.functions {
        for x in &f.paths {
            let e = PathEvent { func: f.func, path: x.path };
            is_interesting.insert(e);
            interesting.push(InterestingRow {
                function: name(f.func),
                function_index: f.func.0,
                path_id: x.path.0,
                ppp_id: x.ppp_id,
                count: count_of.get(&e).copied().unwrap_or(0),
                counted: if f.ball_larus_array {
                    "array"
                } else if x.ppp_id < f.slots {
                    "slot"
                } else {
                    "hash"
                },
            });
        }
        let counters = if f.ball_larus_array {
            "array"
        } else if f.slots > 0 {
            "slots"
        } else {
            "hash"
        };
        functions.push(FunctionRow { function: name(f.func), function_index: f.func.0, n_interesting: f.paths.len(), rho: f.rho(), slots: f.slots, counters });
    }
    let mut residual: Vec<_> = p.counts.iter().filter(|h| !is_interesting.contains(&PathEvent { func: h.func, path: h.path })).collect();
    residual.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    let residual: Vec<crate::paths::PathRow> = residual.iter().map(|h| crate::paths::row(&p, h)).collect();
    let report = Report { set: r.set.clone(), selection: r.selection.clone(), interesting, residual, functions };
    let mut out = std::io::stdout().lock();
    if o.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
        return Ok(());
    }
    print_report(&mut out, &p, &report, o.top)
}

fn print_report(out: &mut impl std::io::Write, p: &Profile, r: &Report, top: usize) -> anyhow::Result<()> {
    let g = crate::record::group;
    let executed = r.interesting.iter().filter(|x| x.count > 0).count();
    let runs: u64 = r.interesting.iter().map(|x| x.count).sum();
    let hashed = r.interesting.iter().filter(|x| x.counted == "hash").count();
    let arrays = r.functions.iter().filter(|f| f.counters == "array").count();
    let residual_runs: u64 = r.residual.iter().map(|x| x.count).sum();
    writeln!(
        out,
        "interesting paths ({}: {}): {} in {} functions; {} executed, {} times",
        r.set,
        r.selection,
        g(r.interesting.len() as u64),
        r.functions.len(),
        g(executed as u64),
        g(runs)
    )?;
    if arrays > 0 {
        writeln!(out, "  {arrays} of the functions fit Ball-Larus counter arrays and were counted there, without PPP slots")?;
    }
    if hashed > 0 {
        writeln!(out, "  {} of them have PPP ids past their function's slots and were counted in the hash table", g(hashed as u64))?;
    }
    writeln!(out, "residual paths (executed, not interesting): {}, {} times", g(r.residual.len() as u64), g(residual_runs))?;
    let take = |n: usize| if top == 0 { n } else { n.min(top) };
    if !r.residual.is_empty() {
        let where_ = if p.source.is_some() { "source lines" } else { "blocks (byte offsets)" };
        writeln!(out, "\nresidual paths, most executed first:\n{:>14}  {:<32} {:>10} {:>7}  {where_}", "count", "function", "path", "instrs")?;
        for x in &r.residual[..take(r.residual.len())] {
            let blocks: Vec<String> = if p.source.is_some() { x.source.clone() } else { x.blocks.iter().map(|b| format!("{:#x}", b.start)).collect() };
            writeln!(out, "{:>14}  {:<32} {:>10} {:>7}  {}", g(x.count), crate::paths::truncate(&x.function, 32), x.path_id, x.instructions, blocks.join(" "))?;
        }
        if take(r.residual.len()) < r.residual.len() {
            writeln!(out, "... {} more (--top 0 shows all)", r.residual.len() - take(r.residual.len()))?;
        }
    }
    let mut hot: Vec<&InterestingRow> = r.interesting.iter().collect();
    hot.sort_by(|a, b| b.count.cmp(&a.count).then(a.function_index.cmp(&b.function_index)).then(a.path_id.cmp(&b.path_id)));
    writeln!(out, "\ninteresting paths, most executed first:\n{:>14}  {:<32} {:>10} {:>10} {:>7}", "count", "function", "path", "PPP id", "counted")?;
    for x in &hot[..take(hot.len())] {
        writeln!(out, "{:>14}  {:<32} {:>10} {:>10} {:>7}", g(x.count), crate::paths::truncate(&x.function, 32), x.path_id, x.ppp_id, x.counted)?;
    }
    if take(hot.len()) < hot.len() {
        writeln!(out, "... {} more (--top 0 shows all)", hot.len() - take(hot.len()))?;
    }
    writeln!(out, "\nPPP compactness, rho = (max id - min id + 1) / interesting paths, by interesting paths per function:")?;
    writeln!(out, "{}", rho_table(r.functions.iter().map(|f| (f.n_interesting, f.rho))))?;
    Ok(())
}

/// Functions bucketed by number of interesting paths (1, 2–3, 4–7, ...): how many, how
/// many at ρ = 1, ≤ 2 and > 10, mean and largest ρ.
pub fn rho_table(functions: impl Iterator<Item = (usize, f64)>) -> String {
    let mut buckets: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    for (n, rho) in functions {
        buckets.entry(usize::BITS - n.max(1).leading_zeros()).or_default().push(rho);
    }
    let mut s = format!("{:>14} {:>10} {:>8} {:>8} {:>8} {:>10} {:>12}", "interesting", "functions", "rho=1", "<=2", ">10", "mean rho", "max rho");
    let mut all = Vec::new();
    let mut line = |label: String, r: &[f64]| {
        let count = |f: &dyn Fn(f64) -> bool| r.iter().filter(|&&x| f(x)).count();
        let mean = r.iter().sum::<f64>() / r.len().max(1) as f64;
        let max = r.iter().copied().fold(0.0, f64::max);
        s.push_str(&format!(
            "\n{label:>14} {:>10} {:>8} {:>8} {:>8} {:>10.2} {:>12.1}",
            r.len(),
            count(&|x| x <= 1.0),
            count(&|x| x <= 2.0),
            count(&|x| x > 10.0),
            mean,
            max
        ));
    };
    for (bits, r) in &buckets {
        let (lo, hi) = (1u64 << (bits - 1), (1u64 << bits) - 1);
        line(if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }, r);
        all.extend_from_slice(r);
    }
    line("all".into(), &all);
    s
}
