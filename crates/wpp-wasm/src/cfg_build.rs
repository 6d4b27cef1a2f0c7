//! From a function body's structured control flow to basic blocks and edges.
//!
//! Block leaders are: the first instruction; the instruction after any branch, `if`,
//! `else`, call, `return` or `unreachable`; a `loop` that some branch targets; and the
//! instruction after the `end` of a `block` some branch targets or of any `if`. Structural
//! instructions (`block`, `loop`, `end`, ...) belong to blocks and are counted.
//!
//! Branches to a loop label are back edges; every other edge goes forward in code order.
//! Edges that leave the function (return, falling off the end, tail calls, traps) go to
//! [`Target::Exit`]. The edge out of a block ending in a call is a [`EdgeKind::Call`]
//! edge to the block after the call.
//!
//! Exceptions: an instruction that may throw (a call, `throw`, `throw_ref`) ends its
//! block. Inside `try_table`s it has a [`EdgeKind::Catch`] edge to the target of every
//! catch clause the exception could reach, innermost `try_table` first, up to the first
//! clause sure to catch it (a `catch_all`, or for `throw` a clause of its own tag). A
//! `throw` that none is sure to catch also has a [`EdgeKind::Throw`] edge to the exit; a
//! call's exception that leaves the function is not an edge, as a trap in the callee is
//! not: the caller's path already ended at the call. Blocks are leaders where a catch
//! clause lands as where a branch does.
//!
//! [`build_layout`] works in two passes over the instructions: [`scan_control`] finds the
//! control structure, [`block_starts`] the leaders, and [`blocks_and_edges`] cuts the body
//! into blocks and connects them.

use std::collections::BTreeMap;

use wasmparser::{FunctionBody, Operator, ValType};
use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeIdx, EdgeKind, Target};

use crate::func_type::{block_signature, FuncType};
use crate::Error;

/// How a block ends, with the edges each way out takes. The rewriter places each edge's
/// instrumentation at the code position that runs exactly when that edge is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// No branch: control falls into the next block (or off the function's end).
    Fall(EdgeIdx),
    Br(EdgeIdx),
    BrIf {
        taken: EdgeIdx,
        fall: EdgeIdx,
    },
    /// One edge per table entry, then the default's.
    BrTable(Vec<EdgeIdx>),
    /// `if`: the then arm, and the else arm (or the code after `end` when there is none).
    /// `else_op` and `end_op` are the instruction indices of the `if`'s `else` and `end`.
    If {
        then: EdgeIdx,
        other: EdgeIdx,
        else_op: Option<u32>,
        end_op: u32,
    },
    /// The `else` that ends a then arm, jumping past the `if`'s `end`.
    Else(EdgeIdx),
    Call(EdgeIdx),
    /// `return`, `return_call*`.
    Return(EdgeIdx),
    Unreachable(EdgeIdx),
    /// `throw` or `throw_ref`: its first edge (a catch, or the exit). Every way out of a
    /// throwing block ends the path alike; the handler restarts it (see [`TryTable`]).
    Throw(EdgeIdx),
}

/// A `try_table`'s catch clauses as the rewrite needs them: for each clause, in order, the
/// types its target label takes and the [`EdgeKind::Catch`] edges that reach the target
/// through it (whose path restarts where the clause lands).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TryTable {
    /// The `try_table`'s parameters.
    pub params: Vec<ValType>,
    pub clauses: Vec<Clause>,
}

/// One catch clause of a [`TryTable`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clause {
    /// The types of the values the clause passes to its label (the label's types).
    pub label: Vec<ValType>,
    /// The catch edges taken through this clause, from any block inside the `try_table`.
    pub edges: Vec<EdgeIdx>,
}

