//! `wpp ppp`: preferential path profiling — choosing the interesting paths.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use wpp_model::PathEvent;
use wpp_profile::Profile;

/// Preferential path profiling: number a chosen set of interesting paths compactly.
#[derive(Args)]
pub struct Opts {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Select(SelectOpts),
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
    }
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
            .map(|&e| SetPath {
                function: p.meta.functions[e.func.idx()].name.clone(),
                function_index: e.func.0,
                path_id: e.path.0,
                count: count_of(e),
            })
            .collect(),
        functions,
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(&o.output).with_context(|| format!("cannot create {}", o.output.display()))?);
    serde_json::to_writer_pretty(&mut out, &set)?;
    writeln!(out)?;
    out.flush()?;
    let rho = |lo: f64, hi: f64| set.functions.iter().filter(|f| f.rho > lo && f.rho <= hi).count();
    eprintln!(
        "wpp: {} interesting paths in {} functions ({}) -> {}\n     PPP compactness: {} functions at rho = 1, {} at rho <= 2, {} at rho <= 10, {} above",
        crate::record::group(set.paths.len() as u64),
        set.functions.len(),
        set.selection,
        o.output.display(),
        rho(0.0, 1.0),
        rho(1.0, 2.0),
        rho(2.0, 10.0),
        rho(10.0, f64::INFINITY),
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
