//! Everything the page shows, computed from a profile: the analyses run here, the page
//! only formats.

use rustc_hash::FxHashMap;
use wpp_grammar::HotParams;
use wpp_model::{BlockIdx, FuncIdx, PathEvent};
use wpp_profile::Profile;
use wpp_report::{Dag, PathRow, Top};
use wpp_twpp::stacks::{CallTree, CallTreeBuilder};

use crate::drawing::{self, BlockLabel};
use crate::{Error, Progress};
use wpp_report::heat::{function_pairs, function_paths, heat, Heat};

/// What the page holds, and how much of each list.
#[derive(Clone, Debug)]
pub struct Options {
    /// Hottest paths drawn (by instructions: count × the path's instructions).
    pub paths: usize,
    /// Hot subpaths listed, the first ones drawn.
    pub subpaths: usize,
    /// Longest hot subpath searched, in paths.
    pub hot_max_len: usize,
    /// Least cost of a hot subpath, in instructions or a share of the run's.
    pub hot_min_cost: wpp_report::MinCost,
    /// Functions in the path distribution table.
    pub functions: usize,
    /// Functions with more blocks than this are drawn with what the paths do not reach
    /// collapsed.
    pub collapse_above: usize,
    /// Rows of each PPP list.
    pub ppp_rows: usize,
    /// Loads in the memory dependences' table (the most executed).
    pub deps_loads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            paths: 10,
            subpaths: 10,
            hot_max_len: 32,
            hot_min_cost: wpp_report::MinCost::Percent(1.0),
            functions: 60,
            collapse_above: 40,
            ppp_rows: 200,
            deps_loads: 40,
        }
    }
}

/// The run at a glance.
pub struct Summary {
    pub stats: wpp_report::stats::Stats,
    pub args: Vec<String>,
    /// The guest's run time as recorded, in nanoseconds.
    pub guest_nanos: u64,
    /// Instructions the recorded paths executed.
    pub instructions: u64,
    pub functions_run: usize,
}

/// One drawing: a function's CFG with paths on it, as Graphviz source.
pub struct Drawing {
    /// Its id in the page (`d3`); highlighted blocks are `d3-bN`.
    pub id: String,
    pub func: FuncIdx,
    pub dot: String,
    pub blocks_shown: usize,
    pub blocks_collapsed: usize,
    /// The blocks highlighted.
    pub highlighted: Vec<BlockIdx>,
}

/// A hot path and its drawing.
pub struct HotPath {
    pub row: PathRow,
    /// count × the path's instructions.
    pub cost: u64,
    pub drawing: usize,
}

/// A hot subpath and the drawings of its functions.
pub struct Subpath {
    pub row: wpp_report::HotRow,
    pub drawings: Vec<usize>,
}

/// The flame graph, and what it was made from.
pub struct Flame {
    pub svg: String,
    /// The root frame's width: the instructions of every event.
    pub instructions: u64,
    pub stacks: usize,
    pub ambiguous: u64,
}

/// Everything the page shows.
pub struct Report {
    pub summary: Summary,
    pub hot_paths: Vec<HotPath>,
    /// Hot subpaths (`None` without a whole program path), with the search's parameters.
    pub subpaths: Option<(Vec<Subpath>, usize, HotParams)>,
    pub flame: Option<Flame>,
    /// Why there is no flame graph, when there is none.
    pub no_flame: Option<String>,
    /// The function table's first rows, by instructions.
    pub functions: Vec<wpp_report::FunctionRow>,
    pub functions_total: usize,
    pub ppp: Option<wpp_report::ppp::PppReport>,
    /// The memory dependences of the most executed loads, for a profile that has them
    /// (an addresses recording, a filtering run or an extended WPP).
    pub deps: Option<wpp_report::deps::DepsReport>,
    pub drawings: Vec<Drawing>,
    /// Source files by the source map's index (empty without source lines).
    pub files: Vec<String>,
    /// The lines to show of each file, as inclusive ranges.
    pub wanted_lines: FxHashMap<u32, Vec<(u32, u32)>>,
    /// Executions and instructions of every source line with code, by (file, line)
    /// (`wpp annotate`'s counts).
    pub line_counts: std::collections::BTreeMap<(u32, u32), wpp_report::annotate::LineCount>,
    pub extras: crate::Extras,
    pub profile: Profile,
}

