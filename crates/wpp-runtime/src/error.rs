//! What can go wrong running a guest.

use std::path::PathBuf;

/// Any error from below: wasmtime's, WASI's, or an event sink's.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An [`EventSink`](crate::EventSink)'s error; it stops the guest and is reported as
/// [`Error::Recording`].
pub type SinkError = BoxError;

/// An error of this crate. A guest that traps or exits is not an error (see
/// [`Outcome`](crate::Outcome)); these are the failures to run it at all or to collect
/// what it recorded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("WPP_JIT_PROFILE={0}: expected perfmap or jitdump")]
    JitProfile(String),
    #[error("cannot configure the WebAssembly engine")]
    Engine(#[source] BoxError),
    #[error("cannot compile the module")]
    Compile(#[source] BoxError),
    #[error("cannot instantiate the module")]
    Instantiate(#[source] BoxError),
    #[error("the module has no `_start` function of type [] -> [] (is it a WASI command?)")]
    NoStart(#[source] BoxError),
    #[error("cannot open directory {} for the guest", .0.display())]
    Dir(PathBuf, #[source] BoxError),
    #[error("cannot provide WASI to the guest")]
    Wasi(#[source] BoxError),
    /// `_start` failed neither by a trap nor by an exit.
    #[error("the guest failed")]
    Guest(#[source] BoxError),
    #[error("cannot start the event consumer thread")]
    Thread(#[source] std::io::Error),
    #[error("the event consumer panicked")]
    ConsumerPanicked,
    /// The sink failed, or the guest's recording was stopped.
    #[error("recording failed")]
    Recording(#[source] BoxError),
    /// The instrumented module does not keep the contract of [`wpp_wasm::abi`].
    #[error("instrumented module: {0}")]
    Abi(String),
}

impl Error {
    /// Whether wpp or the machine failed (the engine, a thread, the event consumer, a bug)
    /// rather than the module or the options given: the command line exits 1 for these, 2
    /// for the others.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::JitProfile(_) | Error::Instantiate(_) | Error::NoStart(_) | Error::Dir(..) => false,
            Error::Engine(_)
            | Error::Compile(_)
            | Error::Wasi(_)
            | Error::Guest(_)
            | Error::Thread(_)
            | Error::ConsumerPanicked
            | Error::Recording(_)
            | Error::Abi(_) => true,
        }
    }
}
