//! What can go wrong recording.

use std::path::PathBuf;

/// An error of this crate, saying what and where. A guest that traps or exits is not an
/// error: its profile is written and [`Recording::outcome`](crate::Recording) says how it
/// ended.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("cannot read {}", .path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write {}", .path.display())]
    Write { path: PathBuf, source: std::io::Error },
    /// The module is not one wpp can decode.
    #[error("{}", .path.display())]
    Decode { path: PathBuf, source: wpp_wasm::Error },
    /// The module could not be instrumented.
    #[error("{}", .path.display())]
    Instrument { path: PathBuf, source: wpp_wasm::Error },
    /// Running the module failed (`path` is the module).
    #[error("{}", .path.display())]
    Run { path: PathBuf, source: wpp_runtime::Error },
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    /// A file that is not JSON at all (`found` says what it looks like, and `source` is
    /// `None`), or JSON that is not a set (`source` says where).
    #[error("{}: not a set file of `wpp ppp select`{}", .path.display(), .found.as_ref().map(|f| format!(" ({f})")).unwrap_or_default())]
    NotASet { path: PathBuf, found: Option<String>, source: Option<serde_json::Error> },
    /// Preferential path profiling was asked for without a set, or a set without it.
    #[error("{0}")]
    Options(String),
    /// The recorded event stream ended inside a two-word event.
    #[error("the trace ends inside an event")]
    TruncatedTrace,
    /// Building the grammar failed (the spool could not be written or read back, or the
    /// run had more distinct paths than a grammar can number).
    #[error("building the grammar")]
    Build(#[source] wpp_runtime::SinkError),
    /// Input that does not make sense, with where it is in the message.
    #[error("{0}")]
    Invalid(String),
    /// A name that names nothing in the profile's program.
    #[error(transparent)]
    Name(#[from] wpp_profile::naming::NameError),
}

impl Error {
    /// Whether wpp or the machine failed (a file it could not write, a bug) rather than
    /// the input it was given (a module it cannot read or handle, a set file of another
    /// kind, options that do not fit): the command line exits 1 for these, 2 for the
    /// others.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Read { .. } | Error::Decode { .. } | Error::NotASet { .. } | Error::Options(_) | Error::Invalid(_) => false,
            Error::Write { .. } | Error::TruncatedTrace | Error::Build(_) => true,
            Error::Instrument { source, .. } => source.is_failure(),
            Error::Run { source, .. } => source.is_failure(),
            Error::Profile(e) => e.is_failure(),
            Error::Name(_) => false,
        }
    }
}
