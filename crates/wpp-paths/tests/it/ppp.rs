//! PPP numbering against enumeration and against the most compact numberings there are.
//!
//! On random CFGs and random sets of interesting paths, the identifiers are distinct, are
//! the sums of the edge weights along each path, start at 0, and ρ is what they give; the
//! weights are the least Fig. 10 may give. On small DAGs with a few interesting paths,
//! [`optimum`] finds by exhaustive search the smallest span any numbering of the paper's
//! kind can reach, and PPP's span is held against it: equal where the paper's arguments
//! make PPP optimal (every path interesting, one prefix at every node), never smaller
//! anywhere. Theorem 1, which claims more, fails on a DAG of seven blocks
//! ([`theorem_1_fails_when_prefixes_meet_out_of_step`]).

use proptest::prelude::*;
use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeIdx, EdgeKind, PathId, Target};
use wpp_paths::{number, ppp_number, EdgeAction, Numbering, Options, PppAction, PppError, PppNumbering};
use wpp_test_support::strategies::arb_cfg;

/// The DAG edges of path `p`, from ENTRY to EXIT, each as (node, index among the node's
/// outgoing edges).
fn dag_path(n: &Numbering, p: PathId) -> Vec<(u32, usize)> {
    let dag = n.dag_edges();
    let (mut node, mut rem, mut edges) = (0usize, p.0, Vec::new());
    while node != dag.len() - 1 {
        let i = dag[node].partition_point(|&(val, _)| val <= rem) - 1;
        let (val, next) = dag[node][i];
        edges.push((node as u32, i));
        rem -= val;
        node = next as usize;
    }
    edges
}

/// The PPP identifier of path `p` as the sum of the weights along its DAG edges, or `None`
/// if one of them has no weight.
fn id_along(n: &Numbering, ppp: &PppNumbering, p: PathId) -> Option<i128> {
    dag_path(n, p).into_iter().map(|(node, i)| ppp.weight(node, i)).sum()
}

/// The PPP register at the end of a path run the way the instrumentation runs it: the
/// start value, then the action of every CFG edge taken, then a path-ending edge of the
/// last block.
fn simulate(cfg: &Cfg, n: &Numbering, ppp: &PppNumbering, blocks: &[BlockIdx]) -> i64 {
    let out = cfg.out_ranges();
    let mut reg = ppp.start_value(n, blocks[0]).unwrap().expect("a path starts at its first block");
    let edge_from = |v: BlockIdx, pick: &dyn Fn(&Edge, EdgeIdx) -> bool| {
        out[v.idx()].clone().map(|i| EdgeIdx(i as u32)).find(|&i| pick(cfg.edge(i), i)).expect("the edge exists")
    };
    for w in blocks.windows(2) {
        let e = edge_from(w[0], &|e, _| e.to == Target::Block(w[1]));
        match ppp.action(n, cfg, e).unwrap() {
            PppAction::Add(x) => reg += x,
            other => panic!("edge {:?} inside a path does {other:?}", cfg.edge(e)),
        }
    }
    let last = *blocks.last().unwrap();
    let end = edge_from(last, &|_, i| matches!(n.action(i), EdgeAction::End { .. }));
    match ppp.action(n, cfg, end).unwrap() {
        PppAction::End { add, .. } => reg + add,
        other => panic!("path-ending edge does {other:?}"),
    }
}

fn check_run(cfg: &Cfg, n: &Numbering, interesting: &[PathId]) -> Result<(), TestCaseError> {
    check(n, interesting)?;
    let ppp = ppp_number(n, interesting).unwrap();
    for &(p, id) in ppp.ids() {
        let blocks = n.decode(p).unwrap();
        prop_assert_eq!(simulate(cfg, n, &ppp, &blocks) as i128, id, "path {} ({:?})", p, blocks);
    }
    Ok(())
}

fn check(n: &Numbering, interesting: &[PathId]) -> Result<(), TestCaseError> {
    let ppp = ppp_number(n, interesting).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut distinct: Vec<PathId> = interesting.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    prop_assert_eq!(ppp.ids().iter().map(|x| x.0).collect::<Vec<_>>(), distinct.clone());
    let mut ids: Vec<i128> = ppp.ids().iter().map(|x| x.1).collect();
    for &(p, id) in ppp.ids() {
        prop_assert_eq!(id_along(n, &ppp, p), Some(id), "path {}", p);
    }
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    prop_assert_eq!(ids.len(), before, "two interesting paths share an id: {:?}", ppp.ids());
    least_weights(n, &ppp)?;
    if let (Some(&min), Some(&max)) = (ids.first(), ids.last()) {
        prop_assert_eq!(min, 0);
        prop_assert_eq!(ppp.id_range(), Some((min, max)));
        let rho = ppp.rho().unwrap();
        prop_assert!((rho - (max - min + 1) as f64 / ids.len() as f64).abs() < 1e-12);
        prop_assert!(rho >= 1.0);
    } else {
        prop_assert_eq!(ppp.rho(), None);
    }
    Ok(())
}

