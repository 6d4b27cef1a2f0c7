//! Why a run was stopped before the program ended by itself.

use std::fmt;

/// Why the recorder stopped a program before it ended: the profile holds the run up to
/// that point, every path completed before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StopReason {
    /// A signal asked to stop (its number: 2 for SIGINT, 15 for SIGTERM).
    Signal(i32),
    /// The time limit (in milliseconds) passed.
    Timeout { millis: u64 },
    /// The instruction budget (fuel units) ran out.
    Fuel(u64),
    /// A linear memory would have grown past the limit (in bytes).
    Memory(u64),
}

impl StopReason {
    /// The exit status a command should report: 128 + the signal's number, as a shell
    /// does for a process a signal ended (130 for SIGINT, 143 for SIGTERM); 124, as
    /// `timeout(1)` does, for a limit that was reached.
    pub fn exit_status(self) -> i32 {
        match self {
            StopReason::Signal(n) => 128 + n,
            StopReason::Timeout { .. } | StopReason::Fuel(_) | StopReason::Memory(_) => 124,
        }
    }

    /// A signal's conventional name.
    pub fn signal_name(n: i32) -> String {
        match n {
            1 => "SIGHUP".into(),
            2 => "SIGINT".into(),
            3 => "SIGQUIT".into(),
            15 => "SIGTERM".into(),
            n => format!("signal {n}"),
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StopReason::Signal(n) => write!(f, "interrupted by {}", StopReason::signal_name(n)),
            StopReason::Timeout { millis } => write!(f, "stopped at the time limit of {} s", millis as f64 / 1000.0),
            StopReason::Fuel(n) => write!(f, "stopped when its fuel of {n} ran out"),
            StopReason::Memory(n) => write!(f, "stopped as a memory would have grown past the limit of {n} bytes"),
        }
    }
}
