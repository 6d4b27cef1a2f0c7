//! The memory dependences a run exercised, from its accesses in order ([`Tracker`]): for
//! each load instance, the write instances it depends on ([`crate::deps`] states the
//! semantics), named by access site ([`crate::access_event::AccessSite`]) and instance,
//! and summed per (writer, load) pair ([`Exercised`]). A filtering run feeds it the
//! guest's access events as they arrive; the recovery from an address trace feeds it the
//! accesses read back against the control flow.

use std::collections::BTreeMap;

use crate::access_event::{AccessSite, SiteKind};
use crate::deps::{Shadow, WriteId, INITIAL};
use crate::SiteIdx;

/// What wrote the bytes a load read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Writer {
    /// Nothing during the run: the module's initial memory.
    Initial,
    /// The instruction at this access site (a store or a bulk write), or for a
    /// [`SiteKind::HostCall`] site, that call of an import.
    Site(SiteIdx),
}

/// One dynamic dependence: instance `load_instance` (1-based) of load site `load` read
/// bytes that instance `writer_instance` of `writer` wrote (0 for [`Writer::Initial`]),
/// when the writer had run `writer_executions` times. `latest`: the writer had not run
/// again between that instance and the load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dependence {
    pub load: SiteIdx,
    pub load_instance: u64,
    pub writer: Writer,
    pub writer_instance: u64,
    pub writer_executions: u64,
    pub latest: bool,
}

impl Dependence {
    /// Checks a search for the writer's instance makes, the latest first: one comparison
    /// with the latest, then, if not, a binary search over the earlier ones (Tallam &
    /// Gupta's §3.3); and a linear search from the latest back (their Fig. 8).
    pub fn checks(&self) -> (u64, u64) {
        let (k, n) = (self.writer_instance, self.writer_executions);
        if matches!(self.writer, Writer::Initial) || k == n {
            return (1, 1);
        }
        // Binary search of k in 1..=n-1: one comparison per halving until found.
        let (mut lo, mut hi, mut binary) = (1u64, n - 1, 1u64);
        loop {
            let mid = lo + (hi - lo) / 2;
            binary += 1;
            match k.cmp(&mid) {
                std::cmp::Ordering::Less => hi = mid - 1,
                std::cmp::Ordering::Greater => lo = mid + 1,
                std::cmp::Ordering::Equal => break,
            }
        }
        (binary, n - k + 1)
    }
}

/// How often a (writer, load) dependence was exercised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Exercised {
    /// Dependences: (load instance, write instance of the writer) pairs, one for each
    /// distinct write instance a load instance read bytes of.
    pub count: u64,
    /// Of those, the ones whose write instance was not the writer's latest (an
    /// any-instance dependence when not 0, a last-instance one otherwise).
    pub earlier_instance: u64,
}

/// Every dependence of a run summed by (writer, load site), and the executions of every
/// load site.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExercisedDeps {
    pub deps: BTreeMap<(Writer, SiteIdx), Exercised>,
    pub loads: BTreeMap<SiteIdx, u64>,
}

impl ExercisedDeps {
    pub fn add(&mut self, d: &Dependence) {
        let e = self.deps.entry((d.writer, d.load)).or_default();
        e.count += 1;
        e.earlier_instance += !d.latest as u64;
    }
}

/// Bits of a [`WriteId`] that hold the instance; the site (plus one) is above them.
const INSTANCE_BITS: u32 = 40;

/// The most access sites a [`Tracker`] can tell apart.
pub const MAX_TRACKED_SITES: usize = 1 << (64 - INSTANCE_BITS - 1);

/// Follows a run's accesses, in the order they ran, with a shadow memory per linear
/// memory holding the last writer of each byte.
pub struct Tracker {
    sites: Vec<AccessSite>,
    shadows: Vec<Shadow>,
    /// Executions so far of each site.
    instances: Vec<u64>,
    /// The last host call's site, and how many of its ranges are still to come.
    call: Option<(SiteIdx, u32)>,
    /// Scratch: one load's distinct writers.
    writers: Vec<WriteId>,
}

