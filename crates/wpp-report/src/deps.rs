//! Memory dependences recovered from a profile.
//!
//! From an addresses recording ([`from_addresses`]): the whole program path is walked
//! path by path, each path's blocks in order, each block's access sites in order (the
//! profile's site table); every site takes its values from the address trace (a first
//! byte, a bulk access's length, a host call's number of ranges and then each range), and
//! the accesses so rebuilt go through a [`Tracker`] (a shadow of the last writer of every
//! byte), which names the write instances each load read (Tallam & Gupta's Fig. 22, with
//! the last-writer map in place of the backward scan).
//!
//! From a filtering run: the dependences it recorded ([`exercised`]).
//!
//! Chains of dependences, from either recording of every load execution's: [`chains`].

use std::collections::HashMap;

use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::exercised::{Dependence, ExercisedDeps, Tracker};
use wpp_model::{BlockIdx, FuncIdx, PathEvent};
use wpp_profile::{Profile, RecordMode};

use crate::Error;

mod chain;
pub use chain::{chains, ChainLink, ChainRow, Chains};

/// What a recovery found.
#[derive(Clone, Debug, Default)]
pub struct Recovered {
    pub sites: Vec<AccessSite>,
    pub deps: ExercisedDeps,
    /// Accesses rebuilt.
    pub accesses: u64,
    /// Values of the address trace left over when the control flow ended: the accesses of
    /// paths the run did not finish (a trap, an exit, a stop inside a path).
    pub unfinished_values: u64,
}

fn unsuitable(p: &Profile, what: impl Into<String>) -> Error {
    Error::Unsuitable { profile: p.path.clone(), what: what.into() }
}

/// The error for a profile without dependence data: which recording gives it.
pub fn no_dependences(p: &Profile) -> Error {
    let mode = match p.meta.mode {
        RecordMode::Paths => "paths",
        RecordMode::Trace => "trace",
        RecordMode::Grammar(_) => "grammar",
        RecordMode::Ppp => "ppp",
        RecordMode::Addresses(_) => "addresses",
        RecordMode::EwppFilter => "ewpp-filter",
        RecordMode::Ewpp(_) => "ewpp",
    };
    unsuitable(
        p,
        format!("recorded with --mode {mode}, which keeps no memory dependences; record with `wpp record --mode addresses` (or `--mode ewpp-filter` for their totals)"),
    )
}

/// The profile's access sites, or the error saying which recording has them.
pub fn sites(p: &Profile) -> Result<Vec<AccessSite>, Error> {
    p.access_sites()?.ok_or_else(|| no_dependences(p))
}

/// Whether the profile is an extended WPP.
pub fn is_ewpp(p: &Profile) -> bool {
    p.toc.iter().any(|e| e.name == wpp_profile::section::EWPP)
}

/// Every memory dependence of the run, for a TWPP to keep ([`wpp_twpp::build_with`]):
/// recovered from an addresses recording's address trace or from an extended WPP's
/// checks; `None` for a profile that keeps none (or only their totals, a filtering run).
pub fn memory_table(p: &Profile) -> Result<Option<wpp_twpp::memory::MemoryBuilder>, Error> {
    let Some(sites) = p.access_sites()? else { return Ok(None) };
    let mut table = wpp_twpp::memory::MemoryBuilder::new(sites.len());
    if is_ewpp(p) {
        from_ewpp(p, |d| table.add(d))?;
    } else if p.toc.iter().any(|e| e.name == wpp_profile::section::ADDRESS_VALUES) {
        let mut footprints = wpp_twpp::memory::Footprints::new(&sites);
        walk_addresses(p, |d| table.add(d), |site, addr, len| footprints.touch(site, addr as u64, len))?;
        table.footprints(footprints);
    } else {
        return Ok(None);
    }
    Ok(Some(table))
}

