//! What every benchmark shares: which workloads to run (one set of arguments), loading
//! them, their path traces, a seeded synthetic path trace, and summarising ratios.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Args;
use wpp_runtime::{RunConfig, Stdio};
use wpp_workloads::{Program, Run};

/// Which workloads a benchmark runs.
#[derive(Args)]
pub struct WorkloadArgs {
    /// The workloads directory (holding workloads.json) [default: workloads; `grammar` and
    /// `hot` measure workloads only when it is given].
    #[arg(long, value_name = "DIR")]
    pub workloads: Option<PathBuf>,
    /// Which run of each program: the short `test` runs or the 0.5–5 s `bench` runs
    /// [default: bench for `record` and `ppp`, test for `grammar` and `hot`].
    #[arg(long)]
    pub runs: Option<String>,
    /// Only these programs.
    pub programs: Vec<String>,
}

/// Chosen workloads: the manifest's directory and the chosen run of each selected program.
pub struct Selected {
    pub dir: PathBuf,
    pub runs: Vec<(Program, Run)>,
}

impl WorkloadArgs {
    /// The selected workloads: from --workloads, or `default_dir` when not given (none if
    /// that is `None` too), with the --runs run or `default_runs`.
    pub fn select(&self, default_dir: Option<&str>, default_runs: &str) -> anyhow::Result<Option<Selected>> {
        let Some(dir) = self.workloads.clone().or_else(|| default_dir.map(PathBuf::from)) else { return Ok(None) };
        let runs = self.runs.as_deref().unwrap_or(default_runs);
        let manifest = wpp_workloads::Manifest::load(&dir)?;
        for name in &self.programs {
            manifest.program(name)?;
        }
        let runs = manifest
            .programs
            .into_iter()
            .filter(|p| self.programs.is_empty() || self.programs.contains(&p.name))
            .filter_map(|p| {
                let run = p.runs.get(runs)?.clone();
                Some((p, run))
            })
            .collect();
        Ok(Some(Selected { dir, runs }))
    }
}

/// The module's bytes and the run's configuration (stdin captured from its file).
pub fn load(dir: &Path, p: &Program, run: &Run) -> anyhow::Result<(Vec<u8>, RunConfig)> {
    let wasm_path = dir.join(&p.wasm);
    let wasm = std::fs::read(&wasm_path).with_context(|| format!("{} (build the workloads with workloads/build.sh)", wasm_path.display()))?;
    let stdin = match &run.stdin {
        Some(s) => std::fs::read(dir.join(s)).with_context(|| format!("{}", dir.join(s).display()))?,
        None => Vec::new(),
    };
    let cfg = RunConfig {
        program_name: p.name.clone(),
        args: run.args.clone(),
        dirs: run.dirs.iter().map(|d| (dir.join(d), d.clone())).collect(),
        stdio: Stdio::Capture { stdin },
        ..Default::default()
    };
    Ok((wasm, cfg))
}

/// Collects the dense symbol trace of a run.
struct CollectSink {
    decoder: wpp_model::EventDecoder,
    symbols: wpp_record::SymbolTable,
    trace: Vec<u32>,
}

impl wpp_runtime::EventSink for CollectSink {
    fn events(&mut self, words: &[u64]) -> Result<(), wpp_runtime::SinkError> {
        let CollectSink { decoder, symbols, trace } = self;
        decoder.feed(words, |e| trace.push(symbols.symbol(e)));
        Ok(())
    }
}

/// A workload run's path trace as dense symbols (in order of first execution), with the
/// instructions of each symbol's path.
pub struct WorkloadTrace {
    pub trace: Vec<u32>,
    pub instructions: Vec<u64>,
}

/// Runs one workload with trace instrumentation and collects its symbol trace.
pub fn workload_trace(engine: &wpp_runtime::Engine, dir: &Path, p: &Program, run: &Run) -> anyhow::Result<WorkloadTrace> {
    let (wasm, cfg) = load(dir, p, run)?;
    let program = wpp_wasm::decode(&wasm)?;
    let inst = wpp_wasm::instrument(&wasm, &program, &wpp_wasm::Options { mode: wpp_wasm::Mode::Trace, ..Default::default() })?;
    let sink =
        CollectSink { decoder: wpp_model::EventDecoder::default(), symbols: wpp_record::SymbolTable::for_numberings(&inst.numberings), trace: Vec::new() };
    let (_, sink) = wpp_runtime::run_paths(engine, &inst, &cfg, sink)?;
    let instructions = sink
        .symbols
        .paths
        .iter()
        .map(|e| {
            let cfg = program.cfg(e.func).expect("paths run in functions with code");
            let blocks = inst.numberings.get(e.func).and_then(|n| n.decode(e.path).ok()).unwrap_or_default();
            blocks.iter().map(|b| cfg.blocks[b.idx()].n_instrs as u64).sum()
        })
        .collect();
    Ok(WorkloadTrace { trace: sink.trace, instructions })
}

/// A seeded xorshift64* generator, shared by the benchmarks.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A seeded synthetic path trace of `n` symbols.
pub fn synthetic_trace(n: u64, seed: u64) -> impl Iterator<Item = u32> {
    let mut rng = Rng::new(seed);
    let templates: Vec<Vec<u32>> = (0..64)
        .map(|_| {
            let len = 2 + rng.below(12) as usize;
            (0..len).map(|_| rng.below(4000) as u32).collect()
        })
        .collect();
    let mut out: Vec<u32> = Vec::new();
    let mut produced = 0u64;
    std::iter::from_fn(move || {
        if produced >= n {
            return None;
        }
        if out.is_empty() {
            // One outer iteration: an inner loop of some iterations over a hot template,
            // with calls and the odd cold path.
            let hot = (rng.below(8) * rng.below(8) / 7) as usize;
            let iters = 1 + rng.below(40);
            for _ in 0..iters {
                out.extend(&templates[hot]);
                match rng.below(100) {
                    0..=9 => out.extend(&templates[8 + rng.below(16) as usize]),
                    10 => out.push(4000 + rng.below(1000) as u32),
                    _ => {}
                }
            }
            out.reverse();
        }
        produced += 1;
        out.pop()
    })
}

pub fn geomean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    if n == 0 {
        f64::NAN
    } else {
        (s / n as f64).exp()
    }
}
