//! The integration tests of wpp-profile, one module per concern, in one test binary (one link).

mod damaged;
mod module;
