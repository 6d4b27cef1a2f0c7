//! The TWPP file: a wpp profile (the same container, checksummed sections) holding the
//! run's functions and CFGs, its path counts, source lines and module hash, and instead of a trace or a
//! grammar, the whole program path in timestamped form:
//!
//! - `twpp-layout`: the layout's version ([`LAYOUT`]);
//! - `twpp-index`: the functions that ran, most invoked first, with their invocations and
//!   distinct traces;
//! - `twpp-fN`: function N's part ([`crate::format`]), in that order, so that reading one
//!   function reads its section and nothing else; a trace's body too large to read with
//!   the rest is in `twpp-fN.K` (trace K), read only when that trace is;
//! - `twpp-cN`: function N's callers ([`crate::callers`]): who made the invocations of each
//!   of its traces, and which trace its `n`-th invocation followed;
//! - `twpp-dcg`: the dynamic call graph's stream ([`crate::dcg`]), compressed by
//!   SEQUITUR(1) or LZW, whichever is smaller;
//! - `twpp-stats`: what each compaction step saved ([`crate::steps::Compaction`]), measured
//!   while the file was built.
//!
//! Everything the trace held is there: [`Twpp::for_each_event`] rebuilds it.

use std::path::{Path, PathBuf};

use wpp_model::progress::Progress;
use wpp_model::{BlockIdx, EdgeKind, FuncIdx, PathEvent, PathId, Target};
use wpp_profile::{section as profile_section, Profile, Writer};

use crate::callers::ByPair;
use crate::format::{number_at, put, Body, FunctionPart, Head};
use crate::steps::Compaction;
use crate::timestamps::Timestamped;
use crate::{dcg, Caller, Partition, PartitionError};

/// The layout [`build`] writes; files of other layouts are refused (built again from
/// their profile, they get this one).
pub const LAYOUT: u64 = 2;

/// Events between two reports of progress.
const PROGRESS_EVERY: u64 = 1 << 20;

/// Section names.
pub mod section {
    pub const LAYOUT: &str = "twpp-layout";
    pub const INDEX: &str = wpp_profile::section::TWPP_INDEX;
    pub const DCG: &str = "twpp-dcg";
    pub const STATS: &str = "twpp-stats";

    /// The section of function `f`'s part.
    pub fn function(f: wpp_model::FuncIdx) -> String {
        format!("twpp-f{}", f.0)
    }

    /// The section of the body of function `f`'s trace `k`, when stored apart.
    pub fn trace(f: wpp_model::FuncIdx, k: usize) -> String {
        format!("twpp-f{}.{k}", f.0)
    }

    /// The section of function `f`'s callers.
    pub fn callers(f: wpp_model::FuncIdx) -> String {
        format!("twpp-c{}", f.0)
    }
}

/// What can go wrong building or reading a TWPP file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    /// The profile's events are not a run of its program.
    #[error("{}", .path.display())]
    Partition { path: PathBuf, source: PartitionError },
    /// A section of the TWPP file is damaged.
    #[error("{}: damaged TWPP file: {what}", .path.display())]
    Damaged { path: PathBuf, what: String },
    /// The file is a profile without the TWPP sections.
    #[error("{}: not a TWPP file (it has no `{}` section); `wpp twpp build` writes one from a profile", .path.display(), section::INDEX)]
    NotTwpp { path: PathBuf },
    /// A TWPP file of another layout.
    #[error("{}: a TWPP file of layout {found}, this wpp reads layout {LAYOUT}; build it again from its profile with `wpp twpp build`", .path.display())]
    Layout { path: PathBuf, found: u64 },
}

impl Error {
    /// Whether wpp failed (a file it could not write) rather than its input.
    pub fn is_failure(&self) -> bool {
        matches!(self, Error::Profile(e) if e.is_failure())
    }
}

/// One function's entry in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    pub func: FuncIdx,
    pub invocations: u64,
    /// Its distinct block traces.
    pub pairs: u32,
}

/// The index: the run's totals and the functions that ran, most invoked first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Index {
    pub events: u64,
    pub open_at_end: u64,
    pub ambiguous: u64,
    pub functions: Vec<IndexEntry>,
}

