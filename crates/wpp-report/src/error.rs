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
    /// A function or path name that names nothing in the profile's program.
    #[error(transparent)]
    Name(#[from] wpp_profile::naming::NameError),
    /// A program point not written in one of the forms of [`crate::point::FORMS`].
    #[error("`{spec}`: {problem}")]
    BadPoint { spec: String, problem: String },
    /// The profile lacks what the report needs.
    #[error("{}: {what}", .profile.display())]
    Unsuitable { profile: PathBuf, what: String },
    /// Memory dependences could not be recovered (`wpp_twpp::recover`).
    #[error(transparent)]
    Recover(#[from] wpp_twpp::recover::Error),
}

impl Error {
    /// Whether wpp failed rather than its input (every error here is about the input but
    /// a profile's write error): the command line exits 1 for these, 2 for the others.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Profile(e) => e.is_failure(),
            Error::Twpp(e) => e.is_failure(),
            Error::Recover(e) => e.is_failure(),
            _ => false,
        }
    }
}
