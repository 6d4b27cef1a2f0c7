//! One function's part of a TWPP file: its distinct dynamic-basic-block traces in
//! compacted timestamped form, their distinct dictionaries, and the distinct pairs of a
//! trace and a dictionary that invocations followed (each one of the function's distinct
//! block traces), with how many invocations followed each and how many blocks each ran, as
//! LEB128 numbers.
//!
//! ```text
//! function  := n_dicts dict* n_pairs pair* n_traces entry* body*
//! dict      := n_chains (len block*)*          chains sorted; blocks as ids
//! pair      := trace_index dict_index calls blocks
//! entry     := len (body_bytes * 2 + apart)    a trace's steps, and where its body is
//! body      := n_blocks (block_delta n_series series*)*
//! series    := one number l, or l h, or l h s, each number doubled and the entry's last
//!              one plus 1 (the paper's sign trick: the entry's end costs no extra space)
//! ```
//!
//! Everything before the bodies is the part's head: a reader learns every pair, and how
//! long each trace is, without reading a body. The bodies of the traces not `apart` follow
//! the head in order; a body of [`APART`] bytes or more is stored in a section of its own
//! (`twpp-fN.K` in a TWPP file), so that reading a function's small traces never
//! reads its one huge trace.
//!
//! Blocks of a body are in increasing order, stored as the difference from the previous
//! one. A decoder checks every count against the bytes left, so damaged input is an error,
//! never a huge allocation.

use rustc_hash::FxHashMap;
use wpp_model::{BlockIdx, PathId};
use wpp_paths::Numbering;

use crate::dbb::{collapse_timestamped, expand, DbbTrace, Dictionary};
use crate::timestamps::{untimestamp, Series, Timestamped};
use crate::FuncTraces;

/// A function's distinct traces as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionPart {
    pub dictionaries: Vec<Dictionary>,
    pub traces: Vec<Timestamped>,
    pub pairs: Vec<Pair>,
}

/// A distinct block trace: a collapsed trace and its dictionary, and how many invocations
/// followed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub trace: u32,
    pub dictionary: u32,
    pub calls: u64,
    /// Blocks one invocation following it ran.
    pub blocks: u64,
}

impl FunctionPart {
    /// The part of a function's distinct path traces (`traces`, as the partition holds
    /// them; pair `i` is trace `i`), under `numbering`.
    pub fn of(traces: &FuncTraces, numbering: &Numbering) -> FunctionPart {
        let mut part = FunctionPart::default();
        let mut dicts = FxHashMap::default();
        let mut stamped = FxHashMap::default();
        // Each path's blocks, decoded once; the traces are walked without being expanded.
        let mut decoded: FxHashMap<PathId, Vec<BlockIdx>> = FxHashMap::default();
        let mut n_blocks = 0;
        for trace in &traces.traces {
            for &path in trace {
                decoded.entry(path).or_insert_with(|| {
                    let blocks = numbering.decode(path).expect("a recorded path decodes");
                    n_blocks = n_blocks.max(blocks.iter().map(|b| b.idx() + 1).max().unwrap_or(0));
                    blocks
                });
            }
        }
        for (trace, &calls) in traces.traces.iter().zip(&traces.calls) {
            let blocks = trace.iter().map(|p| decoded[p].len() as u64).sum();
            let (dictionary, ts) = collapse_timestamped(n_blocks, || trace.iter().flat_map(|p| decoded[p].iter().copied()));
            let dictionary = *dicts.entry(dictionary).or_insert_with_key(|d: &Dictionary| {
                part.dictionaries.push(d.clone());
                part.dictionaries.len() as u32 - 1
            });
            let trace = *stamped.entry(ts).or_insert_with_key(|t: &Timestamped| {
                part.traces.push(t.clone());
                part.traces.len() as u32 - 1
            });
            part.pairs.push(Pair { trace, dictionary, calls, blocks });
        }
        part
    }

    /// Each pair's block trace, with its invocations; `None` if a trace claims a step
    /// twice (a damaged part).
    pub fn block_traces(&self) -> Option<Vec<(Vec<BlockIdx>, u64)>> {
        self.pairs
            .iter()
            .map(|pair| {
                let heads = untimestamp(&self.traces[pair.trace as usize])?;
                Some((expand(&DbbTrace { heads, dictionary: self.dictionaries[pair.dictionary as usize].clone() }), pair.calls))
            })
            .collect()
    }
}

/// Why bytes are not a function part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("damaged function part at byte {offset}: {what}")]
pub struct FormatError {
    pub offset: usize,
    pub what: &'static str,
}

pub(crate) use wpp_base::leb128::{unzigzag, write as put, zigzag};

