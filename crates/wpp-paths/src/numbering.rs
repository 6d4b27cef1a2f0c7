//! Building the DAG, assigning edge values, cut points, encoding and decoding.

use wpp_model::{BlockIdx, Cfg, EdgeIdx, EdgeKind, PathId, Target};

/// Limits for [`number`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Largest number of paths a function may have; more get cut points until it fits.
    pub max_paths: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { max_paths: u64::MAX }
    }
}

/// What the instrumentation does when an edge is taken. The values are increments placed
/// on the chords of a spanning tree of the path DAG (most edges that run often add
/// nothing), not the Ball-Larus edge values: they sum to the path's number along each path
/// only, wrapping modulo 2^64, and the register holds no prefix of it on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeAction {
    /// Add this value to the path register (wrapping).
    Add(u64),
    /// The path ends: its number is the register plus `add` (wrapping). If control stays
    /// in the function (`restart` is `Some`), the register then restarts at that value.
    End { add: u64, restart: Option<u64> },
    /// The edge leaves a block that can never run.
    Dead,
}

/// Why a function could not be numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberingError {
    /// Even with every block cut, the paths do not fit the limit (only with tiny limits).
    TooManyPaths { limit: u64 },
}

impl std::fmt::Display for NumberingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumberingError::TooManyPaths { limit } => {
                write!(f, "paths do not fit in {limit} even with every block cut")
            }
        }
    }
}

impl std::error::Error for NumberingError {}

/// Why a path number could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    OutOfRange { path: PathId, n_paths: u64 },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::OutOfRange { path, n_paths } => {
                write!(f, "path {path} is out of range: the function has {n_paths} paths")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// A DAG node: ENTRY is `0`, block `b` is `b + 1`, EXIT is `n_blocks + 1`.
type Node = u32;

/// The numbering of one function's paths.
#[derive(Clone, Debug)]
pub struct Numbering {
    n_paths: u64,
    n_blocks: u32,
    /// For each DAG node, its outgoing edges as (value, target node), by increasing value.
    dag_out: Vec<Vec<(u64, Node)>>,
    /// For each CFG edge, what taking it does.
    actions: Vec<EdgeAction>,
    /// Value of `ENTRY → b` for each path start block.
    start_val: Vec<Option<u64>>,
    cut_points: Vec<BlockIdx>,
    reachable: Vec<bool>,
}

/// Numbers the paths of `cfg`, which must satisfy [`Cfg::validate`].
///
/// When the paths do not fit `opts.max_paths`, blocks are cut: one pass over the blocks in
/// reverse code order bounds the paths from each block to the exit by `bound`, cutting the
/// successors with the most paths where a block exceeds it. If the paths from all starts
/// together still exceed the limit, the pass is repeated with half the bound. Each pass is
/// linear in the graph, and there are at most 64.
pub fn number(cfg: &Cfg, opts: &Options) -> Result<Numbering, NumberingError> {
    let n = cfg.n_blocks();
    let reachable = cfg.reachable();
    let out = cfg.out_ranges();
    let mut bound = opts.max_paths as u128;
    let mut cut = vec![false; n];
    loop {
        let dag = Dag::build(cfg, &reachable, &cut);
        let to_exit = dag.paths_to_exit();
        if to_exit[0] <= opts.max_paths as u128 {
            let cut_points = (0..n).filter(|&b| cut[b]).map(|b| BlockIdx(b as u32)).collect();
            return Ok(dag.finish(cfg, to_exit, cut_points, reachable));
        }
        if bound == 0 {
            return Err(NumberingError::TooManyPaths { limit: opts.max_paths });
        }
        cut = bounded_cuts(cfg, &out, &reachable, bound);
        bound /= 2;
    }
}

/// Chooses cut points so that no block has more than `bound` (at least 1) paths to the
/// exit. Cutting a block can only lower the path counts of blocks already visited, so
/// the bound holds for them too.
fn bounded_cuts(cfg: &Cfg, out: &[std::ops::Range<usize>], reachable: &[bool], bound: u128) -> Vec<bool> {
    let bound = bound.max(1);
    let n = cfg.n_blocks();
    let mut cut = vec![false; n];
    let mut np = vec![0u128; n];
    let mut succ: Vec<usize> = Vec::new();
    for v in (0..n).rev() {
        if !reachable[v] {
            continue;
        }
        succ.clear();
        let mut exits = false;
        for e in &cfg.edges[out[v].clone()] {
            match e.to {
                Target::Block(w) if !e.kind.ends_path() && !cut[w.idx()] => succ.push(w.idx()),
                _ => exits = true,
            }
        }
        let mut total: u128 = succ.iter().fold(exits as u128, |s, &w| s.saturating_add(np[w]));
        if total > bound {
            succ.sort_unstable_by_key(|&w| std::cmp::Reverse(np[w]));
            for &w in &succ {
                if total <= bound {
                    break;
                }
                cut[w] = true;
                total -= np[w];
                if !exits {
                    exits = true;
                    total += 1;
                }
            }
        }
        np[v] = total;
    }
    cut
}

