//! The part of the run's dynamic dependence graph that slices have found, kept so that
//! later slices walk it instead of finding it again, and written beside the TWPP (the
//! dependence cache) so that a later process does too.
//!
//! Every node has a dense number, its id: the invocations a slice reaches get ranges of
//! ids in the order it reaches them, and inside an invocation the ids follow its
//! timestamps, the blocks of each dynamic block and the instructions of each block (a
//! call has one id for its execution, one for its result, one per argument). A node's
//! index in the graph is found from its id in a table of pages, never by hashing the
//! node; a dependence names the index of the node it comes from, so a walk over known
//! nodes is array reads only.

use super::{Dep, DepKind, Inst, Node, Part, Source};
use crate::format::{put, unzigzag, zigzag};
use crate::Invocation;

const PAGE_BITS: u32 = 7;
const PAGE: usize = 1 << PAGE_BITS;
/// `Entry::len` of a node whose dependences are not found yet.
pub(crate) const UNKNOWN: u32 = u32::MAX;
/// The leaves, as `GDep::from` values: the last four numbers.
const LEAVES: [Source; 4] = [Source::Entry, Source::Init, Source::Memory, Source::InitialMemory];
const LEAF_BASE: u32 = u32::MAX - 3;

/// One dependence as the graph keeps it: its kind and the index of its source (or a leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GDep {
    /// The kind, as [`DepKind::code`] numbers it.
    code: u32,
    pub(crate) from: u32,
}

impl GDep {
    pub(crate) fn new(kind: DepKind, from: u32) -> GDep {
        GDep { code: kind.code() as u32, from }
    }

    pub(crate) fn leaf(kind: DepKind, s: Source) -> GDep {
        let k = LEAVES.iter().position(|l| *l == s).expect("a leaf");
        GDep::new(kind, LEAF_BASE + k as u32)
    }

    #[inline]
    pub(crate) fn kind(self) -> DepKind {
        DepKind::of_code(self.code as u64).expect("codes are checked when made")
    }

    /// The index of the node it comes from, or the leaf.
    pub(crate) fn source(self) -> Result<u32, Source> {
        if self.from >= LEAF_BASE {
            Err(LEAVES[(self.from - LEAF_BASE) as usize])
        } else {
            Ok(self.from)
        }
    }
}

/// A node of the graph: what it is, where its dependences are, the last walk that
/// visited it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) node: Node,
    pub(crate) start: u32,
    pub(crate) len: u32,
    pub(crate) mark: u32,
}

/// The nodes found so far, by id, and their dependences.
#[derive(Default)]
pub(crate) struct Graph {
    /// The ids of the first nodes (those read from a cache), rising.
    sorted: Vec<u64>,
    /// Index + 1 of each other node (0: none), by pages of ids.
    pages: Vec<Option<Box<[u32]>>>,
    pub(crate) entries: Vec<Entry>,
    pub(crate) deps: Vec<GDep>,
}

impl Graph {
    /// The index of the node with id `id`, if the graph has it.
    #[inline]
    pub(crate) fn get(&self, id: u64) -> Option<u32> {
        if let Ok(i) = self.sorted.binary_search(&id) {
            return Some(i as u32);
        }
        let page = self.pages.get((id >> PAGE_BITS) as usize)?.as_ref()?;
        page[id as usize & (PAGE - 1)].checked_sub(1)
    }

    /// The index of `node`, whose id is `id`, added if new (its dependences unknown).
    pub(crate) fn intern(&mut self, id: u64, node: Node) -> u32 {
        if let Ok(i) = self.sorted.binary_search(&id) {
            return i as u32;
        }
        let p = (id >> PAGE_BITS) as usize;
        if p >= self.pages.len() {
            self.pages.resize_with(p + 1, || None);
        }
        let page = self.pages[p].get_or_insert_with(|| vec![0u32; PAGE].into_boxed_slice());
        let slot = &mut page[id as usize & (PAGE - 1)];
        if *slot == 0 {
            self.entries.push(Entry { node, start: 0, len: UNKNOWN, mark: 0 });
            *slot = self.entries.len() as u32;
        }
        *slot - 1
    }

    /// Nodes known (with their dependences found or not).
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The dependences of node `i`, if found.
    #[inline]
    pub(crate) fn deps(&self, i: u32) -> Option<&[GDep]> {
        let e = &self.entries[i as usize];
        (e.len != UNKNOWN).then(|| &self.deps[e.start as usize..e.start as usize + e.len as usize])
    }

