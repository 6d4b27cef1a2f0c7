//! Scaffolding shared by wpp's tests, said once: the `.wat` test programs, a seeded PRNG,
//! the proptest strategies several suites use, the check that runs one module every way wpp
//! can run it, and the runner of the real-program suites.
//!
//! * [`corpus`]: the `.wat` programs in `wat/`, each exercising one control-flow shape, by
//!   name: path, compiled bytes, or a `.wasm` file written for the command line;
//! * [`rng`]: [`Rng`], a seeded xorshift64* generator for fuzz-style loops;
//! * [`line_diff`]: the differing lines of an expected and an actual text, for the tests
//!   that compare output with files checked in beside them;
//! * [`alloc`]: a counting global allocator and `measure`, for tests that bound what a
//!   call allocates;
//! * [`strategies`] (features `cfg`, `grammar`): random CFGs and random grammars;
//! * `cfgs` (feature `cfg`): CFGs of known shapes (a diamond, a loop that calls, a check
//!   that traps, diamonds in a row), for the profile fixtures of the damaged-profile tests
//!   and the profile fuzz target;
//! * `grammar_checks` (feature `grammar`): the grammar builders' and the grammar decoder's
//!   property checks, shared by `wpp-grammar`'s tests and the fuzz targets;
//! * `operators` (feature `wasm`): instructions counted from wasmparser's operator
//!   stream, independently of the CFG builder;
//! * `agree` (feature `runtime`): `agree::check_all_ways`, the uninstrumented run
//!   against every recording mode and the block-log oracle;
//! * `deps` (feature `runtime`): `DirectDeps`, every memory dependence of a run recorded
//!   directly from the access log and a shadow memory, the oracle of their recovery;
//! * `frame_walk` (feature `runtime`): the frame skeleton of the oracles that walk a
//!   block log with state per invocation (the data flow frequencies' and the TWPP data
//!   flow queries');
//! * `smith` (feature `runtime`): the same agreement for one wasm-smith module, in a
//!   wasmtime harness of its own (the modules are not WASI commands), for `smith.rs` and
//!   the `instrument` fuzz target;
//! * [`workloads`]: the real programs of `workloads/workloads.json`, run on a small pool of
//!   threads, skipped or failed when they are not built.
//! * `recordings` (feature `runtime`): a run recorded in one mode once and shared by every
//!   test (and test binary) that asks for it, under the target directory, keyed by the
//!   module, the run, the mode and the recording crates' sources.
//!
//! # Only a dev-dependency, in layers
//!
//! Every wpp crate may use this crate in its tests, including crates this crate depends
//! on: `wpp-grammar`'s tests use `strategies::arb_grammar`, which builds a
//! `wpp_grammar::Grammar`. Cargo allows such a dev-dependency cycle, and an integration
//! test (`tests/*.rs`) then sees one `wpp_grammar`: the test and this crate link the same
//! library. A unit test inside a crate's `src/` would not: there the crate is compiled a
//! second time, as the test, and its types differ from the ones this crate was built
//! against. So the shared pieces are for integration tests only.
//!
//! Each layer is a cargo feature, so that a crate's tests build no more of wpp than they
//! use: `cfg` needs only `wpp-model`, `grammar` only `wpp-grammar`, and `runtime` pulls in
//! `wpp-runtime` and with it wasmtime, which `wpp-paths`' or `wpp-grammar`'s tests alone
//! should not have to compile. The rest ([`corpus`], [`rng`], [`line_diff`], [`workloads`]) depends on no
//! wpp crate but `wpp-workloads`.
//!
//! # The real programs: a fast and a full suite
//!
//! The real-program suites read their programs from the manifest, never from a copied
//! list, and run them from one `#[test]` per suite on a pool of threads (see
//! [`workloads::for_each_program`]). Plain `cargo test` is the fast suite: a program whose
//! module or inputs are not built is skipped with a one-line note on stderr.
//! `scripts/test.sh` is the full suite: it builds the workloads and sets
//! `WPP_FULL_SUITE=1`, under which anything missing is a failure, so a real-program test
//! never passes without having run.
//!
//! ## Code map
//!
//! Dev-dependency only: the `.wat` corpus (`wat/`), one seeded `Rng`, proptest strategies
//! (random CFGs, grammars), `check_all_ways` (a module run every way against the block-log
//! oracle, also with every function cut as far as it goes), `operators` (instructions
//! counted from wasmparser's operator stream), `alloc` (a per-thread counting allocator for
//! tests that bound allocation), `grammar_checks` (each grammar builder and decoder against
//! expansion, shared by the property tests and the fuzz targets), `smith` (a wasm-smith
//! module instrumented and run every way against the uninstrumented run and the block-log
//! oracle, shared by `wpp-runtime/tests/smith.rs` and the `instrument` fuzz target),
//! `dataflow_programs` (random WASI programs for data flow oracles: definitions, loads and
//! stores at constant, local and global addresses, calls of every kind, bulk writes, import
//! calls; terminating and trap-free by construction), `c/` (C test programs, such as Zhang
//! & Gupta's Fig. 9, compiled by the tests that use them), the real-program runner that
//! reads `workloads.json` and skips (plain `cargo test`) or fails (`WPP_FULL_SUITE=1`, set
//! by `scripts/test.sh`) what is not built, `recordings` (runs recorded once and shared
//! across tests and test binaries, under the target directory; `build.rs` hashes the
//! recording crates' sources into their key); layers as cargo features.

pub mod alloc;
pub mod corpus;
pub mod dataflow_programs;
pub mod line_diff;
pub mod rng;
pub mod strategies;
pub mod workloads;

#[cfg(feature = "runtime")]
pub mod agree;
#[cfg(feature = "cfg")]
pub mod cfgs;
#[cfg(feature = "runtime")]
pub mod deps;
#[cfg(feature = "runtime")]
pub mod frame_walk;
#[cfg(feature = "grammar")]
pub mod grammar_checks;
#[cfg(feature = "wasm")]
pub mod operators;
#[cfg(feature = "runtime")]
pub mod recordings;
#[cfg(feature = "runtime")]
pub mod smith;
#[cfg(feature = "runtime")]
mod tree_hash;

pub use rng::Rng;
