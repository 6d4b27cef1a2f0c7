//! How concentrated each function's execution is on few paths.

use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;

/// One function's paths, hottest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    pub func: FuncIdx,
    /// Executions of its paths.
    pub executions: u64,
    /// Instructions its paths executed (a path's instructions times its count).
    pub instructions: u64,
    /// Its paths that ran, with counts, most executed first (ties by path number).
    pub paths: Vec<(PathEvent, u64)>,
    /// The fewest paths whose executions make 90% of the function's.
    pub paths_to_90: usize,
}

/// The fewest of `counts` (sorted, largest first) whose sum reaches `share` of the total.
pub fn paths_to_reach(counts: &[u64], share: f64) -> usize {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return 0;
    }
    let goal = (total as f64 * share).ceil() as u64;
    let mut sum = 0u64;
    for (i, &c) in counts.iter().enumerate() {
        sum += c;
        if sum >= goal {
            return i + 1;
        }
    }
    counts.len()
}

/// Every function that ran, by instructions executed, most first (ties by index).
pub fn distributions(p: &Profile, instructions: &dyn Fn(PathEvent) -> u64) -> Vec<Distribution> {
    let mut by_func: std::collections::BTreeMap<FuncIdx, Vec<(PathEvent, u64)>> = Default::default();
    for c in p.counts.iter().filter(|c| c.count > 0) {
        by_func.entry(c.func).or_default().push((PathEvent { func: c.func, path: c.path }, c.count));
    }
    let mut out: Vec<Distribution> = by_func
        .into_iter()
        .map(|(func, mut paths)| {
            paths.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.path.cmp(&b.0.path)));
            let counts: Vec<u64> = paths.iter().map(|p| p.1).collect();
            Distribution {
                func,
                executions: counts.iter().sum(),
                instructions: paths.iter().map(|&(e, c)| instructions(e).saturating_mul(c)).fold(0u64, u64::saturating_add),
                paths_to_90: paths_to_reach(&counts, 0.9),
                paths,
            }
        })
        .collect();
    out.sort_by(|a, b| b.instructions.cmp(&a.instructions).then(a.func.cmp(&b.func)));
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::paths_to_reach;

    proptest! {
        /// Against trying every prefix length and every subset size: the answer is the
        /// smallest k such that some k counts reach the share, and the largest k do.
        #[test]
        fn fewest_paths_to_a_share(mut counts in proptest::collection::vec(0u64..50, 0..12), share in 0.05f64..1.0) {
            counts.sort_unstable_by(|a, b| b.cmp(a));
            let total: u64 = counts.iter().sum();
            let k = paths_to_reach(&counts, share);
            if total == 0 {
                prop_assert_eq!(k, 0);
            } else {
                let reaches = |subset: u64| counts.iter().enumerate().filter(|(i, _)| subset >> i & 1 == 1).map(|(_, &c)| c).sum::<u64>() as f64 >= total as f64 * share;
                let fewest = (0u64..1 << counts.len()).filter(|&s| reaches(s)).map(|s| s.count_ones() as usize).min().unwrap();
                prop_assert_eq!(k, fewest);
            }
        }
    }
}
