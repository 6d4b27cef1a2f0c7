//! Data flow frequencies on the grammar against the abstract run over the expanded trace,
//! and the paper's Fig. 1 example, matrices included, against the paper's own Fig. 2
//! algorithm (frequency matrices per node, bottom-up).

use proptest::prelude::*;
use wpp_grammar::dff::{abstract_run, Frequencies, Junction, Problem, Solver, Step, Terminal, Transfer};
use wpp_grammar::{Grammar, RuleId, Sequitur, Sym};
use wpp_test_support::Rng;

type Matrix = Vec<Vec<u64>>;

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    let n = a.len();
    let mut c = vec![vec![0u64; n]; n];
    for i in 0..n {
        for k in 0..n {
            if a[i][k] != 0 {
                for j in 0..n {
                    c[i][j] += a[i][k] * b[k][j];
                }
            }
        }
    }
    c
}

fn plus(a: &Matrix, b: &Matrix) -> Matrix {
    a.iter().zip(b).map(|(x, y)| x.iter().zip(y).map(|(p, q)| p + q).collect()).collect()
}

fn identity(n: usize) -> Matrix {
    (0..n).map(|i| (0..n).map(|j| u64::from(i == j)).collect()).collect()
}

/// The paper's Fig. 2 for one point `v` of a problem without frames: every symbol's
/// transition matrix and frequency matrix, terminals first, then rules in reverse
/// topological order. Returns (F per rule, M per rule) over dense (n+1)² matrices.
fn fig2(g: &Grammar, p: &Problem, v: u32) -> (Vec<Matrix>, Vec<Matrix>) {
    let n = p.facts;
    let dim = n as usize + 1;
    let mut ft = Vec::new();
    let mut mt = Vec::new();
    for t in &p.terminals {
        // ComputeTerminal: M(t) the whole path, F_t(v) the path up to v (or zero; summed
        // if v occurs more than once, which random paths allow and acyclic ones do not).
        let mut m = identity(dim);
        let mut f = vec![vec![0u64; dim]; dim];
        for s in &t.steps {
            if s.point == Some(v) {
                f = plus(&f, &m);
            }
            m = mul(&s.transfer.matrix(n), &m);
        }
        ft.push(f);
        mt.push(m);
    }
    let order = g.topological_order().unwrap();
    let mut fr = vec![Vec::new(); g.rules.len()];
    let mut mr = vec![Vec::new(); g.rules.len()];
    let (mut first, mut last) = (vec![0u32; g.rules.len()], vec![0u32; g.rules.len()]);
    for &RuleId(r) in order.iter().rev() {
        // ComputeNonterminal (with what happens between two symbols' paths: a transfer
        // between the last terminal of one and the first of the next).
        let mut f = vec![vec![0u64; dim]; dim];
        let mut m = identity(dim);
        let body = &g.rules[r as usize];
        let ends = |s: Sym, first: &[u32], last: &[u32]| match s {
            Sym::T(wpp_grammar::Terminal(t)) => (t, t),
            Sym::N(RuleId(c)) => (first[c as usize], last[c as usize]),
        };
        if let (Some(&x), Some(&y)) = (body.first(), body.last()) {
            first[r as usize] = ends(x, &first, &last).0;
            last[r as usize] = ends(y, &first, &last).1;
        }
        for (i, &s) in body.iter().enumerate() {
            if i > 0 {
                let a = ends(body[i - 1], &first, &last).1;
                let b = ends(s, &first, &last).0;
                if let Some(j) = p.junctions.get(&(a, b)) {
                    m = mul(&j.transfer.matrix(n), &m);
                }
            }
            let (fx, mx) = match s {
                Sym::T(wpp_grammar::Terminal(t)) => (&ft[t as usize], &mt[t as usize]),
                Sym::N(RuleId(c)) => (&fr[c as usize], &mr[c as usize]),
            };
            f = plus(&f, &mul(fx, &m));
            m = mul(mx, &m);
        }
        fr[r as usize] = f;
        mr[r as usize] = m;
    }
    (fr, mr)
}

