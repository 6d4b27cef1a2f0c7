//! PPP numbering against enumeration: on random CFGs and random sets of interesting paths,
//! the identifiers are distinct, are the sums of the edge weights along each path, start
//! at 0, and ρ is what they give; the weights are the least Fig. 10 may give.

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

/// The paper's Fig. 3: DAG s → {a, b}, a → {c, d}, b → {c, d}, c → {d, t}, d → t, with
/// interesting paths sacdt, sact, sbct. PPP gives them 0, 1, 2.
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
}

#[test]
fn a_path_that_does_not_exist_is_an_error() {
    let b = Block { start: 0, end: 1, n_instrs: 1 };
    let cfg = Cfg { blocks: vec![b], edges: vec![Edge { from: BlockIdx(0), to: Target::Exit, kind: EdgeKind::Return }] };
    let n = number(&cfg, &Options::default()).unwrap();
    assert_eq!(ppp_number(&n, &[PathId(1)]), Err(PppError::NoSuchPath { path: PathId(1), n_paths: 1 }));
}

/// Acyclic CFGs with many paths: each block branches to up to three of the next few
/// blocks, some return early.
fn arb_wide_cfg() -> impl Strategy<Value = Cfg> {
    (8usize..40).prop_flat_map(|n| {
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Many paths, few of them interesting: prefixes shared in many ways, so the join
    /// matters.
    #[test]
    fn sparse_interesting_sets_on_wide_dags(cfg in arb_wide_cfg(), picks in proptest::collection::vec(any::<u64>(), 1..60)) {
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
