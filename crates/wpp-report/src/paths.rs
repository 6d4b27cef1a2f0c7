//! The path profile: every path that ran, hottest first.

use serde::Serialize;
use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;

use crate::row::path_instructions;
use crate::{PathRow, Top, Truncation};

/// The path profile; JSON `{"paths", "executions", "instructions", "truncated",
/// "total_paths"}` (see [`Truncation`]).
#[derive(Serialize)]
pub struct PathProfile {
    /// Paths with their counts, in the order asked for (ties by function and path), as
    /// many as asked for.
    pub paths: Vec<PathRow>,
    /// Executions of all the paths, listed or not.
    pub executions: u64,
    /// Instructions all the paths executed (each path's count × its instructions), listed
    /// or not.
    pub instructions: u64,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// The order of a path profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathSort {
    /// Most executed first.
    #[default]
    Count,
    /// Most instructions executed first: the path's count × its instructions.
    Instructions,
}

/// The profile's paths, optionally of one function only, in `sort` order, the first `top`
/// described.
pub fn path_profile(p: &Profile, func: Option<FuncIdx>, sort: PathSort, top: Top) -> PathProfile {
    // (path, count, count × instructions)
    let mut paths: Vec<(PathEvent, u64, u64)> = p
        .counts
        .iter()
        .filter(|c| func.is_none_or(|f| c.func == f))
        .map(|c| {
            let e = PathEvent { func: c.func, path: c.path };
            (e, c.count, path_instructions(p, e).saturating_mul(c.count))
        })
        .collect();
    let executions = paths.iter().map(|c| c.1).sum();
    let instructions = paths.iter().map(|c| c.2).fold(0, u64::saturating_add);
    let key = |c: &(PathEvent, u64, u64)| match sort {
        PathSort::Count => c.1,
        PathSort::Instructions => c.2,
    };
    paths.sort_by(|a, b| key(b).cmp(&key(a)).then(a.0.func.cmp(&b.0.func)).then(a.0.path.cmp(&b.0.path)));
    let mut truncation = Truncation::default();
    truncation.cut("paths", &mut paths, top);
    let paths = paths.into_iter().map(|(e, count, _)| PathRow::new(p, e, Some(count))).collect();
    PathProfile { paths, executions, instructions, truncation }
}
