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

use std::collections::HashMap;

use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::exercised::{Dependence, ExercisedDeps, Tracker};
use wpp_model::{BlockIdx, FuncIdx, PathEvent};
use wpp_profile::{Profile, RecordMode};

use crate::Error;

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

/// Every dependence of an addresses recording, each given to `f` as it is recovered.
pub fn from_addresses(p: &Profile, mut f: impl FnMut(&Dependence)) -> Result<Recovered, Error> {
    let sites = sites(p)?;
    let Some((grammar, values)) = p.address_trace()? else { return Err(no_dependences(p)) };
    // The sites of each block, in order (sites are sorted by function and offset, so a
    // block's are contiguous).
    let mut by_block: HashMap<(FuncIdx, BlockIdx), (u32, u32)> = HashMap::new();
    for (i, s) in sites.iter().enumerate().filter(|(_, s)| s.kind != SiteKind::HostWrite) {
        let e = by_block.entry((s.func, s.block)).or_insert((i as u32, i as u32));
        if e.1 != i as u32 {
            return Err(unsuitable(
                p,
                format!("section `{}`: the sites of block {} of function {} are not together", wpp_profile::section::ACCESS_SITES, s.block.0, s.func.0),
            ));
        }
        e.1 = i as u32 + 1;
    }
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
        let ranges = path_sites
            .entry(e)
            .or_insert_with(|| p.path_blocks(e.func, e.path).unwrap_or_default().iter().filter_map(|&b| by_block.get(&(e.func, b)).copied()).collect());
        for &(from, to) in ranges.iter() {
            for site in from..to {
                let s = &sites[site as usize];
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