/// y(v) = F_S(v) · φ(c), as (executions, holds).
fn fig2_frequencies(g: &Grammar, p: &Problem, v: u32) -> (u64, Vec<(u32, u64)>) {
    let (fr, _) = fig2(g, p, v);
    let n = p.facts as usize;
    let mut phi = vec![0u64; n + 1];
    for &d in &p.initial {
        phi[d as usize] = 1;
    }
    phi[n] = 1;
    let y: Vec<u64> = fr[0].iter().map(|row| row.iter().zip(&phi).map(|(a, b)| a * b).sum()).collect();
    (y[n], y[..n].iter().enumerate().filter(|&(_, &c)| c > 0).map(|(d, &c)| (d as u32, c)).collect())
}

fn step(point: Option<u32>, gen: &[u32], kill: &[u32]) -> Step {
    Step { point, transfer: Transfer::new(gen.iter().copied(), kill.iter().copied()) }
}

/// Fig. 1: a branch in a loop; d1 on edge 2→4, d2 on edge 3→4. Points are the nodes
/// s, 1, 2, 3, 4, 5 (0..6); facts d1 = 0, d2 = 1. Paths a = [s,1,2,4], b = [1,2,4],
/// c = [1,3,4,5]; the run is a b⁷ c, whose SEQUITUR(1) grammar is S → a A A A b c, A → b b.
fn fig1() -> (Grammar, Problem) {
    let (s, n1, n2, n3, n4, n5) = (0, 1, 2, 3, 4, 5);
    let f1 = |p| step(Some(p), &[0], &[1]);
    let f2 = |p| step(Some(p), &[1], &[0]);
    let id = |p| step(Some(p), &[], &[]);
    let a = Terminal { steps: vec![id(s), id(n1), f1(n2), id(n4)], ..Terminal::default() };
    let b = Terminal { steps: vec![id(n1), f1(n2), id(n4)], ..Terminal::default() };
    let c = Terminal { steps: vec![id(n1), f2(n3), id(n4), id(n5)], ..Terminal::default() };
    let problem = Problem {
        facts: 2,
        frame_facts: 0,
        initial: vec![],
        frame_entry: vec![],
        open_at_start: false,
        terminals: vec![a, b, c],
        junctions: Default::default(),
        points: 6,
    };
    let (ta, tb, tc) = (Sym::T(wpp_grammar::Terminal(0)), Sym::T(wpp_grammar::Terminal(1)), Sym::T(wpp_grammar::Terminal(2)));
    let grammar = Grammar::from(vec![vec![ta, Sym::N(RuleId(1)), Sym::N(RuleId(1)), Sym::N(RuleId(1)), tb, tc], vec![tb, tb]]);
    (grammar, problem)
}

#[test]
fn the_papers_running_example() {
    let (g, p) = fig1();
    // The grammar is what SEQUITUR(1) builds from a b⁷ c.
    let trace: Vec<u32> = [0].into_iter().chain([1; 7]).chain([2]).collect();
    assert_eq!(g.expand().collect::<Vec<_>>(), trace);
    let mut s = Sequitur::with_lookahead();
    trace.iter().for_each(|&t| s.push(t));
    assert_eq!(s.finish().expand().collect::<Vec<_>>(), trace);

    // The matrices of the paper: i^A, f1^A, f2^A (rows d1, d2, Λ).
    let f1 = Transfer::new([0], [1]);
    let f2 = Transfer::new([1], [0]);
    assert_eq!(Transfer::IDENTITY.matrix(2), vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]]);
    assert_eq!(f1.matrix(2), vec![vec![0, 0, 1], vec![0, 0, 0], vec![0, 0, 1]]);
    assert_eq!(f2.matrix(2), vec![vec![0, 0, 0], vec![0, 0, 1], vec![0, 0, 1]]);
    // The representation functions' table.
    assert_eq!((f1.representation(Some(0), 2), f1.representation(Some(1), 2), f1.representation(None, 2)), (vec![], vec![], vec![0, 2]));
    assert_eq!(Transfer::IDENTITY.representation(Some(1), 2), vec![1]);
    // f2({d1, d2}) = {d2}: f2^A · (1,1,1) = (0,1,1).
    assert_eq!(f2.apply(&[0, 1]), vec![1]);
    // F_b(4) = f1^A and F_A(4) = 2 · f1^A.
    let (fr, mr) = fig2(&g, &p, 4);
    assert_eq!(fr[1], vec![vec![0, 0, 2], vec![0, 0, 0], vec![0, 0, 2]]);
    assert_eq!(mr[1], f1.matrix(2));
    // d1 reaches node 2 seven times of eight, d2 never; the use at 4→5 (node 5) is
    // reached by d2 only.
    let solved = Solver::new(&g, &p).unwrap().solve(64);
    assert_eq!(solved.executions, vec![1, 9, 8, 1, 9, 1]);
    assert_eq!(solved.holds[2], vec![(0, 7)]);
    assert_eq!(solved.holds[5], vec![(1, 1)]);
    assert_eq!(solved.holds[4], vec![(0, 8), (1, 1)]);
    assert_eq!(solved.holds[0], vec![]);
    for v in 0..6 {
        assert_eq!(fig2_frequencies(&g, &p, v), (solved.executions[v as usize], solved.holds[v as usize].clone()), "node {v}");
    }
    let run = abstract_run(g.expand(), &p).unwrap();
    assert_eq!((run.executions, run.holds), (solved.executions, solved.holds));
}