/// `wpp twpp build`: the TWPP of `p`'s run, keeping its memory dependences when the
/// profile has them ([`memory_table`]); how many it kept. A profile without its program
/// is refused.
pub fn build_twpp(p: &Profile, out: &std::path::Path, progress: &mut dyn wpp_model::progress::Progress) -> Result<(wpp_twpp::file::Built, Option<u64>), Error> {
    p.require_program("twpp build")?;
    let memory = memory_table(p)?;
    let built = wpp_twpp::build_with(p, out, memory.as_ref(), progress)?;
    Ok((built, memory.map(|m| m.len())))
}

/// The dependences a filtering run recorded.
pub fn exercised(p: &Profile) -> Result<Option<ExercisedDeps>, Error> {
    let Some(deps) = p.optional_value::<ExercisedDeps>(wpp_profile::section::EXERCISED)? else { return Ok(None) };
    let n = sites(p)?.len() as u32;
    let bad = deps.deps.keys().any(|&(w, l)| l >= n || matches!(w, wpp_model::exercised::Writer::Site(s) if s >= n)) || deps.loads.keys().any(|&l| l >= n);
    if bad {
        return Err(unsuitable(p, format!("section `{}` names access sites past the module's {n}", wpp_profile::section::EXERCISED)));
    }
    Ok(Some(deps))
}

/// The first site of each block and the one after its last.
type BlockSites = HashMap<(FuncIdx, BlockIdx), (u32, u32)>;

/// The sites of each block, as a range of site numbers (sites are sorted by function and
/// offset, so a block's are contiguous; a table where they are not is refused). The
/// host-write site is in no block.
fn block_sites(p: &Profile, sites: &[AccessSite]) -> Result<BlockSites, Error> {
    let mut by_block = BlockSites::new();
    for (i, s) in sites.iter().enumerate().filter(|(_, s)| s.kind != SiteKind::HostWrite) {
        let e = by_block.entry((s.func, s.block)).or_insert((i as u32, i as u32));
        if e.1 != i as u32 {
            let what = format!("section `{}`: the sites of block {} of function {} are not together", wpp_profile::section::ACCESS_SITES, s.block.0, s.func.0);
            return Err(unsuitable(p, what));
        }
        e.1 = i as u32 + 1;
    }
    Ok(by_block)
}

/// The site ranges of path `e`'s blocks, in order.
fn path_site_ranges(p: &Profile, by_block: &BlockSites, e: PathEvent) -> Vec<(u32, u32)> {
    p.path_blocks(e.func, e.path).unwrap_or_default().iter().filter_map(|&b| by_block.get(&(e.func, b)).copied()).collect()
}

/// Every dependence of an addresses recording, each given to `f` as it is recovered.
pub fn from_addresses(p: &Profile, f: impl FnMut(&Dependence)) -> Result<Recovered, Error> {
    walk_addresses(p, f, |_, _, _| {})
}

