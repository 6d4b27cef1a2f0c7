//! The integration tests of wpp-runtime, one module per concern, in one test binary (one link).

mod access_log;
mod addresses;
mod limits;
mod real_programs;
mod smith;
mod wat_programs;
