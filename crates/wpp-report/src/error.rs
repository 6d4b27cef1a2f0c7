//! What can go wrong building a report.

use std::path::PathBuf;

/// An error of this crate: a name that names nothing, or a profile that cannot answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    /// A TWPP file that cannot be read.
    #[error(transparent)]
    Twpp(#[from] wpp_twpp::file::Error),
    /// A function name or index that is not in the profile's module.
    #[error("{}: no function named `{spec}`{}", .profile.display(), similar_hint(.similar))]
    NoFunction { profile: PathBuf, spec: String, similar: Vec<String> },
    /// A function index past the module's functions.
    #[error("{}: no function {index}: the module has {count} functions, 0 to {}", .profile.display(), .count.saturating_sub(1))]
    NoFunctionIndex { profile: PathBuf, index: String, count: usize },
    /// A path not written `FUNCTION:PATH_ID`.
    #[error("`{spec}`: {problem}")]
    BadPath { spec: String, problem: String },
    /// A program point not written in one of the forms of [`crate::point::FORMS`].
    #[error("`{spec}`: {problem}")]
    BadPoint { spec: String, problem: String },
    /// A path number past the function's paths.
    #[error("`{spec}`: function {function} has no path {path}")]
    NoPath { spec: String, function: String, path: u64 },
    /// The profile lacks what the report needs.
    #[error("{}: {what}", .profile.display())]
    Unsuitable { profile: PathBuf, what: String },
}

impl Error {
    /// Whether wpp failed rather than its input (every error here is about the input but
    /// a profile's write error): the command line exits 1 for these, 2 for the others.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Profile(e) => e.is_failure(),
            Error::Twpp(e) => e.is_failure(),
            _ => false,
        }
    }
}

/// Recovery's errors are this crate's, unchanged.
impl From<wpp_twpp::recover::Error> for Error {
    fn from(e: wpp_twpp::recover::Error) -> Error {
        match e {
            wpp_twpp::recover::Error::Profile(e) => Error::Profile(e),
            wpp_twpp::recover::Error::Twpp(e) => Error::Twpp(e),
            wpp_twpp::recover::Error::Unsuitable { profile, what } => Error::Unsuitable { profile, what },
            e => Error::Unsuitable { profile: std::path::PathBuf::new(), what: e.to_string() },
        }
    }
}

fn similar_hint(similar: &[String]) -> String {
    if similar.is_empty() {
        String::new()
    } else {
        format!("; did you mean one of: {}", similar.join(", "))
    }
}
