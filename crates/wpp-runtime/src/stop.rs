//! Stopping a running guest from outside (a signal, a timer) and the limits a run may
//! have: the pieces each store of a run is given.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use wasmtime::{Engine, ResourceLimiter};
use wpp_model::StopReason;

/// Asks a running guest to stop, from any thread (a signal handler's thread, a timer).
///
/// An instrumented guest in trace mode stops at its next event flush (a full buffer:
/// within about a hundred thousand paths); in count mode at its next path end (the host
/// poisons the stop word every counter address is offset by, and the next counter update
/// traps: [`wpp_wasm::abi::EXPORT_STOP`]); any other at its next function entry or loop
/// header (wasmtime's epoch interruption, see [`engine_for`](crate::engine_for)). A
/// guest blocked in a host call (reading stdin, say) stops when the call returns. What it
/// recorded until then is collected as after a trap, and the run's outcome is
/// [`Outcome::Stopped`](crate::Outcome::Stopped). One handle serves one run.
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Set with `state.reason`: read without the lock at every event flush.
    requested: AtomicBool,
    state: Mutex<StopState>,
}

#[derive(Debug, Default)]
struct StopState {
    reason: Option<StopReason>,
    /// Engines of the runs this handle stops (their epoch is what wakes a guest).
    engines: Vec<Engine>,
    /// The address of a count-mode guest's stop word while it runs.
    word: Option<StopWord>,
    ended: bool,
}

/// The address of a running count-mode guest's stop word.
#[derive(Debug)]
struct StopWord(*mut u32);

// SAFETY: the address is only written through, atomically, under the state's lock, while
// the guest that owns it runs (see `StopHandle::arm`).
unsafe impl Send for StopWord {}

impl StopHandle {
    pub fn new() -> StopHandle {
        StopHandle::default()
    }

    fn state(&self) -> MutexGuard<'_, StopState> {
        // The state stays consistent whatever panicked while holding the lock.
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the guest to stop, for `reason`. Returns whether this request will stop it:
    /// `false` when the guest has already ended, or an earlier request (whose reason
    /// stands) is under way. A request made before the guest starts stops it at once.
    pub fn stop(&self, reason: StopReason) -> bool {
        let mut s = self.state();
        if s.ended || s.reason.is_some() {
            return false;
        }
        s.reason = Some(reason);
        self.inner.requested.store(true, Ordering::Release);
        for e in &s.engines {
            e.increment_epoch();
        }
        if let Some(w) = &s.word {
            w.poison();
        }
        true
    }

    /// Makes `stop` reach the count-mode guest whose stop word is at `word` (4 bytes,
    /// aligned), until the guest ends ([`StopHandle::set_ended`]).
    ///
    /// # Safety
    /// `word` must stay valid for writes until `set_ended` is called, and nothing but the
    /// guest's own code may access it meanwhile.
    pub(crate) unsafe fn arm(&self, word: *mut u32) {
        let mut s = self.state();
        let w = StopWord(word);
        if s.reason.is_some() {
            w.poison();
        }
        s.word = Some(w);
    }

    /// Why the guest was asked to stop, if it was.
    pub fn reason(&self) -> Option<StopReason> {
        self.state().reason
    }

    /// Whether a stop was asked for (cheap: no lock).
    pub(crate) fn requested(&self) -> bool {
        self.inner.requested.load(Ordering::Acquire)
    }

    /// Whether the guest has ended (by itself or stopped): recording is past the run.
    pub fn guest_ended(&self) -> bool {
        self.state().ended
    }

    /// Makes `stop` reach guests running on `engine`.
    pub(crate) fn attach(&self, engine: &Engine) {
        let mut s = self.state();
        if s.reason.is_some() {
            engine.increment_epoch();
        }
        s.engines.push(engine.clone());
    }

    pub(crate) fn set_ended(&self) {
        let mut s = self.state();
        s.ended = true;
        s.engines.clear();
        s.word = None;
    }
}

impl StopWord {
    fn poison(&self) {
        // SAFETY: valid, aligned and written only atomically while armed (`StopHandle::arm`);
        // the guest's code reads it.
        unsafe { std::sync::atomic::AtomicU32::from_ptr(self.0) }.store(wpp_wasm::abi::STOP_POISON, Ordering::Relaxed);
    }
}

/// Stops the guest through `stop` when `timeout` passes, unless dropped first.
pub(crate) struct Timer {
    _cancel: Option<std::sync::mpsc::Sender<()>>,
}

impl Timer {
    pub(crate) fn start(timeout: Option<Duration>, stop: &StopHandle) -> Result<Timer, std::io::Error> {
        let Some(timeout) = timeout else { return Ok(Timer { _cancel: None }) };
        let (cancel, cancelled) = std::sync::mpsc::channel::<()>();
        let stop = stop.clone();
        std::thread::Builder::new().name("wpp-timeout".into()).spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = cancelled.recv_timeout(timeout) {
                stop.stop(StopReason::Timeout { millis: timeout.as_millis().min(u64::MAX as u128) as u64 });
            }
        })?;
        Ok(Timer { _cancel: Some(cancel) })
    }
}

/// The error an event flush traps with when a stop was asked for.
#[derive(Debug)]
pub(crate) struct StoppedAtFlush;

impl std::fmt::Display for StoppedAtFlush {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped at an event flush")
    }
}

impl std::error::Error for StoppedAtFlush {}

/// The error a memory growth past [`Limits::max_memory`](crate::Limits::max_memory)
/// traps with.
#[derive(Debug)]
pub(crate) struct MemoryLimitHit {
    pub limit: u64,
    pub desired: u64,
}

impl std::fmt::Display for MemoryLimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a linear memory would grow to {} bytes, past the limit of {} bytes", self.desired, self.limit)
    }
}

impl std::error::Error for MemoryLimitHit {}

/// Bounds each of the guest's linear memories. The memory the rewrite adds for recording
/// (fixed size, created once with its maximum equal to its size) is not the guest's and
/// is let through once.
pub(crate) struct MemoryLimiter {
    pub limit: Option<u64>,
    /// Bytes of the recording memory still to be let through.
    pub exempt: Option<u64>,
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        let Some(limit) = self.limit else { return Ok(true) };
        let desired = desired as u64;
        if current == 0 && self.exempt == Some(desired) && maximum.map(|m| m as u64) == Some(desired) {
            self.exempt = None;
            return Ok(true);
        }
        if desired > limit {
            return Err(wasmtime::Error::new(MemoryLimitHit { limit, desired }));
        }
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, _desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(true)
    }
}
