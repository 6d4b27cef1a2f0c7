//! The timestamped form of a trace (Zhang & Gupta §2, "Timestamped WPP representation" and
//! "Compacting TWPP path traces").
//!
//! A trace maps time to blocks: step `t` (from 1) ran block `trace[t - 1]`. The
//! timestamped form maps each block to the steps it ran at, and stores those as arithmetic
//! series: `l` (one step), `l:h` (every step from `l` to `h`) or `l:h:s` (every `s`-th).
//! A loop that takes the same path each time gives one series per block, whatever its trip
//! count.

use wpp_model::BlockIdx;

/// Steps at which one block ran: `lo, lo + step, ..., hi` (`step` is 0 for one step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Series {
    pub lo: u32,
    pub hi: u32,
    pub step: u32,
}

impl Series {
    /// How many steps it holds.
    pub fn len(&self) -> u32 {
        match self.step {
            0 => 1,
            s => (self.hi - self.lo) / s + 1,
        }
    }

    /// Whether it holds no step (never: every series holds at least one).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Its steps in order.
    pub fn steps(&self) -> impl Iterator<Item = u32> + '_ {
        let step = self.step.max(1);
        (0..self.len()).map(move |i| self.lo + i * step)
    }

    /// How many numbers the paper's form stores: `l`, `l:h` or `l:h:s`.
    pub fn numbers(&self) -> usize {
        match self.step {
            0 => 1,
            1 => 2,
            _ => 3,
        }
    }
}

/// A trace in timestamped form: each block that ran, with its steps as series, by block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Timestamped {
    pub blocks: Vec<(BlockIdx, Vec<Series>)>,
    /// The trace's length, its last step.
    pub len: u32,
}

/// Steps as series, greedily: from each step, the longest arithmetic run that follows it,
/// kept when it holds at least three steps (two steps cost the same as two singles).
pub fn series(steps: &[u32]) -> Vec<Series> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        if i + 2 < steps.len() {
            let d = steps[i + 1] - steps[i];
            let mut j = i + 1;
            while j + 1 < steps.len() && steps[j + 1] - steps[j] == d {
                j += 1;
            }
            if j - i >= 2 {
                out.push(Series { lo: steps[i], hi: steps[j], step: d });
                i = j + 1;
                continue;
            }
        }
        out.push(Series { lo: steps[i], hi: steps[i], step: 0 });
        i += 1;
    }
    out
}

/// [`series`] computed one step at a time, for steps that arrive in order (the same
/// series: the greedy choice needs at most two steps of look-ahead).
#[derive(Clone, Debug, Default)]
pub struct SeriesBuilder {
    done: Vec<Series>,
    /// An open series of at least three steps.
    run: Option<Series>,
    /// Steps not yet placed (at most two).
    pending: [u32; 2],
    n_pending: u8,
}

impl SeriesBuilder {
    /// Adds the next step (greater than every step before).
    pub fn push(&mut self, t: u32) {
        if let Some(run) = &mut self.run {
            if t - run.hi == run.step {
                run.hi = t;
                return;
            }
            self.done.push(*run);
            self.run = None;
        }
        if self.n_pending < 2 {
            self.pending[self.n_pending as usize] = t;
            self.n_pending += 1;
            return;
        }
        let [a, b] = self.pending;
        if b - a == t - b {
            self.run = Some(Series { lo: a, hi: t, step: b - a });
            self.n_pending = 0;
        } else {
            self.done.push(Series { lo: a, hi: a, step: 0 });
            self.pending = [b, t];
        }
    }

    /// The series of every step pushed.
    pub fn finish(mut self) -> Vec<Series> {
        if let Some(run) = self.run {
            self.done.push(run);
        }
        for &t in &self.pending[..self.n_pending as usize] {
            self.done.push(Series { lo: t, hi: t, step: 0 });
        }
        self.done
    }
}