/// Per block, how many loops hold it. A loop's blocks are contiguous in code order: from
/// its header to the last block with a back edge to it.
fn loop_depths(cfg: &Cfg) -> Vec<u32> {
    let n = cfg.n_blocks();
    let mut last = vec![None::<usize>; n];
    for e in &cfg.edges {
        if let (EdgeKind::Back, Target::Block(h)) = (e.kind, e.to) {
            let l = &mut last[h.idx()];
            *l = Some(l.map_or(e.from.idx(), |l: usize| l.max(e.from.idx())));
        }
    }
    let mut delta = vec![0i64; n + 1];
    for (h, l) in last.iter().enumerate() {
        if let Some(l) = *l {
            if l >= h {
                delta[h] += 1;
                delta[l + 1] -= 1;
            }
        }
    }
    let mut d = 0i64;
    delta[..n]
        .iter()
        .map(|&x| {
            d += x;
            d.max(0) as u32
        })
        .collect()
}

struct Dag {
    n_blocks: usize,
    /// Outgoing edges per node, in value order (values not yet assigned).
    out: Vec<Vec<Node>>,
    /// Whether the CFG edge is path-ending (after cuts).
    ends: Vec<bool>,
}

impl Dag {
    fn build(cfg: &Cfg, reachable: &[bool], cut: &[bool]) -> Dag {
        let n = cfg.n_blocks();
        let exit = (n + 1) as Node;
        let mut out: Vec<Vec<Node>> = vec![Vec::new(); n + 2];
        let mut ends = vec![false; cfg.edges.len()];
        let mut is_start = vec![false; n];
        let mut has_exit = vec![false; n];
        is_start[0] = true;
        for (i, e) in cfg.edges.iter().enumerate() {
            let v = e.from.idx();
            if !reachable[v] {
                continue;
            }
            let end = match e.to {
                Target::Exit => true,
                Target::Block(w) => e.kind.ends_path() || cut[w.idx()],
            };
            ends[i] = end;
            if end {
                has_exit[v] = true;
                if let Target::Block(w) = e.to {
                    is_start[w.idx()] = true;
                }
            } else if let Target::Block(w) = e.to {
                out[v + 1].push(w.0 + 1);
            }
        }
        for v in 0..n {
            if has_exit[v] {
                out[v + 1].push(exit);
            }
            if is_start[v] && reachable[v] {
                out[0].push(v as Node + 1);
            }
        }
        Dag { n_blocks: n, out, ends }
    }

    /// Number of paths from each node to EXIT (saturating far above any limit).
    fn paths_to_exit(&self) -> Vec<u128> {
        let exit = self.n_blocks + 1;
        let mut np = vec![0u128; self.n_blocks + 2];
        np[exit] = 1;
        // Forward edges go to later blocks, so reverse node order is a reverse topological order.
        for v in (0..=self.n_blocks).rev() {
            np[v] = self.out[v].iter().fold(0u128, |s, &w| s.saturating_add(np[w as usize]));
        }
        np
    }