/// Bodies of this many bytes or more are stored apart, each in a section of its own.
pub const APART: usize = 64 * 1024;

/// A part as bytes: its section, and the bodies stored apart (by trace index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    pub part: Vec<u8>,
    pub apart: Vec<(u32, Vec<u8>)>,
}

fn encode_body(t: &Timestamped) -> Vec<u8> {
    let mut out = Vec::new();
    put(&mut out, t.blocks.len() as u64);
    let mut prev = 0u64;
    for (b, series) in &t.blocks {
        put(&mut out, b.0 as u64 - prev);
        prev = b.0 as u64;
        put(&mut out, series.len() as u64);
        for s in series {
            let numbers: &[u32] = match s.step {
                0 => &[s.lo],
                1 => &[s.lo, s.hi],
                _ => &[s.lo, s.hi, s.step],
            };
            for (i, &n) in numbers.iter().enumerate() {
                put(&mut out, ((n as u64) << 1) | (i + 1 == numbers.len()) as u64);
            }
        }
    }
    out
}

/// Encodes a function part, bodies of `apart` bytes or more apart ([`APART`] in a TWPP
/// file; `usize::MAX` keeps every body in the part).
pub fn encode(part: &FunctionPart, apart: usize) -> Encoded {
    let mut out = Encoded::default();
    let head = &mut out.part;
    put(head, part.dictionaries.len() as u64);
    for d in &part.dictionaries {
        put(head, d.chains.len() as u64);
        for chain in &d.chains {
            put(head, chain.len() as u64);
            chain.iter().for_each(|b| put(head, b.0 as u64));
        }
    }
    put(head, part.pairs.len() as u64);
    for p in &part.pairs {
        for v in [p.trace as u64, p.dictionary as u64, p.calls, p.blocks] {
            put(head, v);
        }
    }
    put(head, part.traces.len() as u64);
    let mut inline = Vec::new();
    for (k, t) in part.traces.iter().enumerate() {
        let body = encode_body(t);
        let is_apart = body.len() >= apart;
        put(head, t.len as u64);
        put(head, ((body.len() as u64) << 1) | is_apart as u64);
        if is_apart {
            out.apart.push((k as u32, body));
        } else {
            inline.extend_from_slice(&body);
        }
    }
    out.part.extend_from_slice(&inline);
    out
}

/// The LEB128 number at the start of `bytes`, and its length in bytes.
pub(crate) fn number_at(bytes: &[u8]) -> Result<(u64, usize), &'static str> {
    wpp_base::leb128::read_at_start(bytes).map_err(|e| e.what())
}

/// LEB128 numbers read from bytes, each error at the offset where it happened.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl Reader<'_> {
    pub(crate) fn err(&self, what: &'static str) -> FormatError {
        FormatError { offset: self.pos, what }
    }

    pub(crate) fn number(&mut self) -> Result<u64, FormatError> {
        let (v, len) = number_at(&self.bytes[self.pos..]).map_err(|what| self.err(what))?;
        self.pos += len;
        Ok(v)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, FormatError> {
        u32::try_from(self.number()?).map_err(|_| self.err(what))
    }

    /// A count of items of at least one byte each: no more than the bytes left.
    pub(crate) fn count(&mut self) -> Result<usize, FormatError> {
        let n = self.number()?;
        if n > (self.bytes.len() - self.pos) as u64 {
            return Err(self.err("a count larger than the bytes left"));
        }
        Ok(n as usize)
    }
}

/// Where a trace's body is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// These bytes of the part's section.
    Inline(std::ops::Range<usize>),
    /// A section of its own, of this many bytes.
    Apart(usize),
}

/// A stored trace before its body is read: its length in steps and where its body is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    pub len: u32,
    pub body: Body,
}

/// A function part's head: everything but the traces' bodies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    pub dictionaries: Vec<Dictionary>,
    pub pairs: Vec<Pair>,
    pub traces: Vec<TraceEntry>,
}

