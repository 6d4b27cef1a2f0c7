//! Data flow frequencies on the grammar against the abstract run of the real execution.
//!
//! The oracle runs the module rewritten to report every function entry, basic block, call
//! and exit (the block-log rewrite, which shares only the CFG with the path rewrite) and
//! simulates the facts as it goes, with semantics written here from the problem's
//! definition: the current definition of every local (one copy per frame), of every
//! global and of every constant location, and whether each tracked access is available.
//! At every execution of a block of an analysed function (and before each of its loads)
//! it counts the facts that hold. `wpp_dataflow::dff` — calls and returns read off
//! consecutive paths, frames on the grammar, the dual for available loads — must give the
//! same counts, fact for fact, on the `.wat` programs, on random programs and on real
//! programs' test runs.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use wpp_dataflow::dff::{Dff, FactDesc, ProblemKind};
use wpp_model::effects::{Access, Action, Base, FuncEffects, Var};
use wpp_model::{FuncIdx, FuncMap, PathEvent};
use wpp_profile::Profile;
use wpp_record::{Builder, RecordMode};
use wpp_runtime::{run_block_log, RunConfig, Stdio};
use wpp_test_support::frame_walk::{FrameOracle, FrameWalk};
use wpp_test_support::{corpus, recordings, workloads};
use wpp_twpp::dataflow::Site;

/// What the walk counts at one point: executions, and per fact how often it held.
type Counts = (u64, BTreeMap<FactDesc, u64>);

struct Walk {
    effects: FuncMap<FuncEffects>,
    analysed: Vec<u32>,
    globals: BTreeMap<u32, Site>,
    /// Each constant location's definition (`None` once a store to a larger location
    /// covering it rewrote it).
    memory: BTreeMap<Access, Option<Site>>,
    /// Per analysed function, its tracked loads' accesses and whether each is available.
    available: BTreeMap<Access, bool>,
    /// Per (function, block): counts at its entry; per (function, load offset): counts
    /// before the load (available loads).
    blocks: HashMap<(u32, u32), Counts>,
    loads: HashMap<(u32, u32), (u64, u64)>,
}

fn tracked(a: &Access) -> bool {
    matches!(a.base, Base::Const | Base::Var(Var::Global(_)))
}

impl Walk {
    fn new(effects: FuncMap<FuncEffects>, analysed: Vec<u32>) -> Walk {
        let mut globals = BTreeMap::new();
        let mut memory = BTreeMap::new();
        let mut available = BTreeMap::new();
        for (f, fx) in effects.iter() {
            for a in fx.blocks.iter().flatten() {
                match *a {
                    Action::Def { var: Var::Global(g), .. } => {
                        globals.insert(g, Site::Init);
                    }
                    Action::Store { access, .. } if access.base == Base::Const => {
                        memory.insert(access, Some(Site::Init));
                    }
                    Action::Load { access, .. } if tracked(&access) && analysed.contains(&f.0) => {
                        available.insert(access, false);
                    }
                    _ => {}
                }
            }
        }
        Walk { effects, analysed, globals, memory, available, blocks: HashMap::new(), loads: HashMap::new() }
    }

    /// Action `a` in the running invocation, whose locals' definitions are `locals`.
    fn apply(&mut self, locals: &mut [Site], a: &Action) {
        match *a {
            Action::Def { var: Var::Local(x), at } => {
                if let Some(l) = locals.get_mut(x as usize) {
                    *l = Site::At(at);
                }
            }
            Action::Def { var: Var::Global(g), at } => {
                self.globals.insert(g, Site::At(at));
            }
            Action::Store { access: b, at } if b.base == Base::Const => {
                for (l, s) in self.memory.iter_mut() {
                    let inside = l.memory == b.memory && b.offset <= l.offset && l.offset + l.width as u64 <= b.offset + b.width as u64;
                    if inside {
                        *s = if *l == b { Some(Site::At(at)) } else { None };
                    }
                }
            }
            _ => {}
        }
        // Availability, from the definition: the same bytes read or written at the same
        // address expression make it; any write that may touch them, or a new value of
        // the global the address depends on, ends it.
        for (x, avail) in self.available.iter_mut() {
            match *a {
                Action::Load { access: b, .. } | Action::Store { access: b, .. }
                    if b.memory == x.memory && b.base == x.base && b.offset <= x.offset && x.offset + x.width as u64 <= b.offset + b.width as u64 =>
                {
                    *avail = true
                }
                Action::Store { access: b, .. } if b.memory == x.memory => {
                    let disjoint = b.base == x.base && (b.offset + b.width as u64 <= x.offset || x.offset + x.width as u64 <= b.offset);
                    if !disjoint {
                        *avail = false;
                    }
                }
                Action::Def { var, .. } if x.base == Base::Var(var) => *avail = false,
                Action::Clobber { memory, .. } if memory == x.memory => *avail = false,
                _ => {}
            }
        }
    }