/// Numbers of a section, LEB128 each.
fn numbers(mut bytes: &[u8]) -> Option<Vec<u64>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let (v, len) = number_at(bytes).ok()?;
        out.push(v);
        bytes = &bytes[len..];
    }
    Some(out)
}

impl Index {
    /// Invocations of every function.
    pub fn invocations(&self) -> u64 {
        self.functions.iter().map(|e| e.invocations).sum()
    }

    /// Distinct block traces of every function.
    pub fn distinct_traces(&self) -> u64 {
        self.functions.iter().map(|e| e.pairs as u64).sum()
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for v in [self.events, self.open_at_end, self.ambiguous, self.functions.len() as u64] {
            put(&mut out, v);
        }
        for e in &self.functions {
            put(&mut out, e.func.0 as u64);
            put(&mut out, e.invocations);
            put(&mut out, e.pairs as u64);
        }
        out
    }

    fn decode(bytes: &[u8]) -> Option<Index> {
        let n = numbers(bytes)?;
        let (head, rest) = n.split_at_checked(4)?;
        if rest.len() as u64 != head[3].checked_mul(3)? {
            return None;
        }
        let functions = rest
            .chunks(3)
            .map(|c| Some(IndexEntry { func: FuncIdx(u32::try_from(c[0]).ok()?), invocations: c[1], pairs: u32::try_from(c[2]).ok()? }))
            .collect::<Option<Vec<_>>>()?;
        Some(Index { events: head[0], open_at_end: head[1], ambiguous: head[2], functions })
    }
}

/// What [`build`] wrote.
#[derive(Clone, Debug, Default)]
pub struct Built {
    pub index: Index,
    /// Bytes of the function parts, the call graph as written, and that graph's stream
    /// under LZW and under SEQUITUR(1).
    pub part_bytes: u64,
    pub dcg_bytes: u64,
    pub dcg_lzw_bytes: u64,
    pub dcg_grammar_bytes: u64,
    /// What each compaction step saved.
    pub compaction: Compaction,
}

/// Encodes the call graph's stream, the smaller of SEQUITUR(1) and LZW: a kind byte (0
/// LZW, 1 grammar), the alphabet (count, then each number), the payload. Counts the
/// stream's sizes in `c`.
fn encode_dcg(numbers: &[u32], c: &mut Compaction) -> (Vec<u8>, u64, u64) {
    let (alphabet, codes) = dcg::lzw_encode(numbers);
    let grammar = dcg::grammar_encode(numbers, &alphabet);
    c.dcg_sizes(numbers.len(), alphabet.len(), codes.len(), grammar.len());
    let mut lzw = Vec::new();
    codes.iter().for_each(|&c| put(&mut lzw, c as u64));
    let mut head = Vec::new();
    put(&mut head, alphabet.len() as u64);
    alphabet.iter().for_each(|&a| put(&mut head, a as u64));
    let (kind, payload) = if grammar.len() <= lzw.len() { (1u8, &grammar) } else { (0u8, &lzw) };
    let mut out = vec![kind];
    out.extend_from_slice(&head);
    out.extend_from_slice(payload);
    (out, (head.len() + lzw.len()) as u64, (head.len() + grammar.len()) as u64)
}

/// The stream [`encode_dcg`] wrote, `None` if damaged or longer than `max_len`.
fn decode_dcg(bytes: &[u8], max_len: u64) -> Option<Vec<u32>> {
    let (&kind, rest) = bytes.split_first()?;
    // The alphabet: its count, then its numbers.
    let mut pos = 0;
    let mut next = || -> Option<u64> {
        let (v, len) = number_at(&rest[pos..]).ok()?;
        pos += len;
        Some(v)
    };
    let n = next()?;
    if n > rest.len() as u64 {
        return None;
    }
    let alphabet = (0..n).map(|_| next().and_then(|v| u32::try_from(v).ok())).collect::<Option<Vec<u32>>>()?;
    let payload = &rest[pos..];
    match kind {
        0 => {
            if payload.len() as u64 > max_len.saturating_mul(5) {
                return None;
            }
            let codes = numbers(payload)?.into_iter().map(|c| u32::try_from(c).ok()).collect::<Option<Vec<u32>>>()?;
            dcg::lzw_decode(&alphabet, &codes)
        }
        1 => {
            let g = wpp_grammar::decode_grammar(payload).ok()?;
            g.validate(Some(alphabet.len() as u32)).ok()?;
            // A damaged grammar can derive far more than any call graph of the run.
            if g.rule_lengths().first().is_none_or(|&len| len > max_len) {
                return None;
            }
            g.expand().map(|t| alphabet.get(t as usize).copied()).collect()
        }
        _ => None,
    }
}

