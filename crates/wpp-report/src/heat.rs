//! How often each block and each CFG edge of a function ran: the one derivation of block
//! and edge counts from paths, which the HTML report's drawings colour and the data flow
//! frequencies' edge-profile estimate starts from.
//!
//! Inside a path every edge is known, so the path counts give those exactly. Where a path
//! ends (a loop's back edge, a cut point, a call, a return) the next path tells which
//! edge was taken: with the whole program path at hand, the counts of consecutive pairs
//! give the back edges exactly, and the catch edges of a `throw` caught in its own
//! invocation; a call edge runs once per path that ends in the call; a block's exits are
//! what is left of the paths ending there. From counts alone, an edge only the next path
//! could tell is unknown (`None`), and so are a call's edges where its callee's exception
//! may be caught (the callee's paths lie between).

use rustc_hash::FxHashMap;
use wpp_model::{BlockIdx, Cfg, EdgeKind, PathEvent, Target};
use wpp_profile::Profile;
use wpp_twpp::partition::{block_ends, link, Link};

/// One function's block and edge counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heat {
    /// Executions of each block.
    pub blocks: Vec<u64>,
    /// Per edge of the CFG (in its order): how often it was taken, `None` if unknown.
    pub edges: Vec<Option<u64>>,
}

impl Heat {
    /// The largest known count of a block or edge (at least 1).
    pub fn max(&self) -> u64 {
        self.blocks.iter().copied().chain(self.edges.iter().flatten().copied()).max().unwrap_or(0).max(1)
    }
}

/// The heat of function `cfg` numbered with cut points `cut`, given each of its paths'
/// blocks with their counts, and
/// for a whole program path, the counts of consecutive pairs of its own paths (`None`
/// for a profile of counts only).
pub fn heat(cfg: &Cfg, cut: &[BlockIdx], paths: &[(Vec<BlockIdx>, u64)], pairs: Option<&[(BlockIdx, BlockIdx, u64)]>) -> Heat {
    let n = cfg.n_blocks();
    let mut edge_of: FxHashMap<(BlockIdx, Target), usize> = FxHashMap::default();
    for (i, e) in cfg.edges.iter().enumerate() {
        edge_of.insert((e.from, e.to), i);
    }
    let mut h = Heat { blocks: block_counts(n, paths), edges: vec![Some(0); cfg.edges.len()] };
    let mut ends_at = vec![0u64; n];
    for (blocks, count) in paths {
        for w in blocks.windows(2) {
            if let Some(&e) = edge_of.get(&(w[0], Target::Block(w[1]))) {
                *h.edges[e].as_mut().expect("known") += count;
            }
        }
        if let Some(last) = blocks.last() {
            ends_at[last.idx()] += count;
        }
    }
    // What leaves each block at a path's end, other than by a call or an exit.
    let mut left = vec![0u64; n];
    let mut path_end_edges_known = pairs.is_some();
    // A path-ending edge inside the function: a back edge, a cut forward edge, or a catch.
    let resumes = |e: &wpp_model::Edge| matches!((e.kind, e.to), (EdgeKind::Back | EdgeKind::Forward, _) | (EdgeKind::Catch, Target::Block(_)));
    // Blocks ending in a call whose callee's exception may be caught here.
    let (mut calls, mut catches) = (vec![false; n], vec![false; n]);
    for e in &cfg.edges {
        calls[e.from.idx()] |= e.kind == EdgeKind::Call;
        catches[e.from.idx()] |= e.kind == EdgeKind::Catch;
    }
    let call_catches: Vec<bool> = calls.iter().zip(&catches).map(|(&a, &b)| a && b).collect();
    if let Some(pairs) = pairs {
        for &(last, first, count) in pairs {
            if let Some(&e) = edge_of.get(&(last, Target::Block(first))) {
                if resumes(&cfg.edges[e]) {
                    *h.edges[e].as_mut().expect("known") += count;
                    left[last.idx()] += count;
                }
            }
        }
    } else {
        // From counts alone, a back edge into a header is known when it is the only way
        // into the header from a path's end but calls returning there: the paths that
        // start there took it, less those that began after a call.
        let mut into: FxHashMap<BlockIdx, Vec<usize>> = FxHashMap::default();
        let mut after_calls = vec![0u64; n];
        for (i, e) in cfg.edges.iter().enumerate() {
            match (e.kind, e.to) {
                (EdgeKind::Call, Target::Block(t)) => after_calls[t.idx()] += ends_at[e.from.idx()],
                (EdgeKind::Back, Target::Block(t)) => into.entry(t).or_default().push(i),
                (EdgeKind::Forward, Target::Block(t)) if cut.contains(&t) => into.entry(t).or_default().push(i),
                (EdgeKind::Catch, _) => h.edges[i] = None,
                _ => {}
            }
        }
        for edges in into.values() {
            for &i in edges {
                h.edges[i] = None;
            }
        }
        let mut starts_at = vec![0u64; n];
        for (blocks, count) in paths {
            if let Some(first) = blocks.first().filter(|b| b.0 != 0) {
                starts_at[first.idx()] += count;
            }
        }
        for (t, edges) in &into {
            if let [only] = edges[..] {
                // Into the entry, an iteration cannot be told from a new invocation.
                if t.0 != 0 {
                    let took = starts_at[t.idx()].saturating_sub(after_calls[t.idx()]);
                    h.edges[only] = Some(took);
                    left[cfg.edges[only].from.idx()] += took;
                }
            }
        }
        path_end_edges_known = false;
    }
    for (i, e) in cfg.edges.iter().enumerate() {
        let from = e.from.idx();
        match e.kind {
            _ if call_catches[from] => h.edges[i] = None,
            EdgeKind::Call => h.edges[i] = Some(ends_at[from]),
            EdgeKind::Catch if e.to != Target::Exit => {}
            EdgeKind::Return | EdgeKind::Trap | EdgeKind::Throw | EdgeKind::Catch => {
                // Exits are what is left, when every other way out of the block is known.
                let others_known = cfg.edges.iter().filter(|o| o.from == e.from && resumes(o)).all(|o| {
                    let j = edge_of[&(o.from, o.to)];
                    path_end_edges_known || h.edges[j].is_some()
                });
                let exits = cfg.edges.iter().filter(|o| o.from == e.from && o.to == Target::Exit).count();
                h.edges[i] = (others_known && exits == 1).then(|| ends_at[from].saturating_sub(left[from]));
            }
            _ => {}
        }
    }
    h
}