/// A profile as the page reads it: its whole program path decoded into a DAG (a grammar
/// or trace profile), or its path counts alone.
pub enum Input {
    Run(Dag),
    Counts(Profile),
}

impl Input {
    /// `profile`, its grammar decoded once (or its trace compressed) when it has a run. A
    /// grammar of foreign symbols (`wpp compress`) is refused here, as by every analysis
    /// of paths.
    pub fn of(profile: Profile, progress: &mut dyn Progress) -> Result<Input, Error> {
        if profile.has_trace() || profile.has_grammar() || profile.every_run_whole()? {
            progress.stage("decoding the grammar", None);
            Ok(Input::Run(Dag::of(profile)?))
        } else {
            Ok(Input::Counts(profile))
        }
    }

    pub fn profile(&self) -> &Profile {
        match self {
            Input::Run(d) => &d.profile,
            Input::Counts(p) => p,
        }
    }

    /// The run's DAG, for a profile with a whole program path.
    pub fn dag(&self) -> Option<&Dag> {
        match self {
            Input::Run(d) => Some(d),
            Input::Counts(_) => None,
        }
    }
}

/// Reports the page's analyses of `input`, telling `progress` of the long steps.
pub fn build(input: Input, opts: &Options, extras: crate::Extras, progress: &mut dyn Progress) -> Result<Report, Error> {
    let dag = input.dag();
    let p: &Profile = input.profile();
    // The grammar decoded once: a trace profile's grammar is the DAG's own, not the file's.
    let stats = match dag {
        Some(d) if p.has_grammar() => wpp_report::stats_of(p, Some(&d.grammar))?,
        _ => wpp_report::stats(p)?,
    };
    let instr_cache: FxHashMap<PathEvent, u64> = p
        .counts
        .iter()
        .map(|c| {
            let e = PathEvent { func: c.func, path: c.path };
            (e, wpp_report::path_instructions(p, e))
        })
        .collect();
    let instructions = |e: PathEvent| instr_cache.get(&e).copied().unwrap_or_else(|| wpp_report::path_instructions(p, e));
    let total_instructions: u64 =
        p.counts.iter().map(|c| instructions(PathEvent { func: c.func, path: c.path }).saturating_mul(c.count)).fold(0, u64::saturating_add);

    // The calls, in one pass over the whole program path.
    let mut flame = None;
    let mut no_flame = None;
    let mut pairs: Option<FxHashMap<(PathEvent, PathEvent), u64>> = None;
    if let Some(dag) = dag.filter(|d| d.boundary.is_some()) {
        no_flame = Some(format!("{} runs merged: the calls are drawn for one run (`wpp report --run N`)", dag.profile.merged_runs()?.map_or(0, |r| r.len())));
    } else if let Some(dag) = dag {
        let costs = dag.instruction_costs();
        progress.stage("reading the calls", Some(p.meta.events));
        let mut b = CallTreeBuilder::new(&p.meta.functions, &p.numberings);
        let mut failed = None;
        let mut n = 0u64;
        dag.grammar.for_each_terminal(|t| {
            if failed.is_some() {
                return;
            }
            if let Err(e) = b.push(dag.paths[t as usize], costs[t as usize]) {
                failed = Some(e);
            }
            n += 1;
            if n.is_multiple_of(1 << 20) {
                progress.advance(1 << 20);
            }
        });
        progress.advance(n % (1 << 20));
        match failed {
            Some(e) => no_flame = Some(format!("the calls could not be read off the whole program path: {e}")),
            None => {
                let tree = b.finish();
                flame = Some(flame_of(&tree, p)?);
            }
        }
        progress.stage("counting consecutive paths", None);
        pairs = Some(dag.grammar.consecutive_pairs().into_iter().map(|((a, b), c)| ((dag.paths[a.idx()], dag.paths[b.idx()]), c)).collect());
    } else {
        no_flame = Some("the profile holds path counts only (record with --mode grammar or --mode trace for the calls)".into());
    }

    // Hottest paths by instructions.
    let mut by_cost: Vec<(PathEvent, u64, u64)> = p
        .counts
        .iter()
        .filter(|c| c.count > 0)
        .map(|c| {
            let e = PathEvent { func: c.func, path: c.path };
            (e, c.count, instructions(e).saturating_mul(c.count))
        })
        .collect();
    by_cost.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.func.cmp(&b.0.func)).then(a.0.path.cmp(&b.0.path)));
    by_cost.truncate(opts.paths);

    progress.stage("drawing the paths", None);
    let mut heats: FxHashMap<FuncIdx, Heat> = FxHashMap::default();
    let mut drawings: Vec<Drawing> = Vec::new();
    // The same paths on the same function are drawn once.
    let mut drawn: FxHashMap<(FuncIdx, Vec<Vec<BlockIdx>>), usize> = FxHashMap::default();
    let mut draw = |func: FuncIdx, paths: Vec<Vec<BlockIdx>>, drawings: &mut Vec<Drawing>| -> Option<usize> {
        if let Some(&d) = drawn.get(&(func, paths.clone())) {
            return Some(d);
        }
        let cfg = p.meta.functions.get(func.idx())?.cfg.as_ref()?;
        let h = heats.entry(func).or_insert_with(|| {
            let fp = pairs.as_ref().map(|pairs| function_pairs(p, pairs, func));
            let cut = p.numberings.get(func).map_or(&[][..], |n| n.cut_points());
            heat(cfg, cut, &function_paths(p, func), fp.as_deref())
        });
        let id = format!("d{}", drawings.len());
        let label = |b: BlockIdx| block_label(p, func, b);
        let dot = drawing::draw(&drawing::Request { id: &id, cfg, heat: h, paths: &paths, label: &label, collapse_above: opts.collapse_above });
        let mut highlighted: Vec<BlockIdx> = paths.iter().flatten().copied().collect();
        highlighted.sort_unstable();
        highlighted.dedup();
        drawings.push(Drawing { id, func, dot: dot.source, blocks_shown: dot.blocks_shown, blocks_collapsed: dot.blocks_collapsed, highlighted });
        drawn.insert((func, paths), drawings.len() - 1);
        Some(drawings.len() - 1)
    };
    let mut hot_paths = Vec::new();
    for &(e, count, cost) in &by_cost {
        let blocks = p.path_blocks(e.func, e.path).unwrap_or_default();
        if let Some(d) = draw(e.func, vec![blocks], &mut drawings) {
            hot_paths.push(HotPath { row: PathRow::new(p, e, Some(count)), cost, drawing: d });
        }
    }

    let mut subpaths = None;
    if let Some(dag) = dag {
        progress.stage("finding hot subpaths", None);
        let params = HotParams { max_len: opts.hot_max_len, min_len: 2, min_cost: opts.hot_min_cost.resolve(total_instructions) };
        let found = wpp_report::hot_subpaths(dag, wpp_report::Cost::Instructions, &params, Top::First(opts.subpaths.max(1)));
        let total = found.truncation.total("subpaths");
        let mut rows = Vec::new();
        for row in found.subpaths.into_iter().take(opts.subpaths) {
            // One drawing per function of the subpath (the first three), with its paths.
            let mut funcs: Vec<FuncIdx> = Vec::new();
            for r in &row.paths {
                let f = FuncIdx(r.function_index);
                if !funcs.contains(&f) {
                    funcs.push(f);
                }
            }
            let mut ds = Vec::new();
            for &f in funcs.iter().take(3) {
                let paths: Vec<Vec<BlockIdx>> =
                    row.paths.iter().filter(|r| r.function_index == f.0).map(|r| r.blocks.iter().map(|b| BlockIdx(b.index)).collect()).collect();
                ds.extend(draw(f, paths, &mut drawings));
            }
            rows.push(Subpath { row, drawings: ds });
        }
        subpaths = Some((rows, total, params));
    }

    let table = wpp_report::functions(p, wpp_report::FunctionSort::Instructions, Top::First(opts.functions.max(1)));
    let functions_total = table.truncation.total("functions");
    let mut functions = table.functions;
    functions.truncate(opts.functions);
    let functions_run = functions_total;

    let ppp = match &p.ppp {
        Some(_) => Some(wpp_report::ppp_report(p, Top::First(opts.ppp_rows.max(1)))?),
        None => None,
    };

    let deps = match p.access_sites()? {
        Some(_) => {
            progress.stage("recovering the memory dependences", None);
            Some(wpp_report::deps::report(p, None, None, Top::First(opts.deps_loads.max(1)))?)
        }
        None => None,
    };

    // The source lines the page links to: every function shown, whole when short.
    let mut wanted_lines: FxHashMap<u32, Vec<(u32, u32)>> = FxHashMap::default();
    let mut files = Vec::new();
    if let Some(map) = &p.source {
        files = map.files.clone();
        let mut shown_funcs: Vec<FuncIdx> = drawings.iter().map(|d| d.func).collect();
        shown_funcs.extend(functions.iter().map(|d| FuncIdx(d.function_index)));
        shown_funcs.extend(extras.dataflow.as_ref().map(|d| FuncIdx(d.function_index)));
        shown_funcs.extend(extras.twpp.iter().flat_map(|t| t.functions.iter().filter(|f| !f.top_traces.is_empty()).map(|f| f.func)));
        shown_funcs.sort_unstable();
        shown_funcs.dedup();
        for f in shown_funcs {
            for r in map.blocks.get(f.idx()).into_iter().flatten().flatten() {
                wanted_lines.entry(r.file).or_default().push((r.first.saturating_sub(1).max(1), r.last + 1));
            }
        }
        for ranges in wanted_lines.values_mut() {
            ranges.sort_unstable();
            let mut merged: Vec<(u32, u32)> = Vec::new();
            for &(a, b) in ranges.iter() {
                match merged.last_mut() {
                    // Gaps of a few lines are shown rather than elided.
                    Some(last) if a <= last.1 + 4 => last.1 = last.1.max(b),
                    _ => merged.push((a, b)),
                }
            }
            *ranges = merged;
        }
    }
    let summary = Summary { stats, args: p.meta.args.clone(), guest_nanos: p.meta.guest_nanos, instructions: total_instructions, functions_run };
    let profile = match input {
        Input::Run(d) => d.profile,
        Input::Counts(p) => p,
    };
    let line_counts = wpp_report::annotate::program_lines(&profile);
    Ok(Report {
        summary,
        hot_paths,
        subpaths,
        flame,
        no_flame,
        functions,
        functions_total,
        ppp,
        deps,
        drawings,
        files,
        wanted_lines,
        line_counts,
        extras,
        profile,
    })
}

