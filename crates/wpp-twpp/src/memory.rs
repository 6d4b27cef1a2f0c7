//! Memory dependences kept beside a TWPP: for each execution of each instruction that
//! reads linear memory, the write instances whose bytes it read (Tallam & Gupta's load
//! dependences, recovered once from an addresses recording or an extended WPP when the
//! TWPP is built).
//!
//! A load site's dependences are one stream, in the order of its executions; each entry
//! says how many executions of the load it moves on from the previous entry (0: the same
//! execution read from another writer), the writer (0 the initial memory, `s + 1` access
//! site `s`) and, for a site, the writer's instance as a signed step from the previous
//! entry's of the stream (loads in a loop read consecutive instances). A stream is decoded
//! only when a slice first reaches its load, so a slice costs the loads it touches.
//!
//! The section: the number of dependences, the number of load streams, then for each the
//! load's site and its length in bytes, then the streams one after another; then, from an
//! address trace, the bytes each site touched (its footprint, as ranges). The access sites
//! are the profile's own section, copied.

use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::exercised::{Dependence, Writer};
use wpp_model::{FuncIdx, SiteIdx};

use crate::format::{number_at, put, unzigzag, zigzag};

/// The section holding the dependences.
pub const SECTION: &str = "twpp-memory";

/// Collects the dependences of a run, in the order they are recovered.
#[derive(Clone, Debug, Default)]
pub struct MemoryBuilder {
    streams: Vec<Stream>,
    deps: u64,
    footprints: Option<Footprints>,
}

/// The bytes each access site touched during the run, as sorted disjoint ranges (a host
/// call's: the bytes it wrote): what approach 1 reads as "may be the same memory".
#[derive(Clone, Debug, Default)]
pub struct Footprints {
    widths: Vec<Option<u64>>,
    sites: Vec<Ranges>,
    /// Per site: 1 a write instruction, 2 a call of an import, 0 anything else.
    kinds: Vec<u8>,
    /// Each writer's writes, instance by instance.
    writes: Vec<Writes>,
}

/// The ranges one writer wrote, in the order of its instances: each as the gap in
/// instances from the previous range's, its first byte as a signed step from the previous
/// range's, and its length.
#[derive(Clone, Debug, Default)]
struct Writes {
    bytes: Vec<u8>,
    /// Instances so far.
    instance: u64,
    last_instance: u64,
    last_addr: u64,
}

impl Writes {
    fn push(&mut self, addr: u64, len: u64) {
        put(&mut self.bytes, self.instance - self.last_instance);
        put(&mut self.bytes, zigzag(addr.wrapping_sub(self.last_addr) as i64));
        put(&mut self.bytes, len);
        (self.last_instance, self.last_addr) = (self.instance, addr);
    }
}

/// Disjoint byte ranges `[start, end)`, with the last one touched kept apart so that
/// consecutive accesses extend it without a lookup.
#[derive(Clone, Debug, Default)]
struct Ranges {
    set: std::collections::BTreeMap<u64, u64>,
    last: Option<(u64, u64)>,
}

impl Ranges {
    fn add(&mut self, start: u64, end: u64) {
        if let Some((s, e)) = &mut self.last {
            if start <= *e && end >= *s {
                *s = (*s).min(start);
                *e = (*e).max(end);
                return;
            }
        }
        if let Some((s, e)) = self.last.replace((start, end)) {
            self.insert(s, e);
        }
    }

    fn insert(&mut self, mut start: u64, mut end: u64) {
        // Merge with every range that overlaps or touches [start, end).
        while let Some((&s, &e)) = self.set.range(..=end).next_back() {
            if e < start {
                break;
            }
            start = start.min(s);
            end = end.max(e);
            self.set.remove(&s);
        }
        self.set.insert(start, end);
    }

    fn finish(mut self) -> Vec<(u64, u64)> {
        if let Some((s, e)) = self.last.take() {
            self.insert(s, e);
        }
        self.set.into_iter().collect()
    }
}

impl Footprints {
    pub fn new(sites: &[AccessSite]) -> Footprints {
        let widths = sites
            .iter()
            .map(|s| match s.kind {
                SiteKind::Read { width } | SiteKind::Write { width } => width.map(u64::from),
                _ => None,
            })
            .collect();
        let kinds = sites
            .iter()
            .map(|s| match s.kind {
                SiteKind::Write { .. } if s.memory == 0 => 1,
                SiteKind::HostCall { .. } => 2,
                _ => 0,
            })
            .collect();
        Footprints { widths, sites: vec![Ranges::default(); sites.len()], kinds, writes: vec![Writes::default(); sites.len()] }
    }

