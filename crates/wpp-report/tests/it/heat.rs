//! Edge heat against a walk: random CFGs run block by block (several invocations, loops
//! bounded by a budget), every edge counted as it is taken; the walk's paths (cut where
//! the numbering cuts them, with and without cut points) and its consecutive pairs inside each invocation give the
//! heat, which must equal the walk's counts on every edge and block.

use std::collections::HashMap;

use proptest::prelude::*;
use wpp_model::{BlockIdx, Cfg, EdgeKind, Target};
use wpp_report::heat::heat;
use wpp_test_support::strategies::arb_cfg;
use wpp_test_support::Rng;

/// A real CFG's block that ends in a call has that one edge.
fn calls_alone(mut cfg: Cfg) -> Cfg {
    let calls: Vec<BlockIdx> = cfg.edges.iter().filter(|e| e.kind == EdgeKind::Call).map(|e| e.from).collect();
    cfg.edges.retain(|e| e.kind == EdgeKind::Call || !calls.contains(&e.from));
    cfg
}

struct Walk {
    edges: Vec<u64>,
    blocks: Vec<u64>,
    paths: HashMap<Vec<BlockIdx>, u64>,
    pairs: HashMap<(BlockIdx, BlockIdx), u64>,
}

/// Runs `invocations` invocations of `cfg`; `None` if one does not end in time.
fn walk(cfg: &Cfg, max_paths: u64, seed: u64, invocations: u32) -> Option<Walk> {
    let numbering = wpp_paths::number(cfg, &wpp_paths::Options { max_paths }).ok()?;
    let cut = numbering.cut_points();
    let mut rng = Rng::new(seed);
    let mut w = Walk { edges: vec![0; cfg.edges.len()], blocks: vec![0; cfg.n_blocks()], paths: HashMap::new(), pairs: HashMap::new() };
    for _ in 0..invocations {
        let mut b = BlockIdx(0);
        let mut path = vec![b];
        let mut prev_last: Option<BlockIdx> = None;
        let mut steps = 0usize;
        loop {
            w.blocks[b.idx()] += 1;
            steps += 1;
            if steps > 2_000 {
                return None;
            }
            let out: Vec<usize> = (0..cfg.edges.len()).filter(|&i| cfg.edges[i].from == b).collect();
            let leaving: Vec<usize> = out.iter().copied().filter(|&i| steps > 60 && cfg.edges[i].kind != EdgeKind::Back).collect();
            let choices = if leaving.is_empty() { &out } else { &leaving };
            let i = choices[rng.below(choices.len())];
            w.edges[i] += 1;
            let e = cfg.edges[i];
            let ends = match e.to {
                Target::Exit => true,
                Target::Block(t) => e.kind.ends_path() || cut.contains(&t),
            };
            if ends {
                if let (Some(last), Some(&first)) = (prev_last, path.first()) {
                    *w.pairs.entry((last, first)).or_default() += 1;
                }
                prev_last = path.last().copied();
                *w.paths.entry(std::mem::take(&mut path)).or_default() += 1;
            }
            match e.to {
                Target::Exit => break,
                Target::Block(t) => {
                    b = t;
                    path.push(b);
                }
            }
        }
    }
    Some(w)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn heat_equals_the_walk(cfg in arb_cfg(), cuts in any::<bool>(), seed in any::<u64>(), invocations in 1u32..6) {
        // Small limits make the numbering cut paths at forward edges too.
        let max_paths = if cuts { 3 } else { u64::MAX };
        let cfg = calls_alone(cfg);
        let Some(w) = walk(&cfg, max_paths, seed, invocations) else { return Ok(()) };
        let cut = wpp_paths::number(&cfg, &wpp_paths::Options { max_paths }).unwrap().cut_points().to_vec();
        let paths: Vec<(Vec<BlockIdx>, u64)> = w.paths.into_iter().collect();
        let pairs: Vec<(BlockIdx, BlockIdx, u64)> = w.pairs.into_iter().map(|((a, b), c)| (a, b, c)).collect();
        let h = heat(&cfg, &cut, &paths, Some(&pairs));
        prop_assert_eq!(&h.blocks, &w.blocks);
        let want: Vec<Option<u64>> = w.edges.iter().map(|&c| Some(c)).collect();
        prop_assert_eq!(&h.edges, &want, "{:?}", cfg.edges);
        // From counts alone, what is known is right.
        let h = heat(&cfg, &cut, &paths, None);
        prop_assert_eq!(&h.blocks, &w.blocks);
        for (i, c) in h.edges.iter().enumerate() {
            if let Some(c) = c {
                prop_assert_eq!(*c, w.edges[i], "edge {} {:?} from counts alone", i, cfg.edges[i]);
            }
        }
    }
}
