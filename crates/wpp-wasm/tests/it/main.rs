//! The integration tests of wpp-wasm, one module per concern, in one test binary (one link).

mod exceptions;
mod golden;
mod instr_counts;
mod rewrite_valid;
mod text_format;
