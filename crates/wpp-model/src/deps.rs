//! Memory dependences, stated once.
//!
//! A load instance depends, for each byte it reads, on the write instance that last wrote
//! that byte before it: a store, a bulk write (`memory.fill`, `memory.copy`,
//! `memory.init`), a host write (an import that fills guest memory, as WASI `fd_read`
//! does), or, for a byte nothing wrote during the run, the module's initial memory (a
//! data segment or zero). A load can depend on several write instances; a write that
//! covers part of a load counts for the bytes it covers. Locals, the operand stack and
//! globals are registers: their dependences follow from the control flow alone.
//!
//! [`Shadow`] keeps the last writer of every byte of one linear memory; a filtering run,
//! the tests' direct log and the recovery from an address trace all answer through it.

/// A write instance: the `n`th write of the run (1-based), in the order the writes ran;
/// [`INITIAL`] for the module's initial memory.
pub type WriteId = u64;

/// The writer of a byte nothing wrote during the run.
pub const INITIAL: WriteId = 0;

/// Bytes per page of the shadow (a power of two).
const PAGE: u64 = 1 << 12;

/// The last writer of every byte of a linear memory, kept for the pages written.
#[derive(Clone, Debug, Default)]
pub struct Shadow {
    pages: Vec<Option<Box<[WriteId]>>>,
}

/// The bytes `start .. start + len` of a load were last written by `write`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u64,
    pub len: u64,
    pub write: WriteId,
}

impl Shadow {
    /// Records that write `write` wrote bytes `addr .. addr + len`.
    pub fn write(&mut self, addr: u64, len: u64, write: WriteId) {
        let mut at = addr;
        let end = addr.saturating_add(len);
        while at < end {
            let page = (at / PAGE) as usize;
            let lo = (at % PAGE) as usize;
            let hi = (end - page as u64 * PAGE).min(PAGE) as usize;
            if page >= self.pages.len() {
                self.pages.resize_with(page + 1, || None);
            }
            let p = self.pages[page].get_or_insert_with(|| vec![INITIAL; PAGE as usize].into_boxed_slice());
            p[lo..hi].fill(write);
            at = page as u64 * PAGE + hi as u64;
        }
    }

    /// The last writer of the byte at `addr`.
    pub fn writer(&self, addr: u64) -> WriteId {
        match self.pages.get((addr / PAGE) as usize) {
            Some(Some(p)) => p[(addr % PAGE) as usize],
            _ => INITIAL,
        }
    }

    /// The writers of the bytes `addr .. addr + len` a load reads, as maximal spans of one
    /// writer, in address order.
    pub fn read(&self, addr: u64, len: u64, mut f: impl FnMut(Span)) {
        let end = addr.saturating_add(len);
        let mut span: Option<Span> = None;
        for at in addr..end {
            let w = self.writer(at);
            match &mut span {
                Some(s) if s.write == w => s.len += 1,
                _ => {
                    if let Some(s) = span.take() {
                        f(s);
                    }
                    span = Some(Span { start: at, len: 1, write: w });
                }
            }
        }
        if let Some(s) = span {
            f(s);
        }
    }

    /// The distinct writers of the bytes `addr .. addr + len`, each once, in the order
    /// their bytes first appear.
    pub fn writers(&self, addr: u64, len: u64) -> Vec<WriteId> {
        let mut out: Vec<WriteId> = Vec::new();
        self.read(addr, len, |s| {
            if !out.contains(&s.write) {
                out.push(s.write);
            }
        });
        out
    }

    /// Bytes the shadow holds (its pages), for memory accounting.
    pub fn memory_bytes(&self) -> usize {
        self.pages.iter().flatten().count() * PAGE as usize * std::mem::size_of::<WriteId>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use wpp_test_support::Rng;

    /// A byte-by-byte map, the obviously correct shadow.
    #[derive(Default)]
    struct Naive(HashMap<u64, WriteId>);

    impl Naive {
        fn write(&mut self, addr: u64, len: u64, w: WriteId) {
            for a in addr..addr + len {
                self.0.insert(a, w);
            }
        }
        fn read(&self, addr: u64, len: u64) -> Vec<Span> {
            let mut out: Vec<Span> = Vec::new();
            for a in addr..addr + len {
                let w = self.0.get(&a).copied().unwrap_or(INITIAL);
                match out.last_mut() {
                    Some(s) if s.write == w => s.len += 1,
                    _ => out.push(Span { start: a, len: 1, write: w }),
                }
            }
            out
        }
    }

    /// Random writes and reads, across page boundaries, partial overlaps and bulk writes
    /// included, answer as the byte map does.
    #[test]
    fn agrees_with_a_byte_map() {
        for seed in 1..60u64 {
            let mut rng = Rng::new(seed);
            let (mut shadow, mut naive) = (Shadow::default(), Naive::default());
            let span = [64, 5000, 70_000][seed as usize % 3];
            for i in 1..400u64 {
                let addr = rng.below(span) as u64;
                let len = [1, 2, 4, 8, 3, 100, 9000][rng.below(7)];
                if rng.below(3) == 0 {
                    assert_eq!(
                        {
                            let mut v = Vec::new();
                            shadow.read(addr, len, |s| v.push(s));
                            v
                        },
                        naive.read(addr, len),
                        "seed {seed}, read {i} at {addr} of {len}"
                    );
                } else {
                    shadow.write(addr, len, i);
                    naive.write(addr, len, i);
                }
            }
        }
    }

    /// A load that straddles two stores depends on both, each for its bytes; bytes never
    /// written are the initial memory's.
    #[test]
    fn partial_overlaps() {
        let mut s = Shadow::default();
        s.write(100, 4, 1);
        s.write(102, 4, 2);
        let mut spans = Vec::new();
        s.read(98, 10, |x| spans.push(x));
        assert_eq!(
            spans,
            [
                Span { start: 98, len: 2, write: INITIAL },
                Span { start: 100, len: 2, write: 1 },
                Span { start: 102, len: 4, write: 2 },
                Span { start: 106, len: 2, write: INITIAL }
            ]
        );
        assert_eq!(s.writers(98, 10), [INITIAL, 1, 2]);
        assert_eq!(s.memory_bytes(), PAGE as usize * 8);
    }
}