/// The partition of `profile`'s run: its events split by call, or, for a TWPP file, the
/// partition it holds.
pub fn partition_profile(profile: &Profile, progress: &mut dyn Progress) -> Result<Partition, Error> {
    if profile.toc.iter().any(|e| e.name == section::INDEX) {
        progress.stage("reading the TWPP's functions", None);
        return Twpp::open(&profile.path)?.partition();
    }
    progress.stage("splitting the whole program path into invocations", Some(profile.meta.events));
    let mut partitioner = crate::Partitioner::new(&profile.meta.functions, &profile.numberings);
    let mut failed = None;
    let mut done = 0u64;
    // An extended WPP's check routine reports memory dependences between the module's
    // paths: the run is the module's paths alone, which is what the profile yields.
    profile.for_each_event(|e| {
        if failed.is_none() {
            failed = partitioner.push(e).err();
        }
        done += 1;
        if done == PROGRESS_EVERY {
            progress.advance(done);
            done = 0;
        }
    })?;
    progress.advance(done);
    match failed {
        Some(source) => Err(Error::Partition { path: profile.path.clone(), source }),
        None => Ok(partitioner.finish()),
    }
}

/// Builds the TWPP of `profile`'s run (a trace or grammar profile, or a TWPP file) and
/// writes it to `out`.
pub fn build(profile: &Profile, out: &Path, progress: &mut dyn Progress) -> Result<Built, Error> {
    build_with(profile, out, None, progress)
}