/// PPP's weights are the least that keep Lemma 5's invariant in edge order, as Fig. 10
/// computes them (Section 3.3: "the smallest weights such that the interesting paths are
/// assigned unique identifiers"): at every node, for every prefix reaching it, the partial
/// ids of its paths through each outgoing edge start after those through the edges before
/// (at 0 or later through the first), and every weighted edge starts right there for some
/// prefix.
fn least_weights(n: &Numbering, ppp: &PppNumbering) -> Result<(), TestCaseError> {
    use std::collections::{BTreeMap, HashMap};
    // Prefixes by number (0 is the empty one): a prefix and its next edge name the next.
    let mut prefixes: HashMap<(usize, (u32, usize)), usize> = HashMap::new();
    // For each node, prefix reaching it and outgoing edge: the least and greatest partial
    // id of the interesting paths taking them.
    let mut range: BTreeMap<(u32, usize, usize), (i128, i128)> = BTreeMap::new();
    for &(p, _) in ppp.ids() {
        let edges = dag_path(n, p);
        let mut prefix = vec![0];
        for &e in &edges {
            let next = prefixes.len() + 1;
            prefix.push(*prefixes.entry((*prefix.last().unwrap(), e)).or_insert(next));
        }
        let mut partial = 0;
        for (j, &(node, i)) in edges.iter().enumerate().rev() {
            partial += ppp.weight(node, i).expect("edges of interesting paths have weights");
            let r = range.entry((node, prefix[j], i)).or_insert((partial, partial));
            *r = (r.0.min(partial), r.1.max(partial));
        }
    }
    let mut tight: BTreeMap<(u32, usize), bool> = BTreeMap::new();
    let mut start = (u32::MAX, usize::MAX, 0);
    for (&(node, q, i), &(least, greatest)) in &range {
        if (start.0, start.1) != (node, q) {
            start = (node, q, 0);
        }
        prop_assert!(least >= start.2, "node {}, edge {}: a prefix's paths start at {}, before {}", node, i, least, start.2);
        *tight.entry((node, i)).or_default() |= least == start.2;
        start.2 = start.2.max(greatest + 1);
    }
    for ((node, i), tight) in tight {
        prop_assert!(tight, "node {}, edge {}: the weight {:?} is more than any prefix needs", node, i, ppp.weight(node, i));
    }
    Ok(())
}

/// The most compact numberings of a few interesting paths, by exhaustive search, to hold
/// PPP against.
///
/// The numberings are those of the paper's Problem A (Section 3): an integer weight on each
/// DAG edge, a path's id the sum of the weights along it, distinct ids for the interesting
/// paths. A numbering's span is max id − min id + 1, and ρ = span / |I|. Two subsets of
/// them matter for the paper's optimality result (Theorem 1, Section 4.4):
///
/// * [`Class::Nested`], the numberings that keep Lemma 5's invariant, the class Section 3.3
///   restricts PPP to and Section 4 reads as arithmetic codes: at every node, for every
///   prefix reaching it, the ids of the interesting paths with that prefix through
///   different outgoing edges lie in disjoint intervals. Equivalently (by induction over
///   the prefix tree), the interesting paths that share a prefix hold consecutive ranks
///   among all the interesting ids.
/// * [`Class::BallLarusOrder`], the nested numberings whose intervals at every node follow
///   the order of the node's outgoing edges, the order PPP weights them in. Ball-Larus
///   numbers follow that order too, so these are the numberings whose ids increase with
///   the Ball-Larus number.
///
/// The ids that weightings give form a lattice: the integer combinations of the columns of
/// the incidence matrix, a row per interesting path and a column per DAG edge on one.
/// Unimodular column operations bring it to a lower echelon basis; the search then picks
/// ids path by path: a pivot row's id ranges over one residue class, any other row's id is
/// fixed by the ones before it. Adding 1 to every ENTRY edge adds 1 to every id, so the
/// first path's id is fixed at 0 and the others stay within a span of it. Exponential in
/// |I|: meant for a handful of paths.
mod optimum {
    use std::collections::{BTreeSet, HashMap};

    use wpp_model::PathId;
    use wpp_paths::Numbering;

