//! What every version of the grammar format shares: the header, the definition order of
//! the rules, their numbering, the errors, and the helpers both coders use. The coders are
//! `v1` and `v2`; the module above them is the public face.
//!
//! # Header
//!
//! ```text
//! u8      version
//! varint  n_terminals   (at most 2^32 - 1; every terminal is below it)
//! varint  n_rules       (0 only for the grammar with no rules, which has 0 symbols)
//! varint  n_symbols     (symbols on all right sides; n_rules <= n_symbols + 1)
//! ```
//!
//! and, if `n_rules > 0`:
//!
//! ```text
//! u8      numbering: 0 = canonical, 1 = explicit (see "Numbering")
//! ...     the coded grammar, as the version says
//! ...     zero bytes, so that the whole encoding is at least ceil(n_symbols / 16) bytes long
//! ```
//!
//! Varints are LEB128: 7 bits per byte, least significant group first, the high bit set
//! on every byte but the last; at most 10 bytes and at most 64 bits. A decoder rejects an
//! encoding with `n_symbols > 16 × (total length in bytes)`: the padding makes every
//! encoding meet that bound, so the decoder's allocations are linear in its input. Only
//! zero bytes may follow the coded grammar.
//!
//! # Definition order
//!
//! Rules are written in *definition order*, depth-first: a rule is defined, its body
//! inline, where it is first used; later uses refer to it. Rule 0 is written first; then,
//! while rules are left, the lowest-numbered rule not yet written is written the same way
//! (a rule no one reaches from rule 0). The decoder numbers the rules `0, 1, 2, ...` in the
//! order their definitions begin. A reference can only name a rule whose definition has
//! ended, so a decoded grammar is acyclic by construction. The decoder counts symbols and
//! rules as it goes and stops at the first that exceeds `n_symbols` or `n_rules`; at the
//! end both must match exactly.
//!
//! # Numbering
//!
//! The *canonical numbering* of rules in definition order numbers rule 0 as 0, then the
//! rules in order of first use, breadth-first: scanning the bodies of the rules numbered
//! so far, in their number order, left to right, each rule not yet numbered gets the next
//! number. If rules remain, the first of them in definition order gets the next number and
//! the search goes on from it. This is the numbering [`crate::Sequitur`] produces, so its
//! grammars have numbering flag 0. With flag 1, the coded grammar ends with, for each rule
//! in definition order, its number as a `w`-bit number, `w` the number of binary digits of
//! `n_rules - 1` (0 when there is one rule); the numbers must be a permutation of
//! `0..n_rules` that maps rule 0 to 0.

use crate::{Grammar, RuleId, Rules, Sym, Terminal};

/// The format version [`crate::encode_grammar`] writes, the first byte of every encoding.
pub const GRAMMAR_FORMAT_VERSION: u8 = 2;

/// A decoder rejects an encoding that declares more symbols than this many per byte; the
/// encoder pads with zero bytes to stay within it.
pub const MAX_SYMBOLS_PER_BYTE: u64 = 16;

/// Why a byte string is not an encoded grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrammarDecodeError {
    /// The first byte names a format this decoder does not know.
    UnsupportedVersion(u8),
    /// The input ends before the grammar does.
    Truncated,
    /// The header declares more symbols than the input's length allows.
    TooLarge { symbols: u64, bytes: usize },
    /// The input is not a consistent encoding.
    Corrupt(&'static str),
}

impl std::fmt::Display for GrammarDecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GrammarDecodeError::UnsupportedVersion(v) => {
                write!(f, "grammar format version {v} is not supported (this build reads versions 1 to {GRAMMAR_FORMAT_VERSION})")
            }
            GrammarDecodeError::Truncated => write!(f, "the encoded grammar is truncated"),
            GrammarDecodeError::TooLarge { symbols, bytes } => {
                write!(f, "the encoded grammar declares {symbols} symbols in {bytes} bytes, more than {MAX_SYMBOLS_PER_BYTE} per byte")
            }
            GrammarDecodeError::Corrupt(what) => write!(f, "the encoded grammar is corrupt: {what}"),
        }
    }
}

impl std::error::Error for GrammarDecodeError {}

pub(crate) type Result<T> = std::result::Result<T, GrammarDecodeError>;

