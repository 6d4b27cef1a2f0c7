//! The program model shared by every wpp crate.
//!
//! A program is a list of functions; a function that has code has a control flow graph
//! ([`Cfg`]) of basic blocks. Blocks carry their byte range in the original module and
//! their instruction count (the default cost of a path). Edges say where control goes and
//! whether taking them ends an acyclic path (loop back edges, calls, returns, traps).
//!
//! This crate knows nothing of how WebAssembly is encoded or run: the `wpp-wasm` crate
//! builds these values from a module, `wpp-paths` numbers their paths, `wpp-profile`
//! stores them. [`effects`] says what each block does to variables and memory, for data
//! flow analyses. [`sniff`] tells what kind of file a path holds, for errors about a file
//! of the wrong kind.
//!
//! ## Code map
//!
//! Typed indices (`FuncIdx`, `BlockIdx`, `EdgeIdx`, `PathId`), `FuncMap` (values per
//! function, indexed by `FuncIdx`), `Cfg` with validation, path events and their word
//! encoding, `effects` (what a block does to variables and memory: definitions, loads and
//! stores with their address expressions, bulk writes — the GEN/KILL vocabulary of every
//! data flow analysis, no WebAssembly in it), `StopReason` (why a run was stopped: a
//! signal, a time, fuel or memory limit; the runtime's outcome and the profile's ending
//! share it), `sniff::FileKind` (what a file looks like from its first bytes, for errors
//! about a file of the wrong kind), `progress` (the `Progress` a long step reports to), `deps` (memory dependences
//! stated once: the last writer of every byte, `Shadow`), `access_event` (memory
//! accesses as event words beside path events, their decoder, and the access sites they
//! name), `exercised` (the dependences a run exercised, from its accesses in order:
//! `Tracker`), `ewpp` (how an extended whole program path's check routines are read), `stmts` (the
//! registers each instruction reads and writes, stack slots named by height: what a slice
//! follows without memory).

pub mod access_event;
mod cfg;
pub mod deps;
pub mod effects;
mod event;
pub mod ewpp;
pub mod exercised;
mod func_map;
mod idx;
pub mod progress;
pub mod sniff;
mod source;
pub mod stmts;
mod stop;

pub use cfg::{Block, Cfg, CfgError, Edge, EdgeKind, Target};
pub use event::{EventDecoder, EventWord, Narrow, NarrowDecoder, NarrowIds, PathEvent, ESCAPE_FUNC, NARROW_ESCAPE};
pub use func_map::FuncMap;
pub use idx::{BlockIdx, EdgeIdx, FuncIdx, PathId, SiteIdx};
pub use source::{LineRange, SourceMap};
pub use stop::StopReason;

/// A function of the program as the profile knows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Function {
    /// Index in the module's function index space (imports first).
    pub index: FuncIdx,
    /// Name from the name section, or `func[N]` when there is none.
    pub name: String,
    /// Control flow graph; `None` for imported functions.
    pub cfg: Option<Cfg>,
}
