//! The wpp profile file (`.wpp`).
//!
//! A profile is one binary file: a fixed header, sections, and a table of contents.
//!
//! ```text
//! offset 0   magic  b"WPPROF\r\n"          8 bytes
//!        8   format version, u32 LE        (this crate writes version 3, reads 1 to 3)
//!       12   reserved, u32 LE              0
//!       16   table of contents offset, u64 LE
//!       24   table of contents length, u64 LE
//!       32   CRC-32 of the table of contents, u32 LE
//!       36   reserved, u32 LE              0
//!       40   sections, back to back
//!       ..   table of contents
//! ```
//!
//! The table of contents is a [postcard]-encoded list of [`TocEntry`]: section name,
//! offset, length and CRC-32 of its bytes. Sections of version 3:
//!
//! | name | content |
//! | --- | --- |
//! | `meta` | postcard [`Meta`]: the module, how it was run, every function with its CFG |
//! | `counts` | postcard `Vec<`[`PathCount`]`>`: executions of each path, sorted |
//! | `symbols` | (grammar and trace mode) postcard `Vec<`[`wpp_model::PathEvent`]`>`: the path of each symbol, in order of first execution |
//! | `runs` | (trace mode) the path trace as run-length tokens over those symbols, in the byte form of [`wpp_grammar::encode_token`]: `varint(symbol << 1 \| (run > 1))`, then `varint(run − 2)` if the run is longer than one |
//! | `grammar` | (grammar mode) the path trace as a grammar over those symbols, encoded by [`wpp_grammar::encode_grammar`] (its first byte gives the encoding's own version) |
//! | `grammar-options` | (grammar mode) postcard [`GrammarOptions`]: how the builder was run besides its kind (rule prediction) |
//! | `source` | (when the module has DWARF) postcard [`wpp_model::SourceMap`]: the file and line range of every block |
//! | `terminals` | (a trace compressed by `wpp compress`) postcard `Vec<u32>`: the input value of each terminal symbol, in place of `symbols` |
//! | `terminal-events` | (a trace of `FUNCTION PATH` events compressed by `wpp compress --format events`, as `wpp expand` prints them) postcard `Vec<(u32, u64)>`: the event of each terminal symbol, in place of `symbols` |
//! | `ppp` | (preferential path profiling) postcard [`PppRecord`]: the interesting paths with their PPP ids, and what the residual hash table counted |
//! | `module` | (recorded by `wpp record`) postcard [`ModuleId`]: the SHA-256 and length of the module that ran, so that commands given the module can check it is that one ([`Profile::check_module`]) |
//! | `access-sites` | (addresses and filtering runs) postcard `Vec<`[`wpp_model::access_event::AccessSite`]`>`: the module's access sites, which the sections below number |
//! | `address-values`, `address-grammar` | (addresses mode) the address trace: for every access in order, its first byte (and a bulk access's length; for a call of an import, how many ranges it wrote, then each range's start and length), as a grammar (encoded as `grammar`) over terminals whose values `address-values` lists (postcard `Vec<u32>`); the sites are not stored: they follow from the control flow |
//! | `exercised` | (filtering run) postcard [`wpp_model::exercised::ExercisedDeps`]: every (writer, load) dependence exercised, how often, and how often not on the writer's latest instance |
//! | `ewpp` | (extended WPP) postcard [`wpp_model::ewpp::EwppRecord`]: which of the profile's functions (after the module's, with their CFGs in `meta`) are the check routines, what their blocks mean, each load's candidate writers; the trace in `grammar` holds their paths among the module's |
//! | `merged-runs` | (a merged profile, written by `wpp merge`) postcard `Vec<`[`RunRecord`]`>`: each run's arguments, ending, time and events; run `i`'s own sections follow as `run.i/NAME` (see [`merge`]) |
//! | `unknown-host-calls` | (addresses and filtering runs, when there were any) postcard `BTreeMap<String, u64>`: calls of imports whose writes to guest memory are not known, by name |
//!
//! A guest with several threads would get one grammar each, in sections `grammar`,
//! `grammar.1`, `grammar.2`, ..., sharing one symbol table.
//!
//! Version 1 differs only in the trace: trace mode wrote section `trace`, the path events in
//! order as little-endian u64 event words (see [`wpp_model::PathEvent`]), 8 bytes per event
//! where `runs` takes 1–3 per run. Version 2 differs from 3 only in that a run could not
//! end stopped ([`Ending::Stopped`]). Readers still read both.
//!
//! Readers ignore sections they do not know, so later versions can add sections (per-function
//! traces, dependences) without breaking older readers of the ones here. Section `module`
//! came that way, without a new version: profiles written before it read as before, with no
//! module identity ([`Profile::module_id`] gives `None`).
//! Path numbers are not stored: they are recomputed from each function's CFG with
//! [`Meta::max_paths`], deterministically.
//!
//! Reading never trusts the file: every offset is bounds-checked against the file's size,
//! every section's checksum is verified, and every CFG is validated before use, so a
//! damaged or hostile file gives an [`Error`], never a panic, a hang, or allocations out of
//! proportion to the file's size.
//!
//! [postcard]: https://postcard.jamesmunns.com/wire-format
//!
//! ## Code map
//!
//! The `.wpp` file: header, sections, table of contents, checksums; the symbol table,
//! `runs` (trace mode: run-length tokens) and grammar sections; writing goes to a temporary
//! file renamed into place when complete (`atomic`: `AtomicFile`, also used for set files,
//! and `remove_unfinished` for a process that must exit at once); reading never trusts the
//! file (version 1's event-word trace still reads); `for_each_event` streams the trace from
//! a trace or a grammar; `Builder`, the one name of a grammar builder, and `GrammarBuilder`
//! (`build`), the running builder behind its front ends that recording, `wpp compress` and
//! reports on trace profiles all use, so one run gives one grammar.

