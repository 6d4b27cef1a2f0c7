//! How a long step says how far it is: the analyses call a [`Progress`] they are given;
//! the command line draws it as a bar on a terminal, tests and benchmarks record it.

/// Where the long steps of an analysis say how far they are.
pub trait Progress {
    /// A new step begins (`name` says what it does, as "splitting the path into
    /// invocations"), with its amount of work when known.
    fn stage(&mut self, name: &str, total: Option<u64>);
    /// `n` more units of the step's work are done.
    fn advance(&mut self, n: u64);
}

/// Progress that goes nowhere.
pub struct Quiet;

impl Progress for Quiet {
    fn stage(&mut self, _: &str, _: Option<u64>) {}
    fn advance(&mut self, _: u64) {}
}

/// Progress kept, for tests: each step with its total and the work reported done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    pub stages: Vec<(String, Option<u64>, u64)>,
}

impl Progress for Recorded {
    fn stage(&mut self, name: &str, total: Option<u64>) {
        self.stages.push((name.to_owned(), total, 0));
    }
    fn advance(&mut self, n: u64) {
        if let Some(s) = self.stages.last_mut() {
            s.2 += n;
        }
    }
}
