//! One pass over a whole program path: the calling context tree, the counts of consecutive
//! pairs of paths (which tell the edges taken between paths), and, when asked, the ordered
//! call timeline.

use rustc_hash::FxHashMap;
use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;
use wpp_twpp::partition::Move;
use wpp_twpp::stacks::{CallTree, CallTreeBuilder};

use crate::Error;

/// A frame opening or closing in the call timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Opened (a call), or closed (a return).
    pub open: bool,
    pub func: FuncIdx,
    /// Instructions executed before it.
    pub at: u64,
}

/// How much of the call timeline a pass keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeline {
    /// None of it.
    Off,
    /// Every call.
    All,
    /// At most about this many marks (two per call): the shortest calls are left out,
    /// their instructions counted in their callers', under a threshold that doubles each
    /// time the marks kept pass the limit. Memory stays bounded by the limit (and the
    /// depth of the call stack), however long the run.
    AtMost(usize),
}

/// What the pass read.
pub struct Walk {
    /// The calling context tree, costs in instructions.
    pub tree: CallTree,
    /// Counts of consecutive pairs of paths.
    pub pairs: FxHashMap<(PathEvent, PathEvent), u64>,
    /// The calls in order, every frame closed by the end (empty unless asked for).
    pub timeline: Vec<Mark>,
    /// Calls shorter than this many instructions are not in `timeline` (0: none left out).
    pub shortest: u64,
    /// How many calls were left out of `timeline`.
    pub left_out: u64,
    /// Instructions executed in the run.
    pub instructions: u64,
}

/// The call timeline as the pass builds it: the marks kept, the frames open (each with
/// where it opened and the index of its opening mark), and the threshold below which a
/// call that closes is dropped.
struct Marks {
    marks: Vec<Mark>,
    open: Vec<(FuncIdx, u64, usize)>,
    limit: Option<usize>,
    shortest: u64,
    left_out: u64,
}

impl Marks {
    fn open(&mut self, func: FuncIdx, at: u64) {
        self.open.push((func, at, self.marks.len()));
        self.marks.push(Mark { open: true, func, at });
    }

    /// Closes the innermost frame at `at`. A call shorter than the threshold goes with
    /// its opening mark; what it called was shorter still, so it is gone already.
    fn close(&mut self, at: u64) {
        let Some((func, start, index)) = self.open.pop() else { return };
        if at - start < self.shortest {
            self.marks.truncate(index);
            self.left_out += 1;
        } else {
            self.marks.push(Mark { open: false, func, at });
            self.limit_marks(at);
        }
    }

    /// Past the limit, raises the threshold until at most half the limit is kept (or
    /// only open frames are left).
    fn limit_marks(&mut self, now: u64) {
        let Some(limit) = self.limit else { return };
        while self.marks.len() > limit && self.marks.len() > self.open.len() && self.shortest <= now {
            self.shortest = self.shortest.saturating_mul(2).max(1);
            self.refilter();
            if self.marks.len() <= limit / 2 {
                break;
            }
        }
    }

    /// Drops every closed call shorter than the threshold, and points the open frames at
    /// their opening marks again.
    fn refilter(&mut self) {
        let mut kept: Vec<Mark> = Vec::with_capacity(self.marks.len());
        let mut stack: Vec<(u64, usize)> = Vec::new();
        for m in self.marks.drain(..) {
            if m.open {
                stack.push((m.at, kept.len()));
                kept.push(m);
            } else {
                let (start, index) = stack.pop().expect("a close follows its open");
                if m.at - start < self.shortest {
                    kept.truncate(index);
                    self.left_out += 1;
                } else {
                    kept.push(m);
                }
            }
        }
        debug_assert_eq!(stack.len(), self.open.len());
        for (frame, (_, index)) in self.open.iter_mut().zip(stack) {
            frame.2 = index;
        }
        self.marks = kept;
    }
}

/// Instructions of one execution of each path that ran.
pub fn path_costs(p: &Profile) -> FxHashMap<PathEvent, u64> {
    p.counts
        .iter()
        .map(|c| {
            let e = PathEvent { func: c.func, path: c.path };
            (e, wpp_report::path_instructions(p, e))
        })
        .collect()
}