    /// Which numberings a search ranges over (see the module docs).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Class {
        Any,
        Nested,
        BallLarusOrder,
    }

    /// A numbering the search found: a weight for each edge of [`Problem::edges`] and the
    /// ids of the interesting paths, the least of them 0.
    #[derive(Clone, Debug)]
    pub struct Found {
        pub weights: Vec<i128>,
        pub ids: Vec<i128>,
    }

    impl Found {
        pub fn span(&self) -> i128 {
            self.ids.iter().max().unwrap() - self.ids.iter().min().unwrap() + 1
        }
    }

    /// One function's DAG and a set of interesting paths, ready to search.
    pub struct Problem {
        /// The DAG edges on interesting paths, as (node, index among its outgoing edges).
        pub edges: Vec<(u32, usize)>,
        /// The interesting paths by increasing Ball-Larus number, each as indices into
        /// `edges`.
        pub paths: Vec<Vec<usize>>,
        /// Every set (bit `i`: path `i`) of two or more, but not all, interesting paths
        /// that share a prefix.
        blocks: Vec<u64>,
        basis: Basis,
    }

    /// A lower echelon basis of the lattice of id vectors.
    struct Basis {
        /// The basis vectors: `cols[c][i]` is the id of path `i` in vector `c`.
        cols: Vec<Vec<i128>>,
        /// For each path (row), the vector whose first non-zero entry it holds, if any.
        pivot: Vec<Option<usize>>,
        /// For each basis vector, the edge weights that give it.
        weights: Vec<Vec<i128>>,
    }

    impl Problem {
        /// The paths `interesting` (Ball-Larus numbers of `n`; at most 64, duplicates
        /// ignored).
        pub fn new(n: &Numbering, interesting: &[PathId]) -> Problem {
            let mut ps = interesting.to_vec();
            ps.sort_unstable();
            ps.dedup();
            assert!(!ps.is_empty() && ps.len() <= 64, "{} paths", ps.len());
            let mut edges = Vec::new();
            let mut index = HashMap::new();
            let mut paths = Vec::new();
            for &p in &ps {
                let mut path = Vec::new();
                for e in super::dag_path(n, p) {
                    path.push(*index.entry(e).or_insert_with(|| {
                        edges.push(e);
                        edges.len() - 1
                    }));
                }
                paths.push(path);
            }
            let all = u64::MAX >> (64 - paths.len());
            let mut blocks = BTreeSet::new();
            for p in &paths {
                for len in 1..p.len() {
                    let block = (0..paths.len()).filter(|&j| paths[j].starts_with(&p[..len])).fold(0u64, |b, j| b | 1 << j);
                    if block.count_ones() > 1 && block != all {
                        blocks.insert(block);
                    }
                }
            }
            let basis = Basis::new(&paths, edges.len());
            Problem { edges, paths, blocks: blocks.into_iter().collect(), basis }
        }

        /// Whether `ids` (one per interesting path) are distinct and those of a numbering
        /// of `class`, checked from the definition.
        pub fn in_class(&self, ids: &[i128], class: Class) -> bool {
            let mut sorted = ids.to_vec();
            sorted.sort_unstable();
            let distinct = sorted.windows(2).all(|w| w[0] < w[1]);
            let nested = || {
                self.blocks.iter().all(|&b| {
                    let inside = |i: usize| b >> i & 1 == 1;
                    let lo = (0..ids.len()).filter(|&i| inside(i)).map(|i| ids[i]).min().unwrap();
                    let hi = (0..ids.len()).filter(|&i| inside(i)).map(|i| ids[i]).max().unwrap();
                    (0..ids.len()).all(|i| inside(i) || ids[i] < lo || ids[i] > hi)
                })
            };
            distinct
                && match class {
                    Class::Any => true,
                    Class::Nested => nested(),
                    Class::BallLarusOrder => ids.windows(2).all(|w| w[0] < w[1]) && nested(),
                }
        }

        /// The most compact numbering of `class` with a span of at most `max_span`, if
        /// there is one.
        pub fn best(&self, class: Class, max_span: i128) -> Option<Found> {
            (self.paths.len() as i128..=max_span).find_map(|span| self.within(class, span))
        }

        /// A numbering of `class` whose ids fit in `span` consecutive numbers, if any.
        fn within(&self, class: Class, span: i128) -> Option<Found> {
            let mut ids = vec![0; self.paths.len()];
            let mut coords = vec![0; self.basis.cols.len()];
            if !self.place(0, class, span, &mut ids, &mut coords) {
                return None;
            }
            let mut weights: Vec<i128> = (0..self.edges.len()).map(|e| self.basis.weights.iter().zip(&coords).map(|(w, c)| w[e] * c).sum()).collect();
            // Shift the ids to start at 0: every path takes exactly one ENTRY edge.
            let min = *ids.iter().min().unwrap();
            for (w, &(node, _)) in weights.iter_mut().zip(&self.edges) {
                if node == 0 {
                    *w -= min;
                }
            }
            Some(Found { weights, ids: ids.iter().map(|x| x - min).collect() })
        }

        /// Chooses the ids of paths `i..` given those before, within `span` of all of them;
        /// `coords` are the chosen ids' coordinates in the basis.
        fn place(&self, i: usize, class: Class, span: i128, ids: &mut [i128], coords: &mut [i128]) -> bool {
            if i == ids.len() {
                return true;
            }
            let (lo, hi) = ids[..i].iter().fold((0, 0), |(lo, hi), &x| (x.min(lo), x.max(hi)));
            let (mut from, to) = if i == 0 { (0, 0) } else { (hi - (span - 1), lo + (span - 1)) };
            if class == Class::BallLarusOrder && i > 0 {
                from = from.max(ids[i - 1] + 1);
            }
            // The id the vectors already fixed give this path.
            let known = self.basis.pivot[..i].iter().flatten().count();
            let partial: i128 = (0..known).map(|c| self.basis.cols[c][i] * coords[c]).sum();
            let try_id = |x: i128, ids: &mut [i128], coords: &mut [i128]| {
                if !self.fits(i, x, ids, class) {
                    return false;
                }
                ids[i] = x;
                if let Some(c) = self.basis.pivot[i] {
                    coords[c] = (x - partial) / self.basis.cols[c][i];
                }
                self.place(i + 1, class, span, ids, coords)
            };
            match self.basis.pivot[i] {
                Some(c) => {
                    let step = self.basis.cols[c][i];
                    let mut x = from + (partial - from).rem_euclid(step);
                    while x <= to {
                        if try_id(x, ids, coords) {
                            return true;
                        }
                        x += step;
                    }
                    false
                }
                None => (from..=to).contains(&partial) && try_id(partial, ids, coords),
            }
        }

        /// Whether path `i` may take id `x` given the ids of the paths before it: distinct,
        /// and for nested classes no block of paths sharing a prefix with another path's id
        /// inside its interval.
        fn fits(&self, i: usize, x: i128, ids: &[i128], class: Class) -> bool {
            if ids[..i].contains(&x) {
                return false;
            }
            if class == Class::Any {
                return true;
            }
            let id = |j: usize| if j == i { x } else { ids[j] };
            self.blocks.iter().all(|&b| {
                let inside = |j: usize| b >> j & 1 == 1;
                let mut members = (0..=i).filter(|&j| inside(j)).map(id);
                let Some(first) = members.next() else { return true };
                let (lo, hi) = members.fold((first, first), |(lo, hi), y| (lo.min(y), hi.max(y)));
                (0..=i).all(|j| inside(j) || id(j) < lo || id(j) > hi)
            })
        }
    }

    impl Basis {
        /// Column operations on the incidence matrix of `paths` over `n_edges` edges (a
        /// column per edge), applied alike to the identity so that each column keeps the
        /// weights that give it.
        fn new(paths: &[Vec<usize>], n_edges: usize) -> Basis {
            let mut cols: Vec<Vec<i128>> = (0..n_edges).map(|e| paths.iter().map(|p| i128::from(p.contains(&e))).collect()).collect();
            let mut weights: Vec<Vec<i128>> = (0..n_edges).map(|e| (0..n_edges).map(|f| i128::from(e == f)).collect()).collect();
            let mut pivot = vec![None; paths.len()];
            let mut rank = 0;
            for (i, row_pivot) in pivot.iter_mut().enumerate() {
                if rank == n_edges {
                    break;
                }
                for c in rank + 1..n_edges {
                    let (a, b) = (cols[rank][i], cols[c][i]);
                    if b == 0 {
                        continue;
                    }
                    // (rank, c) ← (s·rank + t·c, −(b/g)·rank + (a/g)·c): determinant 1, and
                    // column c gets 0 in row i.
                    let (g, s, t) = ext_gcd(a, b);
                    let (p, q) = (a / g, b / g);
                    for m in [&mut cols, &mut weights] {
                        let (r, o) = (m[rank].clone(), m[c].clone());
                        m[rank] = r.iter().zip(&o).map(|(x, y)| s * x + t * y).collect();
                        m[c] = r.iter().zip(&o).map(|(x, y)| p * y - q * x).collect();
                    }
                }
                if cols[rank][i] != 0 {
                    if cols[rank][i] < 0 {
                        for m in [&mut cols, &mut weights] {
                            m[rank].iter_mut().for_each(|x| *x = -*x);
                        }
                    }
                    *row_pivot = Some(rank);
                    rank += 1;
                }
            }
            cols.truncate(rank);
            weights.truncate(rank);
            Basis { cols, pivot, weights }
        }
    }

    /// (g, s, t) with g = gcd(a, b) > 0 and s·a + t·b = g, for b ≠ 0.
    fn ext_gcd(a: i128, b: i128) -> (i128, i128, i128) {
        let (mut r0, mut r1, mut s0, mut s1, mut t0, mut t1) = (a, b, 1, 0, 0, 1);
        while r1 != 0 {
            let q = r0 / r1;
            (r0, r1) = (r1, r0 - q * r1);
            (s0, s1) = (s1, s0 - q * s1);
            (t0, t1) = (t1, t0 - q * t1);
        }
        if r0 < 0 {
            (-r0, -s0, -t0)
        } else {
            (r0, s0, t0)
        }
    }
}

