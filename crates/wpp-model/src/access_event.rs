//! Memory accesses in the event stream, beside path events (an addresses recording: the
//! control flow and every load and store address, the baseline of the extended WPP).
//!
//! An access is one word `((ACCESS_TAG | site) << 32) | address`: `site` numbers the
//! module's accesses (its loads, stores and bulk instructions, in a table both sides
//! build from the module) and the address is the first byte touched, in a 32-bit memory.
//! A bulk access (whose length the site does not fix) is followed by a word with the
//! length. No module has 2³¹ functions, so a path event's function field never has the
//! tag bit; the escape of a two-word path event ([`ESCAPE_FUNC`]) has it, so the largest
//! site is [`MAX_SITE`].

use crate::event::{PathEvent, ESCAPE_FUNC};
use crate::{FuncIdx, PathId};

/// The bit of the high half that marks an access.
pub const ACCESS_TAG: u32 = 1 << 31;

/// The largest access site number (the one above it would read as [`ESCAPE_FUNC`]).
pub const MAX_SITE: u32 = ESCAPE_FUNC - ACCESS_TAG - 1;

/// One access: site `site` touched memory from `addr`; `len` for a bulk access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AccessEvent {
    pub site: u32,
    pub addr: u32,
    pub len: Option<u64>,
}

/// An event of an addresses recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    Path(PathEvent),
    Access(AccessEvent),
}

impl AccessEvent {
    /// Appends the encoding of this access to `out`.
    pub fn encode(self, out: &mut Vec<u64>) {
        debug_assert!(self.site <= MAX_SITE);
        out.push((((ACCESS_TAG | self.site) as u64) << 32) | self.addr as u64);
        if let Some(len) = self.len {
            out.push(len);
        }
    }
}

/// What an access site does to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SiteKind {
    /// An instruction reads `width` bytes (`None`: as many as its length operand says).
    Read { width: Option<u32> },
    /// An instruction writes `width` bytes (`None`: as many as its length operand says).
    Write { width: Option<u32> },
    /// A call of imported function `import`: its event's address field is the number of
    /// ranges of guest memory the call wrote, each then given by a [`SiteKind::HostWrite`]
    /// event.
    HostCall { import: FuncIdx },
    /// A range the last host call wrote (one site per module, the last).
    HostWrite,
}

/// One access site of a module: an instruction's read or write of linear memory, a call
/// of an imported function, or the ranges such calls wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct AccessSite {
    /// The function holding the instruction (0 for [`SiteKind::HostWrite`]).
    pub func: FuncIdx,
    /// The instruction's byte offset in the module.
    pub at: u32,
    /// The instruction's block.
    pub block: crate::BlockIdx,
    pub memory: u32,
    pub kind: SiteKind,
}

impl AccessSite {
    /// Whether the site's events carry a length word.
    pub fn is_bulk(&self) -> bool {
        matches!(self.kind, SiteKind::Read { width: None } | SiteKind::Write { width: None } | SiteKind::HostWrite)
    }

    /// Whether the site writes memory.
    pub fn is_write(&self) -> bool {
        matches!(self.kind, SiteKind::Write { .. } | SiteKind::HostWrite)
    }
}

/// What the next word completes.
#[derive(Clone, Copy, Debug, Default)]
enum Pending {
    #[default]
    Nothing,
    /// The path number of a two-word path event of this function.
    Path(FuncIdx),
    /// The length of a bulk access.
    Length(u32, u32),
}

/// Decodes path and access events incrementally; a two-word event may be split across
/// buffers.
#[derive(Clone, Debug, Default)]
pub struct EventDecoder {
    pending: Pending,
}

impl EventDecoder {
    /// Feeds `words`, calling `f` for each complete event; `is_bulk(site)` says which
    /// sites carry a length word.
    pub fn feed(&mut self, words: &[u64], is_bulk: impl Fn(u32) -> bool, mut f: impl FnMut(Event)) {
        for &w in words {
            match std::mem::take(&mut self.pending) {
                Pending::Path(func) => f(Event::Path(PathEvent { func, path: PathId(w) })),
                Pending::Length(site, addr) => f(Event::Access(AccessEvent { site, addr, len: Some(w) })),
                Pending::Nothing => {
                    let hi = (w >> 32) as u32;
                    if hi == ESCAPE_FUNC {
                        self.pending = Pending::Path(FuncIdx(w as u32));
                    } else if hi & ACCESS_TAG != 0 {
                        let (site, addr) = (hi & !ACCESS_TAG, w as u32);
                        if is_bulk(site) {
                            self.pending = Pending::Length(site, addr);
                        } else {
                            f(Event::Access(AccessEvent { site, addr, len: None }));
                        }
                    } else {
                        f(Event::Path(PathEvent { func: FuncIdx(hi), path: PathId(w & 0xffff_ffff) }));
                    }
                }
            }
        }
    }

    /// True when the words fed so far end inside a two-word event.
    pub fn is_mid_event(&self) -> bool {
        !matches!(self.pending, Pending::Nothing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wpp_test_support::Rng;

    /// Random mixes of path events (some two-word) and accesses (some bulk), encoded and
    /// fed in pieces split anywhere, decode to themselves.
    #[test]
    fn round_trip_across_splits() {
        let is_bulk = |site: u32| site % 7 == 3;
        for seed in 1..200u64 {
            let mut rng = Rng::new(seed);
            let mut events = Vec::new();
            let mut words = Vec::new();
            for _ in 0..rng.range(0, 60) {
                let e = if rng.chance(2) {
                    let path = if rng.chance(4) { rng.next() } else { rng.next() & 0xffff_ffff };
                    let e = PathEvent { func: FuncIdx(rng.below(1 << 20) as u32), path: PathId(path) };
                    e.encode(&mut words);
                    Event::Path(e)
                } else {
                    let site = if rng.chance(10) { MAX_SITE - rng.below(8) as u32 * 7 } else { rng.below(1000) as u32 };
                    let a = AccessEvent { site, addr: rng.next() as u32, len: is_bulk(site).then(|| rng.next()) };
                    a.encode(&mut words);
                    Event::Access(a)
                };
                events.push(e);
            }
            let mut cuts: Vec<usize> = (0..rng.range(0, 4)).map(|_| rng.range(0, words.len())).collect();
            cuts.sort_unstable();
            let mut d = EventDecoder::default();
            let mut got = Vec::new();
            let mut from = 0;
            for cut in cuts.into_iter().chain([words.len()]) {
                d.feed(&words[from..cut], is_bulk, |e| got.push(e));
                from = cut;
            }
            assert!(!d.is_mid_event(), "seed {seed}");
            assert_eq!(got, events, "seed {seed}");
        }
    }

    /// The largest site does not read as the escape of a two-word path event.
    #[test]
    fn the_largest_site_is_not_the_escape() {
        let mut words = Vec::new();
        AccessEvent { site: MAX_SITE, addr: 7, len: None }.encode(&mut words);
        assert_ne!((words[0] >> 32) as u32, ESCAPE_FUNC);
    }
}