/// The timestamped form of `trace`.
pub fn timestamp(trace: &[BlockIdx]) -> Timestamped {
    let mut by_block: Vec<(BlockIdx, u32)> = trace.iter().enumerate().map(|(t, &b)| (b, t as u32 + 1)).collect();
    by_block.sort_unstable();
    let mut blocks = Vec::new();
    for group in by_block.chunk_by(|a, b| a.0 == b.0) {
        let steps: Vec<u32> = group.iter().map(|&(_, t)| t).collect();
        blocks.push((group[0].0, series(&steps)));
    }
    Timestamped { blocks, len: trace.len() as u32 }
}

/// The trace again, `None` if the series do not cover steps `1..=len` exactly once.
pub fn untimestamp(t: &Timestamped) -> Option<Vec<BlockIdx>> {
    let mut out = vec![None; t.len as usize];
    for (b, series) in &t.blocks {
        for s in series {
            if s.lo == 0 || s.hi < s.lo || (s.step == 0) != (s.lo == s.hi) || (s.step > 0 && (s.hi - s.lo) % s.step != 0) {
                return None;
            }
            for step in s.steps() {
                let slot = out.get_mut(step as usize - 1)?;
                if slot.replace(*b).is_some() {
                    return None;
                }
            }
        }
    }
    out.into_iter().collect()
}

impl Timestamped {
    /// Numbers stored in the paper's form: one, two or three per series.
    pub fn numbers(&self) -> usize {
        self.blocks.iter().map(|(_, s)| 1 + s.iter().map(Series::numbers).sum::<usize>()).sum()
    }

    /// Series, over all blocks (the paper's timestamp-vector entries).
    pub fn n_series(&self) -> usize {
        self.blocks.iter().map(|(_, s)| s.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's example: the trace `1 2 2 2 2 2 6` is `1 → {1}, 2 → {2:6}, 6 → {7}`.
    #[test]
    fn the_papers_example() {
        let trace: Vec<BlockIdx> = [1, 2, 2, 2, 2, 2, 6].map(BlockIdx).to_vec();
        let t = timestamp(&trace);
        let one = |t| Series { lo: t, hi: t, step: 0 };
        assert_eq!(t.blocks, vec![(BlockIdx(1), vec![one(1)]), (BlockIdx(2), vec![Series { lo: 2, hi: 6, step: 1 }]), (BlockIdx(6), vec![one(7)])]);
        assert_eq!(t.numbers(), 3 + 1 + 2 + 1);
        assert_eq!(untimestamp(&t), Some(trace));
    }

    /// Figure 11's `4:28:8`: every eighth step.
    #[test]
    fn strided_series() {
        assert_eq!(series(&[4, 12, 20, 28]), vec![Series { lo: 4, hi: 28, step: 8 }]);
        assert_eq!(
            series(&[1, 2, 5, 9, 13, 20]),
            vec![Series { lo: 1, hi: 1, step: 0 }, Series { lo: 2, hi: 2, step: 0 }, Series { lo: 5, hi: 13, step: 4 }, Series { lo: 20, hi: 20, step: 0 }]
        );
    }

    /// Step by step, the same series as all at once.
    #[test]
    fn the_builder_is_the_greedy_choice() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut steps = Vec::new();
            let mut t = 0u32;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            for _ in 0..(rng % 40) {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                t += 1 + [0, 0, 1, 3, 7][(rng % 5) as usize] as u32 * ((rng >> 8) % 3) as u32;
                steps.push(t);
            }
            let mut b = SeriesBuilder::default();
            steps.iter().for_each(|&t| b.push(t));
            assert_eq!(b.finish(), series(&steps), "{steps:?}");
        }
    }

    #[test]
    fn damaged_forms_are_refused() {
        let t =
            Timestamped { blocks: vec![(BlockIdx(0), vec![Series { lo: 1, hi: 3, step: 1 }]), (BlockIdx(1), vec![Series { lo: 3, hi: 3, step: 0 }])], len: 3 };
        assert_eq!(untimestamp(&t), None, "step 3 twice");
        let t = Timestamped { blocks: vec![(BlockIdx(0), vec![Series { lo: 1, hi: 2, step: 1 }])], len: 3 };
        assert_eq!(untimestamp(&t), None, "step 3 missing");
    }
}
