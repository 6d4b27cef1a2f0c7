//! The classifier against an enumeration of every path from the store to the load (long
//! enough to reach every state), on random CFGs with random actions.

use super::*;
use wpp_model::effects::Var;
use wpp_model::{Block, BlockIdx, Edge};
use wpp_test_support::Rng;

fn access(rng: &mut Rng) -> Access {
    let base = match rng.below(4) {
        0 | 1 => Base::Const,
        2 => Base::Var(Var::Local(0)),
        _ => Base::Unknown,
    };
    Access { memory: 0, base, offset: [0, 4, 8][rng.below(3)], width: [4, 8][rng.below(2)] }
}

fn action(rng: &mut Rng) -> Action {
    match rng.below(6) {
        0 | 1 => Action::Store { access: access(rng), at: 0 },
        2 | 3 => Action::Load { access: access(rng), at: 0 },
        4 => Action::Def { var: Var::Local(rng.below(2) as u32), at: 0 },
        _ => Action::Clobber { memory: 0, at: 0 },
    }
}

fn random_function(rng: &mut Rng) -> (Cfg, FuncEffects) {
    let n = 1 + rng.below(5) as u32;
    let blocks = (0..n).map(|_| Block { start: 0, end: 0, n_instrs: 1 }).collect();
    let mut edges = Vec::new();
    for b in 0..n {
        let mut targets: Vec<(Target, EdgeKind)> = Vec::new();
        for _ in 0..1 + rng.below(2) {
            let t = match rng.below(4) {
                0 if b + 1 < n => (Target::Block(BlockIdx(b + 1 + rng.below((n - b - 1) as usize) as u32)), EdgeKind::Forward),
                1 => (Target::Block(BlockIdx(rng.below(b as usize + 1) as u32)), EdgeKind::Back),
                2 if b + 1 < n => (Target::Block(BlockIdx(b + 1)), EdgeKind::Call),
                _ => (Target::Exit, EdgeKind::Return),
            };
            if !targets.iter().any(|x| x.0 == t.0) {
                targets.push(t);
            }
        }
        edges.extend(targets.into_iter().map(|(to, kind)| Edge { from: BlockIdx(b), to, kind }));
    }
    let fx = FuncEffects { blocks: (0..n).map(|_| (0..rng.below(4)).map(|_| action(rng)).collect()).collect(), params: 0, locals: 2 };
    (Cfg { blocks, edges }, fx)
}

/// Every path from just after `store` that reaches `load` within `budget` blocks: whether
/// one was clear and whether one was not.
fn enumerate(cfg: &Cfg, fx: &FuncEffects, loc: &Location, store: Site, load: Site) -> (bool, bool) {
    let out = cfg.out_ranges();
    let budget = 2 * cfg.blocks.len() + 2;
    let mut found = (false, false);
    // (block, first action, dirty, blocks entered so far)
    let mut stack = vec![(store.block, store.index + 1, false, 0usize)];
    while let Some((b, from, mut dirty, depth)) = stack.pop() {
        let mut killed = false;
        for (i, a) in fx.blocks[b as usize].iter().enumerate().skip(from as usize) {
            if b == load.block && i as u32 == load.index {
                if dirty {
                    found.1 = true;
                } else {
                    found.0 = true;
                }
            }
            match loc.effect(a) {
                Effect::Kills => {
                    killed = true;
                    break;
                }
                Effect::MayWrite => dirty = true,
                Effect::None => {}
            }
        }
        if killed || depth == budget {
            continue;
        }
        for e in &cfg.edges[out[b as usize].clone()] {
            if let Target::Block(t) = e.to {
                stack.push((t.0, 0, dirty || e.kind == EdgeKind::Call, depth + 1));
            }
        }
    }
    found
}

