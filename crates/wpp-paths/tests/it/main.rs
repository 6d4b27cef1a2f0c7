//! The integration tests of wpp-paths, one module per concern, in one test binary (one link).

mod enumerate;
mod ppp;
