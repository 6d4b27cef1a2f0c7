//! The partition against the run that made the events: random programs of a few functions
//! (loops, calls, imports, recursion, tail calls, traps of the run's end) are run by a
//! small interpreter that records each invocation's paths and calls as it goes; the
//! partition must find exactly those invocations, and rebuild exactly the events.

use proptest::prelude::*;
use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeKind, FuncIdx, Function, PathEvent, PathId, Target};
use wpp_paths::{number_program, Options, ProgramNumbering};
use wpp_twpp::partition;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A function of `n` blocks: each block but the last ends in forward edges, a call, a
/// back edge (with a way forward), or a return (with a way forward).
fn random_cfg(rng: &mut Rng) -> Cfg {
    let n = 2 + rng.below(7);
    let mut edges = Vec::new();
    for i in 0..n {
        let from = BlockIdx(i as u32);
        let mut add = |to: Target, kind| edges.push(Edge { from, to, kind });
        if i == n - 1 {
            add(Target::Exit, EdgeKind::Return);
            continue;
        }
        match rng.below(6) {
            0 | 1 => {
                add(Target::Block(BlockIdx(i as u32 + 1)), EdgeKind::Forward);
                let j = i + 1 + rng.below(n - i - 1);
                if j != i + 1 {
                    add(Target::Block(BlockIdx(j as u32)), EdgeKind::Forward);
                }
            }
            2 | 3 => add(Target::Block(BlockIdx(i as u32 + 1)), EdgeKind::Call),
            4 => {
                add(Target::Block(BlockIdx(rng.below(i + 1) as u32)), EdgeKind::Back);
                add(Target::Block(BlockIdx(i as u32 + 1)), EdgeKind::Forward);
            }
            // A block that can both loop and return (a `br_table` to a loop and out of the
            // function) is the case the partition cannot always decide (see
            // `wpp_twpp::partition`): not generated here.
            _ => {
                add(Target::Block(BlockIdx(i as u32 + 1)), EdgeKind::Forward);
                add(Target::Exit, EdgeKind::Return);
            }
        }
    }
    let blocks = vec![Block { start: 0, end: 0, n_instrs: 1 }; n];
    let cfg = Cfg { blocks, edges };
    cfg.validate().unwrap();
    cfg
}

/// One invocation as the interpreter saw it.
#[derive(Debug, PartialEq, Eq)]
struct Invocation {
    func: FuncIdx,
    paths: Vec<PathId>,
    /// (paths before the call, callee's index in post-order, tail call)
    calls: Vec<(u32, usize, bool)>,
}

struct Machine<'a> {
    functions: &'a [Function],
    numberings: &'a ProgramNumbering,
    rng: Rng,
    budget: u32,
    events: Vec<PathEvent>,
    /// Post-order.
    done: Vec<Invocation>,
    /// The run ended (a trap, an exit) inside some invocation.
    ended: bool,
    /// Every invocation in the order it started: its function, its caller (`None`: the
    /// host), and its paths once it ended.
    starts: Vec<(FuncIdx, Option<FuncIdx>, Vec<PathId>)>,
}