/// The pass over `p`'s whole program path (`None` when it holds path counts only).
pub fn walk(p: &Profile, timeline: Timeline) -> Result<Option<Walk>, Error> {
    if !p.has_grammar() && !p.has_trace() {
        return Ok(None);
    }
    let costs = path_costs(p);
    let mut tree = CallTreeBuilder::new(&p.meta.functions, &p.numberings);
    let mut pairs: FxHashMap<(PathEvent, PathEvent), u64> = FxHashMap::default();
    let limit = match timeline {
        Timeline::AtMost(n) => Some(n),
        Timeline::Off | Timeline::All => None,
    };
    let timeline = timeline != Timeline::Off;
    let mut marks = Marks { marks: Vec::new(), open: Vec::new(), limit, shortest: 0, left_out: 0 };
    let mut at = 0u64;
    let mut prev: Option<PathEvent> = None;
    let mut failed = None;
    p.for_each_event(|e| {
        if failed.is_some() {
            return;
        }
        let cost = costs.get(&e).copied().unwrap_or_else(|| wpp_report::path_instructions(p, e));
        match tree.push(e, cost) {
            Ok(m) if timeline => match m {
                Move::Root | Move::Call { .. } => marks.open(e.func, at),
                Move::Continue => {}
                Move::Return { ended } => {
                    for _ in 0..ended.min(marks.open.len() as u32) {
                        marks.close(at);
                    }
                }
            },
            Ok(_) => {}
            Err(err) => failed = Some(err),
        }
        if let Some(a) = prev {
            *pairs.entry((a, e)).or_default() += 1;
        }
        prev = Some(e);
        at = at.saturating_add(cost);
    })?;
    if let Some(err) = failed {
        return Err(Error::Calls { profile: p.path.clone(), message: err.to_string() });
    }
    while !marks.open.is_empty() {
        marks.close(at);
    }
    let Marks { marks, shortest, left_out, .. } = marks;
    Ok(Some(Walk { tree: tree.finish(), pairs, timeline: marks, shortest, left_out, instructions: at }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A run's calls as steps: `Some(cost)` executes `cost` instructions then calls,
    /// `None` returns (ignored with no frame open).
    fn marks_of(steps: &[Option<u64>], limit: Option<usize>) -> Marks {
        let mut m = Marks { marks: Vec::new(), open: Vec::new(), limit, shortest: 0, left_out: 0 };
        let mut at = 0u64;
        for (i, s) in steps.iter().enumerate() {
            match s {
                Some(cost) => {
                    at += cost;
                    m.open(FuncIdx(i as u32 % 7), at);
                }
                None if !m.open.is_empty() => m.close(at),
                None => {}
            }
        }
        at += 1;
        while !m.open.is_empty() {
            m.close(at);
        }
        m
    }

    /// The oracle: the whole timeline, then every call shorter than `shortest` taken out
    /// with what it called.
    fn filtered(all: &[Mark], shortest: u64) -> (Vec<Mark>, u64) {
        let mut duration = vec![0u64; all.len()];
        let mut stack = Vec::new();
        for (i, m) in all.iter().enumerate() {
            if m.open {
                stack.push(i);
            } else {
                let o = stack.pop().unwrap();
                duration[o] = m.at - all[o].at;
                duration[i] = duration[o];
            }
        }
        let kept: Vec<Mark> = all.iter().zip(&duration).filter(|(_, &d)| d >= shortest).map(|(m, _)| *m).collect();
        let left_out = all.iter().zip(&duration).filter(|(m, &d)| m.open && d < shortest).count() as u64;
        (kept, left_out)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn a_limited_timeline_is_the_whole_one_without_its_shortest_calls(
            steps in proptest::collection::vec(proptest::option::weighted(0.55, 0u64..50), 0..600),
            limit in 2usize..80,
        ) {
            let all = marks_of(&steps, None);
            prop_assert_eq!(all.shortest, 0);
            let cut = marks_of(&steps, Some(limit));
            let (want, left_out) = filtered(&all.marks, cut.shortest);
            prop_assert_eq!(&cut.marks, &want);
            prop_assert_eq!(cut.left_out, left_out);
            // Within the limit, unless a single outermost call is all that is left.
            prop_assert!(cut.marks.len() <= limit.max(2), "{} marks kept, limit {limit}", cut.marks.len());
            // No lower threshold would have been enough: half of it keeps too many.
            if cut.shortest > 1 {
                prop_assert!(filtered(&all.marks, cut.shortest / 2).0.len() > limit / 2);
            }
        }
    }
}
