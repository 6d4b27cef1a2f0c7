//! The oracle's half of path recording: split a log of function entries, basic blocks
//! and function exits into acyclic paths, using only the CFG.
//!
//! A path ends when the next block of the same activation is reached by a path-ending
//! edge, when the function exits, or when the block's final call, `throw` or
//! `unreachable` is about to run ([`PathSplitter::leave`]); an exception leaving an
//! activation ends it ([`PathSplitter::unwind`]). A path whose activation dies mid-path (a trap
//! in the middle of a block) is not a path and is dropped, as the instrumented program
//! drops it.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use wpp_model::{BlockIdx, Cfg, FuncIdx, PathEvent, Target};

use crate::Numbering;

/// One function as the splitter needs it.
pub struct SplitFunc {
    pub cfg: Cfg,
    pub numbering: Numbering,
}

/// Turns a block log into path events.
pub struct PathSplitter {
    funcs: Vec<Option<SplitFunc>>,
    /// Per function and block: outgoing (target, ends path) pairs.
    succ: Vec<Vec<Vec<(Target, bool)>>>,
    stack: Vec<(u32, Vec<BlockIdx>)>,
    /// Every path's count.
    pub counts: HashMap<(FuncIdx, wpp_model::PathId), u64>,
    /// The events in order, if asked to keep them.
    pub events: Option<Vec<PathEvent>>,
    /// Number of events and an order-sensitive hash of the sequence.
    pub n_events: u64,
    pub sequence_hash: u64,
    /// The first inconsistency between the log and the CFG, or the first path the
    /// numbering does not identify.
    pub error: Option<String>,
    /// Per path number seen so far: a hash of its blocks (see [`PathSplitter::emit`]).
    seen: FxHashMap<(FuncIdx, wpp_model::PathId), u64>,
}

/// FNV-1a style hash step over one event, shared with whoever compares sequences.
pub fn hash_event(h: u64, e: PathEvent) -> u64 {
    let mut h = h;
    for x in [e.func.0 as u64, e.path.0] {
        h ^= x;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Start value for [`hash_event`].
pub const HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

impl PathSplitter {
    /// `funcs[i]` describes function `i` (`None` for imports).
    pub fn new(funcs: Vec<Option<SplitFunc>>, keep_events: bool) -> Self {
        let cut = |f: &SplitFunc, b: BlockIdx| f.numbering.cut_points().contains(&b);
        let succ = funcs
            .iter()
            .map(|f| match f {
                None => Vec::new(),
                Some(f) => {
                    let mut s = vec![Vec::new(); f.cfg.n_blocks()];
                    for e in &f.cfg.edges {
                        let ends = match e.to {
                            Target::Exit => true,
                            Target::Block(w) => e.kind.ends_path() || cut(f, w),
                        };
                        s[e.from.idx()].push((e.to, ends));
                    }
                    s
                }
            })
            .collect();
        PathSplitter {
            funcs,
            succ,
            stack: Vec::new(),
            counts: HashMap::new(),
            events: keep_events.then(Vec::new),
            n_events: 0,
            sequence_hash: HASH_START,
            error: None,
            seen: FxHashMap::default(),
        }
    }

    fn fail(&mut self, m: String) {
        if self.error.is_none() {
            self.error = Some(m);
        }
    }

    /// Counts the path through `blocks`. Its number comes from the numbering's
    /// [`Numbering::encode`]; the splitter also checks that the numbering identifies the
    /// path: the first time a number is seen, it must decode to exactly these blocks, and
    /// every later path with that number must have the same blocks (compared by hash). So
    /// a numbering that gives two executed paths one number, or a number its decoder reads
    /// differently, is an error here, without trusting the numbering's own arithmetic.
    fn emit(&mut self, func: u32, blocks: &[BlockIdx]) {
        let Some(f) = self.funcs.get(func as usize).and_then(|f| f.as_ref()) else {
            return self.fail(format!("path in unknown function {func}"));
        };
        let Some(path) = f.numbering.encode(blocks) else {
            return self.fail(format!("function {func}: blocks {blocks:?} are not a path of the numbering"));
        };
        let e = PathEvent { func: FuncIdx(func), path };
        let hash = blocks.iter().fold(HASH_START, |h, b| (h ^ b.0 as u64).wrapping_mul(0x100_0000_01b3));
        match self.seen.get(&(e.func, path)) {
            Some(&h) if h == hash => {}
            Some(_) => return self.fail(format!("function {func}: path {path} numbers two different paths, one of them {blocks:?}")),
            None => {
                match f.numbering.decode(path) {
                    Ok(decoded) if decoded == blocks => {}
                    Ok(decoded) => return self.fail(format!("function {func}: blocks {blocks:?} encode to path {path}, which decodes to {decoded:?}")),
                    Err(err) => return self.fail(format!("function {func}: blocks {blocks:?} encode to path {path}: {err}")),
                }
                self.seen.insert((e.func, path), hash);
            }
        }
        *self.counts.entry((e.func, e.path)).or_default() += 1;
        self.n_events += 1;
        self.sequence_hash = hash_event(self.sequence_hash, e);
        if let Some(v) = &mut self.events {
            v.push(e);
        }
    }

    pub fn enter(&mut self, func: u32) {
        self.stack.push((func, Vec::new()));
    }

    pub fn block(&mut self, func: u32, block: u32) {
        let b = BlockIdx(block);
        let Some((top, mut path)) = self.stack.pop() else {
            return self.fail(format!("block {block} of function {func} outside any activation"));
        };
        if top != func {
            return self.fail(format!("block {block} of function {func} while function {top} is running"));
        }
        let Some(succ) = self.succ.get(func as usize) else {
            return self.fail(format!("unknown function {func}"));
        };
        if let Some(&last) = path.last() {
            match succ[last.idx()].iter().find(|(t, _)| *t == Target::Block(b)) {
                None => return self.fail(format!("function {func}: no edge from block {last} to block {block}")),
                Some(&(_, true)) => {
                    self.emit(func, &path);
                    path.clear();
                }
                Some(&(_, false)) => {}
            }
        }
        path.push(b);
        self.stack.push((func, path));
    }

    /// The current block's final instruction (a call or `unreachable`) is about to run:
    /// the path ends here.
    pub fn leave(&mut self, func: u32) {
        let Some((top, path)) = self.stack.last_mut() else {
            return self.fail(format!("leave of function {func} outside any activation"));
        };
        if *top != func {
            let top = *top;
            return self.fail(format!("leave of function {func} while function {top} is running"));
        }
        let path = std::mem::take(path);
        self.emit(func, &path);
    }

    /// An exception leaves the running invocation of `func`: it ends, and a path it had
    /// begun is dropped, as the instrumented program drops it (its paths end before every
    /// instruction that throws, so normally there is none).
    pub fn unwind(&mut self, func: u32) {
        match self.stack.pop() {
            Some((top, _)) if top == func => {}
            other => self.fail(format!("unwind of function {func} while {:?} is running", other.map(|o| o.0))),
        }
    }

    pub fn exit(&mut self, func: u32) {
        match self.stack.pop() {
            Some((top, path)) if top == func => {
                if !path.is_empty() {
                    self.emit(func, &path);
                }
            }
            other => self.fail(format!("exit of function {func} while {:?} is running", other.map(|o| o.0))),
        }
    }
}
