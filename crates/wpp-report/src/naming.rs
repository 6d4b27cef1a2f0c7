//! Naming functions and paths as users write them: a function by name or index, a path as
//! `FUNCTION:PATH_ID`.

use wpp_model::{FuncIdx, PathEvent, PathId};
use wpp_profile::Profile;

use crate::Error;

/// The function `spec` names in `p`'s module: its name, or its index.
pub fn select_func(p: &Profile, spec: &str) -> Result<FuncIdx, Error> {
    if let Some(f) = p.meta.functions.iter().find(|f| f.name == spec) {
        return Ok(f.index);
    }
    if let Ok(i) = spec.parse::<u32>() {
        if (i as usize) < p.meta.functions.len() {
            return Ok(FuncIdx(i));
        }
    }
    let similar = p.meta.functions.iter().map(|f| f.name.clone()).filter(|n| n.contains(spec)).take(5).collect();
    Err(Error::NoFunction { profile: p.path.clone(), spec: spec.to_string(), similar })
}

/// A path of `p`'s program given as `FUNCTION:PATH_ID` (function name or index).
pub fn parse_path(p: &Profile, spec: &str) -> Result<PathEvent, Error> {
    let bad = |problem: String| Error::BadPath { spec: spec.to_string(), problem };
    let (func, path) = spec.rsplit_once(':').ok_or_else(|| bad("a path is FUNCTION:PATH_ID, e.g. main:3".into()))?;
    let func = select_func(p, func)?;
    let path: u64 = path.parse().map_err(|e| bad(format!("`{path}` is not a path number ({e})")))?;
    if p.path_blocks(func, PathId(path)).is_none() {
        return Err(Error::NoPath { spec: spec.to_string(), function: p.meta.func_name(func), path });
    }
    Ok(PathEvent { func, path: PathId(path) })
}
