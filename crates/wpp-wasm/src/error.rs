//! Errors of decoding and rewriting, each saying what is wrong and where. A cause (the
//! parser's error) is the error's `source()`, not repeated in its message.

/// An error from [`crate::decode`] or the rewriters.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are not WebAssembly at all; `found` says what they look like.
    #[error("not a WebAssembly module ({found})")]
    NotWasm { found: String },
    /// The module is in the text format and does not parse; the message says what is
    /// wrong and at which line and column.
    #[error("the WebAssembly text does not parse: {0}")]
    Text(String),
    /// The bytes are not a valid WebAssembly module; the source says what is wrong and at
    /// which byte offset.
    #[error("invalid module")]
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

impl Error {
    /// Whether this is a bug in wpp (a rewrite that went wrong) rather than a module it
    /// cannot handle.
    pub fn is_failure(&self) -> bool {
        matches!(self, Error::Rewrite { .. } | Error::InvalidRewrite { .. })
    }
}
