//! Post-dominators and control dependence (`wpp_dataflow::control_dep`) against their
//! definitions, checked by brute force on random CFGs: `y` post-dominates `x` when no
//! path from `x` reaches the exit without passing `y` (blocks that cannot reach the exit
//! given an edge to it, as the analysis does); `y` is control dependent on `a → b` when it
//! post-dominates `b` and does not strictly post-dominate `a`.

use proptest::prelude::*;
use wpp_dataflow::control_dep::{control_dependences, post_dominators};
use wpp_model::{BlockIdx, Cfg, Target};
use wpp_test_support::strategies::arb_cfg;

/// Successors with the exit as `n`, and an exit edge from each block that cannot reach it.
fn successors(cfg: &Cfg) -> Vec<Vec<usize>> {
    let n = cfg.n_blocks();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &cfg.edges {
        succ[e.from.idx()].push(match e.to {
            Target::Block(b) => b.idx(),
            Target::Exit => n,
        });
    }
    let reaches = |succ: &Vec<Vec<usize>>, from: usize, avoid: Option<usize>| {
        let mut seen = vec![false; n + 1];
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            if Some(x) == avoid || seen[x] {
                continue;
            }
            seen[x] = true;
            stack.extend(succ.get(x).into_iter().flatten());
        }
        seen[n]
    };
    let stuck: Vec<usize> = (0..n).filter(|&x| !reaches(&succ, x, None)).collect();
    for x in stuck {
        succ[x].push(n);
    }
    succ
}

/// Whether `y` post-dominates `x`, by search.
fn post_dominates(succ: &[Vec<usize>], y: usize, x: usize) -> bool {
    if x == y {
        return true;
    }
    let n = succ.len();
    let mut seen = vec![false; n + 1];
    let mut stack = vec![x];
    while let Some(v) = stack.pop() {
        if v == y || seen[v] {
            continue;
        }
        if v == n {
            return false;
        }
        seen[v] = true;
        stack.extend(&succ[v]);
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn control_dependence_is_its_definition(cfg in arb_cfg()) {
        let n = cfg.n_blocks();
        let succ = successors(&cfg);
        let pdom = post_dominators(&cfg);
        for x in 0..n {
            for y in 0..n {
                prop_assert_eq!(pdom.post_dominates(BlockIdx(y as u32), BlockIdx(x as u32)), post_dominates(&succ, y, x), "{} pdom {}", y, x);
            }
            // The immediate post-dominator: a strict one that every other strict one
            // post-dominates.
            let strict: Vec<usize> = (0..n).filter(|&y| y != x && post_dominates(&succ, y, x)).collect();
            let want = strict.iter().copied().find(|&i| strict.iter().all(|&o| post_dominates(&succ, o, i)));
            prop_assert_eq!(pdom.immediate(BlockIdx(x as u32)).map(|b| b.idx()), want, "ipdom of {}", x);
        }
        let deps = control_dependences(&cfg, &pdom);
        for (e, edge) in cfg.edges.iter().enumerate() {
            let want: Vec<BlockIdx> = match edge.to {
                Target::Exit => Vec::new(),
                Target::Block(b) => (0..n)
                    .filter(|&y| post_dominates(&succ, y, b.idx()) && !(y != edge.from.idx() && post_dominates(&succ, y, edge.from.idx())))
                    .map(|y| BlockIdx(y as u32))
                    .collect(),
            };
            prop_assert_eq!(&deps[e], &want, "edge {:?}", edge);
        }
    }
}

/// An `if` with an early return in one arm, in a loop closed by a `br_if`.
#[test]
fn a_diamond_in_a_loop() {
    let wat = r#"(module (func (param i32) (result i32)
        (loop $l
          (if (local.get 0) (then (return (i32.const 1))) (else (local.set 0 (i32.const 2))))
          (br_if $l (i32.eqz (local.get 0))))
        (i32.const 0)))"#;
    let wasm = wat::parse_str(wat).unwrap();
    let program = wpp_wasm::decode(&wasm).unwrap();
    let cfg = program.functions[0].cfg.as_ref().unwrap();
    let pdom = post_dominators(cfg);
    let deps = control_dependences(cfg, &pdom);
    // Each edge out of a block with two ways (into the function) decides some block; no
    // other edge does.
    let branches = cfg.edges.iter().filter(|e| cfg.edges.iter().filter(|f| f.from == e.from).count() > 1).count();
    assert!(branches >= 4, "{cfg:?}");
    for (e, edge) in cfg.edges.iter().enumerate() {
        let two_ways = cfg.edges.iter().filter(|f| f.from == edge.from).count() > 1;
        assert_eq!(!deps[e].is_empty(), two_ways && edge.to != Target::Exit, "edge {edge:?}: {:?}", deps[e]);
    }
}
