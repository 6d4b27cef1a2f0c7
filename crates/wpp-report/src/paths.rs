//! The path profile: every path that ran, hottest first.

use serde::Serialize;
use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;

use crate::{PathRow, Top, Truncation};

/// The path profile; JSON `{"paths", "executions", "truncated", "total_paths"}` (see
/// [`Truncation`]).
#[derive(Serialize)]
pub struct PathProfile {
    /// Paths with their counts, hottest first (ties by function and path), as many as
    /// asked for.
    pub paths: Vec<PathRow>,
    /// Executions of all the paths, listed or not.
    pub executions: u64,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// The profile's paths, optionally of one function only, the first `top` described.
pub fn path_profile(p: &Profile, func: Option<FuncIdx>, top: Top) -> PathProfile {
    let mut counts: Vec<_> = p.counts.iter().filter(|c| func.is_none_or(|f| c.func == f)).collect();
    let executions = counts.iter().map(|c| c.count).sum();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    let mut truncation = Truncation::default();
    truncation.cut("paths", &mut counts, top);
    let paths = counts.into_iter().map(|c| PathRow::new(p, PathEvent { func: c.func, path: c.path }, Some(c.count))).collect();
    PathProfile { paths, executions, truncation }
}