    /// Site `site` touched `len` bytes from `addr` (`None`: its width). A call of an
    /// import comes first as itself (`len` `None`), then as each range it wrote.
    pub fn touch(&mut self, site: SiteIdx, addr: u64, len: Option<u64>) {
        let site = site.0;
        match (self.kinds.get(site as usize), len) {
            (Some(2), None) => self.writes[site as usize].instance += 1,
            (Some(2), Some(n)) if n > 0 => self.writes[site as usize].push(addr, n),
            (Some(1), _) => {
                let w = &mut self.writes[site as usize];
                w.instance += 1;
                if let Some(n) = len.or(self.widths[site as usize]).filter(|&n| n > 0) {
                    w.push(addr, n);
                }
            }
            _ => {}
        }
        let Some(width) = len.or_else(|| self.widths.get(site as usize).copied().flatten()) else { return };
        if width > 0 {
            if let Some(r) = self.sites.get_mut(site as usize) {
                r.add(addr, addr + width);
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Stream {
    bytes: Vec<u8>,
    instance: u64,
    writer_instance: u64,
}

impl MemoryBuilder {
    pub fn new(sites: usize) -> MemoryBuilder {
        MemoryBuilder { streams: vec![Stream::default(); sites], deps: 0, footprints: None }
    }

    /// Keeps the bytes each site touched (from an address trace).
    pub fn footprints(&mut self, f: Footprints) {
        self.footprints = Some(f);
    }

    /// Adds one dependence; a load's executions come in order, each one's writers
    /// together.
    pub fn add(&mut self, d: &Dependence) {
        let Some(s) = self.streams.get_mut(d.load.idx()) else { return };
        put(&mut s.bytes, d.load_instance.saturating_sub(s.instance));
        s.instance = s.instance.max(d.load_instance);
        match d.writer {
            Writer::Initial => put(&mut s.bytes, 0),
            Writer::Site(w) => {
                put(&mut s.bytes, w.0 as u64 + 1);
                put(&mut s.bytes, zigzag(d.writer_instance as i64 - s.writer_instance as i64));
                s.writer_instance = d.writer_instance;
            }
        }
        self.deps += 1;
    }

    /// How many dependences were added.
    pub fn len(&self) -> u64 {
        self.deps
    }

    pub fn is_empty(&self) -> bool {
        self.deps == 0
    }

    /// The section's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let used: Vec<(usize, &Stream)> = self.streams.iter().enumerate().filter(|(_, s)| !s.bytes.is_empty()).collect();
        let mut out = Vec::new();
        put(&mut out, self.deps);
        put(&mut out, used.len() as u64);
        for (site, s) in &used {
            put(&mut out, *site as u64);
            put(&mut out, s.bytes.len() as u64);
        }
        for (_, s) in &used {
            out.extend_from_slice(&s.bytes);
        }
        // The footprints, if kept: a flag, then per site the number of ranges and each
        // range as (gap from the previous end, length).
        match &self.footprints {
            None => put(&mut out, 0),
            Some(f) => {
                put(&mut out, 1);
                put(&mut out, f.sites.len() as u64);
                for r in &f.sites {
                    let ranges = r.clone().finish();
                    put(&mut out, ranges.len() as u64);
                    let mut prev = 0u64;
                    for (s, e) in ranges {
                        put(&mut out, s - prev);
                        put(&mut out, e - s);
                        prev = e;
                    }
                }
                // Then every writer's writes (from an address trace): per site the
                // stream's length, then the streams.
                for w in &f.writes {
                    put(&mut out, w.bytes.len() as u64);
                }
                for w in &f.writes {
                    out.extend_from_slice(&w.bytes);
                }
            }
        }
        out
    }
}

/// One write instance a load execution read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Written {
    /// The module's initial memory.
    Initial,
    /// Execution `instance` (1-based, in run order) of access site `site` (a store, a bulk
    /// write, or a call of an import).
    Site { site: SiteIdx, instance: u64 },
}

/// One write of a writer: its instance (from 1), its first byte, one past its last.
pub type Write = (u64, u64, u64);

/// The dependences of a TWPP, read lazily, one load at a time.
#[derive(Clone, Debug)]
pub struct Memory {
    pub sites: Vec<AccessSite>,
    /// Each read site by (function, offset).
    reads: rustc_hash::FxHashMap<(FuncIdx, u32), SiteIdx>,
    /// Each load's stream, as a range of `bytes`.
    streams: rustc_hash::FxHashMap<SiteIdx, (usize, usize)>,
    bytes: Vec<u8>,
    /// How many dependences the run had (load executions times the write instances each
    /// read).
    pub deps: u64,
    /// The bytes each site touched, as sorted disjoint ranges, when kept.
    footprints: Option<Vec<Vec<(u64, u64)>>>,
    /// Each site's writes, as a range of `bytes`, when kept.
    writes: Option<Vec<(usize, usize)>>,
}

/// One load's dependences, decoded: execution `k` (1-based) read `writers[starts[k - 1]
/// .. starts[k]]`.
#[derive(Clone, Debug, Default)]
pub struct LoadDeps {
    starts: Vec<u32>,
    writers: Vec<Written>,
}

impl LoadDeps {
    /// What every execution read.
    pub fn all(&self) -> &[Written] {
        &self.writers
    }

    /// What execution `k` (1-based) read; nothing for one past the executions recorded.
    pub fn of(&self, k: u64) -> &[Written] {
        let k = k as usize;
        if k == 0 || k >= self.starts.len() {
            // (`starts` holds one more than the executions recorded.)
            return &[];
        }
        &self.writers[self.starts[k - 1] as usize..self.starts[k] as usize]
    }
}

impl Memory {
    /// Reads the section, checking its directory against the sites.
    pub fn decode(sites: Vec<AccessSite>, bytes: Vec<u8>) -> Result<Memory, String> {
        let mut at = 0usize;
        let next = |bytes: &[u8], at: &mut usize| -> Result<u64, String> {
            let (v, len) = number_at(&bytes[(*at).min(bytes.len())..]).map_err(|e| format!("the memory dependences' directory: {e}"))?;
            *at += len;
            Ok(v)
        };
        let deps = next(&bytes, &mut at)?;
        let n = next(&bytes, &mut at)?;
        if n > sites.len() as u64 {
            return Err(format!("the memory dependences name {n} loads, the module has {} access sites", sites.len()));
        }
        let mut dir = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let site = next(&bytes, &mut at)?;
            let len = next(&bytes, &mut at)?;
            let readable = sites.get(site as usize).is_some_and(|s| matches!(s.kind, SiteKind::Read { .. }));
            if !readable {
                return Err(format!("the memory dependences name site {site}, which is not a read of memory"));
            }
            dir.push((SiteIdx(site as u32), len));
        }
        let mut streams = rustc_hash::FxHashMap::default();
        let mut start = at;
        for (site, len) in dir {
            let end = start.checked_add(len as usize).filter(|&e| e <= bytes.len()).ok_or("the memory dependences end early")?;
            streams.insert(site, (start, end));
            start = end;
        }
        at = start;
        let mut writes = None;
        let footprints = if next(&bytes, &mut at)? == 0 {
            None
        } else {
            let n = next(&bytes, &mut at)?;
            if n != sites.len() as u64 {
                return Err(format!("the memory footprints name {n} sites, the module has {}", sites.len()));
            }
            let mut all = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let k = next(&bytes, &mut at)?;
                let mut ranges = Vec::new();
                let mut prev = 0u64;
                for _ in 0..k {
                    let s = prev.checked_add(next(&bytes, &mut at)?).ok_or("a memory footprint out of range")?;
                    let e = s.checked_add(next(&bytes, &mut at)?).ok_or("a memory footprint out of range")?;
                    ranges.push((s, e));
                    prev = e;
                }
                all.push(ranges);
            }
            if at < bytes.len() {
                let lens: Vec<u64> = (0..n).map(|_| next(&bytes, &mut at)).collect::<Result<_, _>>()?;
                let mut ranges = Vec::with_capacity(n as usize);
                for len in lens {
                    let end = at.checked_add(len as usize).filter(|&e| e <= bytes.len()).ok_or("the writes' ranges end early")?;
                    ranges.push((at, end));
                    at = end;
                }
                writes = Some(ranges);
            }
            Some(all)
        };
        if at != bytes.len() {
            return Err(format!("{} bytes follow the memory dependences", bytes.len() - at));
        }
        let reads =
            sites.iter().enumerate().filter(|(_, s)| matches!(s.kind, SiteKind::Read { .. })).map(|(i, s)| ((s.func, s.at), SiteIdx(i as u32))).collect();
        Ok(Memory { sites, reads, streams, bytes, deps, footprints, writes })
    }

