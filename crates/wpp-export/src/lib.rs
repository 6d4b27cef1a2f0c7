//! A profile in the formats other tools read.
//!
//! ## Code map
//!
//! - [`tables`]: the profile as tables (runs, functions, blocks, paths, edges, source
//!   lines, hot subpaths, residual paths, the calling context tree), for SQL engines;
//!   [`parquet`] writes them as Parquet files, one per table and run, under the schema
//!   [`schema::SCHEMA`] (documented in `docs/parquet.md`).
//! - [`pprof`]: the calling context tree as a pprof profile (`go tool pprof`).
//! - [`speedscope`]: the calling context tree and the ordered call timeline as a
//!   speedscope document.
//! - [`lcov`]: line and branch coverage as an lcov tracefile (`genhtml`).
//!
//! Everything but the writers is pure: a profile in, rows or bytes out. The calls of a
//! whole program path are read once, by [`walk`]. Errors are [`Error`]; its `is_failure`
//! tells a file that could not be written (wpp's failure) from input that cannot be
//! exported.

mod error;
pub mod lcov;
pub mod parquet;
pub mod pprof;
pub mod schema;
pub mod speedscope;
pub mod tables;
pub mod walk;

pub use error::Error;
pub use walk::{walk, Timeline, Walk};
