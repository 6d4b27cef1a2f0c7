//! The integration tests of wpp-report, one module per concern, in one test binary (one link).

mod annotate;
mod heat;
