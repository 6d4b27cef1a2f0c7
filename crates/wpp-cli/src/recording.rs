//! The options that say how a program is recorded, in groups a recording command flattens
//! into its own: the mode and its inputs (`ModeOpts`), the grammar builder's resources
//! (`BuildOpts`) and the limits that stop the program (`LimitOpts`).

use std::{path::PathBuf, time::Duration};

use clap::ValueEnum;
use wpp_record::{Builder, Limits, PathSet, Prediction, RecordMode, Recorder, StopHandle};

/// What to record, and what that mode reads.
#[derive(clap::Args)]
pub(crate) struct ModeOpts {
    /// What to record.
    #[arg(long, value_enum, default_value_t = ModeArg::Grammar)]
    mode: ModeArg,
    /// How to compress the path trace in grammar mode: online while the program runs
    /// (sequitur, sequitur1) or after it (repair: most frequent digram first).
    #[arg(long, value_parser = crate::builder_arg(), default_value = "sequitur1")]
    grammar: Builder,
    /// SEQUITUR with rule prediction: input that repeats a recent rule's expansion is
    /// appended as that rule. Measured on real programs it is not faster (the Lua
    /// benchmark: the same time, a grammar 10% larger; a JSON processor: slower, 62%
    /// larger); `wpp-bench grammar` compares it on your traces.
    #[arg(long)]
    predict: bool,
    /// With --mode ppp: the interesting paths, a set file written by `wpp ppp select`.
    #[arg(long, value_name = "SET")]
    interesting: Option<PathBuf>,
    /// With --mode ppp: number interesting paths with PPP in every function, also where
    /// Ball-Larus counters fit an array (which is cheaper, and the default there).
    #[arg(long)]
    ppp_everywhere: bool,
    /// With --mode ewpp: the filtering run of the same program (`--mode ewpp-filter`),
    /// whose dependences name each load's candidate writers.
    #[arg(long, value_name = "FILTER.wpp")]
    filter: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    /// The whole program path: every path event in order, compressed into a grammar.
    Grammar,
    /// Count how often each path runs.
    Paths,
    /// Every path event in order without a grammar: runs of one path collapsed, 1–3 bytes
    /// per run.
    Trace,
    /// Preferential path profiling: count the interesting paths of --interesting in compact
    /// arrays, and every other (residual) path by its Ball-Larus number.
    Ppp,
    /// The whole program path as in grammar mode, and beside it the address trace: every
    /// load and store address, bulk write and write by a WASI call, compressed by the same
    /// builder (the baseline the extended WPP is measured against; `wpp deps` reads the
    /// dependences from it).
    Addresses,
    /// The filtering run of the extended WPP: which memory dependences the program
    /// exercises (store or host write → load), how often, and whether always on the
    /// writer's latest instance, from a shadow of the last writer of every byte; with path
    /// counts.
    EwppFilter,
    /// The extended whole program path (needs --filter): the path trace and, before each
    /// load, the paths of checks that say which store, bulk write or host call (and which
    /// of its executions) wrote the bytes it read, compressed as one grammar; `wpp deps`
    /// recovers the dependences from the control flow alone.
    Ewpp,
}

impl ModeOpts {
    /// Sets the mode on `recorder`, with the files it reads, after checking that the
    /// options given belong to it.
    pub fn apply(&self, recorder: Recorder) -> anyhow::Result<Recorder> {
        let mode = match self.mode {
            ModeArg::Grammar => RecordMode::Grammar(self.grammar),
            ModeArg::Paths => RecordMode::Paths,
            ModeArg::Trace => RecordMode::Trace,
            ModeArg::Ppp => RecordMode::Ppp,
            ModeArg::Addresses => RecordMode::Addresses(self.grammar),
            ModeArg::EwppFilter => RecordMode::EwppFilter,
            ModeArg::Ewpp => RecordMode::Ewpp(self.grammar),
        };
        wpp_record::options::check_mode(mode, self.filter.is_some(), self.interesting.is_some(), self.ppp_everywhere)?;
        let mut recorder = recorder.mode(mode).predict(if self.predict { Prediction::Rules } else { Prediction::Off }).ppp_everywhere(self.ppp_everywhere);
        if let Some(file) = &self.interesting {
            recorder = recorder.interesting(file, PathSet::load(file)?);
        }
        if let Some(file) = &self.filter {
            recorder = recorder.filter(file)?;
        }
        Ok(recorder)
    }
}

/// The grammar builder's memory and threads.
#[derive(clap::Args)]
pub(crate) struct BuildOpts {
    /// Grammar mode: memory for events waiting for the grammar builder (K, M or G
    /// suffixes); beyond it they wait in a temporary file beside the output, which is
    /// removed at once and never outlives the recording.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = wpp_record::options::parse_size)]
    spool_memory: usize,
    /// Grammar mode: threads that build the grammar [default: the cores available]. The
    /// grammar is the same for any number.
    #[arg(long, value_name = "N")]
    build_threads: Option<usize>,
    /// Grammar mode: build in content-defined segments of about N run-length tokens (2^20
    /// is a good size), each on any build thread, also while the program runs, merged in
    /// order. Scales with cores (on two, measured: faster than the default in
    /// `wpp-bench`, slower on zlib and Lua as `wpp record`), and the grammar is up to 1.3×
    /// larger (`wpp-bench record --threads-sweep`).
    #[arg(long, value_name = "N")]
    segment_tokens: Option<usize>,
}

impl BuildOpts {
    pub fn apply(&self, recorder: Recorder) -> Recorder {
        let mut recorder = recorder.spool_memory(self.spool_memory);
        if let Some(n) = self.build_threads {
            recorder = recorder.build_threads(n);
        }
        if let Some(n) = self.segment_tokens {
            recorder = recorder.segment_tokens(n);
        }
        recorder
    }
}

/// What stops the program before it ends, keeping its profile.
#[derive(clap::Args)]
pub(crate) struct LimitOpts {
    /// Stop the program after this many seconds (fractions allowed), keeping its profile.
    #[arg(long, value_name = "SECONDS", value_parser = wpp_record::options::parse_seconds)]
    timeout: Option<Duration>,
    /// Stop the program when it has used this much fuel, keeping its profile: about one
    /// unit per WebAssembly instruction executed, the instrumentation's included. Counting
    /// fuel slows the program down.
    #[arg(long, value_name = "N")]
    fuel: Option<u64>,
    /// Largest size of each of the program's linear memories (K, M or G suffixes): growing
    /// one past it stops the program, keeping its profile [default: what WebAssembly
    /// allows, 4 GiB for a 32-bit memory].
    #[arg(long, value_name = "SIZE", value_parser = wpp_record::options::parse_size)]
    max_memory: Option<usize>,
}

impl LimitOpts {
    /// The limits, and `stop` (for signals).
    pub fn limits(&self, stop: StopHandle) -> Limits {
        Limits { timeout: self.timeout, fuel: self.fuel, max_memory: self.max_memory.map(|m| m as u64), stop: Some(stop) }
    }
}