impl optimum::Problem {
    /// Whether every node the interesting paths leave is reached by all of them along one
    /// prefix, so that no join ever takes place.
    fn one_prefix_per_node(&self) -> bool {
        let mut prefix_at = std::collections::HashMap::new();
        self.paths.iter().all(|p| p.iter().enumerate().all(|(j, &e)| *prefix_at.entry(self.edges[e].0).or_insert(&p[..j]) == &p[..j]))
    }
}

/// The spans of one instance: the number of interesting paths, PPP's span and the least
/// span of each class of numberings.
#[derive(Clone, Copy, Debug)]
struct Spans {
    /// Whether the paper proves PPP optimal here: every path interesting, or one prefix at
    /// every node.
    proven: bool,
    paths: i128,
    ppp: i128,
    any: i128,
    nested: i128,
    ordered: i128,
}

/// PPP against the exhaustive optima of [`optimum`] for `interesting` (at least one path,
/// at most a handful):
///
/// * PPP's ids increase with the Ball-Larus number and keep the paths of every prefix in
///   one interval (Lemma 5, in PPP's edge order);
/// * each optimum is a numbering of its class (its ids are the sums of its weights, the
///   least 0) within PPP's span, so PPP is never better than the optimum; and the classes
///   nest: any ≤ nested ≤ in Ball-Larus order;
/// * where the paper proves PPP optimal, it is: with every path interesting (Section 4.4,
///   PPP then numbers like Ball-Larus) or with one prefix at every node (Section 3.1, pure
///   compaction), PPP's ids are exactly a range, and no numbering has a smaller span.
///
/// Theorem 1 (PPP optimal among nested numberings) is not checked here: it does not hold,
/// see [`theorem_1_fails_when_prefixes_meet_out_of_step`].
fn against_optimum(n: &Numbering, interesting: &[PathId]) -> Result<Spans, TestCaseError> {
    use optimum::{Class, Problem};
    check(n, interesting)?;
    let ppp = ppp_number(n, interesting).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let problem = Problem::new(n, interesting);
    let ids: Vec<i128> = ppp.ids().iter().map(|x| x.1).collect();
    prop_assert!(problem.in_class(&ids, Class::BallLarusOrder), "PPP's ids are not nested in Ball-Larus order: {:?}", ppp.ids());
    let (min, max) = ppp.id_range().expect("a path is interesting");
    let span = max - min + 1;
    let best = |class: Class| -> Result<i128, TestCaseError> {
        let found = problem
            .best(class, span)
            .ok_or_else(|| TestCaseError::fail(format!("no {class:?} numbering within PPP's span {span}: PPP's ids {:?}", ppp.ids())))?;
        for (path, &id) in problem.paths.iter().zip(&found.ids) {
            prop_assert_eq!(path.iter().map(|&e| found.weights[e]).sum::<i128>(), id, "{:?} weights {:?}", class, found.weights);
        }
        prop_assert_eq!(found.ids.iter().min(), Some(&0));
        prop_assert!(problem.in_class(&found.ids, class), "the {:?} search gave {:?}", class, found.ids);
        Ok(found.span())
    };
    let proven = problem.paths.len() as u64 == n.n_paths() || problem.one_prefix_per_node();
    let spans = Spans {
        proven,
        paths: problem.paths.len() as i128,
        ppp: span,
        any: best(Class::Any)?,
        nested: best(Class::Nested)?,
        ordered: best(Class::BallLarusOrder)?,
    };
    prop_assert!(spans.any <= spans.nested && spans.nested <= spans.ordered, "{:?}", spans);
    if proven {
        prop_assert_eq!(spans.ppp, spans.paths, "PPP is not a range where the paper proves it: {:?}, PPP's ids {:?}", spans, ppp.ids());
        prop_assert_eq!(spans.any, spans.ppp);
    }
    Ok(spans)
}

