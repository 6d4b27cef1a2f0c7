//! The run as the problems see it: each terminal's blocks and count, and every pair of
//! consecutive paths with its count and what happened between the two — read off the
//! pair by the TWPP partition's classification (`wpp_twpp::partition::link`), so that
//! the same path can be followed one way here and another way there.

use wpp_grammar::{Grammar, Sym, Terminal};
use wpp_model::{BlockIdx, FuncMap};
use wpp_report::Dag;
use wpp_twpp::partition::{block_ends, link, BlockEnd, Link};

use crate::Error;

/// What a pair of consecutive paths says happened between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Between {
    /// The first path's invocation ended (a return, or a tail call).
    pub returns: bool,
    /// The second path begins an invocation (a call, or a tail call).
    pub calls: bool,
    /// The first path ended in a call of an import.
    pub import: bool,
}

impl From<Link> for Between {
    fn from(l: Link) -> Between {
        match l {
            Link::Call => Between { calls: true, ..Between::default() },
            Link::Import => Between { import: true, ..Between::default() },
            Link::Loop => Between::default(),
            Link::Return => Between { returns: true, ..Between::default() },
            Link::TailCall => Between { returns: true, calls: true, ..Between::default() },
            Link::Catch => Between::default(),
            // Refused by `Run::of`: how many invocations ended needs the stack.
            Link::Unwind => Between { returns: true, ..Between::default() },
        }
    }
}

/// The paths of a run and how they follow each other.
pub(super) struct Run {
    /// Per terminal: its blocks and its count in the run.
    pub path_blocks: Vec<Vec<BlockIdx>>,
    pub counts: Vec<u64>,
    /// Consecutive terminals, how often each pair occurs, and what happened between,
    /// by terminals.
    pub junctions: Vec<(u32, u32, u64, Between)>,
    /// The first terminal of the run.
    pub first: Option<u32>,
}

impl Run {
    /// Reads the run off `dag`'s grammar; a pair no run could produce is an error naming
    /// both paths.
    pub fn of(dag: &Dag) -> Result<Run, Error> {
        let bad = |what: String| Error::Invalid(format!("{}: {what}", dag.profile.path.display()));
        let mut path_blocks = Vec::with_capacity(dag.paths.len());
        for e in &dag.paths {
            let numbering = dag.profile.numberings.get(e.func).ok_or_else(|| bad(format!("function {} has no paths", e.func)))?;
            path_blocks.push(numbering.decode(e.path).map_err(|_| bad(format!("function {} has no path {}", e.func, e.path)))?);
        }
        let counts = dag.grammar.terminal_counts(dag.paths.len() as u32);
        let pairs = dag.grammar.consecutive_pairs();
        let mut ends: FuncMap<Vec<BlockEnd>> = FuncMap::new(dag.profile.meta.functions.len());
        for f in &dag.profile.meta.functions {
            let (Some(cfg), Some(numbering)) = (&f.cfg, dag.profile.numberings.get(f.index)) else { continue };
            ends.insert(f.index, block_ends(cfg, numbering));
        }
        let mut junctions = Vec::with_capacity(pairs.len());
        for (&(Terminal(t1), Terminal(t2)), &count) in &pairs {
            let (e1, e2) = (dag.paths[t1 as usize], dag.paths[t2 as usize]);
            let last = *path_blocks[t1 as usize].last().expect("a path has a block");
            let first = path_blocks[t2 as usize][0];
            let end = ends.get(e1.func).and_then(|v| v.get(last.idx())).cloned().unwrap_or_default();
            let Some(l) = link(&end, e1.func, e2.func, first) else {
                return Err(bad(format!("path {} of function {} cannot follow path {} of function {}", e2.path, e2.func, e1.path, e1.func)));
            };
            if l == Link::Unwind {
                return Err(bad(format!(
                    "path {} of function {} follows an exception thrown at the end of path {} of function {}: data flow frequencies on the grammar do not follow exceptions across invocations",
                    e2.path, e2.func, e1.path, e1.func
                )));
            }
            junctions.push((t1, t2, count, Between::from(l)));
        }
        junctions.sort_unstable_by_key(|j| (j.0, j.1));
        Ok(Run { path_blocks, counts, junctions, first: first_terminal(&dag.grammar) })
    }
}

/// The first terminal the grammar derives.
fn first_terminal(g: &Grammar) -> Option<u32> {
    let mut r = 0usize;
    loop {
        match *g.rules.get(r)?.first()? {
            Sym::T(t) => return Some(t.0),
            Sym::N(c) => r = c.idx(),
        }
    }
}
