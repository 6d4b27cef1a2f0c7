//! WebAssembly in, WebAssembly out.
//!
//! * [`decode`] reads a core module with `wasmparser`, refuses features wpp does not
//!   handle (naming the feature and the function), and builds one control flow graph
//!   per function ([`Program`]).
//! * [`instrument`] rewrites the module with `wasm-encoder` so that it reports the
//!   Ball-Larus paths it runs: as a trace of path events or as per-path counters
//!   ([`Mode`]). The rewritten module behaves exactly like the original otherwise.
//! * [`effects`] says what each block does to variables and memory (definitions, loads
//!   and stores with their address expressions), for data flow analyses.
//! * [`instrument_block_log`] is the naive rewrite the tests use as an oracle: it reports
//!   every basic block entered, function entries and exits, through host calls.
//!
//! The host side of the contract (import names, export names, memory layout) is described
//! by [`abi`] and [`Layout`]; `wpp-runtime` is its only user.

pub mod abi;
mod cfg_build;
mod decode;
mod error;
mod facts;
mod func_type;
mod instrument;
mod oracle;
mod rewrite;
mod source;
mod wasm_idx;

pub use decode::{decode, Program};
pub use error::Error;
pub use facts::effects;
pub use instrument::{instrument, instrument_numbered, number_program, CounterKind, Instrumented, Interesting, Layout, Mode, Options, NO_PATH};
pub use oracle::instrument_block_log;
pub use source::{instruction_lines, source_map, InstructionLines};