/// How the rules are numbered (the numbering byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Numbering {
    Canonical = 0,
    Explicit = 1,
}

/// The header of an encoding with at least one rule, checked against the input's length.
#[derive(Clone, Copy)]
pub(crate) struct Header {
    pub n_terminals: u32,
    pub n_rules: usize,
    pub n_symbols: usize,
    pub numbering: Numbering,
    /// Offset of the coded grammar, just after the numbering byte.
    pub body: usize,
}

impl Header {
    /// Writes the header of `g` (with the numbering byte when it has rules).
    pub fn write(version: u8, g: &Grammar, n_terminals: u32, numbering: Numbering) -> Vec<u8> {
        let mut out = vec![version];
        put_varint(&mut out, n_terminals as u64);
        put_varint(&mut out, g.rules.len() as u64);
        put_varint(&mut out, g.n_symbols() as u64);
        if !g.rules.is_empty() {
            out.push(numbering as u8);
        }
        out
    }

    /// Reads the header after the version byte; `None` for the grammar with no rules.
    pub(crate) fn read(bytes: &[u8]) -> Result<Option<Header>> {
        let mut pos = 1;
        let n_terminals = get_varint(bytes, &mut pos)?;
        let n_rules = get_varint(bytes, &mut pos)?;
        let n_symbols = get_varint(bytes, &mut pos)?;
        if n_terminals > u32::MAX as u64 {
            return Err(GrammarDecodeError::Corrupt("more than 2^32 - 1 terminals"));
        }
        if n_symbols > MAX_SYMBOLS_PER_BYTE.saturating_mul(bytes.len() as u64) {
            return Err(GrammarDecodeError::TooLarge { symbols: n_symbols, bytes: bytes.len() });
        }
        if n_rules == 0 {
            if n_symbols != 0 || pos != bytes.len() {
                return Err(GrammarDecodeError::Corrupt("a grammar without rules holds something"));
            }
            return Ok(None);
        }
        if n_rules > n_symbols + 1 {
            return Err(GrammarDecodeError::Corrupt("more rules than symbols allow"));
        }
        let numbering = match *bytes.get(pos).ok_or(GrammarDecodeError::Truncated)? {
            0 => Numbering::Canonical,
            1 => Numbering::Explicit,
            _ => return Err(GrammarDecodeError::Corrupt("unknown numbering")),
        };
        Ok(Some(Header { n_terminals: n_terminals as u32, n_rules: n_rules as usize, n_symbols: n_symbols as usize, numbering, body: pos + 1 }))
    }
}

/// Pads an encoding of `n_symbols` symbols with zero bytes to the length
/// [`MAX_SYMBOLS_PER_BYTE`] asks for.
pub(crate) fn pad(out: &mut Vec<u8>, n_symbols: usize) {
    let min_len = (n_symbols as u64).div_ceil(MAX_SYMBOLS_PER_BYTE) as usize;
    if out.len() < min_len {
        out.resize(min_len, 0);
    }
}

/// Checks that `g` is a valid grammar over `0..n_terminals` as far as one pass over its
/// bodies can (cycles are found while encoding).
///
/// # Panics
///
/// If a rule other than rule 0 is empty, a reference is out of range, or a terminal is
/// not below `n_terminals`.
pub(crate) fn assert_encodable(g: &Grammar, n_terminals: u32) {
    let n_rules = g.rules.len();
    for (r, body) in g.rules.iter().enumerate() {
        assert!(r == 0 || !body.is_empty(), "rule {r} is empty");
        for &s in body {
            match s {
                Sym::T(Terminal(t)) => assert!(t < n_terminals, "rule {r} holds terminal {t}, not below {n_terminals}"),
                Sym::N(RuleId(x)) => assert!((x as usize) < n_rules, "rule {r} refers to rule {x}, which does not exist"),
            }
        }
    }
}

/// Whether `definition_order` (the input numbers of the rules in definition order) is the
/// canonical numbering of `g`'s rules.
pub(crate) fn numbering_of(g: &Grammar, definition_order: &[usize]) -> Numbering {
    let canonical = canonical_numbering(&g.rules, definition_order.iter().copied());
    if canonical.iter().enumerate().all(|(r, &n)| n as usize == r) {
        Numbering::Canonical
    } else {
        Numbering::Explicit
    }
}