/// [`from_addresses`], each access also given to `touch` as (site, first byte, length
/// for a bulk access); a host call's writes come as its own site's.
pub fn walk_addresses(p: &Profile, mut f: impl FnMut(&Dependence), mut touch: impl FnMut(u32, u32, Option<u64>)) -> Result<Recovered, Error> {
    let sites = sites(p)?;
    let Some((grammar, values)) = p.address_trace()? else { return Err(no_dependences(p)) };
    let by_block = block_sites(p, &sites)?;
    let host_write = sites.len() as u32 - 1;
    let mut tracker = Tracker::new(sites.clone()).map_err(|e| unsuitable(p, e.to_string()))?;
    let mut out = Recovered { sites: sites.clone(), ..Default::default() };
    let mut trace = grammar.expand().map(|t| values[t as usize]);
    // The site ranges of each path's blocks, decoded once per distinct path.
    let mut path_sites: HashMap<PathEvent, Vec<(u32, u32)>> = HashMap::new();
    let mut short = false;
    let mut ended = false;
    let mut error = None;
    p.for_each_event(|e| {
        if ended && !short {
            // Paths after the end of the address trace: the control flow goes on where
            // the accesses stopped.
            short = true;
        }
        if short || error.is_some() {
            return;
        }
        let ranges = path_sites.entry(e).or_insert_with(|| path_site_ranges(p, &by_block, e));
        for &(from, to) in ranges.iter() {
            for site in from..to {
                let s = &sites[site as usize];
                let site_of_call = site;
                let Some(addr) = trace.next() else {
                    // A call of an import that did not return (`proc_exit`, or a trap in
                    // the host) ends the run without its count; anything else is short.
                    match s.kind {
                        SiteKind::HostCall { .. } => ended = true,
                        _ => short = true,
                    }
                    return;
                };
                let len = match s.is_bulk() {
                    true => match trace.next() {
                        Some(len) => Some(len as u64),
                        None => {
                            short = true;
                            return;
                        }
                    },
                    false => None,
                };
                out.accesses += 1;
                let mut step = |site: u32, addr: u32, len: Option<u64>| {
                    touch(if site == host_write { site_of_call } else { site }, addr, len);
                    tracker.access(site, addr, len, |d| {
                        out.deps.add(&d);
                        f(&d)
                    })
                };
                if let Err(e) = step(site, addr, len) {
                    error = Some(e);
                    return;
                }
                if let SiteKind::HostCall { .. } = s.kind {
                    for _ in 0..addr {
                        let (Some(a), Some(l)) = (trace.next(), trace.next()) else {
                            short = true;
                            return;
                        };
                        out.accesses += 1;
                        if let Err(e) = step(host_write, a, Some(l as u64)) {
                            error = Some(e);
                            return;
                        }
                    }
                }
            }
        }
    })?;
    if let Some(e) = error {
        return Err(unsuitable(p, format!("the address trace does not follow the control flow: {e}")));
    }
    if short {
        return Err(unsuitable(p, "the address trace ends before the control flow does"));
    }
    out.unfinished_values = trace.count() as u64;
    for (i, s) in sites.iter().enumerate() {
        let n = tracker.instances(i as u32);
        if matches!(s.kind, SiteKind::Read { .. }) && n > 0 {
            out.deps.loads.insert(i as u32, n);
        }
    }
    Ok(out)
}

/// One writer of a load, in a [`DepsReport`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct WriterRow {
    /// `initial memory`, a store's `FUNCTION+0xOFFSET`, or `IMPORT (call at FUNCTION+0xOFFSET)`.
    pub writer: String,
    /// The writer's function and module byte offset (`null` for the initial memory).
    pub function: Option<String>,
    pub offset: Option<u32>,
    pub source: Option<String>,
    /// Dependences on this writer: one per load execution and instance of the writer it
    /// read bytes of (a load reading bytes of several instances depends on each).
    pub count: u64,
    /// Of those, the ones not on the writer's latest instance.
    pub earlier_instance: u64,
}

/// One load (or bulk read) and what it read from.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoadRow {
    pub function: String,
    pub offset: u32,
    pub source: String,
    pub executions: u64,
    pub writers: Vec<WriterRow>,
}

/// One dependence of one load execution (`--instance`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct InstanceRow {
    pub writer: String,
    pub source: Option<String>,
    /// The writer's execution (1-based) that wrote the bytes, 0 for the initial memory.
    pub writer_instance: u64,
    /// Whether it was the writer's latest execution when the load ran.
    pub latest: bool,
}

/// What `wpp deps` prints.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DepsReport {
    /// Where the dependences come from: `address trace` or `filtering run`.
    pub from: &'static str,
    pub loads: Vec<LoadRow>,
    /// With `--instance`: that execution of the one load selected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<(u64, Vec<InstanceRow>)>,
    /// Load executions and dependences (distinct (writer, load) pairs) of the whole run.
    pub load_executions: u64,
    pub dependences: usize,
    #[serde(flatten)]
    pub truncation: crate::Truncation,
}

