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

/// What the pass read.
pub struct Walk {
    /// The calling context tree, costs in instructions.
    pub tree: CallTree,
    /// Counts of consecutive pairs of paths.
    pub pairs: FxHashMap<(PathEvent, PathEvent), u64>,
    /// The calls in order, every frame closed by the end (empty unless asked for).
    pub timeline: Vec<Mark>,
    /// Instructions executed in the run.
    pub instructions: u64,
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
pub fn walk(p: &Profile, timeline: bool) -> Result<Option<Walk>, Error> {
    if !p.has_grammar() && !p.has_trace() {
        return Ok(None);
    }
    let costs = path_costs(p);
    let mut tree = CallTreeBuilder::new(&p.meta.functions, &p.numberings);
    let mut pairs: FxHashMap<(PathEvent, PathEvent), u64> = FxHashMap::default();
    let mut marks = Vec::new();
    let mut open: Vec<FuncIdx> = Vec::new();
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
                Move::Root | Move::Call { .. } => {
                    open.push(e.func);
                    marks.push(Mark { open: true, func: e.func, at });
                }
                Move::Continue => {}
                Move::Return { ended } => {
                    for _ in 0..ended.min(open.len() as u32) {
                        let func = open.pop().expect("a frame is open");
                        marks.push(Mark { open: false, func, at });
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
    while let Some(func) = open.pop() {
        marks.push(Mark { open: false, func, at });
    }
    Ok(Some(Walk { tree: tree.finish(), pairs, timeline: marks, instructions: at }))
}