/// [`build`], keeping beside the TWPP the run's memory dependences (recovered from the
/// profile's addresses or extended WPP) and the profile's access sites they name.
pub fn build_with(profile: &Profile, out: &Path, memory: Option<&crate::memory::MemoryBuilder>, progress: &mut dyn Progress) -> Result<Built, Error> {
    let p = partition_profile(profile, progress)?;
    let functions = &profile.meta.functions;
    let mut w = Writer::create(out)?;
    let mut layout = Vec::new();
    put(&mut layout, LAYOUT);
    w.write_section(section::LAYOUT, &layout)?;
    // The program's functions, counts and source lines: an extended WPP's check routine
    // stays behind, its work done once the dependences are recovered.
    w.write_value(profile_section::META, &profile.meta)?;
    w.write_value(profile_section::COUNTS, &profile.counts)?;
    if let Some(source) = &profile.source {
        w.write_value(profile_section::SOURCE, source)?;
    }
    if profile.toc.iter().any(|e| e.name == profile_section::MODULE) {
        w.write_section(profile_section::MODULE, &profile.section_bytes(profile_section::MODULE)?)?;
    }
    if let Some(m) = memory {
        w.write_section(profile_section::ACCESS_SITES, &profile.section_bytes(profile_section::ACCESS_SITES)?)?;
        w.write_section(crate::memory::SECTION, &m.encode())?;
    } else if profile.toc.iter().any(|e| e.name == crate::memory::SECTION) {
        // A TWPP built again keeps its dependences.
        w.write_section(profile_section::ACCESS_SITES, &profile.section_bytes(profile_section::ACCESS_SITES)?)?;
        w.write_section(crate::memory::SECTION, &profile.section_bytes(crate::memory::SECTION)?)?;
    }
    let mut index = Index { events: p.events, open_at_end: p.open_at_end, ambiguous: p.ambiguous, functions: Vec::new() };
    for (func, traces) in p.traces.iter() {
        if !traces.traces.is_empty() {
            index.functions.push(IndexEntry { func, invocations: traces.calls.iter().sum(), pairs: traces.traces.len() as u32 });
        }
    }
    index.functions.sort_by_key(|e| (std::cmp::Reverse(e.invocations), e.func));
    let mut built = Built::default();
    let mut c = Compaction { events: p.events, invocations: p.dcg.nodes.len() as u64, ..Compaction::default() };
    let order = crate::callers::invocations(&p.dcg, functions.len());
    progress.stage("compacting each function's traces", Some(index.functions.iter().map(|e| e.invocations).sum()));
    for e in &index.functions {
        progress.advance(e.invocations);
        let traces = p.traces.get(e.func).expect("an indexed function has traces");
        let numbering = profile.numberings.get(e.func).expect("a function that ran has a numbering");
        let part = FunctionPart::of(traces, numbering);
        c.add_function(functions.get(e.func.idx()).and_then(|f| f.cfg.as_ref()), &part);
        let encoded = crate::format::encode(&part, crate::format::APART);
        built.part_bytes += encoded.part.len() as u64;
        w.write_section(&section::function(e.func), &encoded.part)?;
        for (k, body) in &encoded.apart {
            built.part_bytes += body.len() as u64;
            w.write_section(&section::trace(e.func, *k as usize), body)?;
        }
        w.write_section(&section::callers(e.func), &crate::callers::encode(part.pairs.len(), &order[e.func.idx()]))?;
    }
    drop(order);
    progress.stage("compressing the call graph", None);
    let (dcg_bytes, lzw, grammar) = encode_dcg(&dcg::to_numbers(&p.dcg), &mut c);
    (built.dcg_bytes, built.dcg_lzw_bytes, built.dcg_grammar_bytes) = (dcg_bytes.len() as u64, lzw, grammar);
    w.write_section(section::DCG, &dcg_bytes)?;
    let mut stats = Vec::new();
    c.to_numbers().iter().for_each(|&v| put(&mut stats, v));
    w.write_section(section::STATS, &stats)?;
    w.write_section(section::INDEX, &index.encode())?;
    w.finish()?;
    built.index = index;
    built.compaction = c;
    Ok(built)
}

/// An open TWPP file: the profile part read, function parts read on demand.
pub struct Twpp {
    pub profile: Profile,
    pub index: Index,
}

/// A function's part as read: its head, and its section for the bodies stored in it.
pub struct Part {
    pub func: FuncIdx,
    pub head: Head,
    bytes: Vec<u8>,
}

impl Twpp {
    /// Opens a TWPP file, reading its profile sections and its index.
    pub fn open(path: &Path) -> Result<Twpp, Error> {
        let profile = Profile::open(path)?;
        let has = |name: &str| profile.toc.iter().any(|e| e.name == name);
        if !has(section::INDEX) {
            return Err(Error::NotTwpp { path: path.to_owned() });
        }
        let layout = if has(section::LAYOUT) {
            let bytes = profile.section_bytes(section::LAYOUT)?;
            numbers(&bytes).and_then(|n| n.first().copied()).ok_or_else(|| Error::Damaged { path: path.to_owned(), what: "the layout section".into() })?
        } else {
            1
        };
        if layout != LAYOUT {
            return Err(Error::Layout { path: path.to_owned(), found: layout });
        }
        let index = Index::decode(&profile.section_bytes(section::INDEX)?).ok_or_else(|| Error::Damaged { path: path.to_owned(), what: "the index".into() })?;
        Ok(Twpp { profile, index })
    }

    fn damaged(&self, what: String) -> Error {
        Error::Damaged { path: self.profile.path.clone(), what }
    }

    /// The run's memory dependences, if the TWPP was built with them.
    pub fn memory(&self) -> Result<Option<crate::memory::Memory>, Error> {
        if !self.profile.toc.iter().any(|e| e.name == crate::memory::SECTION) {
            return Ok(None);
        }
        let damaged = |what: String| Error::Damaged { path: self.profile.path.clone(), what };
        let sites = self.profile.access_sites()?.ok_or_else(|| damaged("memory dependences without the access sites they name".into()))?;
        let bytes = self.profile.section_bytes(crate::memory::SECTION)?;
        crate::memory::Memory::decode(sites, bytes).map(Some).map_err(damaged)
    }

