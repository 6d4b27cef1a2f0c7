//! Errors reading and writing profiles, naming the file and what is wrong. An error that
//! has a cause (an I/O error) does not repeat it in its own message: it is the error's
//! `source()`, for the caller to print after it.

use std::path::PathBuf;

use crate::ModuleId;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be opened or read.
    #[error("{path}")]
    Io { path: PathBuf, source: std::io::Error },
    /// The file could not be written.
    #[error("cannot write {path}")]
    Write { path: PathBuf, source: std::io::Error },
    /// The file is something else; `found` says what it looks like.
    #[error("{path}: not a wpp profile ({found}); profiles are written by `wpp record`")]
    NotAProfile { path: PathBuf, found: String },
    #[error("{path}: profile format version {found}; this wpp reads versions 1 to {}{}", crate::VERSION, if *.found > crate::VERSION { " (a newer wpp wrote it)" } else { "" })]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: damaged profile: {what}")]
    Corrupt { path: PathBuf, what: String },
    #[error("{path}: the profile has no `{section}` section")]
    Missing { path: PathBuf, section: String },
    /// A profile of counts only (`mode`: `paths` or `ppp`) asked for its path trace.
    #[error("{path}: recorded with --mode {mode}, which counts paths but keeps no trace of the run; this needs the whole program path (record with --mode grammar or trace)")]
    NoWholePath { path: PathBuf, mode: &'static str },
    /// A module given with the profile is not the one it was recorded from: `found` is
    /// the given module's identity, `recorded` the profile's (boxed: errors stay small).
    #[error(
        "{module}: not the module {profile} was recorded from (its SHA-256 is {}…, the profile's {}…); pass the module that was recorded",
        short_hex(found),
        short_hex(recorded)
    )]
    WrongModule { module: PathBuf, profile: PathBuf, found: Box<ModuleId>, recorded: Box<ModuleId> },
    /// A module was given with a profile that has no `module` section to check it against.
    /// A trace from elsewhere (`wpp compress`): no program, so nothing about functions or
    /// paths can be said of it.
    #[error("{path}: a trace from elsewhere (written by `wpp compress`, no program recorded): `stats`, `expand` and `export` read it; `{command}` needs a profile `wpp record` wrote")]
    Foreign { path: PathBuf, command: &'static str },
    /// Two profiles given to one merge that cannot be merged.
    #[error("{other}: cannot be merged with {first}: {what}")]
    Mismatch { first: PathBuf, other: PathBuf, what: String },
    /// A merge given no profile.
    #[error("{path}: no profiles to merge")]
    NothingToMerge { path: PathBuf },
    /// The whole program path asked of a TWPP file, which keeps the run split by function.
    #[error("{path}: a TWPP (written by `wpp twpp build`) holds the run split by function, not the whole program path this needs; give the profile it was built from{}", match .stem { Some(s) => format!(" ({s}.wpp)"), None => String::new() })]
    TwppWholePath { path: PathBuf, stem: Option<String> },
    /// The whole program path asked of a merged profile, which keeps one per run.
    #[error("{path}: a merged profile keeps each run's whole program path apart: choose one with --run N (`wpp stats` lists the runs)")]
    MergedWholePath { path: PathBuf },
    /// A run asked of a profile that is not merged.
    #[error("{path}: not a merged profile, so it holds one run: drop --run {run} (profiles are merged by `wpp merge`)")]
    NotMerged { path: PathBuf, run: usize },
    /// A run asked of a merged profile that does not have it.
    #[error("{path}: no run {run}: the profile merges runs 1 to {runs}")]
    NoSuchRun { path: PathBuf, run: usize, runs: usize },
    #[error("{path}: records no module hash (written by an older wpp or by `wpp compress`); record it again to use it with a module")]
    NoModuleHash { path: PathBuf },
}

/// The first 8 hexadecimal digits of a module's SHA-256: enough to tell two apart.
fn short_hex(id: &ModuleId) -> String {
    id.sha256_hex()[..8].to_owned()
}

impl Error {
    /// Whether wpp failed (a profile it could not write) rather than its input: the
    /// command line exits 1 for these, 2 for the others.
    pub fn is_failure(&self) -> bool {
        matches!(self, Error::Write { .. })
    }
}
