//! `wpp paths`: the Ball-Larus path profile of a recorded run.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use serde::Serialize;
use wpp_model::FuncIdx;
use wpp_profile::Profile;

/// Print the path profile: how often each acyclic path ran, hottest first.
///
/// Each path is shown with its function, its Ball-Larus number, the instructions it
/// executes, and its basic blocks as byte ranges of the original module.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp paths lua.wpp --func luaV_execute --top 10")]
pub struct Opts {
    /// A profile written by `wpp record`.
    profile: PathBuf,
    /// Only paths of this function (name or index).
    #[arg(long)]
    func: Option<String>,
    /// Show at most N paths [default: 20; 0 for all].
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Print JSON: {"paths": [{"function", "function_index", "path_id", "count", "instructions", "blocks", "source"}]}.
    #[arg(long)]
    json: bool,
}

/// One row of the profile; its JSON form is a stable contract.
#[derive(Serialize)]
pub struct PathRow {
    pub function: String,
    pub function_index: u32,
    pub path_id: u64,
    pub count: u64,
    /// Instructions executed by one run of the path.
    pub instructions: u64,
    pub blocks: Vec<BlockRow>,
    /// `FILE:LINE` ranges of the blocks (from the module's DWARF), or the path's byte range.
    pub source: Vec<String>,
}

#[derive(Serialize)]
pub struct BlockRow {
    pub index: u32,
    /// Byte offsets of the block in the original module.
    pub start: u32,
    pub end: u32,
}

#[derive(Serialize)]
struct Report {
    paths: Vec<PathRow>,
}

pub fn select_func(p: &Profile, spec: &str) -> anyhow::Result<FuncIdx> {
    if let Some(f) = p.meta.functions.iter().find(|f| f.name == spec) {
        return Ok(f.index);
    }
    if let Ok(i) = spec.parse::<u32>() {
        if (i as usize) < p.meta.functions.len() {
            return Ok(FuncIdx(i));
        }
    }
    let similar: Vec<&str> = p.meta.functions.iter().map(|f| f.name.as_str()).filter(|n| n.contains(spec)).take(5).collect();
    if similar.is_empty() {
        bail!("{}: no function named `{spec}`", p.path.display());
    }
    bail!("{}: no function named `{spec}`; did you mean one of: {}", p.path.display(), similar.join(", "));
}

/// The profile's rows, hottest first (ties by function and path), optionally for one
/// function.
pub fn rows(p: &Profile, func: Option<FuncIdx>) -> Vec<PathRow> {
    let mut counts: Vec<_> = p.counts.iter().filter(|c| func.is_none_or(|f| c.func == f)).collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    counts.into_iter().map(|c| row(p, c)).collect()
}

/// The row of one path count of `p` (a path of `p`'s program).
pub fn row(p: &Profile, c: &wpp_profile::PathCount) -> PathRow {
    let f = &p.meta.functions[c.func.idx()];
    let cfg = f.cfg.as_ref().expect("validated: counted functions have code");
    let blocks = p.path_blocks(c.func, c.path).expect("validated: counted paths decode");
    PathRow {
        function: f.name.clone(),
        function_index: c.func.0,
        path_id: c.path.0,
        count: c.count,
        instructions: blocks.iter().map(|b| cfg.blocks[b.idx()].n_instrs as u64).sum(),
        blocks: blocks
            .iter()
            .map(|b| {
                let bl = &cfg.blocks[b.idx()];
                BlockRow { index: b.0, start: bl.start, end: bl.end }
            })
            .collect(),
        source: crate::dag::source_of(p, c.func, c.path),
    }
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let func = o.func.as_deref().map(|s| select_func(&p, s)).transpose()?;
    let mut rows = rows(&p, func);
    let total = rows.len();
    if o.top > 0 {
        rows.truncate(o.top);
    }
    let mut out = std::io::stdout().lock();
    if o.json {
        serde_json::to_writer_pretty(&mut out, &Report { paths: rows })?;
        writeln!(out)?;
        return Ok(());
    }
    let events: u64 = p.counts.iter().filter(|c| func.is_none_or(|f| c.func == f)).map(|c| c.count).sum();
    let where_ = if p.source.is_some() { "source lines" } else { "blocks (byte offsets)" };
    writeln!(out, "{:>14} {:>6}  {:<32} {:>10} {:>7}  {where_}", "count", "%", "function", "path", "instrs")?;
    for r in &rows {
        let share = if events > 0 { 100.0 * r.count as f64 / events as f64 } else { 0.0 };
        let blocks: Vec<String> = if p.source.is_some() { r.source.clone() } else { r.blocks.iter().map(|b| format!("{:#x}", b.start)).collect() };
        writeln!(
            out,
            "{:>14} {:>5.1}%  {:<32} {:>10} {:>7}  {}",
            crate::record::group(r.count),
            share,
            truncate(&r.function, 32),
            r.path_id,
            r.instructions,
            blocks.join(" ")
        )?;
    }
    if rows.len() < total {
        writeln!(out, "... {} more paths (--top 0 shows all)", total - rows.len())?;
    }
    Ok(())
}

pub fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let t: String = s.chars().take(n - 1).collect();
        format!("{t}…")
    }
}
