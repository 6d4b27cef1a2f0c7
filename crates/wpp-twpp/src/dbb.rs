//! Dynamic basic blocks (Zhang & Gupta §2, "Creating dictionaries of dynamic basic
//! blocks").
//!
//! In one invocation's block trace, a dynamic basic block is a chain of static blocks that
//! the trace always enters at the first and leaves from the last: on the trace's dynamic
//! CFG (its distinct blocks, an edge for each pair that ran one after the other), each
//! link `b → s` is `b`'s only successor and `s`'s only predecessor, `s` is not where the
//! trace starts and `b` not where it ends. The trace keeps each chain's first block only;
//! a dictionary of the chains longer than one block gives the rest back.

use rustc_hash::FxHashMap;
use wpp_model::BlockIdx;

/// The chains of one trace longer than one block, each from its first block, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dictionary {
    pub chains: Vec<Vec<BlockIdx>>,
}

impl Dictionary {
    /// The chain that starts at `head`, if it is longer than one block.
    pub fn chain(&self, head: BlockIdx) -> Option<&[BlockIdx]> {
        self.chains.binary_search_by_key(&head, |c| c[0]).ok().map(|i| &self.chains[i][..])
    }
}

/// A block trace with its dynamic basic blocks collapsed to their first blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DbbTrace {
    pub heads: Vec<BlockIdx>,
    pub dictionary: Dictionary,
}

/// Finds the dynamic basic blocks of `blocks` and collapses them.
pub fn collapse(blocks: &[BlockIdx]) -> DbbTrace {
    let (Some(&first), Some(&last)) = (blocks.first(), blocks.last()) else { return DbbTrace::default() };
    // The dynamic CFG: for each distinct block, its one successor and predecessor, or
    // MANY when it has several.
    const NONE: u32 = u32::MAX;
    const MANY: u32 = u32::MAX - 1;
    let mut local: FxHashMap<BlockIdx, u32> = FxHashMap::default();
    let mut ids = Vec::with_capacity(blocks.len());
    let mut distinct = Vec::new();
    for &b in blocks {
        let id = *local.entry(b).or_insert_with(|| {
            distinct.push(b);
            distinct.len() as u32 - 1
        });
        ids.push(id);
    }
    let n = distinct.len();
    let (mut succ, mut pred) = (vec![NONE; n], vec![NONE; n]);
    let note = |slot: &mut u32, v: u32| {
        *slot = match *slot {
            NONE => v,
            s if s == v => s,
            _ => MANY,
        }
    };
    for w in ids.windows(2) {
        note(&mut succ[w[0] as usize], w[1]);
        note(&mut pred[w[1] as usize], w[0]);
    }
    let (first, last) = (local[&first], local[&last]);
    // `next[b]`: the block `b` always runs into, inside one dynamic basic block.
    let next: Vec<u32> = (0..n as u32)
        .map(|b| {
            let s = succ[b as usize];
            let linked = s != NONE && s != MANY && b != last && s != first && pred[s as usize] == b;
            if linked {
                s
            } else {
                NONE
            }
        })
        .collect();
    let mut inner = vec![false; n];
    for &s in &next {
        if s != NONE {
            inner[s as usize] = true;
        }
    }
    let mut chains = Vec::new();
    for b in 0..n as u32 {
        if inner[b as usize] || next[b as usize] == NONE {
            continue;
        }
        let mut chain = vec![distinct[b as usize]];
        let mut c = next[b as usize];
        while c != NONE {
            chain.push(distinct[c as usize]);
            c = next[c as usize];
        }
        chains.push(chain);
    }
    chains.sort_unstable();
    let heads = ids.iter().filter(|&&id| !inner[id as usize]).map(|&id| distinct[id as usize]).collect();
    DbbTrace { heads, dictionary: Dictionary { chains } }
}

