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
//!   [`export()`], [`functions()`] (the function table), [`annotate()`] (source lines with
//!   their counts); over a TWPP file, [`traces`] and [`twpp_stats()`].
//! * [`heat`]: how often each block and CFG edge ran, from paths and consecutive pairs.
//! * [`read_source`]: a source file read by the name the DWARF gives it, through the
//!   user's `FROM=TO` prefixes.
//! * [`dataflow`]: the rows of the data flow reports, which `wpp-dataflow` fills in;
//!   [`slice`]: the rows of a dynamic slice, likewise.
//! * [`Top`] and [`Truncation`]: how many rows of its lists a report shows, and what it
//!   says about the rows it left out; one JSON form (`"truncated"`, `"total_LIST"`)
//!   wherever a list can be cut.
//! * [`format`]: numbers and names as text reports print them.
//!
//! This crate knows nothing of WebAssembly or of running programs: it reads profiles and
//! TWPP files.
//!
//! ## Code map
//!
//! The report layer, plain data for any front end: naming (`select_func`, `parse_path` for
//! `FUNCTION:PATH_ID`), `source_of` and `block_source` (where a path or a block is, through
//! the one lookup `SourceMap::block`), `read_source` (a source file by its DWARF name,
//! through `--source-map`'s prefixes), `PathRow` (the one path row of every report, with its
//! full and brief JSON forms), `Dag` (a profile's trace as a grammar over paths,
//! instruction costs); one module per report: `paths` (sorted by count or instructions),
//! `functions` (the function table: instructions, executions, paths and how few make 90%,
//! shared by `wpp functions` and the HTML page), `annotate` (executions and instructions
//! per source line or block, from the blocks' counts, shared by `wpp annotate` and the
//! page's source view, with its oracle in `tests/annotate.rs`), `stats`, `hot`, `query`,
//! `ppp` (the PPP report), `export`, and over a TWPP file `trace` (one function's distinct
//! traces) and `twpp_stats`; `heat` (block counts from paths, of one function or of the
//! whole program; edge counts from paths and consecutive pairs, with its oracle in
//! `tests/heat.rs`); `dataflow` (the rows of the data flow reports that
//! `wpp-dataflow` fills in); `slice` (the criterion, and the slice's instructions by source
//! line with the dependences that put them there); `truncation` (`Top`: how many rows of each list a report keeps —
//! every row for JSON unless `--top` is given, 20 for text; `Truncation`: what was cut, in
//! one JSON form, `"truncated"` and `"total_LIST"`, and one text line, for every report
//! that can cut a list); `format` (`group`, `percent`, `truncate`, `rho_table`).

pub mod annotate;
mod dag;
pub mod dataflow;
pub mod deps;
pub mod diff;
mod error;
pub mod export;
pub mod format;
pub mod functions;
pub mod heat;
pub mod hot;
mod naming;
mod paths;
pub mod point;
pub mod ppp;
pub mod query;
mod row;
pub mod slice;
mod source;
pub mod stats;
pub mod trace;
mod truncation;
mod twpp_stats;

pub use annotate::{annotate, Annotation, Selection};
pub use dag::Dag;
pub use diff::diff;
pub use error::Error;
pub use export::export;
pub use functions::{functions, FunctionRow, FunctionSort, Functions};
pub use hot::{hot_subpaths, run_cost, Cost, HotRow, HotSubpaths, MinCost};
pub use naming::{parse_path, select_func};
pub use paths::{path_profile, PathProfile, PathSort};
pub use ppp::ppp_report;
pub use query::{before, contexts, freq};
pub use row::{brief_paths, path_instructions, BlockRow, Brief, PathRow};
pub use source::{block_source, read_source, source_of, SourceText};
pub use stats::{stats, stats_of};
pub use trace::traces;
pub use truncation::{Top, Truncation};
pub use twpp_stats::{twpp_stats, TwppStats};