    /// Records the dependences of node `i` (found once).
    pub(crate) fn set_deps(&mut self, i: u32, deps: &[GDep]) -> Result<(), &'static str> {
        let start = u32::try_from(self.deps.len()).ok().filter(|s| s.checked_add(deps.len() as u32).is_some_and(|e| e < UNKNOWN));
        let start = start.ok_or("more than 4 billion dependences are kept")?;
        self.deps.extend_from_slice(deps);
        let e = &mut self.entries[i as usize];
        e.start = start;
        e.len = deps.len() as u32;
        Ok(())
    }

    /// A dependence as the slicer's callers see it.
    #[inline]
    pub(crate) fn dep(&self, d: GDep) -> Dep {
        let from = match d.source() {
            Ok(j) => Source::Node(self.entries[j as usize].node),
            Err(leaf) => leaf,
        };
        Dep { kind: d.kind(), from }
    }

    /// The indices in id order, with their ids.
    fn by_id(&self) -> Vec<(u64, u32)> {
        let mut out: Vec<(u64, u32)> = self.sorted.iter().enumerate().map(|(i, &id)| (id, i as u32)).collect();
        for (p, page) in self.pages.iter().enumerate() {
            if let Some(page) = page {
                for (k, &slot) in page.iter().enumerate() {
                    if slot != 0 {
                        out.push((((p as u64) << PAGE_BITS) | k as u64, slot - 1));
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// What begins a dependence cache file.
pub const CACHE_MAGIC: &[u8; 8] = b"wppdeps\x01";

/// The graph and the ids it was numbered with, as a dependence cache file's bytes: the
/// magic, the TWPP's fingerprint (8 bytes), then LEB128 numbers: the invocations given
/// ids (count, then each as the gap from the previous invocation and its first id), the
/// next free id, the nodes in id order (count, then each as its id's gap from the
/// previous, its invocation as a signed step from the previous node's, its timestamp, its
/// instruction's offset, its part, its number of dependences + 1 or 0 when they were not
/// found, then each dependence as its kind and its source: a leaf 0–3, or 4 + the signed
/// step, zigzag, from this node's index to the source's), then a CRC-32 of all before it.
pub(crate) fn encode(graph: &Graph, fingerprint: u64, bases: &[(u32, u64)], next_id: u64) -> Vec<u8> {
    let order = graph.by_id();
    let mut new_index = vec![0u32; graph.entries.len()];
    for (k, &(_, i)) in order.iter().enumerate() {
        new_index[i as usize] = k as u32;
    }
    let mut out = Vec::with_capacity(16 + graph.entries.len() * 12 + graph.deps.len() * 4);
    out.extend_from_slice(CACHE_MAGIC);
    out.extend_from_slice(&fingerprint.to_le_bytes());
    put(&mut out, bases.len() as u64);
    let mut prev = 0u64;
    for &(node, base) in bases {
        put(&mut out, node as u64 - prev);
        put(&mut out, base);
        prev = node as u64;
    }
    put(&mut out, next_id);
    put(&mut out, order.len() as u64);
    let (mut prev_id, mut prev_node) = (0u64, 0i64);
    for (k, &(id, i)) in order.iter().enumerate() {
        let e = graph.entries[i as usize];
        put(&mut out, id - prev_id);
        put(&mut out, zigzag(e.node.inst.node.0 as i64 - prev_node));
        put(&mut out, e.node.inst.step as u64);
        put(&mut out, e.node.inst.at as u64);
        put(&mut out, e.node.part.code());
        (prev_id, prev_node) = (id, e.node.inst.node.0 as i64);
        match graph.deps(i) {
            None => put(&mut out, 0),
            Some(deps) => {
                put(&mut out, deps.len() as u64 + 1);
                for d in deps {
                    put(&mut out, d.code as u64);
                    match d.source() {
                        Ok(j) => put(&mut out, 4 + zigzag(new_index[j as usize] as i64 - k as i64)),
                        Err(leaf) => put(&mut out, LEAVES.iter().position(|l| *l == leaf).expect("a leaf") as u64),
                    }
                }
            }
        }
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// A dependence cache read back.
pub(crate) struct Decoded {
    pub(crate) graph: Graph,
    pub(crate) bases: Vec<(u32, u64)>,
    pub(crate) next_id: u64,
}

/// The fingerprint a dependence cache file was written for, if it is one.
pub(crate) fn fingerprint_of(bytes: &[u8]) -> Option<u64> {
    (bytes.len() >= 20 && bytes.starts_with(CACHE_MAGIC)).then(|| u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")))
}

/// Reads a dependence cache (its fingerprint checked by the caller), checking every
/// number: ids rising and inside the invocations' ranges, sources inside the graph.
/// `invocations` is how many the run had.
pub(crate) fn decode(bytes: &[u8], invocations: u32) -> Result<Decoded, String> {
    if fingerprint_of(bytes).is_none() {
        return Err("it is not a dependence cache".into());
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
        return Err("its checksum does not match (the file is damaged)".into());
    }
    let mut at = 16usize;
    let mut next = || -> Result<u64, String> { wpp_base::leb128::read(body, &mut at).map_err(|e| format!("at byte {at}: {e}")) };
    let n = next()?;
    if n > invocations as u64 {
        return Err(format!("it numbers {n} invocations, the run has {invocations}"));
    }
    let mut bases = Vec::with_capacity(n as usize);
    let mut node = 0u64;
    for k in 0..n {
        let gap = next()?;
        node += gap;
        if (k > 0 && gap == 0) || node >= invocations as u64 {
            return Err(format!("invocation {node} is out of order or not in the run"));
        }
        bases.push((node as u32, next()?));
    }
    let next_id = next()?;
    let count = next()?;
    if count > body.len() as u64 {
        return Err(format!("it claims {count} nodes in {} bytes", body.len()));
    }
    let mut graph = Graph::default();
    graph.entries.reserve(count as usize);
    graph.sorted.reserve(count as usize);
    graph.deps.reserve(body.len() / 4);
    let (mut id, mut inv) = (0u64, 0i64);
    for k in 0..count as u32 {
        let gap = next()?;
        if k > 0 && gap == 0 {
            return Err(format!("node {k}: ids must rise"));
        }
        id = id.checked_add(gap).filter(|&i| i < next_id).ok_or_else(|| format!("node {k}: id out of range"))?;
        inv += unzigzag(next()?);
        let node_inv =
            u32::try_from(inv).ok().filter(|&i| i < invocations).map(Invocation).ok_or_else(|| format!("node {k}: invocation {inv} is not in the run"))?;
        let step = u32::try_from(next()?).map_err(|_| format!("node {k}: timestamp out of range"))?;
        let at_ = u32::try_from(next()?).map_err(|_| format!("node {k}: offset out of range"))?;
        let part = Part::of_code(next()?).ok_or_else(|| format!("node {k}: bad part"))?;
        graph.sorted.push(id);
        graph.entries.push(Entry { node: Node { inst: Inst { node: node_inv, step, at: at_ }, part }, start: 0, len: UNKNOWN, mark: 0 });
        let ndeps = next()?;
        if ndeps > 0 {
            let start = graph.deps.len() as u32;
            for _ in 0..ndeps - 1 {
                let code = next()?;
                if code > u32::MAX as u64 || DepKind::of_code(code).is_none() {
                    return Err(format!("node {k}: bad dependence kind"));
                }
                let from = next()?;
                let from = if from < 4 {
                    LEAF_BASE + from as u32
                } else {
                    let j = k as i64 + unzigzag(from - 4);
                    let j = u32::try_from(j)
                        .ok()
                        .filter(|&j| (j as u64) < count)
                        .ok_or_else(|| format!("node {k}: a dependence on node {j}, outside the cache"))?;
                    j
                };
                graph.deps.push(GDep { code: code as u32, from });
            }
            let e = &mut graph.entries[k as usize];
            e.start = start;
            e.len = (ndeps - 1) as u32;
        }
    }
    if at != body.len() {
        return Err(format!("{} bytes follow the nodes", body.len() - at));
    }
    Ok(Decoded { graph, bases, next_id })
}

/// A set of ids, as bits in pages allocated where ids are.
#[derive(Default)]
pub(crate) struct Bits {
    pages: Vec<Option<Box<[u64]>>>,
}

impl Bits {
    /// Adds `id`; whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, id: u64) -> bool {
        const WORDS: usize = PAGE * 64 / 64;
        let p = (id >> (PAGE_BITS + 6)) as usize;
        if p >= self.pages.len() {
            self.pages.resize_with(p + 1, || None);
        }
        let page = self.pages[p].get_or_insert_with(|| vec![0u64; WORDS].into_boxed_slice());
        let bit = id as usize & (PAGE * 64 - 1);
        let (w, b) = (bit / 64, 1u64 << (bit % 64));
        let new = page[w] & b == 0;
        page[w] |= b;
        new
    }
}
