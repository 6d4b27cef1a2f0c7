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
//!   every basic block entered, function entries and exits, through host calls;
//!   [`instrument_access_log`] also reports every memory access and import call.
//!
//! The host side of the contract (import names, export names, memory layout) is described
//! by [`abi`] and [`Layout`]; `wpp-runtime` is its only user.
//!
//! ## Code map
//!
//! `decode` (validation, feature refusal, names), `func_type` (function and block
//! signatures, shared by decoding and CFG building), `cfg_build` (a body's CFG in two
//! passes: control scan, then blocks and edges), `instrument/` (the path rewrite in phases:
//! `mod` numbers the program and drives, `layout` the counter policy and added memory as a
//! pure function, `additions` what the module gains and where, `emit` each function's code,
//! `pads` the landing pads of catch clauses and the branch depths they shift, `hash_fn` the
//! generated hash function), `access` (what a memory instruction accesses,
//! the scratch-local code around it that both access-reporting rewrites share, and the
//! module's table of access sites), `wasm_idx` (typed local, global, memory and
//! function indices of the rewritten module), `oracle/` (the naive oracle rewrite,
//! `instrument_block_log`, and in `access` the access log), `rewrite` (section plumbing
//! shared by both), `origin` (where each copied instruction came from, to speak of the
//! running module's code in the original's offsets), `abi` (import/export names),
//! `source` (file and line range of every block, and the line of every instruction, from
//! the DWARF line table), `facts` (`effects`: each block's actions in order, addresses
//! followed through the operand stack by a symbolic interpretation whose arities come from
//! wasmparser's validator), `stmts` (`statements`: the locals, globals and stack slots each
//! instruction reads and writes, what branches move and what returns, for slicing).

pub mod abi;
mod access;
mod body;
mod cfg_build;
mod decode;
mod error;
mod facts;
mod flows;
mod func_type;
mod instrument;
mod oracle;
mod origin;
mod rewrite;
mod source;
mod stmts;
mod variables;
mod wasm_idx;

pub use access::access_sites;
pub use decode::{decode, module_binary, Program, LEGACY_EXCEPTIONS};
pub use error::Error;
pub use facts::effects;
pub use flows::statement_uses;
pub use instrument::{
    instrument, instrument_numbered, narrow_ids, number_program, CounterKind, EwppLayout, EwppPlan, EwppRoutines, Instrumented, Interesting, Layout, Mode,
    Options, INSTANCE_BITS, MAX_CANDIDATES, NO_PATH,
};
pub use oracle::{instrument_access_log, instrument_block_log};
pub use origin::{Origin, Origins};
pub use source::{instruction_lines, source_map, InstructionLines};
pub use stmts::{instruction_texts, statements};
pub use variables::{variables, VarLocation, Variable};
