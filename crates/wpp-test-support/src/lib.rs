//! Scaffolding shared by wpp's tests, said once: the `.wat` test programs, a seeded PRNG,
//! the proptest strategies several suites use, and the check that runs one module every
//! way wpp can run it.
//!
//! * [`corpus`]: the `.wat` programs in `wat/`, each exercising one control-flow shape, by
//!   name: path, compiled bytes, or a `.wasm` file written for the command line;
//! * [`rng`]: [`Rng`], a seeded xorshift64* generator for fuzz-style loops;
//! * [`strategies`] (features `cfg`, `grammar`): random CFGs and random grammars;
//! * [`agree`] (feature `runtime`): [`agree::check_all_ways`], the uninstrumented run
//!   against every recording mode and the block-log oracle.
//!
//! # Only a dev-dependency, in layers
//!
//! Every wpp crate may use this crate in its tests, including crates this crate depends
//! on: `wpp-grammar`'s tests use [`strategies::arb_grammar`], which builds a
//! `wpp_grammar::Grammar`. Cargo allows such a dev-dependency cycle, and an integration
//! test (`tests/*.rs`) then sees one `wpp_grammar`: the test and this crate link the same
//! library. A unit test inside a crate's `src/` would not: there the crate is compiled a
//! second time, as the test, and its types differ from the ones this crate was built
//! against. So the shared pieces are for integration tests only.
//!
//! Each layer is a cargo feature, so that a crate's tests build no more of wpp than they
//! use: `cfg` needs only `wpp-model`, `grammar` only `wpp-grammar`, and `runtime` pulls in
//! `wpp-runtime` and with it wasmtime, which `wpp-paths`' or `wpp-grammar`'s tests alone
//! should not have to compile. The rest ([`corpus`], [`rng`]) depends on no wpp crate.

pub mod corpus;
pub mod rng;
pub mod strategies;

#[cfg(feature = "runtime")]
pub mod agree;

pub use rng::Rng;
