//! What wpp's reports are made of, as plain data: the CLI prints it as tables or JSON, and
//! other front ends (an HTML report) draw it.
//!
//! * Naming: [`select_func`] and [`parse_path`] read functions and paths as users write
//!   them (`FUNCTION:PATH_ID`); [`source_of`] says where a path is in the source.
//! * [`PathRow`]: one path as every report shows it (function, Ball-Larus number, cost,
//!   blocks, source lines, count), with one JSON form.
//! * One module per report, each an entry function over a [`Profile`](wpp_profile::Profile)
//!   or a [`Dag`] returning a report struct: [`path_profile`], [`stats()`],
//!   [`hot_subpaths`], [`freq`] / [`before`] / [`contexts`], [`ppp_report`],
//!   [`export()`].
//! * [`Top`] and [`Truncation`]: how many rows of its lists a report shows, and what it
//!   says about the rows it left out; one JSON form (`"truncated"`, `"total_LIST"`)
//!   wherever a list can be cut.
//! * [`format`]: numbers and names as text reports print them.
//!
//! This crate knows nothing of WebAssembly or of running programs: it reads profiles.

mod dag;
mod error;
pub mod export;
pub mod format;
pub mod hot;
mod naming;
mod paths;
pub mod ppp;
pub mod query;
mod row;
mod source;
pub mod stats;
mod truncation;

pub use dag::Dag;
pub use error::Error;
pub use export::export;
pub use hot::{hot_subpaths, Cost, HotRow, HotSubpaths};
pub use naming::{parse_path, select_func};
pub use paths::{path_profile, PathProfile};
pub use ppp::ppp_report;
pub use query::{before, contexts, freq};
pub use row::{brief_paths, path_instructions, BlockRow, Brief, PathRow};
pub use source::source_of;
pub use stats::{stats, stats_of};
pub use truncation::{Top, Truncation};