/// A site's function and offset, `FUNCTION+0xOFFSET`.
fn site_name(p: &Profile, s: &AccessSite) -> String {
    format!("{}+{:#x}", p.meta.func_name(s.func), s.at)
}

fn writer_row(p: &Profile, sites: &[AccessSite], w: wpp_model::exercised::Writer) -> (String, Option<String>, Option<u32>, Option<String>) {
    match w {
        wpp_model::exercised::Writer::Initial => ("initial memory".into(), None, None, None),
        wpp_model::exercised::Writer::Site(i) => {
            let s = &sites[i as usize];
            let name = match s.kind {
                SiteKind::HostCall { import } => format!("{} (call at {})", p.meta.func_name(import), site_name(p, s)),
                _ => site_name(p, s),
            };
            (name, Some(p.meta.func_name(s.func)), Some(s.at), Some(crate::source::block_source(p, s.func, s.block)))
        }
    }
}

/// Which loads `spec` names: `0xOFFSET` (the load at that module offset), a function (its
/// loads), or `FILE:LINE` (the loads of blocks whose lines cover it). `None` selects all.
fn select(p: &Profile, sites: &[AccessSite], spec: Option<&str>) -> Result<Vec<u32>, Error> {
    let loads = || sites.iter().enumerate().filter(|(_, s)| matches!(s.kind, SiteKind::Read { .. }));
    let Some(spec) = spec else { return Ok(loads().map(|(i, _)| i as u32).collect()) };
    let chosen: Vec<u32> = if let Some(hex) = spec.strip_prefix("0x") {
        let at = u32::from_str_radix(hex, 16).map_err(|_| unsuitable(p, format!("--use {spec}: not a hexadecimal offset")))?;
        loads().filter(|(_, s)| s.at == at).map(|(i, _)| i as u32).collect()
    } else if let Some((file, line)) = spec.rsplit_once(':').and_then(|(f, l)| Some((f, l.parse::<u32>().ok()?))) {
        let src = p.source.as_ref().ok_or_else(|| unsuitable(p, format!("--use {spec}: the profile has no source lines (the module had no DWARF)")))?;
        loads()
            .filter(|(_, s)| {
                src.block(s.func, s.block).is_some_and(|r| {
                    r.first <= line && line <= r.last && src.files.get(r.file as usize).is_some_and(|f| f == file || f.ends_with(&format!("/{file}")))
                })
            })
            .map(|(i, _)| i as u32)
            .collect()
    } else {
        loads().filter(|(_, s)| p.meta.func_name(s.func) == spec).map(|(i, _)| i as u32).collect()
    };
    if chosen.is_empty() {
        let mut near: Vec<&AccessSite> = loads().map(|(_, s)| s).collect();
        if let Some(at) = spec.strip_prefix("0x").and_then(|h| u32::from_str_radix(h, 16).ok()) {
            near.sort_by_key(|s| s.at.abs_diff(at));
        }
        let names: Vec<String> = near.iter().take(5).map(|s| site_name(p, s)).collect();
        return Err(unsuitable(p, format!("--use {spec} names no load; loads near it: {}", names.join(", "))));
    }
    Ok(chosen)
}