/// A block's label: its source lines, or its bytes in the module.
fn block_label(p: &Profile, func: FuncIdx, b: BlockIdx) -> BlockLabel {
    if let Some(map) = &p.source {
        if let Some(r) = map.block(func, b) {
            let file = map.files.get(r.file as usize).map(String::as_str).unwrap_or("?");
            let base = file.rsplit('/').next().unwrap_or(file);
            let lines = if r.first == r.last { format!("{}", r.first) } else { format!("{}-{}", r.first, r.last) };
            return BlockLabel { text: format!("{base}:{lines}"), href: Some(format!("#L{}-{}", r.file, r.first)) };
        }
    }
    let block = p.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref()).and_then(|c| c.blocks.get(b.idx()));
    match block {
        Some(bl) => BlockLabel { text: format!("{:#x}-{:#x}", bl.start, bl.end), href: None },
        None => BlockLabel { text: String::new(), href: None },
    }
}

fn flame_of(tree: &CallTree, p: &Profile) -> Result<Flame, Error> {
    let name = |f: FuncIdx| p.meta.func_name(f);
    let lines = crate::flame::folded(tree, &name);
    let instructions = tree.inclusive()[0];
    let title = format!("{} — calls by inclusive instructions", p.meta.module);
    let svg = if lines.is_empty() { String::new() } else { crate::flame::svg(&lines, &title).map_err(|e| Error::Flame(e.to_string()))? };
    Ok(Flame { svg, instructions, stacks: tree.nodes.len() - 1, ambiguous: tree.ambiguous })
}
