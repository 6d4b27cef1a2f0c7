//! The path profile: every path that ran, hottest first.

use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;

use crate::PathRow;

/// The profile's paths with their counts, hottest first (ties by function and path),
/// optionally of one function only.
pub fn path_profile(p: &Profile, func: Option<FuncIdx>) -> Vec<PathRow> {
    let mut counts: Vec<_> = p.counts.iter().filter(|c| func.is_none_or(|f| c.func == f)).collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    counts.into_iter().map(|c| PathRow::new(p, PathEvent { func: c.func, path: c.path }, Some(c.count))).collect()
}

/// Path executions in the profile, optionally of one function only.
pub fn executions(p: &Profile, func: Option<FuncIdx>) -> u64 {
    p.counts.iter().filter(|c| func.is_none_or(|f| c.func == f)).map(|c| c.count).sum()
}