impl Machine<'_> {
    fn emit(&mut self, func: FuncIdx, blocks: &mut Vec<BlockIdx>, inv: &mut Invocation) {
        let path = self.numberings.get(func).unwrap().encode(blocks).expect("a path of the function");
        self.events.push(PathEvent { func, path });
        inv.paths.push(path);
        blocks.clear();
    }

    /// Runs `func` to its return; returns whether it ended by a tail call.
    fn run(&mut self, func: FuncIdx, caller: Option<FuncIdx>, depth: u32) -> usize {
        let cfg = self.functions[func.idx()].cfg.as_ref().unwrap();
        let start = self.starts.len();
        self.starts.push((func, caller, Vec::new()));
        let mut inv = Invocation { func, paths: Vec::new(), calls: Vec::new() };
        let mut blocks = Vec::new();
        let mut b = BlockIdx(0);
        let mut tail = None;
        loop {
            blocks.push(b);
            self.budget = self.budget.saturating_sub(1);
            let out: Vec<&Edge> = cfg.edges.iter().filter(|e| e.from == b).collect();
            let choices: Vec<&&Edge> = out.iter().filter(|e| self.budget > 0 || e.kind != EdgeKind::Back).collect();
            let e = *choices[self.rng.below(choices.len())];
            match (e.kind, e.to) {
                (EdgeKind::Forward, Target::Block(t)) => b = t,
                (EdgeKind::Back, Target::Block(t)) => {
                    self.emit(func, &mut blocks, &mut inv);
                    b = t;
                }
                (EdgeKind::Call, Target::Block(t)) => {
                    self.emit(func, &mut blocks, &mut inv);
                    if self.budget > 0 && depth < 12 && self.rng.below(3) > 0 {
                        let callee = FuncIdx(1 + self.rng.below(self.functions.len() - 1) as u32);
                        let at = inv.paths.len() as u32;
                        let node = self.run(callee, Some(func), depth + 1);
                        inv.calls.push((at, node, false));
                    }
                    if self.ended {
                        break;
                    }
                    // The run may end inside an import (an exit).
                    if self.rng.below(200) == 0 {
                        self.ended = true;
                        break;
                    }
                    b = t;
                }
                (EdgeKind::Return, Target::Exit) => {
                    self.emit(func, &mut blocks, &mut inv);
                    if self.budget > 0 && depth < 12 && self.rng.below(6) == 0 {
                        let callee = FuncIdx(1 + self.rng.below(self.functions.len() - 1) as u32);
                        tail = Some((inv.paths.len() as u32, callee));
                    }
                    break;
                }
                _ => unreachable!(),
            }
            if self.budget == 0 && self.rng.below(500) == 0 {
                // A trap or a stop mid-path: the events so far are what was recorded.
                self.ended = true;
                break;
            }
        }
        if let Some((at, callee)) = tail.filter(|_| !self.ended) {
            let node = self.run(callee, Some(func), depth + 1);
            inv.calls.push((at, node, true));
        }
        self.starts[start].2 = inv.paths.clone();
        self.done.push(inv);
        self.done.len() - 1
    }
}

fn program(rng: &mut Rng) -> (Vec<Function>, ProgramNumbering) {
    let n = 2 + rng.below(4);
    let functions: Vec<Function> = (0..n).map(|i| Function { index: FuncIdx(i as u32), name: format!("f{i}"), cfg: Some(random_cfg(rng)) }).collect();
    let numberings = number_program(&functions, &Options::default()).unwrap();
    (functions, numberings)
}