/// A CFG with blocks `0..n_blocks`, the forward edges `forward` (each block's in the order
/// given) and a return from each block of `returns`.
fn dag_cfg(n_blocks: u32, forward: &[(u32, u32)], returns: &[u32]) -> Cfg {
    let mut edges = Vec::new();
    for v in 0..n_blocks {
        for &(_, w) in forward.iter().filter(|e| e.0 == v) {
            edges.push(Edge { from: BlockIdx(v), to: Target::Block(BlockIdx(w)), kind: EdgeKind::Forward });
        }
        if returns.contains(&v) {
            edges.push(Edge { from: BlockIdx(v), to: Target::Exit, kind: EdgeKind::Return });
        }
    }
    let cfg = Cfg { blocks: vec![Block { start: 0, end: 1, n_instrs: 1 }; n_blocks as usize], edges };
    cfg.validate().unwrap();
    cfg
}

/// `cfg` numbered, and its paths through `paths` (blocks of each) by Ball-Larus number.
fn numbered_paths(cfg: &Cfg, paths: &[&[u32]]) -> (Numbering, Vec<PathId>) {
    let n = number(cfg, &Options::default()).unwrap();
    let ids = paths.iter().map(|p| n.encode(&p.iter().map(|&b| BlockIdx(b)).collect::<Vec<_>>()).expect("a path of the CFG")).collect();
    (n, ids)
}

