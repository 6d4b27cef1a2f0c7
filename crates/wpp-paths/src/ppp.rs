//! Preferential path profiling numbering (Vaswani, Nori & Chilimbi 2007, Fig. 10): edge
//! weights on a function's path DAG under which a chosen set of *interesting* paths gets
//! distinct identifiers in a compact range, so counters can live in a small array.
//!
//! Nodes are visited in reverse topological order. At a node, each outgoing edge that lies
//! on interesting paths gets the smallest weight that keeps, for every prefix (the path
//! from ENTRY to the node) those paths share, the identifier interval of the paths through
//! this edge after the intervals of the edges already weighted — the largest such weight
//! over the prefixes (the *join*). A prefix is named by its node and its Ball-Larus prefix
//! sum, which is unique per prefix. Edges on no interesting path get no weight: a path
//! through one is not interesting, whatever its identifier. Work is O(E · |I|).
//!
//! Compactness is ρ = (max id − min id + 1) / |I|: 1 when the ids are exactly a range.

use std::collections::HashMap;

use wpp_model::{BlockIdx, EdgeIdx, PathId, Target};

use crate::numbering::{EdgeAction, Numbering};

/// Why a set of interesting paths cannot be numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PppError {
    /// A path number at or above the function's number of paths.
    NoSuchPath { path: PathId, n_paths: u64 },
    /// An edge weight does not fit the 64-bit register of the instrumentation.
    WeightTooLarge { weight: i128 },
}

impl std::fmt::Display for PppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PppError::NoSuchPath { path, n_paths } => write!(f, "path {path} is not a path of this function (it has {n_paths})"),
            PppError::WeightTooLarge { weight } => write!(f, "PPP edge weight {weight} does not fit in 64 bits"),
        }
    }
}

impl std::error::Error for PppError {}

/// The PPP weights of one function's DAG edges and the identifiers they give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PppNumbering {
    /// For each DAG node, the weight of each outgoing edge, in the order of the Ball-Larus
    /// numbering's edges; `None` for an edge on no interesting path.
    weights: Vec<Vec<Option<i128>>>,
    /// The interesting paths (Ball-Larus numbers, sorted, distinct) and their PPP ids.
    ids: Vec<(PathId, i128)>,
}

impl PppNumbering {
    /// Interesting paths with their PPP identifiers, by Ball-Larus number.
    pub fn ids(&self) -> &[(PathId, i128)] {
        &self.ids
    }

    /// The smallest and largest identifier (`None` without interesting paths).
    pub fn id_range(&self) -> Option<(i128, i128)> {
        let min = self.ids.iter().map(|p| p.1).min()?;
        let max = self.ids.iter().map(|p| p.1).max()?;
        Some((min, max))
    }

    /// ρ = (max − min + 1) / |I|; `None` without interesting paths.
    pub fn rho(&self) -> Option<f64> {
        let (min, max) = self.id_range()?;
        Some((max - min + 1) as f64 / self.ids.len() as f64)
    }

    /// The weight of the `i`-th outgoing DAG edge of `node` (as [`Numbering::dag_edges`]
    /// lists them).
    pub fn weight(&self, node: u32, i: usize) -> Option<i128> {
        self.weights.get(node as usize)?.get(i).copied().flatten()
    }
}

/// What taking a CFG edge does to the PPP register: the same shape as the Ball-Larus
/// [`EdgeAction`], with PPP weights. Edges on no interesting path add 0: a path through
/// one is told apart by the Ball-Larus register, whatever its PPP id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PppAction {
    Add(i64),
    End { add: i64, restart: Option<i64> },
    Dead,
}

impl PppNumbering {
    fn weight_to(&self, n: &Numbering, from: u32, to: u32) -> Result<i64, PppError> {
        let i = n.dag_edges()[from as usize].iter().position(|&(_, t)| t == to).expect("the edge is in the DAG");
        let w = self.weight(from, i).unwrap_or(0);
        i64::try_from(w).map_err(|_| PppError::WeightTooLarge { weight: w })
    }