    fn finish(self, cfg: &Cfg, to_exit: Vec<u128>, cut_points: Vec<BlockIdx>, reachable: Vec<bool>) -> Numbering {
        let n = self.n_blocks;
        let exit = (n + 1) as Node;
        // Values fit in u64: each is a partial sum of paths_to_exit(v) <= total <= u64::MAX.
        let dag_out: Vec<Vec<(u64, Node)>> = self
            .out
            .iter()
            .map(|targets| {
                let mut sum = 0u128;
                targets
                    .iter()
                    .map(|&w| {
                        let val = sum as u64;
                        sum += to_exit[w as usize];
                        (val, w)
                    })
                    .collect()
            })
            .collect();
        // The additions: zero on the edges most likely to run, by loop depth; among edges
        // as deep, on those Ball-Larus leaves at zero (the first edge out of each block,
        // which the rewrite places where an addition would cost most).
        let depth = loop_depths(cfg);
        let first = |v: Node, w: Node| dag_out[v as usize].first().is_some_and(|&(_, t)| t == w);
        let inc = crate::increments::increments(&dag_out, |v, w| {
            if v == 0 || w == exit {
                // A path's start and end cost a constant either way.
                0
            } else {
                (2u64 << (4 * depth[v as usize - 1].min(depth[w as usize - 1]).min(14))) + first(v, w) as u64
            }
        });
        let inc_of = |v: Node, w: Node| -> u64 {
            let i = dag_out[v as usize].iter().position(|&(_, t)| t == w).expect("edge is in the DAG");
            inc[v as usize][i]
        };
        let mut start_val = vec![None; n];
        for (&(_, w), &add) in dag_out[0].iter().zip(&inc[0]) {
            start_val[w as usize - 1] = Some(add);
        }
        let actions = cfg
            .edges
            .iter()
            .zip(&self.ends)
            .map(|(e, &end)| {
                let v = e.from.0 + 1;
                if !reachable[e.from.idx()] {
                    EdgeAction::Dead
                } else if end {
                    let restart = match e.to {
                        Target::Block(w) => Some(start_val[w.idx()].expect("target of a path end is a start")),
                        Target::Exit => None,
                    };
                    EdgeAction::End { add: inc_of(v, exit), restart }
                } else {
                    let Target::Block(w) = e.to else { unreachable!("forward edges go to blocks") };
                    EdgeAction::Add(inc_of(v, w.0 + 1))
                }
            })
            .collect();
        Numbering { n_paths: to_exit[0] as u64, n_blocks: n as u32, dag_out, actions, start_val, cut_points, reachable }
    }
}

impl Numbering {
    /// Number of distinct paths; path numbers are `0..n_paths()`.
    pub fn n_paths(&self) -> u64 {
        self.n_paths
    }

    /// What taking CFG edge `e` does to the path register.
    pub fn action(&self, e: EdgeIdx) -> EdgeAction {
        self.actions[e.idx()]
    }

    /// The register's value when a path starts at `b` (function entry or after a path end),
    /// or `None` if no path starts there.
    pub fn start_value(&self, b: BlockIdx) -> Option<u64> {
        self.start_val[b.idx()]
    }

    /// The path DAG: for each node (ENTRY is 0, block `b` is `b + 1`, EXIT is
    /// `n_blocks + 1`), its outgoing edges as (Ball-Larus value, target node), by value.
    pub fn dag_edges(&self) -> &[Vec<(u64, u32)>] {
        &self.dag_out
    }

    /// Blocks that [`number`] cut to keep the path count within the limit.
    pub fn cut_points(&self) -> &[BlockIdx] {
        &self.cut_points
    }

    /// Whether `b` can run at all.
    pub fn is_reachable(&self, b: BlockIdx) -> bool {
        self.reachable[b.idx()]
    }

    /// The blocks of path `path`, in execution order.
    pub fn decode(&self, path: PathId) -> Result<Vec<BlockIdx>, DecodeError> {
        if path.0 >= self.n_paths {
            return Err(DecodeError::OutOfRange { path, n_paths: self.n_paths });
        }
        let exit = self.n_blocks + 1;
        let mut rem = path.0;
        let mut node: Node = 0;
        let mut blocks = Vec::new();
        loop {
            let out = &self.dag_out[node as usize];
            // The last edge whose value does not exceed what remains.
            let i = out.partition_point(|&(val, _)| val <= rem) - 1;
            let (val, next) = out[i];
            rem -= val;
            if next == exit {
                debug_assert_eq!(rem, 0);
                return Ok(blocks);
            }
            blocks.push(BlockIdx(next - 1));
            node = next;
        }
    }

    /// The number of the path running through `blocks`, if it is a path of this function.
    pub fn encode(&self, blocks: &[BlockIdx]) -> Option<PathId> {
        let exit = self.n_blocks + 1;
        let mut node: Node = 0;
        let mut sum = 0u64;
        for &b in blocks.iter().chain(std::iter::once(&BlockIdx(exit - 1))) {
            let target = b.0.checked_add(1)?;
            let &(val, _) = self.dag_out.get(node as usize)?.iter().find(|&&(_, t)| t == target)?;
            sum += val;
            node = target;
        }
        Some(PathId(sum))
    }
}
