//! Demand-driven data flow queries on the TWPP against a forward walk of the whole run.
//!
//! The oracle runs the module rewritten to report every function entry, basic block, call
//! and exit (the block-log rewrite, which shares only the CFG with the path rewrite) and
//! keeps shadow state as it goes: for every query, the last definition of each local (one
//! copy per frame of the query's function) and of each global, and whether the bytes at
//! each address expression hold a value loaded or stored there (per frame when the
//! address depends on a local). At each execution of a query's point it notes the state.
//! The engine's answer — how often the point ran and what held each time, by the site that
//! generated or killed the fact — must be the same, on the `.wat` programs (every load
//! and every variable at every load) and on every real program's test run (a seeded sample
//! of queries).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use wpp_model::effects::{Action, Base, FuncEffects, Var};
use wpp_model::{BlockIdx, FuncIdx, FuncMap, PathEvent};
use wpp_profile::Profile;
use wpp_record::{Builder, RecordMode};
use wpp_runtime::{run_block_log, RunConfig, Stdio};
use wpp_test_support::frame_walk::{FrameOracle, FrameWalk};
use wpp_test_support::{corpus, recordings, workloads, Rng};
use wpp_twpp::dataflow::{Answer, Engine, Fact, Point, Program, Resolution, Site};
use wpp_twpp::{build, Twpp};

#[derive(Clone)]
struct Query {
    point: Point,
    fact: Fact,
}

fn local_fact(f: &Fact) -> bool {
    match f {
        Fact::Reaching(v) => matches!(v, Var::Local(_)),
        Fact::Available(a) => matches!(a.base, Base::Var(Var::Local(_))),
    }
}

/// One frame of the walk: the state of its function's frame-local queries.
type Frame = HashMap<usize, Resolution>;

struct Walk {
    effects: FuncMap<FuncEffects>,
    queries: Vec<Query>,
    /// The queries at each block.
    at_block: HashMap<(u32, u32), Vec<usize>>,
    /// State of the queries whose fact outlives a frame.
    global: HashMap<usize, Resolution>,
    answers: Vec<Answer>,
}

impl Walk {
    fn new(effects: FuncMap<FuncEffects>, queries: Vec<Query>) -> Self {
        let mut at_block: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        let mut global = HashMap::new();
        for (i, q) in queries.iter().enumerate() {
            at_block.entry((q.point.func.0, q.point.block.0)).or_default().push(i);
            if !local_fact(&q.fact) {
                let init = match q.fact {
                    Fact::Reaching(_) => Resolution::Gen(Site::Init),
                    Fact::Available(_) => Resolution::Kill(Site::Init),
                };
                global.insert(i, init);
            }
        }
        let answers = vec![Answer::default(); queries.len()];
        Walk { effects, queries, at_block, global, answers }
    }

    /// What one action in frame `depth` does to the state of query `q` held by frame
    /// `holder` (or by no frame, for a fact that outlives frames).
    fn step(fact: &Fact, action: &Action, same: bool, state: &mut Resolution) {
        let at = Site::At(action.at());
        match (fact, action) {
            (Fact::Reaching(Var::Local(l)), Action::Def { var: Var::Local(d), .. }) if same && l == d => *state = Resolution::Gen(at),
            (Fact::Reaching(Var::Global(g)), Action::Def { var: Var::Global(d), .. }) if g == d => *state = Resolution::Gen(at),
            (Fact::Available(a), Action::Def { var, .. }) if a.base == Base::Var(*var) && (same || matches!(var, Var::Global(_))) => {
                *state = Resolution::Kill(at)
            }
            (Fact::Available(a), Action::Load { access, .. } | Action::Store { access, .. }) => {
                let local = matches!(a.base, Base::Var(Var::Local(_)));
                let same_address = access.memory == a.memory && access.base == a.base && (same || !local);
                let covers = same_address && access.offset <= a.offset && a.offset + a.width as u64 <= access.offset + access.width as u64;
                let is_store = matches!(action, Action::Store { .. });
                if covers {
                    *state = Resolution::Gen(at);
                } else if is_store && access.memory == a.memory {
                    let disjoint = same_address && (access.offset + access.width as u64 <= a.offset || a.offset + a.width as u64 <= access.offset);
                    if !disjoint {
                        *state = Resolution::Kill(at);
                    }
                }
            }
            (Fact::Available(a), Action::Clobber { memory, .. }) if *memory == a.memory => *state = Resolution::Kill(at),
            _ => {}
        }
    }