/// The `wpp deps` report of a profile of an addresses recording or a filtering run: the
/// loads `spec` selects, each with the writers it read from; with `instance`, that
/// execution of the one load selected (addresses recordings only).
pub fn report(p: &Profile, spec: Option<&str>, instance: Option<u64>, top: crate::Top) -> Result<DepsReport, Error> {
    let sites = sites(p)?;
    let chosen = select(p, &sites, spec)?;
    let mut detail: Vec<Dependence> = Vec::new();
    let want = match instance {
        Some(k) => match chosen.as_slice() {
            [one] => Some((*one, k)),
            _ => return Err(unsuitable(p, format!("--instance needs --use to name one load; it names {}", chosen.len()))),
        },
        None => None,
    };
    let (deps, from) = match exercised(p)? {
        Some(d) if want.is_none() => (d, "filtering run"),
        Some(_) => return Err(unsuitable(p, "--instance needs an addresses recording (`wpp record --mode addresses`): a filtering run keeps totals only")),
        None => {
            let mut keep = |d: &Dependence| {
                if want.is_some_and(|(l, k)| d.load == l && d.load_instance == k) {
                    detail.push(*d);
                }
            };
            match is_ewpp(p) {
                true => (from_ewpp(p, &mut keep)?.0.deps, "extended WPP"),
                false => (from_addresses(p, &mut keep)?.deps, "address trace"),
            }
        }
    };
    let mut by_load: HashMap<u32, Vec<(&wpp_model::exercised::Writer, &wpp_model::exercised::Exercised)>> = HashMap::new();
    for ((w, l), e) in &deps.deps {
        by_load.entry(*l).or_default().push((w, e));
    }
    let mut rows: Vec<LoadRow> = chosen
        .iter()
        .map(|&l| {
            let s = &sites[l as usize];
            let mut writers: Vec<WriterRow> = by_load
                .get(&l)
                .into_iter()
                .flatten()
                .map(|(w, e)| {
                    let (writer, function, offset, source) = writer_row(p, &sites, **w);
                    WriterRow { writer, function, offset, source, count: e.count, earlier_instance: e.earlier_instance }
                })
                .collect();
            writers.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.writer.cmp(&b.writer)));
            LoadRow {
                function: p.meta.func_name(s.func),
                offset: s.at,
                source: crate::source::block_source(p, s.func, s.block),
                executions: deps.loads.get(&l).copied().unwrap_or(0),
                writers,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.executions.cmp(&a.executions).then(a.offset.cmp(&b.offset)));
    let instance = match want {
        Some((l, k)) => {
            let ran = deps.loads.get(&l).copied().unwrap_or(0);
            if k == 0 || k > ran {
                return Err(unsuitable(p, format!("--instance {k}: the load ran {ran} times (instances 1 to {ran})")));
            }
            let rows = detail
                .iter()
                .map(|d| {
                    let (writer, _, _, source) = writer_row(p, &sites, d.writer);
                    InstanceRow { writer, source, writer_instance: d.writer_instance, latest: d.latest }
                })
                .collect();
            Some((k, rows))
        }
        None => None,
    };
    let mut truncation = crate::Truncation::default();
    truncation.cut("loads", &mut rows, top);
    Ok(DepsReport { from, loads: rows, instance, load_executions: deps.loads.values().sum(), dependences: deps.deps.len(), truncation })
}

/// A class of dependences in [`DepStats`].
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ClassRow {
    pub class: String,
    /// Distinct (writer, load) pairs, and the load executions they account for.
    pub dependences: u64,
    pub executions: u64,
}

/// What `wpp deps stats` prints.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct DepStats {
    pub from: &'static str,
    pub load_sites: u64,
    pub load_executions: u64,
    /// Distinct (writer, load) pairs exercised, and dependences (load execution, write
    /// instance) in all.
    pub dependences: u64,
    pub dynamic_dependences: u64,
    /// Pairs always on the writer's latest instance (last-instance dependences), and the
    /// others (any-instance).
    pub last_instance: ClassRow,
    pub any_instance: ClassRow,
    /// Pairs whose writer is the initial memory, a host call, an instruction.
    pub initial: ClassRow,
    pub host: ClassRow,
    pub instructions: ClassRow,
    /// The static classes of the instruction pairs (given the module).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classes: Option<Vec<ClassRow>>,
    /// Checks per dynamic dependence to name the writer's instance (address recordings):
    /// the latest first and then a binary search, against a linear search back from the
    /// latest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
    /// Calls of imports whose writes are not known, by name.
    pub unknown_host_calls: std::collections::BTreeMap<String, u64>,
    /// For an extended WPP: how its checks went, read from their paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ewpp: Option<EwppChecks>,
}

