//! Path events as the instrumented program writes them.
//!
//! An event is one 64-bit little-endian word `(function << 32) | path` when the path
//! number fits in 32 bits. A function whose paths need more bits writes two words: the
//! escape word `(ESCAPE_FUNC << 32) | function`, then the full 64-bit path number.
//! No module can have `ESCAPE_FUNC` (2³² − 1) functions, so the escape is unambiguous.

use crate::{FuncIdx, PathId};

/// The function field value that marks a two-word event.
pub const ESCAPE_FUNC: u32 = u32::MAX;

/// One executed acyclic path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct PathEvent {
    pub func: FuncIdx,
    pub path: PathId,
}

/// A raw event word.
pub type EventWord = u64;

impl PathEvent {
    /// Appends the encoding of this event to `out`.
    pub fn encode(self, out: &mut Vec<EventWord>) {
        if self.path.0 <= u32::MAX as u64 {
            out.push(((self.func.0 as u64) << 32) | self.path.0);
        } else {
            out.push(((ESCAPE_FUNC as u64) << 32) | self.func.0 as u64);
            out.push(self.path.0);
        }
    }
}

/// Decodes event words incrementally; an escape word may be split across two buffers.
#[derive(Default, Debug, Clone)]
pub struct EventDecoder {
    pending_escape: Option<FuncIdx>,
}

impl EventDecoder {
    /// Feeds `words`, calling `f` for each complete event.
    #[inline]
    pub fn feed(&mut self, words: &[EventWord], mut f: impl FnMut(PathEvent)) {
        for &w in words {
            if let Some(func) = self.pending_escape.take() {
                f(PathEvent { func, path: PathId(w) });
                continue;
            }
            let hi = (w >> 32) as u32;
            if hi == ESCAPE_FUNC {
                self.pending_escape = Some(FuncIdx(w as u32));
            } else {
                f(PathEvent { func: FuncIdx(hi), path: PathId(w & 0xffff_ffff) });
            }
        }
    }

    /// True when the words fed so far end inside a two-word event.
    pub fn is_mid_event(&self) -> bool {
        self.pending_escape.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encoding then decoding any event sequence, split anywhere, gives it back.
    #[test]
    fn round_trip_across_splits() {
        let events: Vec<PathEvent> = [(0, 0), (7, u32::MAX as u64), (3, 1 << 40), (u32::MAX - 1, 5), (9, u64::MAX)]
            .into_iter()
            .map(|(f, p)| PathEvent { func: FuncIdx(f), path: PathId(p) })
            .collect();
        let mut words = Vec::new();
        for e in &events {
            e.encode(&mut words);
        }
        for split in 0..=words.len() {
            let mut d = EventDecoder::default();
            let mut got = Vec::new();
            d.feed(&words[..split], |e| got.push(e));
            d.feed(&words[split..], |e| got.push(e));
            assert_eq!(got, events, "split at {split}");
            assert!(!d.is_mid_event());
        }
    }
}