#[test]
fn composition_and_duals() {
    let f = Transfer::new([1, 4], [2, 3]);
    let g = Transfer::new([2], [1, 5]);
    let fg = f.then(&g);
    assert_eq!((fg.gen(), fg.kill()), (&[2, 4][..], &[1, 3, 5][..]));
    for state in [vec![], vec![1, 2, 3], vec![0, 5, 6], vec![0, 1, 2, 3, 4, 5, 6]] {
        assert_eq!(fg.apply(&state), g.apply(&f.apply(&state)), "{state:?}");
        // The matrices compose the same way (g^A · f^A).
        assert_eq!(fg.matrix(7), mul(&g.matrix(7), &f.matrix(7)));
    }
    let d = f.dual();
    assert_eq!((d.gen(), d.kill()), (f.kill(), f.gen()));
    // A fact's complement evolves by the dual function.
    let all: Vec<u32> = (0..7).collect();
    for state in [vec![], vec![1, 2], vec![0, 3, 6]] {
        let complement: Vec<u32> = all.iter().copied().filter(|x| !state.contains(x)).collect();
        let after: Vec<u32> = all.iter().copied().filter(|x| !f.apply(&state).contains(x)).collect();
        assert_eq!(d.apply(&complement), after);
    }
}

/// A random problem over `facts` facts (the first `frame_facts` framed) with `terminals`
/// terminals and `points` points, and a random balanced run of `len` terminals.
fn random_case(seed: u64, len: usize) -> (Vec<u32>, Problem) {
    let mut rng = Rng::new(seed);
    let facts = rng.range(1, 12) as u32;
    let frame_facts = if rng.chance(3) { 0 } else { rng.below(facts as usize + 1) as u32 };
    let points = rng.range(1, 10) as u32;
    let n_terms = rng.range(1, 10);
    let set = |rng: &mut Rng, lo: u32, hi: u32| -> Vec<u32> { (lo..hi).filter(|_| rng.chance(4)).collect() };
    let mut terminals = Vec::new();
    for _ in 0..n_terms {
        let framed = frame_facts > 0 && !rng.chance(3);
        let steps = (0..rng.range(1, 6))
            .map(|_| {
                let point = (!rng.chance(3)).then(|| rng.below(points as usize) as u32);
                // Framed facts only in framed terminals.
                let lo = if framed { 0 } else { frame_facts };
                let gen = set(&mut rng, lo, facts);
                let kill = set(&mut rng, lo, facts);
                Step { point, transfer: Transfer::new(gen, kill) }
            })
            .collect();
        terminals.push(Terminal { framed, steps });
    }
    // Between some pairs of terminals: a return out of a framed one, a kill or gen of
    // program-wide facts, a call of the framed function.
    let mut junctions = rustc_hash::FxHashMap::default();
    for a in 0..n_terms as u32 {
        for b in 0..n_terms as u32 {
            if rng.chance(2) {
                let closes = terminals[a as usize].framed && rng.chance(2);
                let opens = frame_facts > 0 && rng.chance(3);
                let transfer = Transfer::new(set(&mut rng, frame_facts, facts), set(&mut rng, frame_facts, facts));
                junctions.insert((a, b), Junction { closes, transfer, opens });
            }
        }
    }
    let initial = set(&mut rng, frame_facts, facts);
    let frame_entry = set(&mut rng, 0, frame_facts);
    let open_at_start = frame_facts > 0 && rng.chance(2);
    let problem = Problem { facts, frame_facts, initial, frame_entry, open_at_start, terminals, junctions, points };
    // A balanced run: framed terminals that continue a frame only inside one, closes only
    // of an open frame; repetitive (short patterns repeated) so that the grammar has rules.
    let mut trace = Vec::new();
    let mut depth = usize::from(problem.open_at_start);
    let patterns: Vec<Vec<u32>> = (0..4).map(|_| (0..rng.range(1, 6)).map(|_| rng.below(n_terms) as u32).collect()).collect();
    let mut stuck = 0;
    while trace.len() < len && stuck < 100 {
        let before = trace.len();
        let pat = &patterns[rng.below(patterns.len())];
        let reps = rng.range(1, 8);
        for _ in 0..reps {
            for &t in pat {
                let mut d = depth;
                if let Some(j) = trace.last().and_then(|&p| problem.junctions.get(&(p, t))) {
                    if j.closes {
                        if d == 0 {
                            continue;
                        }
                        d -= 1;
                    }
                    d += usize::from(j.opens);
                }
                if problem.terminals[t as usize].framed && d == 0 {
                    continue;
                }
                depth = d;
                trace.push(t);
            }
        }
        stuck = if trace.len() == before { stuck + 1 } else { 0 };
    }
    (trace, problem)
}