    /// Whether the bytes each writer wrote are kept, instance by instance (a TWPP built
    /// from an address trace by this wpp).
    pub fn has_writes(&self) -> bool {
        self.writes.is_some()
    }

    /// The writers (stores, bulk writes, calls of imports) whose bytes overlap `[start,
    /// end)` at some time in the run; `None` without footprints.
    pub fn writers_over(&self, start: u64, end: u64) -> Option<Vec<SiteIdx>> {
        let all = self.footprints.as_ref()?;
        let writes = |s: &AccessSite| matches!(s.kind, SiteKind::Write { .. } | SiteKind::HostCall { .. }) && s.memory == 0;
        let overlaps = |r: &[(u64, u64)]| {
            let k = r.partition_point(|&(_, e)| e <= start);
            r.get(k).is_some_and(|&(s, _)| s < end)
        };
        Some((0..all.len() as u32).filter(|&w| writes(&self.sites[w as usize]) && overlaps(&all[w as usize])).map(SiteIdx).collect())
    }

    /// What writer `site` wrote: (instance, first byte, one past the last) in the order of
    /// its instances (1-based); `None` when the writes are not kept.
    pub fn writes(&self, site: SiteIdx) -> Result<Option<Vec<Write>>, String> {
        let Some(ranges) = &self.writes else { return Ok(None) };
        let &(start, end) = ranges.get(site.idx()).ok_or_else(|| format!("no access site {site}"))?;
        let bytes = &self.bytes[start..end];
        let mut at = 0usize;
        let next = |at: &mut usize| -> Result<u64, String> {
            let (v, len) = number_at(&bytes[*at..]).map_err(|e| format!("the writes of site {site}: {e}"))?;
            *at += len;
            Ok(v)
        };
        let (mut instance, mut addr) = (0u64, 0u64);
        let mut out = Vec::new();
        while at < bytes.len() {
            instance = instance.checked_add(next(&mut at)?).ok_or("a write's instance out of range")?;
            addr = addr.wrapping_add(unzigzag(next(&mut at)?) as u64);
            let len = next(&mut at)?;
            let end = addr.checked_add(len).filter(|&e| e <= 1 << 34).ok_or_else(|| format!("the writes of site {site}: a range out of memory"))?;
            if instance == 0 {
                return Err(format!("the writes of site {site} start at instance 0"));
            }
            out.push((instance, addr, end));
        }
        Ok(Some(out))
    }