    /// Function `f`'s part without the traces' bodies, reading its section only.
    pub fn part(&self, f: FuncIdx) -> Result<Part, Error> {
        let bytes = self.profile.section_bytes(&section::function(f))?;
        let head = crate::format::decode_head(&bytes).map_err(|e| self.damaged(format!("function {f}: {e}")))?;
        Ok(Part { func: f, head, bytes })
    }

    /// Trace `k` of `part`, reading its section if stored apart.
    pub fn trace(&self, part: &Part, k: usize) -> Result<Timestamped, Error> {
        let f = part.func;
        let entry = part.head.traces.get(k).ok_or_else(|| self.damaged(format!("function {f}: no trace {k}")))?;
        let decode = |bytes: &[u8]| crate::format::decode_body(bytes, entry.len).map_err(|e| self.damaged(format!("function {f}: trace {k}: {e}")));
        match &entry.body {
            Body::Inline(range) => decode(&part.bytes[range.clone()]),
            Body::Apart(len) => {
                let bytes = self.profile.section_bytes(&section::trace(f, k))?;
                if bytes.len() != *len {
                    return Err(self.damaged(format!("function {f}: trace {k}: {} bytes, its part says {len}", bytes.len())));
                }
                decode(&bytes)
            }
        }
    }

    /// Function `f`'s part, every trace read.
    pub fn function(&self, f: FuncIdx) -> Result<FunctionPart, Error> {
        let part = self.part(f)?;
        let traces = (0..part.head.traces.len()).map(|k| self.trace(&part, k)).collect::<Result<Vec<_>, _>>()?;
        Ok(FunctionPart { dictionaries: part.head.dictionaries, traces, pairs: part.head.pairs })
    }

    fn callers_section(&self, part: &Part) -> Result<Vec<u8>, Error> {
        Ok(self.profile.section_bytes(&section::callers(part.func))?)
    }

    /// For each pair of `part`, its callers with the invocations each made, most first.
    pub fn callers(&self, part: &Part) -> Result<ByPair, Error> {
        let bytes = self.callers_section(part)?;
        let c = crate::callers::decode(&bytes, part.head.pairs.len()).map_err(|e| self.damaged(format!("function {}: callers: {e}", part.func)))?;
        Ok(c.by_pair)
    }

    /// The `n`-th invocation of `part`'s function (from 1, in the order the run made them):
    /// the pair it followed and its caller; `None` if there were fewer.
    pub fn nth_invocation(&self, part: &Part, n: u64) -> Result<Option<(u32, Caller)>, Error> {
        let bytes = self.callers_section(part)?;
        let damaged = |e: crate::format::FormatError| self.damaged(format!("function {}: callers: {e}", part.func));
        crate::callers::decode(&bytes, part.head.pairs.len()).map_err(damaged)?.nth(n).map_err(damaged)
    }

    /// What each compaction step saved, as measured when the file was built.
    pub fn stats(&self) -> Result<Compaction, Error> {
        let bytes = self.profile.section_bytes(section::STATS)?;
        let n: [u64; 20] = numbers(&bytes).and_then(|v| v.try_into().ok()).ok_or_else(|| self.damaged("the statistics section".into()))?;
        Ok(Compaction::from_numbers(&n))
    }

    /// The dynamic call graph.
    pub fn dcg(&self) -> Result<crate::Dcg, Error> {
        // Three numbers per invocation and one per call: never more than four per event
        // (each invocation runs a path), plus the invocations a run ended in.
        let max_len = self.index.events.saturating_add(self.index.open_at_end).saturating_mul(4);
        let numbers = decode_dcg(&self.profile.section_bytes(section::DCG)?, max_len).ok_or_else(|| self.damaged("the call graph's section".into()))?;
        dcg::from_numbers(&numbers).map_err(|e| self.damaged(format!("the call graph: {e}")))
    }

    /// Function `f`'s distinct block traces (by pair), with the invocations of each.
    pub fn block_traces(&self, f: FuncIdx) -> Result<Vec<(Vec<BlockIdx>, u64)>, Error> {
        self.function(f)?.block_traces().ok_or_else(|| self.damaged(format!("function {f}: a trace claims a step twice")))
    }

