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
//! [`slice`] finds, on demand, the executions a value depends on (dynamic slicing, §4.3).
//!
//! It knows control flow graphs and path numberings, not WebAssembly: where calls and
//! returns happen comes from the CFG's edge kinds and the next event's first block.
//!
//! ## Code map
//!
//! Timestamped whole program paths: `partition` splits a stream of path events into
//! per-invocation path traces (calls and returns read off the CFG's edge kinds and the next
//! path's first block; imports, tail calls, `call_indirect`, cut points, runs that end
//! inside calls), interns each function's distinct traces, and keeps the dynamic call graph
//! in post-order, from which the stream is rebuilt exactly; `dbb`: dynamic basic blocks of
//! a block trace collapsed behind a dictionary (`collapse_timestamped`: the same and the
//! timestamped form in two streaming passes over a trace, never expanded, which is how the
//! file is built); `timestamps`: the timestamped form, each block's steps as arithmetic
//! series (`l`, `l:h`, `l:h:s`; `SeriesBuilder` makes the same series one step at a time);
//! `partition::link`: the one classification of what happened between two consecutive paths
//! (call, import, loop, return, tail call), which `partition::Calls` (in the memory of the
//! open invocations, shared by the partition and `stacks`) and the data flow frequencies
//! build on; `stacks`: the calling context tree (every distinct call stack with its
//! invocations and the cost of its paths) in one pass over the events; `dcg`: the call
//! graph as a post-order stream of numbers (the tree implicit), compressed by LZW and by
//! SEQUITUR(1); `steps`: the size after each step (the paper's Tables 2, 3, 6); `format`:
//! one function's part (distinct collapsed traces as timestamp series, distinct
//! dictionaries, the pairs invocations followed), a head read without the traces' bodies,
//! huge bodies in sections of their own; `callers`: who made each of a function's traces'
//! invocations, and the order of its invocations (SEQUITUR(1)), so that one function's
//! callers and `n`-th invocation are read without the call graph; `file`: the TWPP file, a
//! profile container with the profile's meta, counts, source and module hash, sections per
//! function (most invoked first, each readable alone), the compressed call graph, the
//! compaction measured at build and an index; `Twpp` reads one function, one trace of it,
//! or rebuilds the whole path; `dataflow`:
//! profile-limited, demand-driven queries (reaching definitions, load redundancy): per
//! distinct trace, the point's timestamps resolved by the latest GEN/KILL timestamp before
//! them; calls answered by the callee invocation's effect (post-order subtrees, computed
//! once per query), facts that outlive a frame continued into the caller up the call graph;
//! `slice`: the dependences of one execution of an instruction (registers by their latest
//! definition over the timestamps of the blocks that define them, control by the latest
//! execution of a controlling block, arguments, results and globals across the call
//! graph), kept once found, and the backward closure that is a precise dynamic slice.

pub mod callers;
pub mod dataflow;
pub mod dbb;
pub mod dcg;
pub mod file;
pub mod format;
pub mod memory;
pub mod partition;
pub mod recover;
pub mod run;
pub mod slice;
pub mod stacks;
pub mod steps;
pub mod timestamps;

pub use file::{build, build_with, Twpp};
pub use partition::{partition, Call, Caller, Dcg, DcgNode, FuncTraces, Invocation, Partition, PartitionError, Partitioner, TraceIdx};
