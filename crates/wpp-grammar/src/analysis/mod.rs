//! Analyses of a grammar on its rule DAG, none of which expands the sequence.
//!
//! * `dag`: validation, topological order, rule lengths, frequencies, costs, depths,
//!   terminal counts, summary statistics;
//! * `pairs`: consecutive terminals of the expansion with their counts;
//! * `occur`: occurrences of many sequences at once, and of one without overlaps;
//! * `query`: first and last positions, runs before, contexts;
//! * `hot`: minimal hot subpaths;
//! * `dff`: data flow frequencies of GEN/KILL problems.
//!
//! Each comes with its oracle (a scan or simulation of the expanded sequence), next to it
//! or in the tests.

mod dag;
pub mod dff;
mod hot;
mod occur;
mod pairs;
mod query;

pub use dag::{GrammarError, GrammarStats};
pub use hot::{hot_subpaths, hot_subpaths_brute, HotParams, HotSubpath};
pub use occur::{can_overlap, disjoint_occurrences, disjoint_occurrences_brute, disjoint_occurrences_of, PatternCounts};
pub use query::{contexts, contexts_brute, first_and_last, runs_before, Context};
