//! wpp's HTML report: one self-contained page a performance engineer reads in a minute.
//!
//! * [`build`] runs the analyses the page shows over a profile ([`report`]): the summary,
//!   the hottest paths and the hot subpaths, each with a drawing of its function's CFG
//!   ([`drawing`], coloured by [`heat`]), the calling context tree as a flame graph
//!   ([`flame`]), per-function path distributions ([`distribution`]) and, for a PPP
//!   profile, its interesting and residual paths.
//! * [`render`] writes the page ([`page`]) from a report, the drawings laid out, and the
//!   source files.
//!
//! Laying out a drawing and reading a source file are the caller's (I/O): the drawings are
//! Graphviz source, laid out by whatever runs `dot`, and sources come through a function.
//! This crate knows nothing of WebAssembly: it reads profiles.

pub mod distribution;
pub mod drawing;
pub mod flame;
pub mod heat;
pub mod page;
pub mod report;
pub mod text;

pub use page::render;
pub use report::{build, Options, Report};

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Report(#[from] wpp_report::Error),
    #[error("drawing the flame graph: {0}")]
    Flame(String),
}

impl Error {
    /// Whether the error is the machine's (I/O) rather than the profile's.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Report(e) => e.is_failure(),
            Error::Flame(_) => true,
        }
    }
}

/// Where the long steps of [`build`] say how far they are.
pub trait Progress {
    /// A new step begins, with its amount of work when known.
    fn stage(&mut self, name: &str, total: Option<u64>);
    /// `n` more units of the step's work are done.
    fn advance(&mut self, n: u64);
}

/// Progress that goes nowhere.
pub struct Quiet;

impl Progress for Quiet {
    fn stage(&mut self, _: &str, _: Option<u64>) {}
    fn advance(&mut self, _: u64) {}
}
