//! Errors reading and writing profiles, naming the file and what is wrong. An error that
//! has a cause (an I/O error) does not repeat it in its own message: it is the error's
//! `source()`, for the caller to print after it.

use std::path::PathBuf;

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
}

impl Error {
    /// Whether wpp failed (a profile it could not write) rather than its input: the
    /// command line exits 1 for these, 2 for the others.
    pub fn is_failure(&self) -> bool {
        matches!(self, Error::Write { .. })
    }
}
