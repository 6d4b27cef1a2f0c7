//! Memory dependences recovered from a profile: the dependence half of a run, for the
//! TWPP to keep ([`memory_table`], [`build_twpp`]) and for the reports that list them.
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
//! From an extended WPP ([`from_ewpp`]): the check routines' paths say which writer and
//! which instance each load read.
//!
//! Chains of dependences, from either recording of every load execution's:
//! [`chain::follow`].

use std::collections::HashMap;
use std::path::PathBuf;

use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::exercised::Writer;
use wpp_model::exercised::{Dependence, ExercisedDeps, Tracker};
use wpp_model::{BlockIdx, FuncIdx, PathEvent, SiteIdx};
use wpp_profile::{Profile, RecordMode};

pub mod chain;

/// Why a profile's dependences cannot be recovered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    /// The TWPP being built could not be written.
    #[error(transparent)]
    Twpp(#[from] crate::file::Error),
    /// The profile lacks what recovery needs, or what it holds does not agree.
    #[error("{}: {what}", .profile.display())]
    Unsuitable { profile: PathBuf, what: String },
}

impl Error {
    /// Whether wpp failed rather than its input.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Profile(e) => e.is_failure(),
            Error::Twpp(e) => e.is_failure(),
            Error::Unsuitable { .. } => false,
        }
    }
}

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

pub(crate) fn unsuitable(p: &Profile, what: impl Into<String>) -> Error {
    Error::Unsuitable { profile: p.path.clone(), what: what.into() }
}

/// A site's function and offset, `FUNCTION+0xOFFSET`.
pub fn site_name(p: &Profile, s: &AccessSite) -> String {
    format!("{}:{:#x}", p.meta.func_name(s.func), s.at)
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

/// Every memory dependence of the run, for a TWPP to keep ([`crate::build_with`]):
/// recovered from an addresses recording's address trace or from an extended WPP's
/// checks; `None` for a profile that keeps none (or only their totals, a filtering run).
pub fn memory_table(p: &Profile) -> Result<Option<crate::memory::MemoryBuilder>, Error> {
    let Some(sites) = p.access_sites()? else { return Ok(None) };
    let mut table = crate::memory::MemoryBuilder::new(sites.len());
    if is_ewpp(p) {
        from_ewpp(p, |d| table.add(d))?;
    } else if p.toc.iter().any(|e| e.name == wpp_profile::section::ADDRESS_VALUES) {
        let mut footprints = crate::memory::Footprints::new(&sites);
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
pub fn build_twpp(p: &Profile, out: &std::path::Path, progress: &mut dyn wpp_model::progress::Progress) -> Result<(crate::file::Built, Option<u64>), Error> {
    p.require_program("twpp build")?;
    let memory = memory_table(p)?;
    let built = crate::build_with(p, out, memory.as_ref(), progress)?;
    Ok((built, memory.map(|m| m.len())))
}

/// The dependences a filtering run recorded.
pub fn exercised(p: &Profile) -> Result<Option<ExercisedDeps>, Error> {
    let Some(deps) = p.optional_value::<ExercisedDeps>(wpp_profile::section::EXERCISED)? else { return Ok(None) };
    let n = sites(p)?.len() as u32;
    let past = |s: SiteIdx| s.0 >= n;
    let bad = deps.deps.keys().any(|&(w, l)| past(l) || matches!(w, Writer::Site(s) if past(s))) || deps.loads.keys().any(|&l| past(l));
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
pub fn walk_addresses(p: &Profile, mut f: impl FnMut(&Dependence), mut touch: impl FnMut(SiteIdx, u32, Option<u64>)) -> Result<Recovered, Error> {
    let sites = sites(p)?;
    let Some((grammar, values)) = p.address_trace()? else { return Err(no_dependences(p)) };
    let by_block = block_sites(p, &sites)?;
    let host_write = SiteIdx(sites.len() as u32 - 1);
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
            for site in (from..to).map(SiteIdx) {
                let s = &sites[site.idx()];
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
                let mut step = |site: SiteIdx, addr: u32, len: Option<u64>| {
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
        let n = tracker.instances(SiteIdx(i as u32));
        if matches!(s.kind, SiteKind::Read { .. }) && n > 0 {
            out.deps.loads.insert(SiteIdx(i as u32), n);
        }
    }
    Ok(out)
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
    if record.candidates.iter().any(|(l, c)| l.0 as u64 >= n_sites || c.iter().any(|&w| w.0 as u64 >= n_sites)) {
        return Err(bad("a candidate names a site past the module's".into()));
    }
    let candidates: HashMap<SiteIdx, Vec<SiteIdx>> = record.candidates.iter().cloned().collect();
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
    let mut seen: Vec<(Writer, u64)> = Vec::new();
    p.for_each_event_with_instrumentation(|e| {
        if error.is_some() {
            return;
        }
        if e.func == record.check {
            pending.push_back(e);
            return;
        }
        let ranges = path_sites.entry(e).or_insert_with(|| path_site_ranges(p, &by_block, e));
        for &(from, to) in ranges.iter() {
            for site in (from..to).map(SiteIdx) {
                let s = &sites[site.idx()];
                executions[site.idx()] += 1;
                if !matches!(s.kind, SiteKind::Read { .. }) {
                    continue;
                }
                // The load's reports, up to the one marked last.
                let load_instance = executions[site.idx()];
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
                            let n = |w: &Option<Writer>| match w {
                                Some(Writer::Site(s)) => executions[s.idx()],
                                _ => 0,
                            };
                            match role {
                                Role::Initial => {
                                    writer = Some(Writer::Initial);
                                    k = Some(0);
                                }
                                Role::Candidate(i) => match candidates.get(&site).and_then(|c| c.get(i)) {
                                    Some(&w) => writer = Some(Writer::Site(w)),
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
                                        writer = Some(Writer::Site(SiteIdx(v as u32)));
                                        match candidates.get(&site).is_some_and(|c| c.contains(&SiteIdx(v as u32))) {
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
                            Writer::Site(s) => executions[s.idx()],
                            Writer::Initial => 0,
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
            out.deps.loads.insert(SiteIdx(i as u32), executions[i]);
        }
    }
    Ok((out, checks))
}