mod atomic;
mod build;
mod error;
pub mod merge;
pub mod naming;
mod read;
mod write;

pub use atomic::{check_writable, check_writable_dir, remove_unfinished, write_atomically, AtomicFile};
pub use build::{BuildStats, GrammarBuilder, GrammarOptions, Prediction, REPAIR_BLOCK, SEGMENT_TOKENS};
pub use error::Error;
pub use merge::{merge, Merged};
pub use read::{Instrumentation, Profile, RunRecord, TraceReader};
pub use wpp_grammar::GrammarFull;
pub use write::Writer;

use wpp_model::{FuncIdx, Function, PathId, StopReason};

/// First 8 bytes of every profile.
pub const MAGIC: [u8; 8] = *b"WPPROF\r\n";
/// The format version this crate writes (it reads this one and every earlier one).
pub const VERSION: u32 = 3;
pub(crate) const HEADER_LEN: u64 = 40;

/// Section names.
pub mod section {
    pub const META: &str = "meta";
    pub const COUNTS: &str = "counts";
    pub const RUNS: &str = "runs";
    /// Version 1's trace.
    pub const TRACE: &str = "trace";
    pub const SYMBOLS: &str = "symbols";
    pub const GRAMMAR: &str = "grammar";
    pub const GRAMMAR_OPTIONS: &str = "grammar-options";
    pub const TERMINALS: &str = "terminals";
    pub const TERMINAL_EVENTS: &str = "terminal-events";
    pub const SOURCE: &str = "source";
    pub const PPP: &str = "ppp";
    pub const MODULE: &str = "module";
    pub const ACCESS_SITES: &str = "access-sites";
    pub const ADDRESS_VALUES: &str = "address-values";
    pub const ADDRESS_GRAMMAR: &str = "address-grammar";
    pub const EXERCISED: &str = "exercised";
    pub const UNKNOWN_HOST_CALLS: &str = "unknown-host-calls";
    pub const EWPP: &str = "ewpp";
    /// A merged profile's runs ([`crate::merge`]).
    pub const MERGED_RUNS: &str = "merged-runs";
    /// The index of a TWPP file (`wpp twpp build`), which holds the run split by function
    /// instead of the whole program path.
    pub const TWPP_INDEX: &str = "twpp-index";
}

/// One entry of the table of contents.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TocEntry {
    pub name: String,
    pub offset: u64,
    pub len: u64,
    pub crc32: u32,
}

/// How the profile was recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RecordMode {
    /// Per-path counters only.
    Paths,
    /// The full sequence of path events (and counts derived from it).
    Trace,
    /// The sequence of path events compressed into a grammar while the program runs.
    Grammar(Builder),
    /// Per-path counters, interesting paths in compact arrays (preferential path
    /// profiling), the rest in a hash table.
    Ppp,
    /// The whole program path as a grammar (as [`RecordMode::Grammar`]) and, beside it,
    /// the address trace: every load and store address, bulk write and host write, as a
    /// grammar built by the same builder (the baseline of the extended WPP).
    Addresses(Builder),
    /// The memory dependences the run exercised, and whether each was always on the
    /// writer's latest instance (the filtering run of the extended WPP), with path counts.
    EwppFilter,
    /// The extended whole program path (Tallam & Gupta): the path trace with the paths of
    /// the checks that say which write instances each load read, as one grammar.
    Ewpp(Builder),
}

/// The algorithm that built a profile's grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Builder {
    /// SEQUITUR, online.
    Sequitur,
    /// SEQUITUR with Larus's one-symbol look-ahead, online.
    Sequitur1,
    /// Most frequent digram first (Re-Pair), after the run.
    RePair,
}

