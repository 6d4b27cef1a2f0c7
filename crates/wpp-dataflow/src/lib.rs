//! Analyses of a recorded run that read the module's instructions: what each block
//! defines, loads and stores (`wpp_wasm::effects`) turned into data flow facts, answered
//! over the run.
//!
//! ## Code map
//!
//! - [`Module`]: the module a profile was recorded from, checked against the profile's
//!   hash and CFGs, its effects and source lines read, its blocks indexed by byte offset.
//! - [`place`]: a program point written in `wpp_report::point`'s forms, resolved in the
//!   module to its function, block and instruction.
//! - [`query`]: demand-driven queries on the timestamped whole program path (load
//!   redundancy, reaching definitions), by `wpp_twpp::dataflow`.
//! - [`control_dep`]: post-dominators and control dependence of a function's blocks,
//!   which a slice follows from a statement to the branches that let it run.
//! - [`slice`]: dynamic slices on the TWPP (`wpp_twpp::slice`), from a criterion as users
//!   write one to a listing by source line.
//! - [`dep_class`]: the static class of a memory dependence (fully or partially free,
//!   fixed or variable cost), by which its instances are recovered; [`dep_stats`]: the
//!   classes of the dependences a run exercised.
//! - [`dff`]: exact data flow frequencies on the profile's grammar
//!   (`wpp_grammar::dff`), beside the estimate an edge profile alone gives.
//!
//! Each analysis returns the plain rows of `wpp_report::dataflow`, which the command line
//! prints and the HTML report renders. Errors are this crate's [`Error`].

pub mod control_dep;
pub mod dep_class;
pub mod dep_stats;
pub mod dff;
mod error;
mod module;
pub mod place;
pub mod query;
pub mod slice;

pub use error::Error;
pub use module::{statement_uses, Module};
