//! Errors reading and writing profiles, naming the file and what is wrong.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: not a wpp profile (bad magic number)")]
    NotAProfile { path: PathBuf },
    #[error("{path}: profile format version {found}; this wpp reads versions 1 to {}", crate::VERSION)]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: damaged profile: {what}")]
    Corrupt { path: PathBuf, what: String },
    #[error("{path}: the profile has no `{section}` section")]
    Missing { path: PathBuf, section: String },
}
