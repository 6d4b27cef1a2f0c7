//! Errors of decoding and rewriting, each saying what is wrong and where.

/// An error from [`crate::decode`] or the rewriters.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are not a valid WebAssembly module.
    #[error("invalid module: {0}")]
    Invalid(#[from] wasmparser::BinaryReaderError),
    /// The module is a component, not a core module.
    #[error("this is a WebAssembly component; wpp handles core modules (wasm32-wasi preview 1)")]
    Component,
    /// The module uses a feature wpp does not handle.
    #[error("unsupported feature: {feature} (in {place})")]
    Unsupported { feature: String, place: String },
    /// The module's DWARF debugging information could not be read.
    #[error("unreadable DWARF: {0}")]
    Dwarf(String),
    /// The rewritten module failed to encode or validate: a bug in wpp.
    #[error("internal error while rewriting {place}: {message}")]
    Rewrite { place: String, message: String },
    /// The rewritten module does not validate: a bug in wpp. `module` is that module, for
    /// inspection.
    #[error("internal error: the rewritten module does not validate: {message}")]
    InvalidRewrite { message: String, module: Vec<u8> },
}
