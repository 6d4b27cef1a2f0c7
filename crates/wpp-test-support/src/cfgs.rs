//! Control flow graphs of known shapes, written out block by block, for fixtures that need
//! a function's CFG without a module: the damaged-profile tests and the profile fuzz
//! target build their profiles from them. `base` is the byte offset of the first block;
//! blocks follow one another.

use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeKind, Target};

/// A block of `n_instrs` instructions over bytes `start..end`.
pub fn blk(start: u32, end: u32, n_instrs: u32) -> Block {
    Block { start, end, n_instrs }
}

/// An edge from block `from` to block `to` (`None`: the function's exit).
pub fn edge(from: u32, to: Option<u32>, kind: EdgeKind) -> Edge {
    Edge { from: BlockIdx(from), to: to.map_or(Target::Exit, |b| Target::Block(BlockIdx(b))), kind }
}

/// `0 → {1, 2} → 3 → exit`
pub fn diamond(base: u32) -> Cfg {
    use EdgeKind::*;
    Cfg {
        blocks: vec![blk(base, base + 6, 3), blk(base + 6, base + 9, 2), blk(base + 9, base + 12, 2), blk(base + 12, base + 14, 2)],
        edges: vec![edge(0, Some(1), Forward), edge(0, Some(2), Forward), edge(1, Some(3), Forward), edge(2, Some(3), Forward), edge(3, None, Return)],
    }
}

/// A loop whose body calls a function:
/// `0 → 1 (header) → {2, 4}`, `2 → 3` (call), `3 → 1` (back edge), `4 → exit`.
pub fn looped(base: u32) -> Cfg {
    use EdgeKind::*;
    Cfg {
        blocks: vec![
            blk(base, base + 4, 2),
            blk(base + 4, base + 10, 4),
            blk(base + 10, base + 15, 3),
            blk(base + 15, base + 20, 3),
            blk(base + 20, base + 22, 1),
        ],
        edges: vec![
            edge(0, Some(1), Forward),
            edge(1, Some(2), Forward),
            edge(1, Some(4), Forward),
            edge(2, Some(3), Call),
            edge(3, Some(1), Back),
            edge(4, None, Return),
        ],
    }
}

/// [`looped`] with blocks of 4 bytes and 2 instructions, and a trapping arm from the
/// header: `1 → 5 → exit` (trap).
pub fn looped_with_trap(base: u32) -> Cfg {
    use EdgeKind::*;
    Cfg {
        blocks: (0..6).map(|b| blk(base + 4 * b, base + 4 * b + 4, 2)).collect(),
        edges: vec![
            edge(0, Some(1), Forward),
            edge(1, Some(2), Forward),
            edge(1, Some(4), Forward),
            edge(1, Some(5), Forward),
            edge(2, Some(3), Call),
            edge(3, Some(1), Back),
            edge(4, None, Return),
            edge(5, None, Trap),
        ],
    }
}

/// A check that traps on one arm: `0 → {1, 2}`, `1 → exit` (trap), `2 → exit` (return).
pub fn trapping(base: u32) -> Cfg {
    use EdgeKind::*;
    Cfg {
        blocks: vec![blk(base, base + 5, 3), blk(base + 5, base + 6, 1), blk(base + 6, base + 7, 1)],
        edges: vec![edge(0, Some(1), Forward), edge(0, Some(2), Forward), edge(1, None, Trap), edge(2, None, Return)],
    }
}

/// `k` diamonds in a row: 2^k paths, so with `k > 32` some path numbers need the
/// two-word (escape) event encoding.
pub fn diamonds(k: u32, base: u32) -> Cfg {
    use EdgeKind::*;
    let (mut blocks, mut edges) = (Vec::new(), Vec::new());
    for i in 0..k {
        let t = 3 * i;
        blocks.extend([blk(base + t, base + t + 1, 1), blk(base + t + 1, base + t + 2, 1), blk(base + t + 2, base + t + 3, 1)]);
        edges.extend([edge(t, Some(t + 1), Forward), edge(t, Some(t + 2), Forward), edge(t + 1, Some(t + 3), Forward), edge(t + 2, Some(t + 3), Forward)]);
    }
    blocks.push(blk(base + 3 * k, base + 3 * k + 1, 1));
    edges.push(edge(3 * k, None, Return));
    Cfg { blocks, edges }
}