impl Builder {
    /// Every builder.
    pub const ALL: [Builder; 3] = [Builder::Sequitur, Builder::Sequitur1, Builder::RePair];

    /// The builder of a [`Builder::name`].
    pub fn from_name(name: &str) -> Option<Builder> {
        Builder::ALL.into_iter().find(|b| b.name() == name)
    }

    /// What a builder is called on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Builder::Sequitur => "sequitur",
            Builder::Sequitur1 => "sequitur1",
            Builder::RePair => "repair",
        }
    }
}

/// How the guest ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Ending {
    Exited(i32),
    Trapped(String),
    /// Stopped by the recorder before it ended (version 3 on): the profile holds the run
    /// up to there.
    Stopped(StopReason),
}

impl Ending {
    /// Whether the profile holds only part of the run: the recorder stopped the program.
    pub fn is_partial(&self) -> bool {
        matches!(self, Ending::Stopped(_))
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Exited(s) => write!(f, "exited {s}"),
            Ending::Trapped(t) => write!(f, "trapped: {t}"),
            Ending::Stopped(r) => write!(f, "{r}; the profile holds the run until then"),
        }
    }
}

/// The program and the run a profile describes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// File name of the module, as given to the recorder.
    pub module: String,
    pub module_bytes: u64,
    pub mode: RecordMode,
    /// Path limit the numbering used (cut points follow from it).
    pub max_paths: u64,
    /// Every function, imports first, with names and CFGs.
    pub functions: Vec<Function>,
    /// Guest arguments (after the program name).
    pub args: Vec<String>,
    pub ending: Ending,
    pub guest_nanos: u64,
    /// Number of path events recorded.
    pub events: u64,
}

/// The module a profile was recorded from, by content (section `module`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ModuleId {
    /// SHA-256 of the module's bytes.
    pub sha256: [u8; 32],
    /// The module's length in bytes.
    pub bytes: u64,
}

impl ModuleId {
    /// The identity of the module `wasm`.
    pub fn of(wasm: &[u8]) -> ModuleId {
        use sha2::Digest as _;
        ModuleId { sha256: sha2::Sha256::digest(wasm).into(), bytes: wasm.len() as u64 }
    }

    /// The SHA-256 in lowercase hexadecimal, 64 digits.
    pub fn sha256_hex(&self) -> String {
        self.sha256.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// How often one path ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct PathCount {
    pub func: FuncIdx,
    pub path: PathId,
    pub count: u64,
}

/// What preferential path profiling recorded besides the counts: which paths were
/// interesting, the slots they had, and which executions the instrumentation counted as
/// residual.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PppRecord {
    /// The set file the interesting paths came from, and how they were chosen.
    pub set: String,
    pub selection: String,
    /// Every function with interesting paths, by index.
    pub functions: Vec<PppFunction>,
    /// The counts the hash table took, sorted: the residual paths, and interesting paths
    /// without a slot (PPP id past their function's array, or a function without one).
    pub hashed: Vec<PathCount>,
}

/// A function's interesting paths.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PppFunction {
    pub func: FuncIdx,
    /// Length of the function's slot array (0: none).
    pub slots: u64,
    /// Whether the function's paths were all counted by Ball-Larus number in an array (no
    /// slots; which were interesting is told after the run). Without slots or an array,
    /// its paths were hashed.
    pub ball_larus_array: bool,
    /// The interesting paths and their PPP ids, by Ball-Larus number.
    pub paths: Vec<PppPath>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PppPath {
    pub path: PathId,
    pub ppp_id: u64,
}

impl PppFunction {
    /// ρ = (max id − min id + 1) / number of interesting paths.
    pub fn rho(&self) -> f64 {
        let ids = self.paths.iter().map(|p| p.ppp_id);
        match (ids.clone().min(), ids.max()) {
            (Some(lo), Some(hi)) => (hi - lo + 1) as f64 / self.paths.len() as f64,
            _ => 1.0,
        }
    }
}

impl Meta {
    /// The name of function `f` as every report shows it (`func[N]` for an index the
    /// module does not have).
    pub fn func_name(&self, f: FuncIdx) -> String {
        self.functions.get(f.idx()).map_or_else(|| format!("func[{}]", f.0), |x| x.name.clone())
    }

    /// Numbers every function's paths as the recorder did (imports get none).
    pub fn numberings(&self) -> Result<wpp_paths::ProgramNumbering, wpp_paths::ProgramNumberingError> {
        wpp_paths::number_program(&self.functions, &wpp_paths::Options { max_paths: self.max_paths })
    }
}
