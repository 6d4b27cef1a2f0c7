//! The entropy coder of format version 2 (`v2`): rANS with static
//! frequency tables, in blocks.
//!
//! # Items
//!
//! The coder codes a sequence of *items*, each either a symbol of a frequency table or a
//! group of raw bits. A *frequency table* gives each symbol `s` of an alphabet `0..A` a
//! frequency `freq[s]`, the frequencies summing to `2^10` (or all 0: an *empty* table, in
//! which nothing can be coded: decoding a symbol of it is an error), and `cum[s]` = the sum
//! of the frequencies of the symbols below `s`. A raw group of `n` bits (`1 ≤ n ≤ 16`) is
//! coded as a symbol of frequency 1 and cumulative frequency equal to its value, out of a
//! total of `2^n`. A *raw n-bit number* (`0 ≤ n ≤ 32`) is nothing if `n = 0`, one group of
//! `n` bits if `n ≤ 16`, and otherwise a group of its high `n - 16` bits followed by a group
//! of its low 16 bits. A *number below `m`* (`m ≥ 1`) is nothing if `m = 1`, a raw
//! `bits(m - 1)`-bit number if `m > 2^16` (a value `≥ m` is an error), and otherwise one
//! raw group in the truncated binary code: with `k = bits(m) - 1` and `u = 2^(k+1) - m`, a
//! number `v < u` is a group of `k` bits holding `v`, and a number `v ≥ u` a group of
//! `k + 1` bits holding `w = (v + u) div 2` in its low `k` bits and `(v + u) mod 2` above
//! them; the decoder tells them apart by the low `k` bits of its state, which are below `u`
//! only in the first case. (`bits(v)` is the number of binary digits of `v`, 0 for 0.)
//!
//! # Blocks
//!
//! A stream of items is cut into blocks of [`BLOCK_ITEMS`] items; the last block holds the
//! rest (a stream of no items is one empty block). Each block is coded on its own:
//!
//! ```text
//! u64 LE  the state x the decoder starts the block with, 2^31 ≤ x < 2^63
//! u32 LE  ... the words the decoder reads while decoding the block, in order
//! ```
//!
//! To decode an item with total `2^k` (`k` = 10 for a table symbol, `n` for a raw group):
//! `slot = x mod 2^k`; the item is the symbol `s` with `cum[s] ≤ slot < cum[s] + freq[s]`
//! (a raw group: `s = slot`, `freq = 1`, `cum = slot`); `x = freq[s] × (x >> k) + slot -
//! cum[s]`; then, if `x < 2^31`, `x = (x << 32) | next word`. A block must end with
//! `x = 2^31`, the state the encoder starts each block in. Words past the end of the input
//! read as 0; a decoder that read any is decoding a truncated input.
//!
//! # Table codes
//!
//! A frequency table is sent as raw numbers: 1 bit, 0 for an empty table; if 1, its length
//! `A` (6 bits, `A ≤ 63`), then for each symbol 1 bit, and if it is 1 the symbol's code
//! `q` (6 bits; a symbol whose bit is 0 has code 0). Code 0 stands for the count 0, code
//! `q ≥ 1` for the count `(4 + (q - 1) mod 4) × 2^((q - 1) div 4)` (four steps an octave).
//! With `c[s]` the counts and `T` their sum, the table is empty if `T = 0`; otherwise
//! `freq[s] = 0` if `c[s] = 0`, else `max(1, floor(c[s] × 2^10 / T))`; then, while the
//! frequencies sum to more than `2^10`, the first symbol with the largest frequency loses 1,
//! and if they sum to less, the first symbol with the largest frequency gains the
//! difference.

use super::format::{bits_for, GrammarDecodeError, Result};

/// Items in a block.
pub(crate) const BLOCK_ITEMS: usize = 1 << 16;

/// Table frequencies sum to `2^SCALE_BITS`.
const SCALE_BITS: u32 = 10;
const SCALE: u32 = 1 << SCALE_BITS;
/// The lower bound of the state, and the state every block starts and ends with.
const LOW: u64 = 1 << 31;
/// The widest raw group.
const MAX_GROUP_BITS: u32 = 16;
/// Bits of a table length and of a table code.
const CODE_BITS: u32 = 6;
/// The longest alphabet a table can have.
pub(crate) const MAX_ALPHABET: usize = (1 << CODE_BITS) - 1;

