//! Stopping a recording on SIGINT or SIGTERM, as a command-line recorder wants: the first
//! signal stops the program (or, once it has ended, lets the profile be finished), the
//! second exits at once, removing the unfinished profile.
//!
//! What is said about each signal is the caller's: [`watch`] calls `tell` with the
//! signal's name and what it is doing, from the watching thread.

use std::io;

use crate::{StopHandle, StopReason};

/// What the recorder is doing about a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signalled {
    /// The first: the program is being stopped.
    Stopping,
    /// The first, after the program ended: the profile is being finished.
    Finishing,
    /// The second: wpp exits at once, without a profile.
    Again,
}

/// A running watch; [`Watch::close`] ends it.
pub struct Watch(signal_hook::iterator::Handle);

impl Watch {
    /// Ends the watch: signals after it get their default action again.
    pub fn close(self) {
        self.0.close();
    }
}

/// Watches SIGINT and SIGTERM on a thread of its own (`wpp-signals`) until the returned
/// watch is closed: the first stops the recording through `stop`; the second removes the
/// unfinished profile and exits the process with status 128 + the signal.
pub fn watch(stop: StopHandle, tell: impl Fn(&str, Signalled) + Send + 'static) -> io::Result<Watch> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let handle = signals.handle();
    std::thread::Builder::new().name("wpp-signals".into()).spawn(move || {
        let mut seen = 0;
        for sig in signals.forever() {
            seen += 1;
            let name = StopReason::signal_name(sig);
            if seen > 1 {
                wpp_profile::remove_unfinished();
                tell(&name, Signalled::Again);
                std::process::exit(128 + sig);
            }
            tell(&name, if stop.stop(StopReason::Signal(sig)) { Signalled::Stopping } else { Signalled::Finishing });
        }
    })?;
    Ok(Watch(handle))
}