    fn apply(&mut self, frames: &mut [Frame], action: &Action) {
        let top = frames.len() - 1;
        for (depth, frame) in frames.iter_mut().enumerate() {
            for (&q, state) in frame.iter_mut() {
                Self::step(&self.queries[q].fact, action, depth == top, state);
            }
        }
        for (&q, state) in self.global.iter_mut() {
            Self::step(&self.queries[q].fact, action, true, state);
        }
    }

    fn note(&mut self, top: &Frame, q: usize) {
        let state = if local_fact(&self.queries[q].fact) { top[&q] } else { self.global[&q] };
        let a = &mut self.answers[q];
        a.executions += 1;
        *a.by.entry(state).or_default() += 1;
    }
}

impl FrameOracle for Walk {
    type Frame = Frame;

    fn frame(&mut self, func: u32) -> Frame {
        let mut state = HashMap::new();
        for (i, q) in self.queries.iter().enumerate() {
            if q.point.func.0 == func && local_fact(&q.fact) {
                let entry = match q.fact {
                    Fact::Reaching(_) => Resolution::Gen(Site::Entry),
                    Fact::Available(_) => Resolution::Kill(Site::Entry),
                };
                state.insert(i, entry);
            }
        }
        state
    }

    fn import_call(&mut self, frames: &mut [Frame]) {
        let kill = |q: &Query, s: &mut Resolution| {
            if matches!(q.fact, Fact::Available(_)) {
                *s = Resolution::Kill(Site::Import);
            }
        };
        for frame in frames {
            for (&q, s) in frame.iter_mut() {
                kill(&self.queries[q], s);
            }
        }
        for (&q, s) in self.global.iter_mut() {
            kill(&self.queries[q], s);
        }
    }

    fn block(&mut self, frames: &mut [Frame], func: u32, block: u32) {
        let actions = self.effects.get(FuncIdx(func)).unwrap().blocks[block as usize].clone();
        let mut here: Vec<usize> = self.at_block.get(&(func, block)).cloned().unwrap_or_default();
        here.sort_by_key(|&q| std::cmp::Reverse(self.queries[q].point.at));
        for a in &actions {
            while here.last().is_some_and(|&q| self.queries[q].point.at <= a.at()) {
                let q = here.pop().unwrap();
                self.note(frames.last().unwrap(), q);
            }
            self.apply(frames, a);
        }
        while let Some(q) = here.pop() {
            self.note(frames.last().unwrap(), q);
        }
    }
}

/// The queries asked of a program: at every load of the functions that ran, whether its
/// bytes were available and which definition of each variable its address reads (or of
/// `vars`), in at most `limit` queries chosen by `rng`.
fn queries(twpp: &Twpp, effects: &FuncMap<FuncEffects>, limit: usize, rng: &mut Rng) -> Vec<Query> {
    let mut all = Vec::new();
    let globals: Vec<Var> = {
        let mut g: Vec<Var> = effects
            .values()
            .flat_map(|fx| fx.blocks.iter().flatten())
            .filter_map(|a| match a {
                Action::Def { var: v @ Var::Global(_), .. } => Some(*v),
                _ => None,
            })
            .collect();
        g.sort();
        g.dedup();
        g
    };
    for e in &twpp.index.functions {
        let Some(fx) = effects.get(e.func) else { continue };
        for (b, actions) in fx.blocks.iter().enumerate() {
            for a in actions {
                let Action::Load { access, at } = *a else { continue };
                if access.base == Base::Unknown {
                    continue;
                }
                let point = Point { func: e.func, block: BlockIdx(b as u32), at };
                all.push(Query { point, fact: Fact::Available(access) });
                if let Base::Var(v) = access.base {
                    all.push(Query { point, fact: Fact::Reaching(v) });
                }
                for &g in &globals {
                    all.push(Query { point, fact: Fact::Reaching(g) });
                }
                for l in 0..fx.locals.min(3) {
                    all.push(Query { point, fact: Fact::Reaching(Var::Local(l)) });
                }
            }
        }
    }
    if all.len() > limit {
        for i in 0..limit {
            let j = rng.range(i, all.len());
            all.swap(i, j);
        }
        all.truncate(limit);
    }
    all
}