/// A static frequency table (see the module docs).
pub(crate) struct Table {
    freq: Vec<u16>,
    cum: Vec<u16>,
    /// For decoding: the symbol of each slot, and each symbol's `freq | cum << 16`; empty
    /// when encoding or when the table is empty.
    slots: Vec<u8>,
    freq_cum: Vec<u32>,
}

/// The count table code `q` stands for.
fn code_count(q: u8) -> u64 {
    match q {
        0 => 0,
        q => (4 + (q as u64 - 1) % 4) << ((q as u64 - 1) / 4),
    }
}

impl Table {
    /// The table of the given codes, with its slots for decoding if `decode`.
    fn from_codes(codes: &[u8], decode: bool) -> Table {
        let counts: Vec<u64> = codes.iter().map(|&q| code_count(q)).collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return Table { freq: vec![0; codes.len()], cum: vec![0; codes.len()], slots: Vec::new(), freq_cum: Vec::new() };
        }
        let mut freq: Vec<u32> = counts.iter().map(|&c| if c == 0 { 0 } else { (c * SCALE as u64 / total).max(1) as u32 }).collect();
        // The first symbol with the largest frequency; while the sum is above the scale,
        // some frequency is at least 2 (there are fewer than 2^10 symbols).
        let largest = |freq: &[u32]| (0..freq.len()).rev().max_by_key(|&s| freq[s]).expect("a table with a count has a symbol");
        let mut sum: u32 = freq.iter().sum();
        while sum > SCALE {
            let s = largest(&freq);
            freq[s] -= 1;
            sum -= 1;
        }
        let s = largest(&freq);
        freq[s] += SCALE - sum;
        let mut cum = Vec::with_capacity(freq.len());
        let mut slots = Vec::with_capacity(if decode { SCALE as usize } else { 0 });
        let mut c = 0;
        for (s, &f) in freq.iter().enumerate() {
            cum.push(c as u16);
            if decode {
                slots.resize(slots.len() + f as usize, s as u8);
            }
            c += f;
        }
        let freq_cum = if decode { freq.iter().zip(&cum).map(|(&f, &c)| f | (c as u32) << 16).collect() } else { Vec::new() };
        Table { freq: freq.iter().map(|&f| f as u16).collect(), cum, slots, freq_cum }
    }

    /// The codes of a table for symbols counted `counts` times, and the table they give.
    /// At most [`MAX_ALPHABET`] counts.
    pub(crate) fn for_counts(counts: &[u64]) -> (Vec<u8>, Table) {
        assert!(counts.len() <= MAX_ALPHABET);
        let len = counts.iter().rposition(|&c| c > 0).map_or(0, |s| s + 1);
        let max = counts.iter().copied().max().unwrap_or(0);
        // Scale the counts to at most 2^15, so that four times them is within the codes.
        let shift = (u64::BITS - max.leading_zeros()).saturating_sub(15);
        let codes: Vec<u8> = counts[..len]
            .iter()
            .map(|&c| match c {
                0 => 0,
                c => {
                    let target = (4 * (c >> shift).max(1)) as f64;
                    (1..=MAX_ALPHABET as u8)
                        .min_by(|&a, &b| (code_count(a) as f64 / target).ln().abs().total_cmp(&(code_count(b) as f64 / target).ln().abs()))
                        .expect("codes exist")
                }
            })
            .collect();
        let table = Table::from_codes(&codes, false);
        (codes, table)
    }
}

/// A number `value` below `m` (see the module docs) as the raw number that codes it: its
/// width in bits and its bits.
pub(crate) fn below_as_raw(m: u64, value: u64) -> (u32, u32) {
    debug_assert!(value < m);
    if m > 1 << MAX_GROUP_BITS {
        (bits_for(m - 1), value as u32)
    } else if m > 1 {
        let (k, u) = truncated(m);
        if value < u {
            (k, value as u32)
        } else {
            let v = (value + u) >> 1;
            (k + 1, (v | ((value + u) & 1) << k) as u32)
        }
    } else {
        (0, 0)
    }
}

