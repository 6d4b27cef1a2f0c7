//! Scaffolding shared by wpp's tests, said once.
//!
//! * [`corpus`]: the `.wat` programs in `wat/`, each exercising one control-flow shape, by
//!   name: path, compiled bytes, or a `.wasm` file written for the command line.
//!
//! Only a dev-dependency, and for integration tests (`tests/*.rs`) only.

pub mod corpus;
