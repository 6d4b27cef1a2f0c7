//! What can go wrong analysing a run with its module.

use std::path::PathBuf;

/// An error of this crate, saying what and where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("cannot read {}", .path.display())]
    Read { path: PathBuf, source: std::io::Error },
    /// The module is not one wpp can decode.
    #[error("{}", .path.display())]
    Decode { path: PathBuf, source: wpp_wasm::Error },
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    /// A profile the reports cannot read as a grammar over paths, or a name that names
    /// nothing in it.
    #[error(transparent)]
    Report(#[from] wpp_report::Error),
    /// A TWPP file that cannot be read.
    #[error(transparent)]
    Twpp(wpp_twpp::file::Error),
    /// A data flow query that cannot be answered.
    #[error(transparent)]
    Query(wpp_twpp::dataflow::Error),
    /// A module whose code is not what the profile recorded, though the hashes agree.
    #[error("{}: function {function} has another CFG than the profile's, though the hashes agree", .path.display())]
    OtherCfg { path: PathBuf, function: String },
    /// A place (`--at`, `--load`) that names no instruction, or that is not a place at
    /// all; the message says what the module has instead where it can.
    #[error("{0}")]
    Place(String),
    /// Input that does not make sense, with where it is in the message.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// Whether wpp or the machine failed (a bug) rather than the input it was given (a
    /// module or profile it cannot read, a place that names nothing): the command line
    /// exits 1 for these, 2 for the others.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Read { .. } | Error::Decode { .. } | Error::OtherCfg { .. } | Error::Place(_) | Error::Invalid(_) => false,
            Error::Profile(e) => e.is_failure(),
            Error::Report(e) => e.is_failure(),
            Error::Twpp(e) => e.is_failure(),
            Error::Query(e) => e.is_failure(),
        }
    }
}
