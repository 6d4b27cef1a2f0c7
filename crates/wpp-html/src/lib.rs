//! wpp's HTML report: one self-contained page a performance engineer reads in a minute.
//!
//! * [`build`] runs the analyses the page shows over a profile ([`report`]): the summary,
//!   the hottest paths and the hot subpaths, each with a drawing of its function's CFG
//!   ([`drawing`], coloured by `wpp_report::heat`), the calling context tree as a flame graph
//!   ([`flame`]), the function table (`wpp_report::functions`) and, for a PPP profile,
//!   its interesting and residual paths; for a profile with memory dependences, the most
//!   executed loads with the writers they read (`wpp_report::deps`); the source lines with their executions and
//!   instructions (`wpp_report::annotate`); and the [`views`] of a TWPP file or a data
//!   flow result when the caller has one.
//! * [`render`] writes the page ([`page`]) from a report, the drawings laid out, and the
//!   source files.
//! * [`slice::render`] writes a dynamic slice (`wpp slice --html`) as a page: the source
//!   with the slice's lines highlighted, each instruction linked to what it depends on.
//! * [`diff::render`] writes two runs compared (`wpp diff --html`) as a page: functions
//!   and paths by the change in instructions, with bars, and what could not be matched.
//! * [`write_report`] ([`pipeline`]) is `wpp report` end to end, for the command line and
//!   the benchmark: open, decode once, build, lay out, render, write.
//!
//! Reading source files is the caller's (sources come through a function); the drawings
//! are Graphviz source, which [`graphviz::layout`] lays out with one run of `dot`.
//! This crate knows nothing of WebAssembly: it reads profiles.
//!
//! ## Code map
//!
//! The HTML report: `pipeline` (`write_report`: `wpp report` end to end, for the CLI and
//! the benchmark: the profile opened and its grammar decoded once, the caller's data flow
//! computed on it, the page built, laid out and written atomically), `report` (`build`: the
//! analyses the page shows, computed from an `Input`, a decoded run or counts, with
//! progress through the `Progress` trait; `Options`), `drawing` (a CFG with paths
//! highlighted and edges coloured by `wpp_report::heat`, as Graphviz source; blocks of
//! large functions that the paths neither touch nor neighbour collapse into one note per
//! run of indices), `flame` (the calling context tree as folded stacks, drawn by inferno;
//! its history made a no-op for a data-URL frame), `page` (`render`: the one
//! self-contained page, drawings inline, the flame graph as a data URL in a frame, source
//! lines linked from every item, each with its executions and instructions; the function
//! table is `wpp_report`'s),
//! `diff` (`render`: two runs compared, functions and paths by the change with bars; no
//! I/O but `write`),
//! `slice` (`render`: a dynamic slice's page, source lines highlighted and linked to the
//! instructions, each dependence linked to its source instruction; no I/O, sources come
//! through a function), `text` (escaping, numbers), `views` (what the page shows of other analyses: a TWPP
//! file's functions and traces, read here; data flow frequencies as
//! `wpp_report::dataflow`'s rows, which the caller computes with `wpp-dataflow`, a crate
//! this one does not know). `graphviz` (the drawings laid out by one run of Graphviz's
//! `dot`: the one program this crate runs). `build` and `render` do no I/O (sources come
//! through a function); `pipeline` reads the profile, the TWPP file and the sources and
//! writes the page.

pub mod diff;
pub mod drawing;
pub mod flame;
pub mod graphviz;
pub mod page;
pub mod pipeline;
pub mod report;
pub mod slice;
pub mod text;
pub mod views;

pub use page::render;
pub use pipeline::{write_report, PipelineError, Request, Written};
pub use report::{build, Input, Options, Report};
pub use views::{twpp_view, Extras, TwppView};

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Report(#[from] wpp_report::Error),
    #[error("drawing the flame graph: {0}")]
    Flame(String),
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
    #[error(transparent)]
    Twpp(Box<wpp_twpp::file::Error>),
    #[error("{twpp} is not of the run {profile} recorded (another module, or another number of events)")]
    OtherRun { twpp: std::path::PathBuf, profile: std::path::PathBuf },
    /// The page could not be written (nothing was: an earlier file stays as it was).
    #[error("cannot write {}", .path.display())]
    Write { path: std::path::PathBuf, source: std::io::Error },
}

impl Error {
    /// Whether the error is the machine's (I/O) rather than the profile's.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Report(e) => e.is_failure(),
            Error::Profile(e) => e.is_failure(),
            Error::Twpp(e) => e.is_failure(),
            Error::Flame(_) | Error::Write { .. } => true,
            Error::OtherRun { .. } => false,
        }
    }
}

/// Where the long steps of [`build`] say how far they are (the analyses' one trait).
pub use wpp_model::progress::{Progress, Quiet};