/// [`collapse`] and then [`crate::timestamps::timestamp`], without holding the trace,
/// its dynamic-block trace or its steps: `blocks` gives the block trace (twice: once to
/// find the dynamic CFG, once to emit the dynamic blocks' steps) and `n_blocks` bounds
/// its block indices.
pub fn collapse_timestamped<I: Iterator<Item = BlockIdx>>(n_blocks: usize, blocks: impl Fn() -> I) -> (Dictionary, crate::timestamps::Timestamped) {
    use crate::timestamps::{SeriesBuilder, Timestamped};
    const NONE: u32 = u32::MAX;
    const MANY: u32 = u32::MAX - 1;
    // The dynamic CFG over the blocks that ran, by block index.
    let (mut succ, mut pred) = (vec![NONE; n_blocks], vec![NONE; n_blocks]);
    let mut ran = vec![false; n_blocks];
    let note = |slot: &mut u32, v: u32| {
        *slot = match *slot {
            NONE => v,
            s if s == v => s,
            _ => MANY,
        }
    };
    let (mut first, mut last) = (None, None);
    for b in blocks() {
        ran[b.idx()] = true;
        if let Some(p) = last {
            let p: BlockIdx = p;
            note(&mut succ[p.idx()], b.0);
            note(&mut pred[b.idx()], p.0);
        }
        first.get_or_insert(b);
        last = Some(b);
    }
    let (Some(first), Some(last)) = (first, last) else { return (Dictionary::default(), Timestamped::default()) };
    let next = |b: u32| -> u32 {
        let s = succ[b as usize];
        let linked = s != NONE && s != MANY && b != last.0 && s != first.0 && pred[s as usize] == b;
        if linked {
            s
        } else {
            NONE
        }
    };
    let mut inner = vec![false; n_blocks];
    for b in 0..n_blocks as u32 {
        if ran[b as usize] {
            let s = next(b);
            if s != NONE {
                inner[s as usize] = true;
            }
        }
    }
    let mut chains = Vec::new();
    for b in 0..n_blocks as u32 {
        if !ran[b as usize] || inner[b as usize] || next(b) == NONE {
            continue;
        }
        let mut chain = vec![BlockIdx(b)];
        let mut c = next(b);
        while c != NONE {
            chain.push(BlockIdx(c));
            c = next(c);
        }
        chains.push(chain);
    }
    chains.sort_unstable();
    let mut builders: Vec<Option<SeriesBuilder>> = vec![None; n_blocks];
    let mut step = 0u32;
    for b in blocks() {
        if !inner[b.idx()] {
            step += 1;
            builders[b.idx()].get_or_insert_with(SeriesBuilder::default).push(step);
        }
    }
    let blocks_ts = builders.into_iter().enumerate().filter_map(|(b, sb)| Some((BlockIdx(b as u32), sb?.finish()))).collect();
    (Dictionary { chains }, Timestamped { blocks: blocks_ts, len: step })
}

/// The block trace again.
pub fn expand(t: &DbbTrace) -> Vec<BlockIdx> {
    let mut out = Vec::with_capacity(t.heads.len());
    for &h in &t.heads {
        match t.dictionary.chain(h) {
            Some(chain) => out.extend_from_slice(chain),
            None => out.push(h),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(v: &[u32]) -> Vec<BlockIdx> {
        v.iter().map(|&b| BlockIdx(b)).collect()
    }

    /// The paper's Figure 4 shape: `1 2 3 4 5 2 3 4 5 ... 6`, a loop whose body is one
    /// chain, becomes `1 2 2 ... 6` with the chain 2-3-4-5.
    #[test]
    fn a_loop_body_is_one_dynamic_block() {
        let mut trace = vec![1];
        for _ in 0..5 {
            trace.extend([2, 3, 4, 5]);
        }
        trace.push(6);
        let t = collapse(&blocks(&trace));
        assert_eq!(t.heads, blocks(&[1, 2, 2, 2, 2, 2, 6]));
        assert_eq!(t.dictionary.chains, vec![blocks(&[2, 3, 4, 5])]);
        assert_eq!(expand(&t), blocks(&trace));
    }

    /// A branch inside the loop splits the body where the paths part and meet; a chain
    /// inside one arm stays one dynamic block.
    #[test]
    fn branches_end_dynamic_blocks() {
        let trace = [1, 2, 3, 7, 5, 2, 4, 5, 2, 3, 7, 5, 6];
        let t = collapse(&blocks(&trace));
        assert_eq!(t.heads, blocks(&[1, 2, 3, 5, 2, 4, 5, 2, 3, 5, 6]));
        assert_eq!(t.dictionary.chains, vec![blocks(&[3, 7])]);
        assert_eq!(expand(&t), blocks(&trace));
    }

    /// The block a trace starts at, or ends at, is a dynamic block's first, or last.
    #[test]
    fn the_trace_ends_cut_chains() {
        let trace = [1, 2, 1, 2, 1, 2];
        let t = collapse(&blocks(&trace));
        assert_eq!(t.heads, blocks(&[1, 1, 1]));
        assert_eq!(t.dictionary.chains, vec![blocks(&[1, 2])]);
        let trace = [1, 2, 1, 2, 1];
        let t = collapse(&blocks(&trace));
        assert_eq!(t.heads, blocks(&trace));
        assert!(t.dictionary.chains.is_empty());
        assert_eq!(collapse(&[]), DbbTrace::default());
    }
}
