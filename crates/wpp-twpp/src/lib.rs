//! Timestamped whole program paths (Zhang & Gupta, "Timestamped Whole Program Path
//! Representation and its Applications", 2001).
//!
//! A whole program path is one stream of path events. This crate reorganises it by call:
//! [`partition`] splits the stream into one path trace per function invocation, keeps
//! each function's distinct traces once, and links the invocations by a dynamic call
//! graph ([`Dcg`]) from which the whole stream is rebuilt exactly ([`Partition::events`]).
//! [`dbb`] collapses a trace's dynamic basic blocks behind a dictionary; [`timestamps`]
//! turns a trace into the timestamped form, each block's steps as arithmetic series;
//! [`steps`] measures what each step saves. [`file`] writes and reads the TWPP file: a
//! profile whose whole program path is stored this way, one function readable alone.
//!
//! [`stacks`] builds the run's calling context tree in one pass (what a flame graph draws).
//!
//! [`dataflow`] answers demand-driven data flow queries over it (§4): which definitions
//! reach a point and how often, whether a load's value was already loaded or stored.
//!
//! It knows control flow graphs and path numberings, not WebAssembly: where calls and
//! returns happen comes from the CFG's edge kinds and the next event's first block.

pub mod dataflow;
pub mod dbb;
pub mod dcg;
pub mod file;
pub mod format;
pub mod partition;
pub mod stacks;
pub mod steps;
pub mod timestamps;

pub use file::{build, Twpp};
pub use partition::{partition, Call, Caller, Dcg, DcgNode, FuncTraces, Partition, PartitionError, Partitioner, TraceIdx};