/// The grammar whose rules are `rules` (in definition order, referring to each other by
/// definition index) under the numbering `num` (definition index to rule number).
pub(crate) fn renumber(rules: &Rules, num: &[u32]) -> Grammar {
    let mut order = vec![0u32; rules.len()];
    for (d, &x) in num.iter().enumerate() {
        order[x as usize] = d as u32;
    }
    Grammar { rules: reorder(rules, &order, num) }
}

/// The rules `order[0], order[1], ...` of `rules`, their references rewritten by `num`.
fn reorder(rules: &Rules, order: &[u32], num: &[u32]) -> Rules {
    let mut out = Rules::with_capacity(rules.len(), rules.symbols().len());
    for &d in order {
        out.push(rules[d as usize].iter().map(|&s| match s {
            Sym::N(RuleId(x)) => Sym::N(RuleId(num[x as usize])),
            t => t,
        }));
    }
    out
}

/// The grammar whose rules are `rules` (in definition order, referring to each other by
/// definition index) under the canonical numbering: [`canonical_numbering`] and
/// [`renumber`] in one breadth-first pass that numbers each rule and copies its body.
pub(crate) fn renumber_canonical(rules: &Rules) -> Grammar {
    let n = rules.len();
    let mut num = vec![NONE; n];
    let mut out = Rules::with_capacity(n, rules.symbols().len());
    // The definition index of each rule number.
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut head = 0;
    for root in 0..n {
        if num[root] != NONE {
            continue;
        }
        num[root] = order.len() as u32;
        order.push(root);
        while head < order.len() {
            let r = order[head];
            head += 1;
            out.push(rules[r].iter().map(|&s| match s {
                Sym::N(RuleId(x)) => {
                    let d = x as usize;
                    if num[d] == NONE {
                        num[d] = order.len() as u32;
                        order.push(d);
                    }
                    Sym::N(RuleId(num[d]))
                }
                t => t,
            }));
        }
    }
    Grammar { rules: out }
}

/// Checks that `num` (rule numbers in definition order) is a permutation of
/// `0..num.len()` that maps rule 0 to 0.
pub(crate) fn check_explicit_numbering(num: &[u32]) -> Result<()> {
    let mut taken = vec![false; num.len()];
    for (d, &x) in num.iter().enumerate() {
        let x = x as usize;
        if x >= num.len() || taken[x] || (d == 0) != (x == 0) {
            return Err(GrammarDecodeError::Corrupt("the rule numbering is not a permutation fixing rule 0"));
        }
        taken[x] = true;
    }
    Ok(())
}

pub(crate) use wpp_base::leb128::write as put_varint;

pub(crate) fn get_varint(bytes: &[u8], pos: &mut usize) -> Result<u64> {
    wpp_base::leb128::read(bytes, pos).map_err(|e| match e {
        wpp_base::leb128::Error::Truncated => GrammarDecodeError::Truncated,
        wpp_base::leb128::Error::Overflow => GrammarDecodeError::Corrupt("a number overflows 64 bits"),
    })
}

/// Marks an unset rule or terminal number.
pub(crate) const NONE: u32 = u32::MAX;

/// The canonical numbering (see the module docs): breadth-first by first use from rule 0,
/// then from each rule of `roots` not yet numbered, in that order.
pub(crate) fn canonical_numbering(rules: &Rules, roots: impl Iterator<Item = usize>) -> Vec<u32> {
    let mut num = vec![NONE; rules.len()];
    let mut queue: Vec<usize> = Vec::with_capacity(rules.len());
    let mut head = 0;
    for root in std::iter::once(0).chain(roots) {
        if num[root] != NONE {
            continue;
        }
        num[root] = queue.len() as u32;
        queue.push(root);
        while head < queue.len() {
            let r = queue[head];
            head += 1;
            for s in &rules[r] {
                if let Sym::N(RuleId(x)) = *s {
                    if num[x as usize] == NONE {
                        num[x as usize] = queue.len() as u32;
                        queue.push(x as usize);
                    }
                }
            }
        }
    }
    num
}

/// Number of binary digits of `max` (0 for 0).
pub(crate) fn bits_for(max: u64) -> u32 {
    u64::BITS - max.leading_zeros()
}