/// Where a function's blocks sit in its instruction stream and how each ends (the CFG
/// itself is returned beside it and kept in [`crate::Program::functions`]).
#[derive(Clone, Debug)]
pub struct FuncLayout {
    /// Index (in the function's instruction stream) of each block's first instruction.
    pub first_op: Vec<u32>,
    /// How each block ends.
    pub terms: Vec<Term>,
    pub n_ops: u32,
    /// For each `br_table` whose labels carry values (by instruction index, so in code
    /// order), the values' types.
    pub br_table_types: BTreeMap<u32, Vec<ValType>>,
    /// Each `try_table` with catch clauses, by instruction index.
    pub try_tables: BTreeMap<u32, TryTable>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FrameKind {
    Function,
    Block,
    Loop,
    If,
    TryTable,
}

/// A catch clause as the scan reads it: its label's frame, and whether it catches every
/// exception (`catch_all*`) or those of one tag.
#[derive(Clone, Copy, Debug)]
struct ScanClause {
    target: usize,
    tag: Option<u32>,
}

/// A catch clause an exception may reach: the `try_table`'s frame, and the clause's place
/// in it.
#[derive(Clone, Copy, Debug)]
struct Handler {
    frame: usize,
    clause: usize,
}

#[derive(Clone, Debug)]
struct Frame {
    kind: FrameKind,
    start: u32,
    else_at: Option<u32>,
    end: u32,
    targeted: bool,
    /// Types of the values a branch to this frame carries.
    label: Vec<ValType>,
    /// A `try_table`'s catch clauses.
    clauses: Vec<ScanClause>,
    /// A `try_table`'s parameters.
    params: Vec<ValType>,
}

/// What an instruction does to control, by frame index.
enum Ctl {
    None,
    Br(usize),
    BrIf(usize),
    BrTable(Vec<usize>),
    If(usize),
    Else(usize),
    End,
    /// A call, with the catch clauses its callee's exceptions may reach.
    Call(Vec<Handler>),
    Return,
    Unreachable,
    /// `throw`/`throw_ref`, with the clauses it may reach and whether it may leave the
    /// function.
    Throw(Vec<Handler>, bool),
}

/// Builds the layout of `body`, a function of type `ty`; `types` is the module's types.
pub(crate) fn build_layout(body: &FunctionBody<'_>, ty: &FuncType, types: &[Option<FuncType>]) -> Result<(Cfg, FuncLayout), Error> {
    let control = scan_control(body, ty, types)?;
    let first_op = block_starts(&control);
    Ok(blocks_and_edges(control, first_op))
}

/// A function body's control structure, as [`scan_control`] finds it.
struct Control {
    /// The function's frame, then every `block`, `loop` and `if`, in code order.
    frames: Vec<Frame>,
    /// What each instruction does to control.
    ctl: Vec<Ctl>,
    /// Byte offset of each instruction, then of the body's end.
    offsets: Vec<u32>,
    /// For each instruction, how many before it do work (see [`does_work`]), then the
    /// body's total.
    work_before: Vec<u32>,
    n_ops: u32,
    /// For each `br_table` whose labels carry values, the values' types.
    br_table_types: BTreeMap<u32, Vec<ValType>>,
}

/// Pass 1: the control structure. One scan of the instructions records every frame (where
/// it starts, its `else` and `end`, whether a branch targets it, what a branch to it
/// carries), what each instruction does to control, and the instructions' offsets.
fn scan_control(body: &FunctionBody<'_>, ty: &FuncType, types: &[Option<FuncType>]) -> Result<Control, Error> {
    let mut br_table_types = BTreeMap::new();
    let mut frames: Vec<Frame> = vec![Frame {
        kind: FrameKind::Function,
        start: 0,
        else_at: None,
        end: 0,
        targeted: false,
        label: ty.results.clone(),
        clauses: Vec::new(),
        params: Vec::new(),
    }];
    let mut open: Vec<usize> = vec![0];
    let mut ctl: Vec<Ctl> = Vec::new();
    let mut offsets: Vec<u32> = Vec::new();
    let mut work_before: Vec<u32> = vec![0];
    let mut reader = body.get_operators_reader()?;
    let body_end = body.range().end as u32;
    while !reader.eof() {
        let (op, offset) = reader.read_with_offset()?;
        let i = offsets.len() as u32;
        offsets.push(offset as u32);
        work_before.push(work_before[i as usize] + u32::from(does_work(&op)));
        let frame_at = |open: &Vec<usize>, depth: u32| -> Result<usize, Error> {
            open.len()
                .checked_sub(1 + depth as usize)
                .map(|k| open[k])
                .ok_or_else(|| Error::Unsupported { feature: format!("branch depth {depth} out of range"), place: String::new() })
        };
        let c = match op {
            Operator::Block { blockty } | Operator::Loop { blockty } | Operator::If { blockty } => {
                let kind = match op {
                    Operator::Block { .. } => FrameKind::Block,
                    Operator::Loop { .. } => FrameKind::Loop,
                    _ => FrameKind::If,
                };
                let (params, results) = block_signature(blockty, types);
                let label = if kind == FrameKind::Loop { params } else { results };
                frames.push(Frame { kind, start: i, else_at: None, end: 0, targeted: false, label, clauses: Vec::new(), params: Vec::new() });
                open.push(frames.len() - 1);
                if kind == FrameKind::If {
                    Ctl::If(frames.len() - 1)
                } else {
                    Ctl::None
                }
            }
            Operator::TryTable { ref try_table } => {
                // Catch labels are named from outside the try_table.
                let mut clauses = Vec::with_capacity(try_table.catches.len());
                for c in &try_table.catches {
                    let (label, tag) = match *c {
                        wasmparser::Catch::One { tag, label } | wasmparser::Catch::OneRef { tag, label } => (label, Some(tag)),
                        wasmparser::Catch::All { label } | wasmparser::Catch::AllRef { label } => (label, None),
                    };
                    let target = frame_at(&open, label)?;
                    frames[target].targeted = true;
                    clauses.push(ScanClause { target, tag });
                }
                let (params, results) = block_signature(try_table.ty, types);
                frames.push(Frame { kind: FrameKind::TryTable, start: i, else_at: None, end: 0, targeted: false, label: results, clauses, params });
                open.push(frames.len() - 1);
                Ctl::None
            }
            Operator::Else => {
                let f = *open.last().expect("validated");
                frames[f].else_at = Some(i);
                Ctl::Else(f)
            }
            Operator::End => {
                let f = open.pop().expect("validated");
                frames[f].end = i;
                Ctl::End
            }
            Operator::Br { relative_depth } => {
                let f = frame_at(&open, relative_depth)?;
                frames[f].targeted = true;
                Ctl::Br(f)
            }
            Operator::BrIf { relative_depth } => {
                let f = frame_at(&open, relative_depth)?;
                frames[f].targeted = true;
                Ctl::BrIf(f)
            }
            Operator::BrTable { ref targets } => {
                let mut fs = Vec::with_capacity(targets.len() as usize + 1);
                for t in targets.targets() {
                    fs.push(frame_at(&open, t?)?);
                }
                fs.push(frame_at(&open, targets.default())?);
                for &f in &fs {
                    frames[f].targeted = true;
                }
                let label = &frames[*fs.last().expect("default")].label;
                if !label.is_empty() {
                    br_table_types.insert(i, label.clone());
                }
                Ctl::BrTable(fs)
            }
            Operator::Call { .. } | Operator::CallIndirect { .. } => Ctl::Call(handlers(&frames, &open, None).0),
            Operator::Throw { tag_index } => {
                let (h, escapes) = handlers(&frames, &open, Some(tag_index));
                Ctl::Throw(h, escapes)
            }
            Operator::ThrowRef => {
                let (h, escapes) = handlers(&frames, &open, None);
                Ctl::Throw(h, escapes)
            }
            Operator::Return | Operator::ReturnCall { .. } | Operator::ReturnCallIndirect { .. } => Ctl::Return,
            Operator::Unreachable => Ctl::Unreachable,
            _ => Ctl::None,
        };
        ctl.push(c);
    }
    let n_ops = offsets.len() as u32;
    offsets.push(body_end);
    Ok(Control { frames, ctl, offsets, work_before, n_ops, br_table_types })
}

/// Whether an operator is counted as an executed instruction: every operator but the
/// markers of structure (`block`, `loop`, `try_table`, `else`, `end`, and the legacy
/// `try`, `catch`, `catch_all`, `delegate`) and `nop`. This is what a native profiler
/// counts as instructions retired: a marker compiles to no machine code. `if`, `br` and the
/// other branches do work and are counted.
fn does_work(op: &Operator<'_>) -> bool {
    !matches!(
        op,
        Operator::Block { .. }
            | Operator::Loop { .. }
            | Operator::TryTable { .. }
            | Operator::Else
            | Operator::End
            | Operator::Nop
            | Operator::Try { .. }
            | Operator::Catch { .. }
            | Operator::CatchAll
            | Operator::Delegate { .. }
    )
}

/// The catch clauses an exception thrown inside the open frames `open` may reach,
/// innermost first, up to the first sure to catch it (a `catch_all*`, or a clause of
/// `tag`, the tag of a `throw`); and whether none is sure to (it may leave the function).
fn handlers(frames: &[Frame], open: &[usize], tag: Option<u32>) -> (Vec<Handler>, bool) {
    let mut out = Vec::new();
    for &f in open.iter().rev() {
        for (clause, c) in frames[f].clauses.iter().enumerate() {
            out.push(Handler { frame: f, clause });
            if c.tag.is_none() || (tag.is_some() && c.tag == tag) {
                return (out, false);
            }
        }
    }
    (out, true)
}

/// The index of each block's first instruction (its leader, by the rules above), in code
/// order.
fn block_starts(c: &Control) -> Vec<u32> {
    let n_ops = c.n_ops;
    let mut leader = vec![false; n_ops as usize + 1];
    leader[0] = true;
    for (i, ctl) in c.ctl.iter().enumerate() {
        if !matches!(ctl, Ctl::None | Ctl::End) {
            leader[i + 1] = true;
        }
    }
    for f in &c.frames {
        match f.kind {
            FrameKind::Loop if f.targeted => leader[f.start as usize] = true,
            FrameKind::Block | FrameKind::TryTable if f.targeted => leader[f.end as usize + 1] = true,
            FrameKind::If => leader[f.end as usize + 1] = true,
            _ => {}
        }
    }
    // Past the function's final `end` is the exit, not a block.
    leader.truncate(n_ops as usize);
    (0..n_ops).filter(|&i| leader[i as usize]).collect()
}

/// Pass 2: blocks and edges. For each block (starting at `first_op`), its byte range, the
/// edges out of its last instruction (one per distinct target, in the order the code
/// names them) and how it ends.
fn blocks_and_edges(c: Control, first_op: Vec<u32>) -> (Cfg, FuncLayout) {
    let Control { frames, ctl, offsets, work_before, n_ops, br_table_types } = c;
    let mut block_at = vec![0u32; n_ops as usize];
    for (b, w) in first_op.iter().enumerate() {
        let end = first_op.get(b + 1).copied().unwrap_or(n_ops);
        for i in *w..end {
            block_at[i as usize] = b as u32;
        }
    }
    let block_of = |op: u32| -> Target {
        if op >= n_ops {
            Target::Exit
        } else {
            Target::Block(BlockIdx(block_at[op as usize]))
        }
    };
    // Where a branch to frame `f` lands, and what kind of edge it is.
    let branch = |f: usize| -> (Target, EdgeKind) {
        let fr = &frames[f];
        match fr.kind {
            FrameKind::Function => (Target::Exit, EdgeKind::Return),
            FrameKind::Loop => (block_of(fr.start), EdgeKind::Back),
            FrameKind::Block | FrameKind::If | FrameKind::TryTable => (block_of(fr.end + 1), EdgeKind::Forward),
        }
    };
    let mut try_tables: BTreeMap<u32, TryTable> = frames
        .iter()
        .filter(|f| f.kind == FrameKind::TryTable && !f.clauses.is_empty())
        .map(|f| {
            let clauses = f.clauses.iter().map(|c| Clause { label: frames[c.target].label.clone(), edges: Vec::new() }).collect();
            (f.start, TryTable { params: f.params.clone(), clauses })
        })
        .collect();

    let mut blocks = Vec::with_capacity(first_op.len());
    let mut edges: Vec<Edge> = Vec::new();
    let mut terms = Vec::with_capacity(first_op.len());
    for (b, &first) in first_op.iter().enumerate() {
        let next = first_op.get(b + 1).copied().unwrap_or(n_ops);
        let last = next - 1;
        blocks.push(Block { start: offsets[first as usize], end: offsets[next as usize], n_instrs: work_before[next as usize] - work_before[first as usize] });
        let from = BlockIdx(b as u32);
        // The block's edges, one per target, in the order the code names them.
        let mut index: BTreeMap<Target, EdgeIdx> = BTreeMap::new();
        let mut edge = |to: Target, kind: EdgeKind| -> EdgeIdx {
            *index.entry(to).or_insert_with(|| {
                edges.push(Edge { from, to, kind });
                EdgeIdx(edges.len() as u32 - 1)
            })
        };
        let fall_kind = |op: u32| if op >= n_ops { EdgeKind::Return } else { EdgeKind::Forward };
        // The catch edge to handler `h`'s target, noted on its clause for the rewrite.
        let mut catch_edge = |h: &Handler, edge: &mut dyn FnMut(Target, EdgeKind) -> EdgeIdx| -> EdgeIdx {
            let e = edge(branch(frames[h.frame].clauses[h.clause].target).0, EdgeKind::Catch);
            try_tables.get_mut(&frames[h.frame].start).expect("a try_table with clauses").clauses[h.clause].edges.push(e);
            e
        };
        let term = match &ctl[last as usize] {
            Ctl::Br(f) => {
                let (to, k) = branch(*f);
                Term::Br(edge(to, k))
            }
            Ctl::BrIf(f) => {
                let (to, k) = branch(*f);
                let taken = edge(to, k);
                Term::BrIf { taken, fall: edge(block_of(last + 1), EdgeKind::Forward) }
            }
            Ctl::BrTable(fs) => Term::BrTable(
                fs.iter()
                    .map(|&f| {
                        let (to, k) = branch(f);
                        edge(to, k)
                    })
                    .collect(),
            ),
            Ctl::If(f) => {
                let fr = &frames[*f];
                let other = fr.else_at.map(|e| e + 1).unwrap_or(fr.end + 1);
                let then = edge(block_of(last + 1), EdgeKind::Forward);
                Term::If { then, other: edge(block_of(other), EdgeKind::Forward), else_op: fr.else_at, end_op: fr.end }
            }
            Ctl::Else(f) => Term::Else(edge(block_of(frames[*f].end + 1), EdgeKind::Forward)),
            Ctl::Call(hs) => {
                let term = Term::Call(edge(block_of(last + 1), EdgeKind::Call));
                for h in hs {
                    catch_edge(h, &mut edge);
                }
                term
            }
            Ctl::Throw(hs, escapes) => {
                let mut first = None;
                for h in hs {
                    first.get_or_insert(catch_edge(h, &mut edge));
                }
                if *escapes {
                    first.get_or_insert(edge(Target::Exit, EdgeKind::Throw));
                }
                Term::Throw(first.expect("a throw leaves by a catch or the exit"))
            }
            Ctl::Return => Term::Return(edge(Target::Exit, EdgeKind::Return)),
            Ctl::Unreachable => Term::Unreachable(edge(Target::Exit, EdgeKind::Trap)),
            Ctl::None | Ctl::End => Term::Fall(edge(block_of(last + 1), fall_kind(last + 1))),
        };
        terms.push(term);
    }
    let cfg = Cfg { blocks, edges };
    debug_assert_eq!(cfg.validate(), Ok(()));
    (cfg, FuncLayout { first_op, terms, n_ops, br_table_types, try_tables })
}