/// The truncated binary code of numbers below `m ≥ 1`: `k = bits(m) - 1` and
/// `u = 2^(k+1) - m` (see the module docs).
fn truncated(m: u64) -> (u32, u64) {
    let k = bits_for(m) - 1;
    (k, (2 << k) - m)
}

#[derive(Clone, Copy)]
struct Item {
    cum: u16,
    freq: u16,
    bits: u8,
}

/// Codes items into blocks; each block is coded backwards when it is full.
pub(crate) struct RansEncoder {
    out: Vec<u8>,
    block: Vec<Item>,
    words: Vec<u32>,
}

impl RansEncoder {
    pub(crate) fn new() -> Self {
        RansEncoder { out: Vec::new(), block: Vec::with_capacity(BLOCK_ITEMS), words: Vec::new() }
    }

    fn push(&mut self, item: Item) {
        self.block.push(item);
        if self.block.len() == BLOCK_ITEMS {
            self.flush();
        }
    }

    /// Codes symbol `s` of `table`, which must give it a frequency.
    pub(crate) fn symbol(&mut self, table: &Table, s: usize) {
        let freq = table.freq[s];
        assert!(freq > 0, "symbol {s} has no frequency in its table");
        self.push(Item { cum: table.cum[s], freq, bits: SCALE_BITS as u8 });
    }

    /// Codes `value` as a raw `bits`-bit number (`bits ≤ 32`).
    pub(crate) fn raw(&mut self, bits: u32, value: u32) {
        debug_assert!(bits == 32 || value >> bits == 0);
        if bits > MAX_GROUP_BITS {
            self.push(Item { cum: (value >> MAX_GROUP_BITS) as u16, freq: 1, bits: (bits - MAX_GROUP_BITS) as u8 });
            self.push(Item { cum: value as u16, freq: 1, bits: MAX_GROUP_BITS as u8 });
        } else if bits > 0 {
            self.push(Item { cum: value as u16, freq: 1, bits: bits as u8 });
        }
    }

    /// Sends a table by its codes.
    pub(crate) fn table(&mut self, codes: &[u8]) {
        self.raw(1, !codes.is_empty() as u32);
        if !codes.is_empty() {
            self.raw(CODE_BITS, codes.len() as u32);
            for &q in codes {
                self.raw(1, (q != 0) as u32);
                if q != 0 {
                    self.raw(CODE_BITS, q as u32);
                }
            }
        }
    }

    fn flush(&mut self) {
        let mut x = LOW;
        self.words.clear();
        for item in self.block.drain(..).rev() {
            let freq = item.freq as u64;
            if x >= ((LOW >> item.bits) << 32) * freq {
                self.words.push(x as u32);
                x >>= 32;
            }
            x = ((x / freq) << item.bits) + x % freq + item.cum as u64;
        }
        self.out.extend_from_slice(&x.to_le_bytes());
        for w in self.words.iter().rev() {
            self.out.extend_from_slice(&w.to_le_bytes());
        }
    }

    /// The output with every item coded.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if !self.block.is_empty() || self.out.is_empty() {
            self.flush();
        }
        self.out
    }
}

/// Decodes items from `input`; reads past its end as zeros, and tells it has done so.
pub(crate) struct RansDecoder<'a> {
    x: u64,
    input: &'a [u8],
    /// The next byte to read, past the end of `input` if zeros were read.
    pos: usize,
    /// Items left in the current block.
    left: usize,
}

