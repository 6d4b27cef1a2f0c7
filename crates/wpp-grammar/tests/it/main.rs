//! The integration tests of wpp-grammar, one module per concern, in one test binary (one link).

mod dag;
mod dff;
mod encode;
mod encoded_bytes;
mod hot;
mod phrases;
mod query;
mod repair;
mod runs;
mod sequitur;