/// Checks per dependence (Tallam & Gupta's Table IX).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Checks {
    pub binary: f64,
    pub linear: f64,
    /// The most a single dependence needed.
    pub binary_max: u64,
    pub linear_max: u64,
}

/// The dependences of a profile (an addresses recording or a filtering run) and the
/// statistics of [`DepStats`] but the static classes.
pub fn stats(p: &Profile) -> Result<(ExercisedDeps, Vec<AccessSite>, DepStats), Error> {
    let sites = sites(p)?;
    let mut s = DepStats { unknown_host_calls: p.optional_value(wpp_profile::section::UNKNOWN_HOST_CALLS)?.unwrap_or_default(), ..Default::default() };
    let deps = match exercised(p)? {
        Some(d) => {
            s.from = "filtering run";
            d
        }
        None => {
            let (mut n, mut binary, mut linear, mut binary_max, mut linear_max) = (0u64, 0u64, 0u64, 0u64, 0u64);
            let count = |d: &Dependence| {
                let (b, l) = d.checks();
                n += 1;
                binary += b;
                linear += l;
                binary_max = binary_max.max(b);
                linear_max = linear_max.max(l);
            };
            let r = match is_ewpp(p) {
                true => {
                    s.from = "extended WPP";
                    let (r, c) = from_ewpp(p, count)?;
                    s.ewpp = Some(c);
                    r
                }
                false => {
                    s.from = "address trace";
                    from_addresses(p, count)?
                }
            };
            let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
            s.checks = Some(Checks { binary: per(binary), linear: per(linear), binary_max, linear_max });
            r.deps
        }
    };
    s.load_sites = deps.loads.len() as u64;
    s.load_executions = deps.loads.values().sum();
    s.dependences = deps.deps.len() as u64;
    for ((w, _), e) in &deps.deps {
        s.dynamic_dependences += e.count;
        let instance = if e.earlier_instance == 0 { &mut s.last_instance } else { &mut s.any_instance };
        instance.dependences += 1;
        instance.executions += e.count;
        let kind = match w {
            wpp_model::exercised::Writer::Initial => &mut s.initial,
            wpp_model::exercised::Writer::Site(i) if matches!(sites[*i as usize].kind, SiteKind::HostCall { .. }) => &mut s.host,
            wpp_model::exercised::Writer::Site(_) => &mut s.instructions,
        };
        kind.dependences += 1;
        kind.executions += e.count;
    }
    for (row, name) in [
        (&mut s.last_instance, "last instance"),
        (&mut s.any_instance, "any instance"),
        (&mut s.initial, "initial memory"),
        (&mut s.host, "host writes"),
        (&mut s.instructions, "instructions"),
    ] {
        row.class = name.into();
    }
    Ok((deps, sites, s))
}

/// What a check routine's block means, for reading an extended WPP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Initial,
    Candidate(usize),
    Generic,
    Latest,
    Earlier,
    Last,
    More,
    /// A digit of the site (`true`) or of the distance being spelled out, and the end of
    /// the spelling.
    Digit(bool, u8),
    Spelled(bool),
}

/// How an extended WPP's checks went, beside the dependences.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct EwppChecks {
    /// Writers reported (one per load execution and run of bytes of one write instance).
    pub reports: u64,
    /// Of those, the ones whose writer was not among the load's candidates: the filtering
    /// run did not see the dependence (`unforeseen`), or the load had more candidates than
    /// a check names directly (`beyond_candidates`). Both take the generic check.
    pub unforeseen: u64,
    pub beyond_candidates: u64,
    /// Checks naming the instances: the comparison with the latest each, then each
    /// base-256 digit (a 256-way branch) of a distance back from it.
    pub instance_checks: u64,
    /// Base-256 digits spelling out the sites of writers not among the candidates.
    pub site_checks: u64,
}