fn check(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed | 1);
    let (functions, numberings) = program(&mut rng);
    let mut m = Machine {
        functions: &functions,
        numberings: &numberings,
        rng: Rng(seed.rotate_left(17) | 1),
        budget: 50 + (seed % 3000) as u32,
        events: Vec::new(),
        done: Vec::new(),
        ended: false,
        starts: Vec::new(),
    };
    m.run(FuncIdx(0), None, 0);
    let p = partition(&functions, &numberings, m.events.iter().copied()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(p.events, m.events.len() as u64);
    prop_assert_eq!(&p.events(), &m.events, "the events rebuilt");
    // The call graph as numbers, and those under LZW, come back the same.
    let numbers = wpp_twpp::dcg::to_numbers(&p.dcg);
    prop_assert_eq!(&wpp_twpp::dcg::from_numbers(&numbers).map_err(|e| TestCaseError::fail(e.to_string()))?, &p.dcg);
    let (alphabet, codes) = wpp_twpp::dcg::lzw_encode(&numbers);
    prop_assert_eq!(wpp_twpp::dcg::lzw_decode(&alphabet, &codes), Some(numbers));
    // Traces stored once per function, with their calls counted.
    for (f, t) in p.traces.iter() {
        let mut seen = std::collections::HashSet::new();
        prop_assert!(t.traces.iter().all(|tr| seen.insert(tr.clone())), "function {} keeps a trace twice", f);
    }
    let total_calls: u64 = p.traces.values().map(|t| t.calls.iter().sum::<u64>()).sum();
    prop_assert_eq!(total_calls, p.dcg.nodes.len() as u64);
    if p.ambiguous > 0 {
        return Ok(());
    }
    // Every invocation, in post-order, with its paths and calls.
    let found: Vec<Invocation> = p
        .dcg
        .nodes
        .iter()
        .map(|n| Invocation {
            func: n.func,
            paths: p.traces.get(n.func).unwrap().traces[n.trace.0 as usize].clone(),
            calls: p.dcg.calls[n.calls.start as usize..n.calls.end as usize].iter().map(|c| (c.at, c.node.idx(), c.tail)).collect(),
        })
        .collect();
    // An invocation without paths does not exist for the partition (the run ended on entry):
    // nor does the call that made it, and the others are numbered without it.
    let mut renumber = Vec::with_capacity(m.done.len());
    let mut kept = 0;
    for i in &m.done {
        renumber.push((!i.paths.is_empty()).then_some(kept));
        kept += usize::from(!i.paths.is_empty());
    }
    let want: Vec<Invocation> = m
        .done
        .into_iter()
        .filter(|i| !i.paths.is_empty())
        .map(|i| Invocation { calls: i.calls.into_iter().filter_map(|(at, node, tail)| Some((at, renumber[node]?, tail))).collect(), ..i })
        .collect();
    prop_assert_eq!(&found, &want);
    // The calling context tree, against the interpreter's own invocations: each stack's
    // invocations and the cost of its paths.
    let cost = |e: PathEvent| 7 * u64::from(e.func.0) + e.path.0 + 1;
    let tree = wpp_twpp::stacks::call_tree(&functions, &numberings, m.events.iter().copied(), cost).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut by_stack: std::collections::BTreeMap<Vec<FuncIdx>, (u64, u64)> = Default::default();
    if let Some(root) = want.len().checked_sub(1) {
        let mut todo = vec![(root, vec![want[root].func])];
        while let Some((i, stack)) = todo.pop() {
            let inv = &want[i];
            let entry = by_stack.entry(stack.clone()).or_default();
            entry.0 += 1;
            entry.1 += inv.paths.iter().map(|&path| cost(PathEvent { func: inv.func, path })).sum::<u64>();
            for &(_, callee, _) in &inv.calls {
                let mut s = stack.clone();
                s.push(want[callee].func);
                todo.push((callee, s));
            }
        }
    }
    let got: std::collections::BTreeMap<Vec<FuncIdx>, (u64, u64)> =
        tree.nodes.iter().enumerate().skip(1).map(|(i, n)| (tree.stack(wpp_twpp::stacks::StackIdx(i as u32)), (n.calls, n.own))).collect();
    prop_assert_eq!(got, by_stack);
    let inclusive = tree.inclusive();
    prop_assert_eq!(inclusive[0], m.events.iter().map(|&e| cost(e)).sum::<u64>(), "the root holds the whole run");
    // Invocations in the order they started, with their callers: the n-th of each
    // function, and each distinct trace's callers counted.
    let starts: Vec<_> = m.starts.into_iter().filter(|s| !s.2.is_empty()).collect();
    let in_order = p.dcg.in_run_order();
    for (f, t) in p.traces.iter() {
        let mine: Vec<_> = starts.iter().filter(|s| s.0 == f).collect();
        let theirs: Vec<_> = in_order.iter().filter(|&&(node, _)| p.dcg.nodes[node].func == f).collect();
        prop_assert_eq!(theirs.len(), mine.len());
        for (s, &&(node, caller)) in mine.iter().zip(&theirs) {
            let n = &p.dcg.nodes[node];
            prop_assert_eq!((n.func, caller), (f, s.1));
            prop_assert_eq!(&t.traces[n.trace.0 as usize], &s.2);
        }
        let mut want: Vec<std::collections::BTreeMap<Option<FuncIdx>, u64>> = vec![Default::default(); t.traces.len()];
        for s in &mine {
            let trace = t.traces.iter().position(|tr| tr == &s.2).unwrap();
            *want[trace].entry(s.1).or_default() += 1;
        }
        let got: Vec<std::collections::BTreeMap<Option<FuncIdx>, u64>> = p.dcg.callers(f).into_iter().map(|v| v.into_iter().collect()).collect();
        prop_assert_eq!(got, want, "callers of function {}", f);
    }
    prop_assert_eq!(&p.dcg.roots, &vec![wpp_twpp::Invocation(p.dcg.nodes.len() as u32 - 1)]);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn partition_finds_the_invocations(seed in any::<u64>()) {
        check(seed)?;
    }
}

/// A run that ends right after a call, before the callee's first path: the callee never
/// shows in the partition, nor the call that made it.
#[test]
fn a_run_ending_at_a_callees_entry() {
    check(11080315312626774302).unwrap();
}