impl<'a> RansDecoder<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Result<Self> {
        let mut d = RansDecoder { x: 0, input, pos: 0, left: 0 };
        d.start_block()?;
        Ok(d)
    }

    fn start_block(&mut self) -> Result<()> {
        self.x = self.word() as u64 | (self.word() as u64) << 32;
        if self.overran() {
            return Err(GrammarDecodeError::Truncated);
        }
        if !(LOW..1 << 63).contains(&self.x) {
            return Err(GrammarDecodeError::Corrupt("a rANS block starts with a state out of range"));
        }
        self.left = BLOCK_ITEMS;
        Ok(())
    }

    #[inline(always)]
    fn word(&mut self) -> u32 {
        let w = self.peek_word();
        self.pos += 4;
        w
    }

    /// The word at `pos`.
    #[inline(always)]
    fn peek_word(&self) -> u32 {
        match self.input.get(self.pos..self.pos + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => {
                let mut b = [0u8; 4];
                for (i, v) in b.iter_mut().enumerate() {
                    *v = self.input.get(self.pos + i).copied().unwrap_or(0);
                }
                u32::from_le_bytes(b)
            }
        }
    }

    #[inline(always)]
    fn next_item(&mut self) -> Result<()> {
        if self.left == 0 {
            if self.x != LOW {
                return Err(GrammarDecodeError::Corrupt("a rANS block does not end in the initial state"));
            }
            self.start_block()?;
        }
        self.left -= 1;
        Ok(())
    }

    #[inline(always)]
    fn renormalize(&mut self) {
        // Without a branch: the next word is read either way, and taken if the state is low.
        let low = self.x < LOW;
        let w = self.peek_word();
        self.x = if low { self.x << 32 | w as u64 } else { self.x };
        self.pos += 4 * low as usize;
    }

    /// Decodes a symbol of `table`.
    #[inline(always)]
    pub(crate) fn symbol(&mut self, table: &Table) -> Result<usize> {
        self.next_item()?;
        if table.slots.is_empty() {
            return Err(GrammarDecodeError::Corrupt("a symbol is coded in a context whose frequency table is empty"));
        }
        let slot = (self.x & (SCALE as u64 - 1)) as usize;
        let s = table.slots[slot] as usize;
        let fc = table.freq_cum[s];
        self.x = (fc & 0xffff) as u64 * (self.x >> SCALE_BITS) + slot as u64 - (fc >> 16) as u64;
        self.renormalize();
        Ok(s)
    }

    #[inline(always)]
    fn group(&mut self, bits: u32) -> Result<u32> {
        self.next_item()?;
        let v = (self.x & ((1 << bits) - 1)) as u32;
        self.x >>= bits;
        self.renormalize();
        Ok(v)
    }

    /// Decodes a raw `bits`-bit number (`bits ≤ 32`).
    #[inline(always)]
    pub(crate) fn raw(&mut self, bits: u32) -> Result<u32> {
        if bits > MAX_GROUP_BITS {
            let high = self.group(bits - MAX_GROUP_BITS)?;
            Ok(high << MAX_GROUP_BITS | self.group(MAX_GROUP_BITS)?)
        } else if bits > 0 {
            self.group(bits)
        } else {
            Ok(0)
        }
    }

    /// Decodes a number below `m`, as the module docs say.
    #[inline(always)]
    pub(crate) fn below(&mut self, m: u64) -> Result<u64> {
        if m > 1 << MAX_GROUP_BITS {
            let v = self.raw(bits_for(m - 1))? as u64;
            if v >= m {
                return Err(GrammarDecodeError::Corrupt("a number is not below its bound"));
            }
            return Ok(v);
        }
        if m <= 1 {
            return Ok(0);
        }
        self.next_item()?;
        let (k, u) = truncated(m);
        let v = self.x & ((1 << k) - 1);
        let long = v >= u;
        let value = if long { 2 * v + (self.x >> k & 1) - u } else { v };
        self.x >>= k + long as u32;
        self.renormalize();
        Ok(value)
    }

    /// Reads a table of at most `max_len` symbols.
    pub(crate) fn table(&mut self, max_len: usize) -> Result<Table> {
        let len = if self.raw(1)? == 1 { self.raw(CODE_BITS)? as usize } else { 0 };
        if len > max_len {
            return Err(GrammarDecodeError::Corrupt("a frequency table is longer than its alphabet"));
        }
        let mut codes = Vec::with_capacity(len);
        for _ in 0..len {
            codes.push(if self.raw(1)? == 1 { self.raw(CODE_BITS)? as u8 } else { 0 });
        }
        Ok(Table::from_codes(&codes, true))
    }

    /// Whether the decoder has read past the end of its input.
    pub(crate) fn overran(&self) -> bool {
        self.pos > self.input.len()
    }

    /// Checks that the last block ends in the initial state; returns the length of the
    /// stream in bytes.
    pub(crate) fn finish(self) -> Result<usize> {
        if self.overran() {
            return Err(GrammarDecodeError::Truncated);
        }
        if self.x != LOW {
            return Err(GrammarDecodeError::Corrupt("the last rANS block does not end in the initial state"));
        }
        Ok(self.pos)
    }
}
