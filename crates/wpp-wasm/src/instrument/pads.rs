//! Landing pads for `try_table` catch clauses, and the label depths the pads shift.
//!
//! A catch clause branches to a label that other code may reach too, so the code of a
//! catch edge (the path registers restarting at the handler) cannot go at the label.
//! Instead each clause whose edges restart a path lands in a block of its own, whose code
//! restarts the path and branches on to the clause's label with the values it caught:
//!
//! ```text
//! block $after (the try_table's type)   ;; [P] -> [R]
//!   block $pad_1 [P] -> [L_1]
//!     ...
//!       block $pad_n [P] -> [L_n]
//!         try_table (catch … $pad_j) …   ;; clause j lands in its pad
//!         end
//!         br $after                        ;; the try_table ended normally
//!       end  restart_n  br L_n
//!     ...
//!   end  restart_1  br L_1
//! end
//! ```
//!
//! The blocks added around a `try_table` sit between it and the frame around it, so every
//! branch that crosses them has its depth raised ([`Labels::depth`]).

use wasm_encoder::{BlockType, Catch, Function, Instruction as I};
use wpp_model::EdgeIdx;

use crate::cfg_build::TryTable;

/// The original frames open at a point of the rewritten body, innermost last, each with
/// the blocks added around it.
#[derive(Default)]
pub(super) struct Labels {
    frames: Vec<Open>,
}

struct Open {
    /// Blocks added between this frame and the one around it.
    wrappers: u32,
    /// For a `try_table` with pads, each pad's edge and the depth of its clause's label
    /// from outside the added blocks.
    pads: Vec<(EdgeIdx, u32)>,
}

impl Labels {
    /// A `block`, `loop` or `if` opens.
    pub fn open(&mut self) {
        self.frames.push(Open { wrappers: 0, pads: Vec::new() });
    }

    /// The depth in the rewritten body of a branch to original depth `d`.
    pub fn depth(&self, d: u32) -> u32 {
        let n = self.frames.len();
        d + self.frames.iter().rev().take((d as usize).min(n)).map(|o| o.wrappers).sum::<u32>()
    }

    /// Writes try_table `tt`, translated as `bt` and `catches` (with original labels):
    /// the pads of the clauses that `landing` gives an edge whose code restarts a path,
    /// then the `try_table` with every label rewritten.
    pub fn open_try_table(
        &mut self,
        f: &mut Function,
        tt: &TryTable,
        (bt, catches): (BlockType, &[Catch]),
        landing: impl Fn(&[EdgeIdx]) -> Option<EdgeIdx>,
        pad_type: impl Fn(usize) -> BlockType,
    ) {
        let padded: Vec<Option<EdgeIdx>> = tt.clauses.iter().map(|c| landing(&c.edges)).collect();
        let n = padded.iter().flatten().count() as u32;
        let mut pads = Vec::with_capacity(n as usize);
        let mut rewritten = Vec::with_capacity(catches.len());
        if n > 0 {
            f.instruction(&I::Block(bt));
        }
        for (c, catch) in catches.iter().enumerate() {
            let label = label_of(catch);
            let new = match padded.get(c).copied().flatten() {
                Some(edge) => {
                    f.instruction(&I::Block(pad_type(c)));
                    pads.push((edge, self.depth(label)));
                    n - pads.len() as u32
                }
                None => self.depth(label) + if n > 0 { n + 1 } else { 0 },
            };
            rewritten.push(with_label(catch, new));
        }
        f.instruction(&I::TryTable(bt, rewritten.into()));
        self.frames.push(Open { wrappers: if n > 0 { n + 1 } else { 0 }, pads });
    }

    /// Writes the `end` of the innermost frame (`None` open: the function's own), and
    /// after a `try_table`'s, its pads, each restarting the path with `restart`.
    pub fn close(&mut self, f: &mut Function, restart: impl Fn(&mut Function, EdgeIdx)) {
        f.instruction(&I::End);
        let Some(open) = self.frames.pop() else { return };
        let n = open.pads.len() as u32;
        if n == 0 {
            return;
        }
        f.instruction(&I::Br(n));
        for (k, &(edge, target)) in open.pads.iter().enumerate().rev() {
            f.instruction(&I::End);
            restart(f, edge);
            f.instruction(&I::Br(target + k as u32 + 1));
        }
        f.instruction(&I::End);
    }
}

fn label_of(c: &Catch) -> u32 {
    match *c {
        Catch::One { label, .. } | Catch::OneRef { label, .. } | Catch::All { label } | Catch::AllRef { label } => label,
    }
}

fn with_label(c: &Catch, label: u32) -> Catch {
    match *c {
        Catch::One { tag, .. } => Catch::One { tag, label },
        Catch::OneRef { tag, .. } => Catch::OneRef { tag, label },
        Catch::All { .. } => Catch::All { label },
        Catch::AllRef { .. } => Catch::AllRef { label },
    }
}