/// Every dependence of an extended WPP, recovered from the control flow alone: the
/// module's paths say which sites ran (and so how many instances each writer has), and
/// the check routines' paths before each load's say which writer and which instance each
/// run of its bytes came from (Tallam & Gupta's RecoverDependence, Fig. 20, with the
/// spelled-out distance in place of their binary search's path). Each dependence is given to `f` as it is recovered.
pub fn from_ewpp(p: &Profile, mut f: impl FnMut(&Dependence)) -> Result<(Recovered, EwppChecks), Error> {
    let sites = sites(p)?;
    let Some(record) = p.optional_value::<wpp_model::ewpp::EwppRecord>(wpp_profile::section::EWPP)? else { return Err(no_dependences(p)) };
    let bad = |what: String| unsuitable(p, format!("the extended WPP: {what}"));
    let n_sites = sites.len() as u64;
    if record.candidates.iter().any(|(l, c)| *l as u64 >= n_sites || c.iter().any(|&w| w as u64 >= n_sites)) {
        return Err(bad("a candidate names a site past the module's".into()));
    }
    let candidates: HashMap<u32, Vec<u32>> = record.candidates.iter().cloned().collect();
    let mut roles: HashMap<(FuncIdx, BlockIdx), Role> = HashMap::new();
    let r = &record.roles;
    for (b, role) in [
        (r.initial, Role::Initial),
        (r.generic, Role::Generic),
        (r.latest, Role::Latest),
        (r.earlier, Role::Earlier),
        (r.last, Role::Last),
        (r.more, Role::More),
    ] {
        roles.insert((record.check, b), role);
    }
    for (i, &b) in r.candidates.iter().enumerate() {
        roles.insert((record.check, b), Role::Candidate(i));
    }
    for (site, spelling) in [(true, &r.site), (false, &r.distance)] {
        if spelling.digits.len() != 256 {
            return Err(bad(format!("a spelling of {} digits", spelling.digits.len())));
        }
        for (d, &b) in spelling.digits.iter().enumerate() {
            roles.insert((record.check, b), Role::Digit(site, d as u8));
        }
        roles.insert((record.check, spelling.done), Role::Spelled(site));
    }
    let by_block = block_sites(p, &sites)?;
    let mut out = Recovered { sites: sites.clone(), ..Default::default() };
    let mut checks = EwppChecks::default();
    let mut executions = vec![0u64; sites.len()];
    let mut pending: std::collections::VecDeque<PathEvent> = std::collections::VecDeque::new();
    let mut path_sites: HashMap<PathEvent, Vec<(u32, u32)>> = HashMap::new();
    let mut path_roles: HashMap<PathEvent, Vec<Role>> = HashMap::new();
    let mut error: Option<String> = None;
    let mut seen: Vec<(wpp_model::exercised::Writer, u64)> = Vec::new();
    p.for_each_event(|e| {
        if error.is_some() {
            return;
        }
        if e.func == record.check {
            pending.push_back(e);
            return;
        }
        let ranges = path_sites.entry(e).or_insert_with(|| path_site_ranges(p, &by_block, e));
        for &(from, to) in ranges.iter() {
            for site in from..to {
                let s = &sites[site as usize];
                executions[site as usize] += 1;
                if !matches!(s.kind, SiteKind::Read { .. }) {
                    continue;
                }
                // The load's reports, up to the one marked last.
                let load_instance = executions[site as usize];
                seen.clear();
                loop {
                    let (mut writer, mut k, mut last) = (None, None, None);
                    // The number being spelled out: the site (`true`) or the distance.
                    let mut spelling: Option<(bool, u64)> = None;
                    while last.is_none() {
                        let Some(c) = pending.pop_front() else {
                            error = Some(format!("the checks of load {} end before its last writer", site_name(p, s)));
                            return;
                        };
                        let path_roles = path_roles.entry(c).or_insert_with(|| {
                            p.path_blocks(c.func, c.path).unwrap_or_default().iter().filter_map(|&b| roles.get(&(c.func, b)).copied()).collect()
                        });
                        for &role in path_roles.iter() {
                            let n = |w: &Option<wpp_model::exercised::Writer>| match w {
                                Some(wpp_model::exercised::Writer::Site(s)) => executions[*s as usize],
                                _ => 0,
                            };
                            match role {
                                Role::Initial => {
                                    writer = Some(wpp_model::exercised::Writer::Initial);
                                    k = Some(0);
                                }
                                Role::Candidate(i) => match candidates.get(&site).and_then(|c| c.get(i)) {
                                    Some(&w) => writer = Some(wpp_model::exercised::Writer::Site(w)),
                                    None => {
                                        error = Some(format!("load {} has no candidate {}", site_name(p, s), i + 1));
                                        return;
                                    }
                                },
                                Role::Generic => spelling = Some((true, 0)),
                                Role::Latest => {
                                    checks.instance_checks += 1;
                                    k = Some(n(&writer));
                                }
                                Role::Earlier => {
                                    checks.instance_checks += 1;
                                    spelling = Some((false, 0));
                                }
                                Role::Digit(of_site, d) => match spelling.as_mut() {
                                    Some((s, v)) if *s == of_site && *v < 1 << 56 => {
                                        *v = *v << 8 | d as u64;
                                        match of_site {
                                            true => checks.site_checks += 1,
                                            false => checks.instance_checks += 1,
                                        }
                                    }
                                    _ => {
                                        error = Some("a digit outside a spelling".into());
                                        return;
                                    }
                                },
                                Role::Spelled(of_site) => {
                                    let Some((_, v)) = spelling.take().filter(|(s, _)| *s == of_site) else {
                                        error = Some("the end of a spelling outside one".into());
                                        return;
                                    };
                                    if of_site {
                                        if v >= n_sites {
                                            error = Some(format!("an unforeseen writer at site {v}, past the module's {n_sites}"));
                                            return;
                                        }
                                        writer = Some(wpp_model::exercised::Writer::Site(v as u32));
                                        match candidates.get(&site).is_some_and(|c| c.contains(&(v as u32))) {
                                            true => checks.beyond_candidates += 1,
                                            false => checks.unforeseen += 1,
                                        }
                                    } else {
                                        // The distance back from the latest.
                                        let n = n(&writer);
                                        if v == 0 || v >= n {
                                            error = Some(format!("a distance of {v} back from the latest of {n} instances"));
                                            return;
                                        }
                                        k = Some(n - v);
                                    }
                                }
                                Role::Last => last = Some(true),
                                Role::More => last = Some(false),
                            }
                        }
                    }
                    let (Some(w), Some(k)) = (writer, k) else {
                        error = Some(format!("a check of load {} names no writer or instance", site_name(p, s)));
                        return;
                    };
                    checks.reports += 1;
                    // A load depends once on each write instance, however many runs of its
                    // bytes that instance wrote.
                    if !seen.contains(&(w, k)) {
                        seen.push((w, k));
                        let n = match w {
                            wpp_model::exercised::Writer::Site(s) => executions[s as usize],
                            wpp_model::exercised::Writer::Initial => 0,
                        };
                        let d = Dependence { load: site, load_instance, writer: w, writer_instance: k, writer_executions: n, latest: k == n };
                        out.deps.add(&d);
                        f(&d);
                    }
                    if last == Some(true) {
                        break;
                    }
                }
            }
        }
    })?;
    if let Some(e) = error {
        return Err(bad(e));
    }
    // Checks left over: those of loads in paths the run did not finish.
    out.unfinished_values = pending.len() as u64;
    for (i, s) in sites.iter().enumerate() {
        if matches!(s.kind, SiteKind::Read { .. }) && executions[i] > 0 {
            out.deps.loads.insert(i as u32, executions[i]);
        }
    }
    Ok((out, checks))
}