    fn note_block(&mut self, locals: &[Site], func: u32, block: u32) {
        let entry = self.blocks.entry((func, block)).or_default();
        entry.0 += 1;
        let mut add = |d: FactDesc| *entry.1.entry(d).or_default() += 1;
        for (x, &s) in locals.iter().enumerate() {
            add(FactDesc::Local { var: x as u32, site: s });
        }
        for (&g, &s) in &self.globals {
            add(FactDesc::Global { var: g, site: s });
        }
        for (&l, &s) in &self.memory {
            if let Some(s) = s {
                add(FactDesc::Memory { location: l, site: s });
            }
        }
    }
}

/// A frame: the current definition of each local, for analysed functions.
impl FrameOracle for Walk {
    type Frame = Vec<Site>;

    fn frame(&mut self, func: u32) -> Vec<Site> {
        // Every local starts at its entry definition (a parameter or zero).
        match self.analysed.contains(&func) {
            true => vec![Site::Entry; self.effects.get(FuncIdx(func)).unwrap().locals as usize],
            false => Vec::new(),
        }
    }

    fn import_call(&mut self, _frames: &mut [Vec<Site>]) {
        // It may write any memory.
        self.available.values_mut().for_each(|a| *a = false);
    }

    fn block(&mut self, frames: &mut [Vec<Site>], func: u32, block: u32) {
        let locals = frames.last_mut().expect("a frame");
        let analysed = self.analysed.contains(&func);
        if analysed {
            self.note_block(locals, func, block);
        }
        let actions = self.effects.get(FuncIdx(func)).unwrap().blocks[block as usize].clone();
        for a in &actions {
            if let Action::Load { access, at } = *a {
                if analysed && tracked(&access) {
                    let e = self.loads.entry((func, at)).or_default();
                    e.0 += 1;
                    e.1 += u64::from(self.available[&access]);
                }
            }
            self.apply(locals, a);
        }
    }
}

/// Records `wasm`, runs the oracle for the functions chosen by `choose` (from the
/// functions that ran and their block executions), and compares both problems; returns
/// how many (point, fact) counts agreed.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig, dir: &Path, choose: impl Fn(&[(u32, u64)]) -> Vec<u32>) -> usize {
    let profile_path = recordings::recorded(wasm, cfg, RecordMode::Grammar(Builder::Sequitur1), u64::MAX);
    let module_path = dir.join(format!("{name}.wasm"));
    std::fs::write(&module_path, wasm).unwrap();
    let profile = Profile::open(&profile_path).unwrap();
    let mut blocks = 0u64;
    let mut per_func: BTreeMap<u32, u64> = BTreeMap::new();
    profile
        .for_each_event(|e: PathEvent| {
            let n = profile.numberings.get(e.func).unwrap().decode(e.path).unwrap().len() as u64;
            blocks += n;
            *per_func.entry(e.func.0).or_default() += n;
        })
        .unwrap();
    let ran: Vec<(u32, u64)> = per_func.into_iter().collect();
    let analysed = choose(&ran);
    let program = wpp_wasm::decode(wasm).unwrap();
    let effects = wpp_wasm::effects(wasm, &program).unwrap();
    let oracle_wasm = wpp_wasm::instrument_block_log(wasm, &program).unwrap();
    let engine = wpp_runtime::engine().unwrap();
    let (_, walk) = run_block_log(&engine, &oracle_wasm, cfg, FrameWalk::new(Walk::new(effects.clone(), analysed.clone()), blocks)).unwrap();
    let walk = walk.oracle;
    let (dag, module) = wpp_dataflow::dff::open(&profile_path, &module_path).unwrap();
    let dff = Dff::new(&dag, &module).unwrap();
    let mut agreed = 0;
    for &f in &analysed {
        let n_blocks = effects.get(FuncIdx(f)).unwrap().blocks.len();
        // Reaching definitions at every block's entry.
        let (facts, freq) = dff.exact(ProblemKind::ReachingDefinitions, FuncIdx(f)).unwrap();
        for b in 0..n_blocks {
            let want = walk.blocks.get(&(f, b as u32)).cloned().unwrap_or_default();
            let got: BTreeMap<FactDesc, u64> = freq.holds[b].iter().map(|&(d, c)| (facts[d as usize], c)).collect();
            assert_eq!((freq.executions[b], &got), (want.0, &want.1), "{name}: reaching definitions, function {f} block {b}");
            agreed += got.len();
        }
        // Available loads, before each tracked load (points after the blocks, in order).
        let (facts, freq) = dff.exact(ProblemKind::AvailableLoads, FuncIdx(f)).unwrap();
        let fx = effects.get(FuncIdx(f)).unwrap();
        let loads: Vec<(u32, Access)> = fx
            .blocks
            .iter()
            .flatten()
            .filter_map(|a| match *a {
                Action::Load { access, at } if tracked(&access) => Some((at, access)),
                _ => None,
            })
            .collect();
        assert_eq!(freq.executions.len(), n_blocks + loads.len());
        for (i, (at, access)) in loads.iter().enumerate() {
            let p = n_blocks + i;
            let d = facts.iter().position(|x| *x == FactDesc::Available { access: *access }).unwrap() as u32;
            // The problem was solved as its dual: "not available".
            let not = freq.holds[p].iter().find(|x| x.0 == d).map_or(0, |x| x.1);
            let got = (freq.executions[p], freq.executions[p] - not);
            let want = walk.loads.get(&(f, *at)).copied().unwrap_or_default();
            assert_eq!(got, want, "{name}: available load at {at:#x} in function {f}");
            agreed += 1;
        }
    }
    eprintln!("{name}: {} functions, {agreed} counts agree with the abstract run", analysed.len());
    agreed
}

