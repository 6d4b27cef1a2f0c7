//! What `wpp` prints for a person to read: one module per report, each a `render` function
//! that writes the report's rows (from `wpp-report`, or the library that made them) as text
//! into any [`std::io::Write`]. The command line parses options, makes one library call and
//! one render call; JSON is the rows themselves (serde), so text is the only form here.
//!
//! Every text output is checked byte for byte by the blessed programs of `wpp-cli`
//! (`tests/cli/*.out`), so a change here shows in review as a change there.
//!
//! ## Code map
//!
//! One module per command: `paths`, `functions`, `stats`, `hot`, `query`, `trace`, `twpp`
//! (build, stats), `annotate`, `diff`, `merge`, `export`, `deps` (loads, stats, chains),
//! `dataflow` (redundancy, reaching), `dff`, `slice`, `ppp` (select, report), `report`,
//! `record` (the run's outcome, signals), `compress`, `expand` (the events, one a line).

pub mod annotate;
pub mod compress;
pub mod dataflow;
pub mod deps;
pub mod dff;
pub mod diff;
pub mod expand;
pub mod export;
pub mod functions;
pub mod hot;
pub mod merge;
pub mod paths;
pub mod ppp;
pub mod query;
pub mod record;
pub mod report;
pub mod slice;
pub mod stats;
pub mod trace;
pub mod twpp;