/// The DAG of Lemma 3 (Fig. 6): s → {a, b, c} → d → {e, f, g} → t, blocks s = 0, a = 1,
/// b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, and `extra` more blocks, each a path
/// s → h → t of its own.
fn figure_6(extra: u32) -> Cfg {
    let mut forward = vec![(0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (3, 4), (4, 5), (4, 6), (4, 7)];
    forward.extend((0..extra).map(|h| (0, 8 + h)));
    let returns: Vec<u32> = (5..8 + extra).collect();
    dag_cfg(8 + extra, &forward, &returns)
}

/// Lemma 3's six paths: each of a, b, c with two of e, f, g.
const FIGURE_6_PATHS: [&[u32]; 6] = [&[0, 1, 4, 6], &[0, 1, 4, 7], &[0, 2, 4, 5], &[0, 2, 4, 7], &[0, 3, 4, 5], &[0, 3, 4, 6]];

/// Lemma 3: no numbering gives Fig. 6's six paths the ids 0..5. With u, v, w the weights
/// of s–a–d, s–b–d, s–c–d and x, y, z those of d–e–t, d–f–t, d–g–t, the ids are u + y,
/// u + z, v + x, v + z, w + x, w + y, whose sum is even, while 0 + 1 + … + 5 is odd. The
/// search must find no span of 6, and PPP must not beat it.
#[test]
fn lemma_3_no_numbering_of_figure_6_is_perfect() {
    let (n, paths) = numbered_paths(&figure_6(0), &FIGURE_6_PATHS);
    let spans = against_optimum(&n, &paths).unwrap();
    assert!(spans.any > spans.paths, "{spans:?}");
}

/// Section 3.3 (Fig. 11): a numbering with holes, composed in parallel with graphs that
/// have as many paths as there are holes, can be made perfect by numbering their paths
/// into the holes, where nested numberings (PPP's) cannot follow. Here Fig. 6 and its six
/// paths, whose best numbering leaves one hole (Lemma 3 and PPP's span of 7), and one
/// more path s → h → t: some numbering of the seven paths is perfect, no nested one is.
#[test]
fn figure_11_holes_are_filled_only_across_intervals() {
    let (n, paths) = numbered_paths(&figure_6(0), &FIGURE_6_PATHS);
    let alone = against_optimum(&n, &paths).unwrap();
    assert_eq!(alone.ppp - alone.paths, 1, "{alone:?}");
    let mut with_h = FIGURE_6_PATHS.to_vec();
    with_h.push(&[0, 8]);
    let (n, paths) = numbered_paths(&figure_6(1), &with_h);
    let spans = against_optimum(&n, &paths).unwrap();
    assert_eq!(spans.any, spans.paths, "{spans:?}");
    assert!(spans.nested > spans.paths, "{spans:?}");
}

/// Theorem 1 says PPP's numbering is optimal among those that keep Lemma 5's invariant
/// (Problem B, whose measure 2^H is the span of such a nested numbering). It is not.
///
/// Blocks s = 0, a = 1, c = 2, d = 3, e = 4, f = 5, g = 6; edges s → {a, c}, a → c,
/// c → {d, e}, d → {e, f}, f → {g, t}, e → t, g → t; interesting paths sacdet, sacet,
/// scdfgt, scdft, scet, in Ball-Larus order. Fig. 10 weights d → e and d → f 0 each: they
/// carry different prefixes (sacd, scd), so nothing ties them. At c both prefixes then
/// split over c → d and c → e, and the weight c → e needs is 1 for sac (one path through
/// c → d) but 2 for sc (two): the join takes 2 and leaves a hole between sacdet and sacet.
/// PPP's ids are 0, 2, 3, 4, 5. Weighting d → e 1 instead aligns the two prefixes, and the
/// ids 0..4 keep Lemma 5's invariant in PPP's own edge order.
#[test]
fn theorem_1_fails_when_prefixes_meet_out_of_step() {
    let cfg = dag_cfg(7, &[(0, 1), (0, 2), (1, 2), (2, 3), (2, 4), (3, 4), (3, 5), (5, 6)], &[4, 5, 6]);
    let (n, paths) = numbered_paths(&cfg, &[&[0, 1, 2, 3, 4], &[0, 1, 2, 4], &[0, 2, 3, 5, 6], &[0, 2, 3, 5], &[0, 2, 4]]);
    let spans = against_optimum(&n, &paths).unwrap();
    assert_eq!(spans.ordered, spans.paths, "{spans:?}");
    assert!(spans.ppp > spans.ordered, "{spans:?}");
}

/// The paper's Fig. 3: DAG s → {a, b}, a → {c, d}, b → {c, d}, c → {d, t}, d → t, with
/// interesting paths sacdt, sact, sbct. PPP gives them 0, 1, 2, with the weights of the
/// paper's walk-through.
#[test]
fn paper_figure_3() {
    let b = Block { start: 0, end: 1, n_instrs: 1 };
    let e = |f: u32, t: Option<u32>| Edge {
        from: BlockIdx(f),
        to: t.map_or(Target::Exit, |t| Target::Block(BlockIdx(t))),
        kind: if t.is_some() { EdgeKind::Forward } else { EdgeKind::Return },
    };
    // s = 0, a = 1, b = 2, c = 3, d = 4, t = the exit.
    let cfg = Cfg {
        blocks: vec![b; 5],
        edges: vec![e(0, Some(1)), e(0, Some(2)), e(1, Some(3)), e(1, Some(4)), e(2, Some(3)), e(2, Some(4)), e(3, Some(4)), e(3, None), e(4, None)],
    };
    let n = number(&cfg, &Options::default()).unwrap();
    assert_eq!(n.n_paths(), 6);
    let bl = |blocks: &[u32]| n.encode(&blocks.iter().map(|&b| BlockIdx(b)).collect::<Vec<_>>()).unwrap();
    let (sacdt, sact, sbct) = (bl(&[0, 1, 3, 4]), bl(&[0, 1, 3]), bl(&[0, 2, 3]));
    let ppp = ppp_number(&n, &[sbct, sacdt, sact]).unwrap();
    let id = |p: PathId| ppp.ids().iter().find(|x| x.0 == p).unwrap().1;
    assert_eq!((id(sacdt), id(sact), id(sbct)), (0, 1, 2));
    assert_eq!(ppp.rho(), Some(1.0));
    // The edge weights of the paper's walk-through: (b, c) gets -1, (s, b) gets 2.
    let dag = n.dag_edges();
    let edge = |from: u32, to: u32| dag[from as usize + 1].iter().position(|&(_, t)| t == to + 1).unwrap();
    assert_eq!(ppp.weight(3, edge(2, 3)), Some(-1));
    assert_eq!(ppp.weight(1, edge(0, 2)), Some(2));
    // Edges on no interesting path have no weight: (a, d), (b, d).
    assert_eq!(ppp.weight(2, edge(1, 4)), None);
    assert_eq!(ppp.weight(3, edge(2, 4)), None);
    check_run(&cfg, &n, &[sacdt, sact, sbct]).unwrap();
    against_optimum(&n, &[sacdt, sact, sbct]).unwrap();
}

#[test]
fn a_path_that_does_not_exist_is_an_error() {
    let b = Block { start: 0, end: 1, n_instrs: 1 };
    let cfg = Cfg { blocks: vec![b], edges: vec![Edge { from: BlockIdx(0), to: Target::Exit, kind: EdgeKind::Return }] };
    let n = number(&cfg, &Options::default()).unwrap();
    assert_eq!(ppp_number(&n, &[PathId(1)]), Err(PppError::NoSuchPath { path: PathId(1), n_paths: 1 }));
}

/// Acyclic CFGs of `blocks` blocks with many paths: each block branches to up to three of
/// the next few blocks, some return early.
fn arb_wide_cfg(blocks: std::ops::Range<usize>) -> impl Strategy<Value = Cfg> {
    blocks.prop_flat_map(|n| {
        proptest::collection::vec((proptest::collection::vec(0usize..5, 1..4), any::<u8>()), n).prop_map(move |specs| {
            let mut edges = Vec::new();
            for (v, (fwd, exit)) in specs.into_iter().enumerate() {
                let mut targets: Vec<usize> = fwd.into_iter().map(|d| v + 1 + d).filter(|&w| w < n).collect();
                targets.sort_unstable();
                targets.dedup();
                for w in &targets {
                    edges.push(Edge { from: BlockIdx(v as u32), to: Target::Block(BlockIdx(*w as u32)), kind: EdgeKind::Forward });
                }
                if targets.is_empty() || exit % 7 == 0 {
                    edges.push(Edge { from: BlockIdx(v as u32), to: Target::Exit, kind: EdgeKind::Return });
                }
            }
            Cfg { blocks: vec![Block { start: 0, end: 1, n_instrs: 1 }; n], edges }
        })
    })
}

/// A CFG and a path limit to number it with: none, or a small one that forces cut points.
fn arb_numbered_cfg() -> impl Strategy<Value = (Cfg, u64)> {
    (arb_cfg(), prop_oneof![Just(u64::MAX), 1u64..64])
}

/// `cfg` numbered with at most `max_paths` paths, or, where no cut points achieve that,
/// with at most as many paths as blocks, which cut points always achieve: once they leave
/// each block a single path to the exit, each path start has one path.
fn number_within(cfg: &Cfg, max_paths: u64) -> Result<Numbering, TestCaseError> {
    match number(cfg, &Options { max_paths }) {
        Ok(n) => Ok(n),
        Err(e) => {
            prop_assert!(max_paths < cfg.n_blocks() as u64, "{}", e);
            number(cfg, &Options { max_paths: cfg.n_blocks() as u64 }).map_err(|e| TestCaseError::fail(format!("with a limit of one path per block: {e}")))
        }
    }
}

/// Instances for the exhaustive optimum: a small DAG (a random CFG, numbered with or
/// without cut points, or a wide DAG of up to 20 blocks, where prefixes meet in many
/// ways), its path limit and 2 to 8 picks of interesting paths (modulo the number of
/// paths).
fn arb_instance() -> impl Strategy<Value = (Cfg, u64, Vec<u64>)> {
    let cfgs = prop_oneof![arb_numbered_cfg(), arb_wide_cfg(8..21).prop_map(|cfg| (cfg, u64::MAX))];
    (cfgs, proptest::collection::vec(any::<u64>(), 2..=8)).prop_map(|((cfg, max_paths), picks)| (cfg, max_paths, picks))
}

fn against_optimum_on(cfg: &Cfg, max_paths: u64, picks: &[u64]) -> Result<Spans, TestCaseError> {
    let n = number_within(cfg, max_paths)?;
    let interesting: Vec<PathId> = picks.iter().map(|&x| PathId(x % n.n_paths())).collect();
    against_optimum(&n, &interesting)
}

/// How far PPP is from the most compact numbering, on a fixed sample of instances:
/// [`against_optimum`] holds on each, and the sample reaches the joins (PPP leaves holes in
/// some). `--nocapture` shows the distribution: for each excess of PPP's span over the
/// optimum (of any numbering, of nested ones, of nested ones in PPP's edge order), how
/// many instances.
#[test]
fn distance_from_the_optimum() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = arb_instance();
    let mut excess = std::collections::BTreeMap::new();
    let (mut n_instances, mut n_proven, mut with_holes, mut worst) = (0, 0, 0, (1.0, None));
    for _ in 0..2000 {
        let (cfg, max_paths, picks) = strategy.new_tree(&mut runner).unwrap().current();
        let spans = against_optimum_on(&cfg, max_paths, &picks).unwrap_or_else(|e| panic!("{e}\n{cfg:?}, max_paths {max_paths}, picks {picks:?}"));
        n_instances += 1;
        n_proven += usize::from(spans.proven);
        with_holes += usize::from(spans.ppp > spans.paths);
        *excess.entry((spans.ppp - spans.any, spans.ppp - spans.nested, spans.ppp - spans.ordered)).or_insert(0) += 1;
        let ratio = spans.ppp as f64 / spans.any as f64;
        if ratio > worst.0 {
            worst = (ratio, Some(spans));
        }
    }
    eprintln!(
        "{n_instances} instances, {n_proven} where the paper proves PPP optimal; PPP's span over the optimum (any, nested, nested in PPP's order): instances"
    );
    for ((any, nested, ordered), count) in &excess {
        eprintln!("  +{any} +{nested} +{ordered}: {count}");
    }
    eprintln!("{with_holes} with holes in PPP's ids; worst ratio to the optimum {:.3}: {:?}", worst.0, worst.1);
    assert!(with_holes >= 10, "only {with_holes} instances with holes: the sample misses the joins");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Many paths, few of them interesting: prefixes shared in many ways, so the join
    /// matters.
    #[test]
    fn sparse_interesting_sets_on_wide_dags(cfg in arb_wide_cfg(8..40), picks in proptest::collection::vec(any::<u64>(), 1..60)) {
        let n = number(&cfg, &Options::default()).unwrap();
        let interesting: Vec<PathId> = picks.iter().map(|&x| PathId(x % n.n_paths())).collect();
        check_run(&cfg, &n, &interesting)?;
    }

    /// Any limit: where no cut points meet it, [`number_within`] checks that the limit
    /// was below the number of blocks and numbers within that instead.
    #[test]
    fn random_interesting_sets((cfg, max_paths) in arb_numbered_cfg(), picks in proptest::collection::vec(any::<u64>(), 0..40)) {
        let n = number_within(&cfg, max_paths)?;
        let interesting: Vec<PathId> = picks.iter().map(|&x| PathId(x % n.n_paths())).collect();
        check_run(&cfg, &n, &interesting)?;
    }

    /// With every path interesting, PPP numbers them as compactly as Ball-Larus: ρ = 1.
    #[test]
    fn all_paths_are_numbered_compactly(cfg in arb_cfg()) {
        let n = number(&cfg, &Options::default()).unwrap();
        prop_assume!(n.n_paths() <= 4096);
        let all: Vec<PathId> = (0..n.n_paths()).map(PathId).collect();
        check_run(&cfg, &n, &all)?;
        prop_assert_eq!(ppp_number(&n, &all).unwrap().rho(), Some(1.0));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Random sparse interesting sets on small DAGs: PPP against the exhaustive optima
    /// ([`against_optimum`]).
    #[test]
    fn ppp_against_the_optimum((cfg, max_paths, picks) in arb_instance()) {
        against_optimum_on(&cfg, max_paths, &picks)?;
    }
}
