//! Per-line counts against the slow obvious computation: random CFGs run block by block
//! (several invocations, loops bounded by a budget), the run cut into paths where the
//! numbering cuts it, each block given random source lines and a random size. The fast
//! way aggregates the paths' counts into block counts and those into lines
//! (`heat::block_counts`, `annotate::line_counts`); the slow way walks the run path by
//! path, block by block, and hands each line its executions and, one instruction at a
//! time round the block's lines, its instructions, by the rule written out again.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use wpp_model::{BlockIdx, Cfg, EdgeKind, LineRange, Target};
use wpp_report::annotate::line_counts;
use wpp_report::heat::block_counts;
use wpp_test_support::strategies::arb_cfg;
use wpp_test_support::Rng;

/// The paths of `invocations` runs of `cfg`, in the order they ran; `None` if one does
/// not end in time.
fn walk(cfg: &Cfg, max_paths: u64, seed: u64, invocations: u32) -> Option<Vec<Vec<BlockIdx>>> {
    let numbering = wpp_paths::number(cfg, &wpp_paths::Options { max_paths }).ok()?;
    let cut = numbering.cut_points();
    let mut rng = Rng::new(seed);
    let mut run = Vec::new();
    for _ in 0..invocations {
        let mut b = BlockIdx(0);
        let mut path = vec![b];
        let mut steps = 0usize;
        loop {
            steps += 1;
            if steps > 2_000 {
                return None;
            }
            let out: Vec<usize> = (0..cfg.edges.len()).filter(|&i| cfg.edges[i].from == b).collect();
            let leaving: Vec<usize> = out.iter().copied().filter(|&i| steps > 60 && cfg.edges[i].kind != EdgeKind::Back).collect();
            let choices = if leaving.is_empty() { &out } else { &leaving };
            let e = cfg.edges[choices[rng.below(choices.len())]];
            let ends = match e.to {
                Target::Exit => true,
                Target::Block(t) => e.kind.ends_path() || cut.contains(&t),
            };
            if ends {
                run.push(std::mem::take(&mut path));
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
    Some(run)
}

/// The slow way: every block of every path of the run, in order.
fn by_walking(run: &[Vec<BlockIdx>], lines: &[Option<LineRange>], sizes: &[u32]) -> BTreeMap<(u32, u32), (u64, u64)> {
    let mut out: BTreeMap<(u32, u32), (u64, u64)> = BTreeMap::new();
    // Lines that never ran are listed too, with zeros.
    for r in lines.iter().flatten() {
        for l in counted_on(*r) {
            out.entry((r.file, l)).or_default();
        }
    }
    for path in run {
        for b in path {
            let Some(r) = lines[b.idx()] else { continue };
            let on = counted_on(r);
            for &l in &on {
                out.get_mut(&(r.file, l)).unwrap().0 += 1;
            }
            for i in 0..sizes[b.idx()] as usize {
                out.get_mut(&(r.file, on[i % on.len()])).unwrap().1 += 1;
            }
        }
    }
    out
}

/// The lines a block on `r` counts on: each of them when they are at most 8 apart, else
/// the first and the last.
fn counted_on(r: LineRange) -> Vec<u32> {
    if r.last - r.first > 8 {
        vec![r.first, r.last]
    } else {
        (r.first..=r.last).collect()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn line_counts_equal_the_walk(cfg in arb_cfg(), cuts in any::<bool>(), seed in any::<u64>(), invocations in 1u32..6) {
        let max_paths = if cuts { 3 } else { u64::MAX };
        let Some(run) = walk(&cfg, max_paths, seed, invocations) else { return Ok(()) };
        let mut rng = Rng::new(seed ^ 0x5eed);
        let n = cfg.n_blocks();
        // Two files; ranges from one line to far apart; some blocks without a line.
        let lines: Vec<Option<LineRange>> = (0..n)
            .map(|_| {
                if rng.below(6) == 0 {
                    return None;
                }
                let first = 1 + rng.below(40) as u32;
                let span = [0, 0, 1, 2, 8, 9, 30][rng.below(7)];
                Some(LineRange { file: rng.below(2) as u32, first, last: first + span })
            })
            .collect();
        let sizes: Vec<u32> = (0..n).map(|_| rng.below(12) as u32).collect();
        let mut paths: HashMap<Vec<BlockIdx>, u64> = HashMap::new();
        for p in &run {
            *paths.entry(p.clone()).or_default() += 1;
        }
        let paths: Vec<(Vec<BlockIdx>, u64)> = paths.into_iter().collect();
        let blocks = block_counts(n, &paths);
        // Block counts: how often the walk entered each block.
        let mut walked = vec![0u64; n];
        for b in run.iter().flatten() {
            walked[b.idx()] += 1;
        }
        prop_assert_eq!(&blocks, &walked);
        let fast = line_counts((0..n).filter_map(|b| Some((lines[b]?, sizes[b], blocks[b]))));
        let fast: BTreeMap<(u32, u32), (u64, u64)> = fast.into_iter().map(|(k, c)| (k, (c.executions, c.instructions))).collect();
        prop_assert_eq!(&fast, &by_walking(&run, &lines, &sizes));
        // The lines' instructions add up to the blocks'.
        let total: u64 = (0..n).filter(|&b| lines[b].is_some()).map(|b| blocks[b] * u64::from(sizes[b])).sum();
        prop_assert_eq!(fast.values().map(|c| c.1).sum::<u64>(), total);
    }
}