fn same(a: &Frequencies, b: &Frequencies) -> bool {
    a.executions == b.executions && a.holds == b.holds
}

fn check(seed: u64, len: usize) {
    let (trace, problem) = random_case(seed, len);
    let expected = abstract_run(trace.iter().copied(), &problem).unwrap();
    let mut builders = vec![Sequitur::new(), Sequitur::with_lookahead()];
    for b in &mut builders {
        trace.iter().for_each(|&t| b.push(t));
    }
    let mut grammars: Vec<Grammar> = builders.into_iter().map(Sequitur::finish).collect();
    grammars.push(wpp_grammar::repair(&trace));
    for g in &grammars {
        let solver = Solver::new(g, &problem).unwrap();
        for chunk in [1, 3, 64] {
            let got = solver.solve(chunk);
            assert!(same(&got, &expected), "seed {seed} chunk {chunk}: {:?}\n vs {:?}", (&got.executions, &got.holds), (&expected.executions, &expected.holds));
        }
        if problem.frame_facts == 0 {
            for v in 0..problem.points {
                assert_eq!(fig2_frequencies(g, &problem, v), (expected.executions[v as usize], expected.holds[v as usize].clone()), "seed {seed} point {v}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn grammar_equals_the_abstract_run(seed in any::<u64>(), len in 0usize..300) {
        check(seed, len);
    }
}

#[test]
fn deep_recursion_and_long_runs() {
    for seed in 0..40 {
        check(seed, 3000);
    }
}

#[test]
fn an_unbalanced_run_is_refused() {
    // A path of the framed function with no frame open.
    let t = Terminal { framed: true, steps: vec![step(Some(0), &[0], &[])] };
    let p = Problem { facts: 1, frame_facts: 1, terminals: vec![t.clone()], points: 1, ..Problem::default() };
    let g = Grammar::from(vec![vec![Sym::T(wpp_grammar::Terminal(0))]]);
    assert!(Solver::new(&g, &p).is_err());
    assert!(abstract_run([0], &p).is_err());
    // A return out of a frame never opened.
    let mut junctions = rustc_hash::FxHashMap::default();
    junctions.insert((0, 0), Junction { closes: true, ..Junction::default() });
    let p = Problem { facts: 1, frame_facts: 1, terminals: vec![t], points: 1, open_at_start: true, junctions, ..Problem::default() };
    let g = Grammar::from(vec![vec![Sym::T(wpp_grammar::Terminal(0)), Sym::T(wpp_grammar::Terminal(0))]]);
    assert!(Solver::new(&g, &p).is_err());
    assert!(abstract_run([0, 0], &p).is_err());
}
