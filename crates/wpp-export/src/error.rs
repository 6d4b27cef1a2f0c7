use std::path::PathBuf;

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    #[error(transparent)]
    Report(#[from] wpp_report::Error),
    /// The calls could not be read off the whole program path.
    #[error("{profile}: the calls could not be read off the whole program path: {message}")]
    Calls { profile: PathBuf, message: String },
    /// The format needs the whole program path, which the profile does not hold.
    #[error("{profile}: {what} needs the whole program path; the profile holds path counts only (record with --mode grammar or --mode trace)")]
    NoWholePath { profile: PathBuf, what: &'static str },
    #[error("{profile}: the profile does not record its module's hash (recorded by an older wpp); record it again to export tables")]
    NoModuleHash { profile: PathBuf },
    /// A file could not be read (the I/O error is the source, which the command line
    /// prints after the path).
    #[error("{path}")]
    Io { path: PathBuf, source: std::io::Error },
    /// A file of the export could not be written.
    #[error("cannot write {path}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{path}: writing Parquet: {message}")]
    Parquet { path: PathBuf, message: String },
}

impl Error {
    /// Whether wpp failed rather than its input: a file of the export that could not be
    /// written (the command line exits 1 for these, 2 for the others).
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Profile(e) => e.is_failure(),
            Error::Report(e) => e.is_failure(),
            Error::Write { .. } | Error::Parquet { .. } => true,
            Error::Calls { .. } | Error::NoWholePath { .. } | Error::NoModuleHash { .. } | Error::Io { .. } => false,
        }
    }
}
