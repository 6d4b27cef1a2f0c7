//! The frame skeleton of the oracles that walk a run's block log (`wpp_runtime::run_block_log`)
//! keeping state per invocation: a frame per entered function, popped at its exit or when
//! an exception unwinds it; a call of an import seen as a call that returned without
//! entering a function of the module; and a bound on the blocks walked, because a profile
//! holds the run's completed paths only. An oracle says what a frame holds and what a
//! block and an import call do; [`FrameWalk`] drives it.

use wpp_runtime::BlockSink;

/// What an oracle keeps and does per frame; [`FrameWalk`] calls it.
pub trait FrameOracle {
    /// What the oracle keeps per invocation.
    type Frame;
    /// The frame of a new invocation of `func`.
    fn frame(&mut self, func: u32) -> Self::Frame;
    /// Block `block` of `func` ran; `frames` are the open invocations, the running one
    /// last (its function is `func`).
    fn block(&mut self, frames: &mut [Self::Frame], func: u32, block: u32);
    /// A call of an import returned to the running invocation (the last of `frames`),
    /// just before its next block.
    fn import_call(&mut self, frames: &mut [Self::Frame]);
}

/// Drives a [`FrameOracle`] from a block log, for at most a given number of blocks.
pub struct FrameWalk<O: FrameOracle> {
    pub oracle: O,
    frames: Vec<O::Frame>,
    /// Per open invocation: its function, whether it is in a call, and whether that call
    /// entered a function of the module.
    open: Vec<(u32, bool, bool)>,
    blocks_left: u64,
}

impl<O: FrameOracle> FrameWalk<O> {
    /// A walk of the first `blocks` blocks of the run.
    pub fn new(oracle: O, blocks: u64) -> Self {
        FrameWalk { oracle, frames: Vec::new(), open: Vec::new(), blocks_left: blocks }
    }
}

impl<O: FrameOracle> BlockSink for FrameWalk<O> {
    fn enter(&mut self, func: u32) {
        if self.blocks_left == 0 {
            return;
        }
        if let Some(top) = self.open.last_mut() {
            top.2 = true;
        }
        self.frames.push(self.oracle.frame(func));
        self.open.push((func, false, false));
    }

    fn block(&mut self, func: u32, block: u32) {
        if self.blocks_left == 0 {
            return;
        }
        self.blocks_left -= 1;
        let top = self.open.last_mut().expect("a block inside an invocation");
        assert_eq!(top.0, func, "the block log's block is not the running function's");
        if std::mem::take(&mut top.1) && !top.2 {
            self.oracle.import_call(&mut self.frames);
        }
        self.oracle.block(&mut self.frames, func, block);
    }

    fn exit(&mut self, _func: u32) {
        if self.blocks_left == 0 {
            return;
        }
        self.frames.pop();
        self.open.pop();
    }

    fn unwind(&mut self, func: u32) {
        self.exit(func);
    }

    fn leave(&mut self, _func: u32) {
        if let Some(top) = self.open.last_mut() {
            top.1 = true;
            top.2 = false;
        }
    }
}