    /// The PPP register's value when a path starts at block `b` (see
    /// [`Numbering::start_value`]), or `None` if no path starts there.
    pub fn start_value(&self, n: &Numbering, b: BlockIdx) -> Result<Option<i64>, PppError> {
        n.start_value(b).map(|_| self.weight_to(n, 0, b.0 + 1)).transpose()
    }

    /// What taking CFG edge `e` does to the PPP register (`n` and the CFG the numbering
    /// was made from).
    pub fn action(&self, n: &Numbering, cfg: &wpp_model::Cfg, e: EdgeIdx) -> Result<PppAction, PppError> {
        let edge = cfg.edge(e);
        let v = edge.from.0 + 1;
        let exit = n.dag_edges().len() as u32 - 1;
        Ok(match n.action(e) {
            EdgeAction::Dead => PppAction::Dead,
            EdgeAction::Add(_) => {
                let Target::Block(w) = edge.to else { unreachable!("forward edges go to blocks") };
                PppAction::Add(self.weight_to(n, v, w.0 + 1)?)
            }
            EdgeAction::End { restart, .. } => PppAction::End {
                add: self.weight_to(n, v, exit)?,
                restart: match (restart, edge.to) {
                    (Some(_), Target::Block(w)) => Some(self.weight_to(n, 0, w.0 + 1)?),
                    _ => None,
                },
            },
        })
    }
}

/// PPP weights for the paths `interesting` (Ball-Larus numbers of `n`; duplicates are
/// ignored) of one function.
pub fn ppp_number(n: &Numbering, interesting: &[PathId]) -> Result<PppNumbering, PppError> {
    let mut paths: Vec<PathId> = interesting.to_vec();
    paths.sort_unstable();
    paths.dedup();
    if let Some(&p) = paths.iter().find(|p| p.0 >= n.n_paths()) {
        return Err(PppError::NoSuchPath { path: p, n_paths: n.n_paths() });
    }
    let dag = n.dag_edges();
    let n_nodes = dag.len();
    // Each interesting path as its DAG edges, (node, index of the edge at that node), with
    // the Ball-Larus prefix sum before each edge.
    let mut through: Vec<Vec<Vec<(u32, u128)>>> = dag.iter().map(|out| vec![Vec::new(); out.len()]).collect();
    for (pi, &p) in paths.iter().enumerate() {
        let mut rem = p.0;
        let mut node = 0usize;
        let mut prefix: u128 = 0;
        loop {
            let out = &dag[node];
            let i = out.partition_point(|&(val, _)| val <= rem) - 1;
            let (val, next) = out[i];
            through[node][i].push((pi as u32, prefix));
            rem -= val;
            prefix += val as u128;
            node = next as usize;
            if node == n_nodes - 1 {
                break;
            }
        }
    }
    let mut weights: Vec<Vec<Option<i128>>> = dag.iter().map(|out| vec![None; out.len()]).collect();
    let mut pid = vec![0i128; paths.len()];
    // Cumulative interval size per prefix, (node, prefix sum).
    let mut cis: HashMap<(u32, u128), i128> = HashMap::new();
    // Nodes in reverse topological order: node numbers follow the code order of blocks.
    for v in (0..n_nodes).rev() {
        for i in 0..dag[v].len() {
            let on = &through[v][i];
            if on.is_empty() {
                continue;
            }
            // Per prefix, the least partial id of the paths through this edge.
            let mut min_of: HashMap<u128, i128> = HashMap::new();
            for &(p, q) in on {
                let m = min_of.entry(q).or_insert(pid[p as usize]);
                *m = (*m).min(pid[p as usize]);
            }
            let w = min_of.iter().map(|(&q, &m)| cis.get(&(v as u32, q)).copied().unwrap_or(0) - m).max().expect("the edge has paths");
            weights[v][i] = Some(w);
            let mut max_of: HashMap<u128, i128> = HashMap::new();
            for &(p, q) in on {
                pid[p as usize] += w;
                let m = max_of.entry(q).or_insert(pid[p as usize]);
                *m = (*m).max(pid[p as usize]);
            }
            for (q, m) in max_of {
                cis.insert((v as u32, q), m + 1);
            }
        }
    }
    Ok(PppNumbering { weights, ids: paths.into_iter().zip(pid).collect() })
}