#[test]
fn agrees_with_path_enumeration() {
    let mut classes = std::collections::BTreeMap::new();
    for seed in 1..3000u64 {
        let mut rng = Rng::new(seed);
        let (cfg, fx) = random_function(&mut rng);
        let sites = |want_store: bool| -> Vec<Site> {
            let mut v = Vec::new();
            for (b, acts) in fx.blocks.iter().enumerate() {
                for (i, a) in acts.iter().enumerate() {
                    if matches!(a, Action::Store { .. }) == want_store && matches!(a, Action::Store { .. } | Action::Load { .. }) {
                        v.push(Site { block: b as u32, index: i as u32 });
                    }
                }
            }
            v
        };
        for &s in &sites(true) {
            for &l in &sites(false) {
                let got = classify_local(&cfg, &fx, s, l);
                let (Action::Store { access: w, .. }, Action::Load { access: r, .. }) =
                    (fx.blocks[s.block as usize][s.index as usize], fx.blocks[l.block as usize][l.index as usize])
                else {
                    unreachable!()
                };
                let fallback = if w.base == Base::Const { DepClass::FixedCost } else { DepClass::VariableCost };
                let want = match Location::of(&w, &r) {
                    None => fallback,
                    Some(loc) => match enumerate(&cfg, &fx, &loc, s, l) {
                        (true, false) => DepClass::FullyFree,
                        (true, true) => DepClass::PartiallyFree,
                        (false, _) => fallback,
                    },
                };
                assert_eq!(got, want, "seed {seed}: store {s:?}, load {l:?}\n{cfg:?}\n{fx:?}");
                *classes.entry(got).or_insert(0u32) += 1;
            }
        }
    }
    // Every class is met, so the comparison covered each.
    assert_eq!(classes.len(), 4, "{classes:?}");
}

/// The paper's cases: a global stored then loaded on every path (fully free); a store
/// through a pointer on one of two paths between them (partially free); a load through a
/// pointer of a global (fixed cost); both through pointers (variable cost).
#[test]
fn the_four_classes() {
    let global = Access { memory: 0, base: Base::Const, offset: 1024, width: 4 };
    let pointer = Access { memory: 0, base: Base::Unknown, offset: 0, width: 4 };
    let edge = |from: u32, to: u32| Edge { from: BlockIdx(from), to: Target::Block(BlockIdx(to)), kind: EdgeKind::Forward };
    let diamond = Cfg {
        blocks: vec![Block { start: 0, end: 0, n_instrs: 1 }; 4],
        edges: vec![edge(0, 1), edge(0, 2), edge(1, 3), edge(2, 3), Edge { from: BlockIdx(3), to: Target::Exit, kind: EdgeKind::Return }],
    };
    let fx = |middle: Vec<Action>, load: Access| FuncEffects {
        blocks: vec![vec![Action::Store { access: global, at: 1 }], middle, vec![], vec![Action::Load { access: load, at: 2 }]],
        params: 0,
        locals: 0,
    };
    let (s, l) = (Site { block: 0, index: 0 }, Site { block: 3, index: 0 });
    assert_eq!(classify_local(&diamond, &fx(vec![], global), s, l), DepClass::FullyFree);
    assert_eq!(classify_local(&diamond, &fx(vec![Action::Store { access: pointer, at: 3 }], global), s, l), DepClass::PartiallyFree);
    assert_eq!(classify_local(&diamond, &fx(vec![], pointer), s, l), DepClass::FixedCost);
    let through = FuncEffects {
        blocks: vec![vec![Action::Store { access: pointer, at: 1 }], vec![], vec![], vec![Action::Load { access: pointer, at: 2 }]],
        params: 0,
        locals: 0,
    };
    assert_eq!(classify_local(&diamond, &through, s, l), DepClass::VariableCost);
    // A store that rewrites the global on one arm: the other arm is the only path that
    // exercises the dependence, and it is clear.
    assert_eq!(classify_local(&diamond, &fx(vec![Action::Store { access: global, at: 3 }], global), s, l), DepClass::FullyFree);
}