/// Decodes a part's head (its section's bytes): the dictionaries, the pairs and where each
/// trace's body is. Each inline body is checked to lie within the section, the bodies to
/// fill it exactly.
pub fn decode_head(bytes: &[u8]) -> Result<Head, FormatError> {
    let mut r = Reader { bytes, pos: 0 };
    let mut head = Head::default();
    for _ in 0..r.count()? {
        let mut chains = Vec::new();
        for _ in 0..r.count()? {
            let len = r.count()?;
            if len < 2 {
                return Err(r.err("a chain of fewer than two blocks"));
            }
            let chain = (0..len).map(|_| r.u32("a block id past 32 bits").map(BlockIdx)).collect::<Result<Vec<_>, _>>()?;
            chains.push(chain);
        }
        if !chains.windows(2).all(|w| w[0][0] < w[1][0]) {
            return Err(r.err("dictionary chains not sorted by their first block"));
        }
        head.dictionaries.push(Dictionary { chains });
    }
    for _ in 0..r.count()? {
        let trace = r.u32("a trace index past 32 bits")?;
        let dictionary = r.u32("a dictionary index past 32 bits")?;
        let (calls, blocks) = (r.number()?, r.number()?);
        head.pairs.push(Pair { trace, dictionary, calls, blocks });
    }
    let n_traces = r.count()?;
    let mut sizes = Vec::with_capacity(n_traces);
    for _ in 0..n_traces {
        let len = r.u32("a trace longer than 32 bits of steps")?;
        let x = r.number()?;
        sizes.push((len, usize::try_from(x >> 1).map_err(|_| r.err("a body past the address space"))?, x & 1 == 1));
    }
    if head.pairs.iter().any(|p| p.trace as usize >= n_traces || p.dictionary as usize >= head.dictionaries.len()) {
        return Err(r.err("a pair's index past the traces or dictionaries"));
    }
    let mut at = r.pos;
    for (len, size, apart) in sizes {
        let body = if apart {
            Body::Apart(size)
        } else {
            let end = at.checked_add(size).filter(|&e| e <= bytes.len()).ok_or_else(|| r.err("a trace's body past the section's end"))?;
            let range = at..end;
            at = end;
            Body::Inline(range)
        };
        head.traces.push(TraceEntry { len, body });
    }
    if at != bytes.len() {
        return Err(FormatError { offset: at, what: "bytes after the last trace's body" });
    }
    Ok(head)
}

/// Decodes a trace's body (`bytes`, exactly the body) of a trace of `len` steps. Each series
/// is checked to be one, and the steps to add up to the length;
/// [`crate::timestamps::untimestamp`] finds a step claimed twice.
pub fn decode_body(bytes: &[u8], len: u32) -> Result<Timestamped, FormatError> {
    let mut r = Reader { bytes, pos: 0 };
    let mut blocks = Vec::new();
    let mut prev = 0u64;
    for i in 0..r.count()? {
        let delta = r.number()?;
        if i > 0 && delta == 0 {
            return Err(r.err("blocks not in increasing order"));
        }
        prev = prev.checked_add(delta).filter(|&b| b <= u32::MAX as u64).ok_or_else(|| r.err("a block id past 32 bits"))?;
        let mut series = Vec::new();
        for _ in 0..r.count()? {
            let mut numbers = [0u32; 3];
            let mut k = 0;
            loop {
                if k == 3 {
                    return Err(r.err("a series of more than three numbers"));
                }
                let x = r.number()?;
                numbers[k] = u32::try_from(x >> 1).map_err(|_| r.err("a timestamp past 32 bits"))?;
                k += 1;
                if x & 1 == 1 {
                    break;
                }
            }
            series.push(match k {
                1 => Series { lo: numbers[0], hi: numbers[0], step: 0 },
                2 => Series { lo: numbers[0], hi: numbers[1], step: 1 },
                _ => Series { lo: numbers[0], hi: numbers[1], step: numbers[2] },
            });
        }
        blocks.push((BlockIdx(prev as u32), series));
    }
    // Each series well formed and within the trace, as many steps as the trace has; that no
    // step is claimed twice shows when the trace is expanded.
    let mut steps = 0u64;
    for s in blocks.iter().flat_map(|(_, series)| series) {
        let ok = s.lo >= 1 && s.hi <= len && s.lo <= s.hi && (s.step == 0) == (s.lo == s.hi) && (s.step == 0 || (s.hi - s.lo) % s.step == 0);
        if !ok {
            return Err(r.err("a series that is not an arithmetic series of the trace's steps"));
        }
        steps += s.len() as u64;
    }
    if steps != len as u64 {
        return Err(r.err("timestamps that do not add up to the trace's length"));
    }
    if r.pos != bytes.len() {
        return Err(r.err("bytes after the body's last block"));
    }
    Ok(Timestamped { blocks, len })
}

/// Decodes a function part whose bodies are all in it (as [`encode`] writes it with
/// `usize::MAX`).
pub fn decode(bytes: &[u8]) -> Result<FunctionPart, FormatError> {
    let head = decode_head(bytes)?;
    let traces = head
        .traces
        .iter()
        .map(|t| match &t.body {
            Body::Inline(range) => decode_body(&bytes[range.clone()], t.len).map_err(|e| FormatError { offset: e.offset + range.start, what: e.what }),
            Body::Apart(_) => Err(FormatError { offset: 0, what: "a trace's body stored apart" }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FunctionPart { dictionaries: head.dictionaries, traces, pairs: head.pairs })
}
