//! The integration tests of wpp-dataflow, one module per concern, in one test binary (one link).

mod control_dep;
mod dep_classes;
mod dff;
mod progress;
mod slice;
