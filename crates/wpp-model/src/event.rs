//! Path events as the instrumented program writes them.
//!
//! An event is one 64-bit little-endian word `(function << 32) | path` when the path
//! number fits in 32 bits. A function whose paths need more bits writes two words: the
//! escape word `(ESCAPE_FUNC << 32) | function`, then the full 64-bit path number.
//! No module can have `ESCAPE_FUNC` (2³² − 1) functions, so the escape is unambiguous.
//!
//! The 4-byte form ([`NarrowIds`]) numbers the paths of the whole module densely: most
//! functions get a range of ids below 2³¹, and one of their events is one 32-bit word, the
//! id of the path (the function's base plus the path number, a constant the rewrite folds
//! into the one it adds anyway). A function left out writes three words: [`NARROW_ESCAPE`]
//! `| function`, then the 64-bit path number, low half first. Half the bytes of the 8-byte
//! form for the events that matter: the consumer thread reads half as much memory, and a
//! run of one path is a run of one word.

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

/// The bit that marks the first word of a three-word event in the 4-byte form.
pub const NARROW_ESCAPE: u32 = 1 << 31;

/// The 4-byte form's dense ids: which functions have ids, from which base.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NarrowIds {
    /// By function index: the id of the function's path 0, if it has ids.
    bases: Vec<Option<u32>>,
    /// The functions with ids, by base.
    starts: Vec<(u32, FuncIdx)>,
    /// Ids given: every id is below it, and it is at most [`NARROW_ESCAPE`].
    n_ids: u32,
}

impl NarrowIds {
    /// Ids for functions with `n_paths[f]` paths (`None` for a function without code), the
    /// functions with fewest paths first, as long as the ids stay below [`NARROW_ESCAPE`]:
    /// that leaves out only functions whose paths alone would take a large part of the range.
    /// A pure function of the path counts, so that the rewrite and the reader agree.
    pub fn new(n_paths: &[Option<u64>]) -> Self {
        let mut order: Vec<(u64, u32)> = n_paths.iter().enumerate().filter_map(|(f, n)| n.map(|n| (n, f as u32))).collect();
        order.sort_unstable();
        let mut ids = NarrowIds { bases: vec![None; n_paths.len()], starts: Vec::new(), n_ids: 0 };
        for (n, f) in order {
            if n > (NARROW_ESCAPE - ids.n_ids) as u64 {
                break;
            }
            if n == 0 {
                continue;
            }
            ids.bases[f as usize] = Some(ids.n_ids);
            ids.starts.push((ids.n_ids, FuncIdx(f)));
            ids.n_ids += n as u32;
        }
        ids
    }

    /// The id of path 0 of `f`, if `f` has ids.
    pub fn base(&self, f: FuncIdx) -> Option<u32> {
        self.bases.get(f.idx()).copied().flatten()
    }

    /// How many ids there are: every id is below it.
    pub fn n_ids(&self) -> u32 {
        self.n_ids
    }

    /// The path of id `id`, if it is one.
    pub fn event(&self, id: u32) -> Option<PathEvent> {
        if id >= self.n_ids {
            return None;
        }
        let i = self.starts.partition_point(|&(base, _)| base <= id) - 1;
        let (base, func) = self.starts[i];
        Some(PathEvent { func, path: PathId((id - base) as u64) })
    }

    /// Appends the 4-byte encoding of `e` to `out`.
    pub fn encode(&self, e: PathEvent, out: &mut Vec<u32>) {
        match self.base(e.func) {
            Some(base) => out.push(base + e.path.0 as u32),
            None => out.extend([NARROW_ESCAPE | e.func.0, e.path.0 as u32, (e.path.0 >> 32) as u32]),
        }
    }
}

/// One event of the 4-byte form as [`NarrowDecoder`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    /// A dense id ([`NarrowIds::event`] says whose path it is).
    Id(u32),
    /// A path of a function without ids.
    Event(PathEvent),
}

/// Decodes 4-byte event words incrementally; a three-word event may be split across
/// buffers.
#[derive(Default, Debug, Clone)]
pub struct NarrowDecoder {
    /// Inside a three-word event: its function and the words of the path read so far.
    pending: Option<(FuncIdx, Option<u32>)>,
}

impl NarrowDecoder {
    /// Feeds `words`, calling `f` for each complete event.
    #[inline]
    pub fn feed(&mut self, words: &[u32], mut f: impl FnMut(Narrow)) {
        for &w in words {
            if let Some((func, lo)) = self.pending {
                match lo {
                    None => self.pending = Some((func, Some(w))),
                    Some(lo) => {
                        self.pending = None;
                        f(Narrow::Event(PathEvent { func, path: PathId(lo as u64 | (w as u64) << 32) }));
                    }
                }
                continue;
            }
            if w & NARROW_ESCAPE == 0 {
                f(Narrow::Id(w));
            } else {
                self.pending = Some((FuncIdx(w & !NARROW_ESCAPE), None));
            }
        }
    }

    /// True when the words fed so far end inside a three-word event.
    pub fn is_mid_event(&self) -> bool {
        self.pending.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids go to the functions with fewest paths, stay below the escape bit, and name
    /// their paths back; encoding then decoding, split anywhere, gives the events back.
    #[test]
    fn narrow_round_trip_across_splits() {
        let n_paths = [Some(3), None, Some(1 << 30), Some(5), Some(1 << 31), Some(0), Some(u64::MAX), Some(1)];
        let ids = NarrowIds::new(&n_paths);
        assert_eq!(ids.base(FuncIdx(7)), Some(0));
        assert_eq!(ids.base(FuncIdx(0)), Some(1));
        assert_eq!(ids.base(FuncIdx(3)), Some(4));
        assert_eq!(ids.base(FuncIdx(2)), Some(9));
        assert_eq!([1, 4, 5, 6].map(|f| ids.base(FuncIdx(f))), [None; 4], "no room, no paths, or no code");
        assert_eq!(ids.n_ids(), 9 + (1 << 30));
        let events: Vec<PathEvent> = [(0, 2), (7, 0), (4, (1 << 31) - 1), (2, (1 << 30) - 1), (6, u64::MAX), (3, 4), (3, 4), (1, 0)]
            .into_iter()
            .map(|(f, p)| PathEvent { func: FuncIdx(f), path: PathId(p) })
            .collect();
        let mut words = Vec::new();
        for &e in &events {
            ids.encode(e, &mut words);
        }
        assert_eq!(words.len(), 5 + 3 * 3);
        for split in 0..=words.len() {
            let mut d = NarrowDecoder::default();
            let mut got = Vec::new();
            let mut take = |n: Narrow| {
                got.push(match n {
                    Narrow::Id(id) => ids.event(id).expect("an id"),
                    Narrow::Event(e) => e,
                })
            };
            d.feed(&words[..split], &mut take);
            d.feed(&words[split..], &mut take);
            assert_eq!(got, events, "split at {split}");
            assert!(!d.is_mid_event());
        }
        assert_eq!(ids.event(ids.n_ids()), None);
    }

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