    /// The whole program path again, event by event.
    pub fn for_each_event(&self, f: impl FnMut(PathEvent)) -> Result<(), Error> {
        self.partition()?.for_each_event(f);
        Ok(())
    }

    /// The partition the file was built from: every function's distinct path traces and
    /// the call graph.
    pub fn partition(&self) -> Result<Partition, Error> {
        let functions = &self.profile.meta.functions;
        let mut traces = wpp_model::FuncMap::new(functions.len());
        for e in &self.index.functions {
            let cfg = functions
                .get(e.func.idx())
                .and_then(|f| f.cfg.as_ref())
                .ok_or_else(|| self.damaged(format!("the index names function {}, which has no code", e.func)))?;
            let numbering = self.profile.numberings.get(e.func).expect("a function with code has a numbering");
            let mut paths = Vec::new();
            for (blocks, calls) in self.block_traces(e.func)? {
                let split =
                    split_paths(cfg, numbering, &blocks).ok_or_else(|| self.damaged(format!("function {}: a trace that is not a run of it", e.func)))?;
                paths.push((split, calls));
            }
            let (traces_of, calls_of) = paths.into_iter().unzip();
            traces.insert(e.func, crate::FuncTraces { traces: traces_of, calls: calls_of });
        }
        let p = Partition { traces, dcg: self.dcg()?, events: self.index.events, open_at_end: self.index.open_at_end, ambiguous: self.index.ambiguous };
        for n in &p.dcg.nodes {
            let ok = p.traces.get(n.func).is_some_and(|t| (n.trace.0 as usize) < t.traces.len());
            if !ok {
                return Err(self.damaged(format!("the call graph names trace {} of function {}, which has no such trace", n.trace.0, n.func)));
            }
        }
        Ok(p)
    }
}

/// Where paths end inside one function's traces: at an edge that ends a path (a call, a
/// back edge, a return) or at a forward edge into a cut point.
pub(crate) struct PathEnds<'a> {
    cfg: &'a wpp_model::Cfg,
    out: Vec<std::ops::Range<usize>>,
    cut: Vec<bool>,
}

impl<'a> PathEnds<'a> {
    pub(crate) fn new(cfg: &'a wpp_model::Cfg, numbering: &wpp_paths::Numbering) -> PathEnds<'a> {
        let mut cut = vec![false; cfg.n_blocks()];
        for b in numbering.cut_points() {
            if let Some(c) = cut.get_mut(b.idx()) {
                *c = true;
            }
        }
        PathEnds { cfg, out: cfg.out_ranges(), cut }
    }

    /// Whether going from `from` to `to` ends a path; `None` if the CFG has no such edge.
    pub(crate) fn ends(&self, from: BlockIdx, to: BlockIdx) -> Option<bool> {
        let e = self.cfg.edges.get(self.out.get(from.idx())?.clone())?.iter().find(|e| e.to == Target::Block(to))?;
        Some(e.kind != EdgeKind::Forward || self.cut.get(to.idx()).copied().unwrap_or(false))
    }

    /// Whether `b` ends in a call.
    pub(crate) fn is_call(&self, b: BlockIdx) -> bool {
        self.out.get(b.idx()).is_some_and(|r| self.cfg.edges[r.clone()].iter().any(|e| e.kind == EdgeKind::Call))
    }
}

/// A block trace of one invocation cut into its paths: a path ends where the edge to the
/// next block ends one (a call, a back edge, a cut point), and at the trace's end.
fn split_paths(cfg: &wpp_model::Cfg, numbering: &wpp_paths::Numbering, blocks: &[BlockIdx]) -> Option<Vec<PathId>> {
    let ends = PathEnds::new(cfg, numbering);
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..blocks.len() {
        let ends_here = match blocks.get(i + 1) {
            None => true,
            Some(&next) => ends.ends(blocks[i], next)?,
        };
        if ends_here {
            out.push(numbering.encode(&blocks[start..=i])?);
            start = i + 1;
        }
    }
    Some(out)
}