    /// The write sites (stores, bulk writes, calls of imports that wrote) whose bytes
    /// overlap those site `site` touched during the run; `None` without footprints.
    pub fn overlapping_writers(&self, site: SiteIdx) -> Option<Vec<SiteIdx>> {
        let all = self.footprints.as_ref()?;
        let mine = all.get(site.idx())?;
        let overlaps = |other: &[(u64, u64)]| {
            let (mut i, mut j) = (0, 0);
            while i < mine.len() && j < other.len() {
                if mine[i].0 < other[j].1 && other[j].0 < mine[i].1 {
                    return true;
                }
                if mine[i].1 <= other[j].1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
            false
        };
        let writes = |s: &AccessSite| matches!(s.kind, SiteKind::Write { .. } | SiteKind::HostCall { .. });
        Some((0..all.len() as u32).filter(|&w| writes(&self.sites[w as usize]) && overlaps(&all[w as usize])).map(SiteIdx).collect())
    }

    /// The read site of the instruction at `at` of function `f`, if it reads memory.
    pub fn read_site(&self, f: FuncIdx, at: u32) -> Option<SiteIdx> {
        self.reads.get(&(f, at)).copied()
    }

    /// The dependences of every execution of read site `site`, which ran `executions`
    /// times (a stream that names more is damaged).
    pub fn load(&self, site: SiteIdx, executions: u64) -> Result<LoadDeps, String> {
        let mut out = LoadDeps::default();
        let Some(&(start, end)) = self.streams.get(&site) else { return Ok(out) };
        let bytes = &self.bytes[start..end];
        let mut at = 0usize;
        let next = |at: &mut usize| -> Result<u64, String> {
            let (v, len) = number_at(&bytes[*at..]).map_err(|e| format!("the memory dependences of site {site}: {e}"))?;
            *at += len;
            Ok(v)
        };
        let mut writer_instance = 0u64;
        let mut first = true;
        while at < bytes.len() {
            let gap = next(&mut at)?;
            if first && gap == 0 {
                return Err(format!("the memory dependences of site {site} start at execution 0"));
            }
            first = false;
            if out.starts.len() as u64 + gap > executions {
                return Err(format!("the memory dependences of site {site} name more executions than its {executions}"));
            }
            for _ in 0..gap {
                out.starts.push(out.writers.len() as u32);
            }
            let w = next(&mut at)?;
            let written = if w == 0 {
                Written::Initial
            } else {
                let s = u32::try_from(w - 1)
                    .ok()
                    .filter(|&s| self.sites.get(s as usize).is_some_and(|s| s.is_write() || matches!(s.kind, SiteKind::HostCall { .. })));
                let Some(s) = s else { return Err(format!("the memory dependences of site {site} name writer {}, which writes nothing", w - 1)) };
                let step = unzigzag(next(&mut at)?);
                writer_instance = writer_instance
                    .checked_add_signed(step)
                    .filter(|&i| i > 0)
                    .ok_or_else(|| format!("the memory dependences of site {site}: a writer's instance out of range"))?;
                Written::Site { site: SiteIdx(s), instance: writer_instance }
            };
            out.writers.push(written);
        }
        // `starts[k - 1]` starts execution k (pushed when the stream reached it), and the
        // last one ends here.
        out.starts.push(out.writers.len() as u32);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wpp_model::{BlockIdx, FuncIdx};

    fn sites() -> Vec<AccessSite> {
        let site = |at: u32, kind: SiteKind| AccessSite { func: FuncIdx(1), at, block: BlockIdx(0), memory: 0, kind };
        vec![
            site(10, SiteKind::Read { width: Some(4) }),
            site(20, SiteKind::Write { width: Some(4) }),
            site(30, SiteKind::Read { width: None }),
            site(40, SiteKind::Write { width: Some(1) }),
        ]
    }

    /// Every load execution's writers, as the recovery gives them, read back exactly; the
    /// footprints' overlaps as the ranges say.
    #[test]
    fn round_trip() {
        let mut rng = 0x9e3779b97f4a7c15u64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let mut b = MemoryBuilder::new(4);
        let mut want: Vec<(SiteIdx, u64, Vec<Written>)> = Vec::new();
        let mut writes = [0u64; 4];
        for load in [SiteIdx(0), SiteIdx(2)] {
            let mut k = 0u64;
            for _ in 0..200 {
                k += 1 + next(3) * u64::from(load == SiteIdx(2));
                let mut ws = Vec::new();
                for _ in 0..1 + next(3) {
                    let w = if next(5) == 0 {
                        Written::Initial
                    } else {
                        let site = [1u32, 3][next(2) as usize];
                        writes[site as usize] += 1 + next(3);
                        Written::Site { site: SiteIdx(site), instance: 1 + next(writes[site as usize]) }
                    };
                    let writer = match w {
                        Written::Initial => Writer::Initial,
                        Written::Site { site, .. } => Writer::Site(site),
                    };
                    let instance = match w {
                        Written::Initial => 0,
                        Written::Site { instance, .. } => instance,
                    };
                    b.add(&Dependence { load, load_instance: k, writer, writer_instance: instance, writer_executions: instance, latest: true });
                    ws.push(w);
                }
                want.push((load, k, ws));
            }
        }
        let mut f = Footprints::new(&sites());
        f.touch(SiteIdx(0), 100, None);
        f.touch(SiteIdx(1), 102, None);
        f.touch(SiteIdx(2), 500, Some(10));
        f.touch(SiteIdx(3), 509, None);
        f.touch(SiteIdx(3), 600, None);
        b.footprints(f);
        let m = Memory::decode(sites(), b.encode()).unwrap();
        assert_eq!(m.deps, b.len());
        for load in [SiteIdx(0), SiteIdx(2)] {
            let d = m.load(load, 1_000).unwrap();
            for (_, k, ws) in want.iter().filter(|w| w.0 == load) {
                assert_eq!(d.of(*k), ws.as_slice(), "load {load} execution {k}");
            }
        }
        assert_eq!(m.read_site(FuncIdx(1), 30), Some(SiteIdx(2)));
        assert_eq!(m.overlapping_writers(SiteIdx(0)), Some(vec![SiteIdx(1)]));
        assert_eq!(m.overlapping_writers(SiteIdx(2)), Some(vec![SiteIdx(3)]));
    }

    /// A damaged section is an error, never a panic or a huge allocation.
    #[test]
    fn damaged() {
        let mut b = MemoryBuilder::new(4);
        b.add(&Dependence { load: SiteIdx(0), load_instance: 1 << 40, writer: Writer::Initial, writer_instance: 0, writer_executions: 0, latest: true });
        let m = Memory::decode(sites(), b.encode()).unwrap();
        assert!(m.load(SiteIdx(0), 10).is_err(), "more executions than the load ran");
        let bytes = b.encode();
        for cut in 0..bytes.len() {
            if let Ok(m) = Memory::decode(sites(), bytes[..cut].to_vec()) {
                let _ = m.load(SiteIdx(0), 10);
            }
        }
        let mut bad = Vec::new();
        for v in [1u64, 1, 1, 2] {
            put(&mut bad, v);
        }
        assert!(Memory::decode(sites(), bad).is_err(), "site 1 is not a read");
    }
}