/// Why an access cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    #[error("access site {0} is not in the module's table of {1} sites")]
    NoSite(SiteIdx, usize),
    #[error("a host write without a host call before it")]
    StrayHostWrite,
    #[error("more than {MAX_TRACKED_SITES} access sites")]
    TooManySites,
}

impl Tracker {
    pub fn new(sites: Vec<AccessSite>) -> Result<Self, TrackError> {
        if sites.len() > MAX_TRACKED_SITES {
            return Err(TrackError::TooManySites);
        }
        Ok(Tracker { instances: vec![0; sites.len()], sites, shadows: Vec::new(), call: None, writers: Vec::new() })
    }

    pub fn sites(&self) -> &[AccessSite] {
        &self.sites
    }

    /// Executions so far of site `site`.
    pub fn instances(&self, site: SiteIdx) -> u64 {
        self.instances[site.idx()]
    }

    /// Bytes of shadow memory held.
    pub fn memory_bytes(&self) -> usize {
        self.shadows.iter().map(Shadow::memory_bytes).sum::<usize>() + self.instances.len() * 8
    }

    fn shadow(&mut self, memory: u32) -> &mut Shadow {
        let m = memory as usize;
        if self.shadows.len() <= m {
            self.shadows.resize_with(m + 1, Shadow::default);
        }
        &mut self.shadows[m]
    }

    /// The access of site `site` at `addr` (for a bulk site, of `len` bytes; for a
    /// [`SiteKind::HostCall`] site, `addr` is how many ranges the call wrote); `f` gets
    /// each dependence of a load, one per distinct write instance.
    pub fn access(&mut self, site: SiteIdx, addr: u32, len: Option<u64>, mut f: impl FnMut(Dependence)) -> Result<(), TrackError> {
        let s = *self.sites.get(site.idx()).ok_or(TrackError::NoSite(site, self.sites.len()))?;
        let (writer, width) = match s.kind {
            SiteKind::HostCall { .. } => {
                self.instances[site.idx()] += 1;
                self.call = Some((site, addr));
                return Ok(());
            }
            SiteKind::HostWrite => match &mut self.call {
                Some((call, left)) if *left > 0 => {
                    *left -= 1;
                    (*call, None)
                }
                _ => return Err(TrackError::StrayHostWrite),
            },
            SiteKind::Write { width } => {
                self.instances[site.idx()] += 1;
                (site, width)
            }
            SiteKind::Read { width } => {
                self.instances[site.idx()] += 1;
                let len = width.map_or(len.unwrap_or(0), u64::from);
                let load_instance = self.instances[site.idx()];
                let mut writers = std::mem::take(&mut self.writers);
                writers.clear();
                self.shadow(s.memory).read(addr as u64, len, |span| {
                    if !writers.contains(&span.write) {
                        writers.push(span.write);
                    }
                });
                for &w in &writers {
                    let (writer, writer_instance) = match w {
                        INITIAL => (Writer::Initial, 0),
                        w => (Writer::Site(SiteIdx((w >> INSTANCE_BITS) as u32 - 1)), w & ((1 << INSTANCE_BITS) - 1)),
                    };
                    let writer_executions = match writer {
                        Writer::Initial => 0,
                        Writer::Site(ws) => self.instances[ws.idx()],
                    };
                    let latest = writer_executions == writer_instance;
                    f(Dependence { load: site, load_instance, writer, writer_instance, writer_executions, latest });
                }
                self.writers = writers;
                return Ok(());
            }
        };
        let len = width.map_or(len.unwrap_or(0), u64::from);
        let id = ((writer.0 as u64 + 1) << INSTANCE_BITS) | self.instances[writer.idx()];
        let memory = self.sites[writer.idx()].memory;
        self.shadow(memory).write(addr as u64, len, id);
        Ok(())
    }
}