/// Executions of each of a function's `n` blocks, given each of its paths' blocks with
/// their counts: a block runs once per run of every path through it.
pub fn block_counts(n: usize, paths: &[(Vec<BlockIdx>, u64)]) -> Vec<u64> {
    let mut blocks = vec![0u64; n];
    for (path, count) in paths {
        for b in path {
            blocks[b.idx()] += count;
        }
    }
    blocks
}

/// Executions of every block of the program, by function (empty for imports), from the
/// profile's path counts in one pass: [`block_counts`] of every function.
pub fn program_block_counts(p: &Profile) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = p.meta.functions.iter().map(|f| vec![0; f.cfg.as_ref().map_or(0, Cfg::n_blocks)]).collect();
    for c in p.counts.iter().filter(|c| c.count > 0) {
        let (Some(blocks), Some(path)) = (out.get_mut(c.func.idx()), p.path_blocks(c.func, c.path)) else { continue };
        for b in path {
            if let Some(x) = blocks.get_mut(b.idx()) {
                *x += c.count;
            }
        }
    }
    out
}

/// Each path of `func` with its blocks and count, from the profile's counts.
pub fn function_paths(p: &Profile, func: wpp_model::FuncIdx) -> Vec<(Vec<BlockIdx>, u64)> {
    p.counts.iter().filter(|c| c.func == func).filter_map(|c| Some((p.path_blocks(c.func, c.path)?, c.count))).collect()
}

/// The consecutive pairs of paths of one function where one invocation goes on (another
/// iteration of a loop, or past a cut point, as [`link`] reads a pair), as (last block
/// of the first, first block of the second, count), from the whole program path's pair
/// counts. A pair of the same function that is a return into a recursive caller is not
/// an edge of either invocation and is left out.
pub fn function_pairs(p: &Profile, pairs: &FxHashMap<(PathEvent, PathEvent), u64>, func: wpp_model::FuncIdx) -> Vec<(BlockIdx, BlockIdx, u64)> {
    let (Some(cfg), Some(numbering)) = (p.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref()), p.numberings.get(func)) else { return Vec::new() };
    let block_end = block_ends(cfg, numbering);
    let mut ends: FxHashMap<PathEvent, Option<(BlockIdx, BlockIdx)>> = FxHashMap::default();
    let mut out = Vec::new();
    let mut ends_of = |e: PathEvent| *ends.entry(e).or_insert_with(|| p.path_blocks(e.func, e.path).map(|b| (b[0], *b.last().expect("a path has a block"))));
    for (&(a, b), &count) in pairs {
        if a.func != func || b.func != func {
            continue;
        }
        if let (Some((_, last)), Some((first, _))) = (ends_of(a), ends_of(b)) {
            if matches!(block_end.get(last.idx()).and_then(|end| link(end, func, func, first)), Some(Link::Loop | Link::Catch)) {
                out.push((last, first, count));
            }
        }
    }
    out
}
