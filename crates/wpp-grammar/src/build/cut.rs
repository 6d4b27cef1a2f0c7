//! Content-defined cuts: where a stream of tokens is cut into pieces (phrases, segments)
//! so that equal stretches of the stream are cut at the same places wherever they occur.
//!
//! A rolling hash covers the last `window` tokens (each given as a value spread over 64
//! bits by its user). A piece of at least `min` tokens ends after a token whose hash's top
//! 32 bits fall below `2^32 / divisor`; a piece that reaches `max` tokens without such a
//! boundary ends where that hash was smallest, so a loop whose few contexts never make a
//! boundary is still cut at the same place in every iteration. The tokens after the cut
//! begin the next piece.

/// The rolling hash's base (odd).
const BASE: u64 = 0xff51_afd7_ed55_8ccd;

/// The cutter's state: the rolling hash, and the hash after each token of the piece
/// being cut.
#[derive(Clone, Debug)]
pub(crate) struct Cutter {
    min: usize,
    max: usize,
    /// A piece ends where the hash's top 32 bits are below this.
    threshold: u64,
    /// The rolling hash of the last `ring.len()` tokens (a power of two) and their values.
    hash: u64,
    ring: Vec<u64>,
    ring_pos: usize,
    /// `BASE^window`, which takes the oldest token out of the hash.
    base_w: u64,
    /// The top 32 bits of the hash after each token of the piece being cut.
    hashes: Vec<u32>,
    /// The smallest of those at least `min` tokens in, and the piece's length there (0:
    /// none yet).
    smallest: (u32, usize),
}

impl Cutter {
    /// # Panics
    /// If `window` is not a power of two up to 64, or `min`, `max` or `divisor` is 0 or
    /// `min > max`.
    pub(crate) fn new(window: usize, min: usize, max: usize, divisor: u32) -> Self {
        assert!(window.is_power_of_two() && window <= 64, "the window must be a power of two up to 64");
        assert!(min >= 1 && min <= max && divisor >= 1, "bad piece lengths");
        Cutter {
            min,
            max,
            threshold: (1u64 << 32) / divisor as u64,
            hash: 0,
            ring: vec![0; window],
            ring_pos: 0,
            base_w: BASE.wrapping_pow(window as u32),
            hashes: Vec::with_capacity(max),
            smallest: (u32::MAX, 0),
        }
    }

    /// Takes the next token, as its spread value; returns the length of the piece that
    /// ends here, if one does (then [`Cutter::cut`] must follow).
    #[inline]
    pub(crate) fn push(&mut self, value: u64) -> Option<usize> {
        let old = std::mem::replace(&mut self.ring[self.ring_pos], value);
        self.ring_pos = (self.ring_pos + 1) & (self.ring.len() - 1);
        self.hash = self.hash.wrapping_mul(BASE).wrapping_add(value).wrapping_sub(old.wrapping_mul(self.base_w));
        let h = (self.hash >> 32) as u32;
        self.hashes.push(h);
        let len = self.hashes.len();
        if len >= self.min {
            if (h as u64) < self.threshold {
                return Some(len);
            }
            if h < self.smallest.0 || self.smallest.1 == 0 {
                self.smallest = (h, len);
            }
            if len >= self.max {
                return Some(self.smallest.1);
            }
        }
        None
    }

    /// The first `len` tokens of the piece being cut were cut off; the rest begin the next.
    pub(crate) fn cut(&mut self, len: usize) {
        self.hashes.drain(..len.min(self.hashes.len()));
        // None of the tokens left made a boundary where they were, nor will they here.
        self.smallest = (u32::MAX, 0);
        for (i, &h) in self.hashes.iter().enumerate().skip(self.min - 1) {
            if h < self.smallest.0 || self.smallest.1 == 0 {
                self.smallest = (h, i + 1);
            }
        }
    }

    /// As new, with its memory kept.
    pub(crate) fn reset(&mut self) {
        self.hash = 0;
        self.ring.fill(0);
        self.ring_pos = 0;
        self.hashes.clear();
        self.smallest = (u32::MAX, 0);
    }
}
