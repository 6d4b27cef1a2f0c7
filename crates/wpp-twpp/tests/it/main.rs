//! The integration tests of wpp-twpp, one module per concern, in one test binary (one link).

mod block_log;
mod compaction;
mod dataflow;
mod file;
mod partition;
