//! Naming functions and paths of a profile's program as users write them: a function by
//! name or index, a path as `FUNCTION:PATH_ID`. The recorder (PPP set files) and every
//! report read names this one way.

use std::path::PathBuf;

use wpp_model::{FuncIdx, PathEvent, PathId};

use crate::Profile;

/// A name that names nothing in the profile's program, or is not a name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// A function name that is not in the profile's module.
    #[error("{}: no function named `{spec}`{}", .profile.display(), similar_hint(.similar))]
    NoFunction { profile: PathBuf, spec: String, similar: Vec<String> },
    /// A function index past the module's functions.
    #[error("{}: no function {index}: the module has {count} functions, 0 to {}", .profile.display(), .count.saturating_sub(1))]
    NoFunctionIndex { profile: PathBuf, index: String, count: usize },
    /// A path not written `FUNCTION:PATH_ID`.
    #[error("`{spec}`: {problem}")]
    BadPath { spec: String, problem: String },
    /// A path number past the function's paths.
    #[error("`{spec}`: function {function} has no path {path}")]
    NoPath { spec: String, function: String, path: u64 },
}

fn similar_hint(similar: &[String]) -> String {
    if similar.is_empty() {
        String::new()
    } else {
        format!("; did you mean one of: {}", similar.join(", "))
    }
}

type Error = NameError;

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
    if spec.parse::<u32>().is_ok() {
        return Err(NameError::NoFunctionIndex { profile: p.path.clone(), index: spec.to_string(), count: p.meta.functions.len() });
    }
    let names: Vec<&str> = p.meta.functions.iter().map(|f| f.name.as_str()).collect();
    Err(NameError::NoFunction { profile: p.path.clone(), spec: spec.to_string(), similar: similar_names(spec, &names) })
}

/// Edits from `a` to `b`: insertions, deletions and substitutions of one character, and
/// swaps of two neighbouring ones (the optimal string alignment distance).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = (a[i - 1] != b[j - 1]) as usize;
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// The names a misspelled `spec` may have meant, nearest first: those within a few edits
/// (a third of its length, at least one), then those that contain it; at most five.
pub fn similar_names(spec: &str, names: &[&str]) -> Vec<String> {
    let budget = (spec.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &str)> = names.iter().map(|&n| (edit_distance(spec, n), n)).filter(|&(d, _)| d <= budget).collect();
    near.sort();
    let mut out: Vec<String> = near.into_iter().map(|(_, n)| n.to_string()).collect();
    for &n in names {
        if out.len() >= 5 {
            break;
        }
        if n.contains(spec) && !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    }
    out.truncate(5);
    out
}

/// A path of `p`'s program given as `FUNCTION:PATH_ID` (function name or index).
pub fn parse_path(p: &Profile, spec: &str) -> Result<PathEvent, Error> {
    let bad = |problem: String| NameError::BadPath { spec: spec.to_string(), problem };
    let (func, path) = spec.rsplit_once(':').ok_or_else(|| bad("a path is FUNCTION:PATH_ID, e.g. main:3".into()))?;
    let func = select_func(p, func)?;
    let path: u64 = path.parse().map_err(|e| bad(format!("`{path}` is not a path number ({e})")))?;
    if p.path_blocks(func, PathId(path)).is_none() {
        return Err(NameError::NoPath { spec: spec.to_string(), function: p.meta.func_name(func), path });
    }
    Ok(PathEvent { func, path: PathId(path) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelled_names_find_the_intended_one() {
        let names = ["luaV_execute", "luaH_getshortstr", "luaH_get", "memset", "main"];
        assert_eq!(similar_names("luaV_exeucte", &names), ["luaV_execute"]);
        assert_eq!(similar_names("mian", &names), ["main"]);
        assert_eq!(similar_names("luaH_ge", &names)[0], "luaH_get");
        assert!(similar_names("zzzzzz", &names).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("cuont", "count"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