fn every_function(ran: &[(u32, u64)]) -> Vec<u32> {
    ran.iter().map(|x| x.0).collect()
}

#[test]
fn wat_programs() {
    let dir = tempfile::tempdir().unwrap();
    for name in corpus::names() {
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        if corpus::UNWINDING.contains(&name.as_str()) {
            refuses_unwinding(&name, &corpus::bytes(&name), &cfg, dir.path());
            continue;
        }
        check(&name, &corpus::bytes(&name), &cfg, dir.path(), every_function);
    }
}

/// A program whose exceptions unwind invocations: the frequencies on the grammar are
/// refused, saying why, rather than computed with a wrong stack.
fn refuses_unwinding(name: &str, wasm: &[u8], cfg: &RunConfig, dir: &Path) {
    let profile_path = recordings::recorded(wasm, cfg, RecordMode::Grammar(Builder::Sequitur1), u64::MAX);
    let module_path = dir.join(format!("{name}.wasm"));
    std::fs::write(&module_path, wasm).unwrap();
    let refused = wpp_dataflow::dff::open(&profile_path, &module_path).and_then(|(dag, module)| Dff::new(&dag, &module).map(|_| ()));
    let err = refused.expect_err(name).to_string();
    assert!(err.contains("do not follow exceptions across invocations"), "{name}: {err}");
}

/// Random programs: definitions, loads and stores at constant, local and global
/// addresses, in branches and loops, across direct, indirect, tail and recursive calls,
/// bulk writes and import calls.
#[test]
fn random_programs() {
    let dir = tempfile::tempdir().unwrap();
    let seeds: u64 = std::env::var("WPP_DATAFLOW_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let mut total = 0;
    for seed in 0..seeds {
        let text = wpp_test_support::dataflow_programs::random_wat(seed);
        let wasm = wat::parse_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let name = format!("random-{seed}");
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        total += check(&name, &wasm, &cfg, dir.path(), every_function);
    }
    assert!(total > 1000, "{total}");
}

wpp_test_support::real_programs!(
    /// Every real program's test run: the most executed function and two of moderate weight
    /// (the walk counts every fact at every block execution, so the heaviest are left out).
    real_programs,
    |m, _, p| {
        let dir = tempfile::tempdir().unwrap();
        let (p, run) = m.run(&p.name, "test").unwrap();
        let (wasm, cfg) = workloads::load_run(m, p, run);
        let n = check(&p.name, &wasm, &cfg, dir.path(), |ran| {
            let mut by: Vec<(u32, u64)> = ran.to_vec();
            by.sort_by_key(|x| std::cmp::Reverse(x.1));
            let mut pick: Vec<u32> = by.iter().filter(|x| x.1 <= 20_000).take(2).map(|x| x.0).collect();
            pick.extend(by.iter().filter(|x| x.1 > 20_000 && x.1 <= 400_000).take(1).map(|x| x.0));
            pick
        });
        assert!(n > 0, "{}: nothing compared", p.name);
    }
);