/// Records `wasm`, builds its TWPP and compares the engine with the walk on the queries;
/// how many answers of each kind there were.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig, dir: &Path, limit: usize) -> BTreeMap<&'static str, usize> {
    let profile_path = recordings::recorded(wasm, cfg, RecordMode::Grammar(Builder::Sequitur1), u64::MAX);
    let twpp_path = dir.join(format!("{name}.twpp"));
    let profile = Profile::open(&profile_path).unwrap();
    build(&profile, &twpp_path, &mut wpp_model::progress::Quiet).unwrap();
    let twpp = Twpp::open(&twpp_path).unwrap();
    let program = wpp_wasm::decode(wasm).unwrap();
    let effects = wpp_wasm::effects(wasm, &program).unwrap();
    let mut rng = Rng::new(0x5eed ^ name.len() as u64);
    let queries = queries(&twpp, &effects, limit, &mut rng);
    // The blocks the profile holds: the run's completed paths.
    let mut blocks = 0u64;
    profile.for_each_event(|e: PathEvent| blocks += profile.numberings.get(e.func).unwrap().decode(e.path).unwrap().len() as u64).unwrap();
    let oracle_wasm = wpp_wasm::instrument_block_log(wasm, &program).unwrap();
    let engine_rt = wpp_runtime::engine().unwrap();
    let (_, walk) = run_block_log(&engine_rt, &oracle_wasm, cfg, FrameWalk::new(Walk::new(effects.clone(), queries.clone()), blocks)).unwrap();
    let walk = walk.oracle;
    let mut engine = Engine::new(&twpp, Program { functions: &twpp.profile.meta.functions, numberings: &twpp.profile.numberings, effects: &effects }).unwrap();
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (q, want) in queries.iter().zip(&walk.answers) {
        let got = engine.query(q.point, &q.fact).unwrap();
        assert_eq!(&got, want, "{name}: {:?} at function {} block {} offset {:#x}", q.fact, q.point.func, q.point.block, q.point.at);
        let kind = match q.fact {
            Fact::Available(_) if got.holds() > 0 && got.holds() < got.executions => "sometimes available",
            Fact::Available(_) if got.holds() > 0 => "always available",
            Fact::Available(_) => "never available",
            Fact::Reaching(_) if got.by.len() > 1 => "several definitions",
            Fact::Reaching(_) => "one definition",
        };
        *kinds.entry(kind).or_default() += 1;
    }
    eprintln!("{name}: {} queries agree with the walk: {kinds:?}", queries.len());
    kinds
}

/// The data flow program's answers are varied: loads always, sometimes and never
/// available, variables with several reaching definitions, kills by stores in callees,
/// by an import and by a bulk fill.
#[test]
fn wat_programs() {
    let dir = tempfile::tempdir().unwrap();
    for name in corpus::names() {
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        let kinds = check(&name, &corpus::bytes(&name), &cfg, dir.path(), usize::MAX);
        if name == "dataflow" {
            for kind in ["always available", "sometimes available", "never available", "one definition", "several definitions"] {
                assert!(kinds.contains_key(kind), "{name}: no query answered {kind}: {kinds:?}");
            }
        }
    }
}

/// Random programs (`wpp_test_support::dataflow_programs`): definitions, loads and stores
/// at constant, local and global addresses, in branches and loops, across direct,
/// indirect, tail and recursive calls, bulk writes and import calls; every load and
/// every variable at every load queried.
#[test]
fn random_programs() {
    let dir = tempfile::tempdir().unwrap();
    let seeds: u64 = std::env::var("WPP_DATAFLOW_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let mut total: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..seeds {
        let text = wpp_test_support::dataflow_programs::random_wat(seed);
        let wasm = wat::parse_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let name = format!("random-{seed}");
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        for (k, n) in check(&name, &wasm, &cfg, dir.path(), 400) {
            *total.entry(k).or_default() += n;
        }
    }
    eprintln!("{seeds} random programs: {total:?}");
    // Every kind of answer occurs, so the comparison exercised them all.
    for kind in ["always available", "sometimes available", "never available", "one definition", "several definitions"] {
        assert!(total.get(kind).is_some_and(|&n| n >= seeds as usize / 20), "{kind}: {total:?}");
    }
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let dir = tempfile::tempdir().unwrap();
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = workloads::load_run(m, p, run);
    let n: usize = check(&p.name, &wasm, &cfg, dir.path(), 60).values().sum();
    assert!(n >= 60, "{}: only {n} queries", p.name);
});
