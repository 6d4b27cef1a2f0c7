//! The rows of `wpp deps`: each load with the writers it read, one load execution's
//! dependences, the statistics of `wpp deps stats`, and the chains of `wpp deps --chain`.
//! The dependences themselves are recovered by [`wpp_twpp::recover`].

use std::collections::HashMap;

use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::exercised::{Dependence, ExercisedDeps};
use wpp_model::SiteIdx;
use wpp_profile::Profile;
use wpp_twpp::recover::{exercised, from_addresses, from_ewpp, is_ewpp, site_name, sites, EwppChecks};

use crate::point::{file_matches, Point};
use crate::{select_func, Error};

mod chain;
pub use chain::{chains, ChainLink, ChainRow, Chains};

fn unsuitable(p: &Profile, what: impl Into<String>) -> Error {
    Error::Unsuitable { profile: p.path.clone(), what: what.into() }
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
    /// Loads selected that never ran (not in `loads`, nor in its total).
    pub never_ran: u64,
    #[serde(flatten)]
    pub truncation: crate::Truncation,
}

fn writer_row(p: &Profile, sites: &[AccessSite], w: wpp_model::exercised::Writer) -> (String, Option<String>, Option<u32>, Option<String>) {
    match w {
        wpp_model::exercised::Writer::Initial => ("initial memory".into(), None, None, None),
        wpp_model::exercised::Writer::Site(i) => {
            let s = &sites[i.idx()];
            let name = match s.kind {
                SiteKind::HostCall { import } => format!("{} (call at {})", p.meta.func_name(import), site_name(p, s)),
                _ => site_name(p, s),
            };
            (name, Some(p.meta.func_name(s.func)), Some(s.at), Some(crate::source::block_source(p, s.func, s.block)))
        }
    }
}

/// Which loads `spec` names, a point in any form of [`crate::point`]: the load at a module
/// offset (`0xOFF`, or `FUNC:0xOFF` in that function), a block's loads (`FUNC:bN`), a
/// function's (`FUNC`), or those of the blocks whose lines cover a source line
/// (`FILE:LINE`). `None` selects all.
fn select(p: &Profile, sites: &[AccessSite], spec: Option<&str>) -> Result<Vec<SiteIdx>, Error> {
    let loads = || sites.iter().enumerate().filter(|(_, s)| matches!(s.kind, SiteKind::Read { .. }));
    let Some(spec) = spec else { return Ok(loads().map(|(i, _)| SiteIdx(i as u32)).collect()) };
    let of = |keep: &dyn Fn(&AccessSite) -> bool| -> Vec<SiteIdx> { loads().filter(|(_, s)| keep(s)).map(|(i, _)| SiteIdx(i as u32)).collect() };
    let chosen: Vec<SiteIdx> = match Point::parse(spec)? {
        Point::Offset { func, at } => {
            let func = func.map(|name| select_func(p, name)).transpose()?;
            of(&|s| s.at == at && func.is_none_or(|f| s.func == f))
        }
        Point::Block { func: Some(name), block } => {
            let f = select_func(p, name)?;
            let n = p.meta.functions.get(f.idx()).and_then(|x| x.cfg.as_ref()).map_or(0, |c| c.blocks.len());
            if block as usize >= n {
                return Err(unsuitable(p, format!("--use {spec}: function {} has no block {block} (it has {n})", p.meta.func_name(f))));
            }
            of(&|s| s.func == f && s.block.0 == block)
        }
        Point::Block { func: None, .. } => return Err(unsuitable(p, format!("--use {spec}: a block needs its function: write FUNC:{spec}"))),
        Point::Line { file, line } => {
            let src = p.source.as_ref().ok_or_else(|| unsuitable(p, format!("--use {spec}: the profile has no source lines (the module had no DWARF)")))?;
            of(&|s| {
                src.block(s.func, s.block)
                    .is_some_and(|r| r.first <= line && line <= r.last && src.files.get(r.file as usize).is_some_and(|f| file_matches(f, file)))
            })
        }
        Point::Func(name) => {
            let f = select_func(p, name)?;
            of(&|s| s.func == f)
        }
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
    let mut by_load: HashMap<SiteIdx, Vec<(&wpp_model::exercised::Writer, &wpp_model::exercised::Exercised)>> = HashMap::new();
    for ((w, l), e) in &deps.deps {
        by_load.entry(*l).or_default().push((w, e));
    }
    let mut rows: Vec<LoadRow> = chosen
        .iter()
        .map(|&l| {
            let s = &sites[l.idx()];
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
    let ran = rows.len();
    rows.retain(|r| r.executions > 0);
    let never_ran = (ran - rows.len()) as u64;
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
    Ok(DepsReport { from, loads: rows, instance, load_executions: deps.loads.values().sum(), dependences: deps.deps.len(), never_ran, truncation })
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
            wpp_model::exercised::Writer::Site(i) if matches!(sites[i.idx()].kind, SiteKind::HostCall { .. }) => &mut s.host,
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
