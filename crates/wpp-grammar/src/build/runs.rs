//! Runs of one symbol: the cheapest repetition in a sequence, and the first thing taken out
//! before a grammar builder sees it (a loop that takes the same path again and again).
//!
//! * [`RunLength`] turns a symbol stream into [`Token`]s, `(symbol, run)`;
//! * [`encode_token`] and [`Tokens`]: the tokens' byte form (LEB128 varints), which is
//!   how a recording keeps its symbol stream before the grammar is built;
//! * [`RunTerminals`] lets any grammar builder take tokens: a run of two or more symbols
//!   goes to the builder as one stand-in terminal, and [`RunTerminals::resolve`] replaces
//!   the stand-ins of the finished grammar by rules that derive the runs by doubling
//!   (`a⁴ → a² a²`, `a² → a a`, `a⁵ → a⁴ a`), shared between runs of one symbol.

use rustc_hash::FxHashMap;

use crate::{Grammar, RuleId, Rules, Sym, Terminal, MAX_TERMINAL};

/// More distinct symbols, runs or phrases arrived than a grammar builder has terminals for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrammarFull;

impl std::fmt::Display for GrammarFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "more distinct paths, runs and phrases than the {} terminals a grammar builder takes", MAX_TERMINAL as u64 + 1)
    }
}

impl std::error::Error for GrammarFull {}

/// `run` repetitions of `symbol` (`run ≥ 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    pub symbol: u32,
    pub run: u64,
}

/// Collapses runs of one symbol into tokens, online.
#[derive(Default, Clone, Debug)]
pub struct RunLength {
    current: Option<Token>,
}

impl RunLength {
    /// Appends `symbol`; returns the token it ended, if it started a new run.
    #[inline]
    pub fn push(&mut self, symbol: u32) -> Option<Token> {
        match &mut self.current {
            Some(t) if t.symbol == symbol => {
                t.run += 1;
                None
            }
            cur => cur.replace(Token { symbol, run: 1 }),
        }
    }

    /// The run still open, which ends the stream.
    pub fn finish(&mut self) -> Option<Token> {
        self.current.take()
    }

    /// Symbols pushed but not yet returned in a token.
    pub fn pending(&self) -> u64 {
        self.current.map_or(0, |t| t.run)
    }
}

/// Appends the byte form of `t`: `varint(symbol << 1 | (run > 1))`, then `varint(run − 2)`
/// when the run is longer than one.
#[inline]
pub fn encode_token(out: &mut Vec<u8>, t: Token) {
    debug_assert!(t.run >= 1);
    let long = t.run > 1;
    let head = (t.symbol as u64) << 1 | long as u64;
    // Bytes assembled in a register and appended as a block of constant length (without a
    // call of memcpy, and without narrow stores read back wide, which stall store
    // forwarding), then cut to length. The head's length takes no branch: whether a symbol
    // needs one byte or two is as good as random.
    let (h, n) = varint35(head);
    let len = out.len();
    if !long {
        out.extend_from_slice(&h.to_le_bytes());
        out.truncate(len + n as usize);
        return;
    }
    let mut acc = h as u128;
    let bits = put_varint_bits(&mut acc, 8 * n, t.run - 2);
    out.extend_from_slice(&acc.to_le_bytes());
    out.truncate(len + bits as usize / 8);
}

/// The varint of `v < 2^35` in the low bytes of the result, and its length in bytes,
/// without branches.
#[inline]
fn varint35(v: u64) -> (u64, u32) {
    debug_assert!(v < 1 << 35);
    let spread = (v & 0x7f) | (v << 1 & 0x7f00) | (v << 2 & 0x7f_0000) | (v << 3 & 0x7f00_0000) | (v << 4 & 0x7f_0000_0000);
    let n = (64 - (v | 1).leading_zeros()).div_ceil(7);
    let more = 0x80_8080_8080 & ((1u64 << (8 * (n - 1))) - 1);
    (spread | more, n)
}

/// Puts `v` as a varint into the little-endian bytes of `acc` from bit `at` (a multiple of
/// 8); returns the bit after it.
#[inline]
fn put_varint_bits(acc: &mut u128, mut at: u32, mut v: u64) -> u32 {
    while v >= 0x80 {
        *acc |= ((v as u8 | 0x80) as u128) << at;
        v >>= 7;
        at += 8;
    }
    *acc |= (v as u128) << at;
    at + 8
}

/// What is wrong with a token stream, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    pub offset: usize,
    pub what: &'static str,
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "symbol stream damaged at byte {}: {}", self.offset, self.what)
    }
}

impl std::error::Error for TokenError {}

/// Decodes the tokens of a byte string made by [`encode_token`]; never trusts it.
pub struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Tokens { bytes, pos: 0 }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    fn varint(&mut self) -> Result<u64, TokenError> {
        wpp_base::leb128::read(self.bytes, &mut self.pos).map_err(|e| TokenError { offset: self.pos, what: e.what() })
    }
}

impl Iterator for Tokens<'_> {
    type Item = Result<Token, TokenError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos == self.bytes.len() {
            return None;
        }
        let start = self.pos;
        Some((|| {
            let head = self.varint()?;
            let symbol = head >> 1;
            if symbol > MAX_TERMINAL as u64 {
                return Err(TokenError { offset: start, what: "a symbol is out of range" });
            }
            let run = if head & 1 == 1 { self.varint()?.checked_add(2).ok_or(TokenError { offset: start, what: "a run overflows 64 bits" })? } else { 1 };
            Ok(Token { symbol: symbol as u32, run })
        })())
    }
}

/// Dense terminals for tokens, so that a builder of plain symbols can take them.
///
/// Every distinct token gets the next builder terminal, in order of first appearance: a
/// token with a run of one stands for its symbol, a longer run `(a, k)` for a rule deriving
/// `a^k`. Builder terminals stay dense, as builders that index tables by terminal expect.
#[derive(Default, Debug)]
pub struct RunTerminals {
    /// Per symbol, the builder terminal of a run of one (`NONE` if not seen yet).
    single: Vec<u32>,
    /// The builder terminals of longer runs.
    runs: FxHashMap<(u32, u64), u32>,
    /// What each builder terminal stands for.
    meaning: Vec<Token>,
}

const NONE: u32 = u32::MAX;

impl RunTerminals {
    pub fn new() -> Self {
        RunTerminals::default()
    }

    /// The builder terminal of `t`; an error when there are more distinct tokens than
    /// terminals.
    #[inline]
    pub fn terminal(&mut self, t: Token) -> Result<u32, GrammarFull> {
        let next = self.meaning.len() as u32;
        let slot = if t.run == 1 {
            let i = t.symbol as usize;
            if i >= self.single.len() {
                self.single.resize(i + 1, NONE);
            }
            &mut self.single[i]
        } else {
            self.runs.entry((t.symbol, t.run)).or_insert(NONE)
        };
        if *slot == NONE {
            if next > MAX_TERMINAL {
                return Err(GrammarFull);
            }
            *slot = next;
            self.meaning.push(t);
        }
        Ok(*slot)
    }

    /// Distinct tokens seen.
    pub fn n_terminals(&self) -> usize {
        self.meaning.len()
    }

    /// Bytes of heap used.
    pub fn memory_bytes(&self) -> usize {
        self.single.capacity() * 4 + self.runs.capacity() * 24 + self.meaning.capacity() * 16
    }

    /// `g`, built over builder terminals, as a grammar over the real symbols: every long
    /// run becomes a rule. Doubling rules `a^(2^j)` are shared by all runs of `a`; a run
    /// whose length is a power of two is its doubling rule. Rules are then numbered
    /// breadth-first by first use ([`Grammar::renumber_by_first_use`]).
    pub fn resolve(self, mut g: Grammar) -> Grammar {
        if g.rules.is_empty() {
            return g;
        }
        let built = g.rules.len();
        // Per symbol, its doubling rules: doubling[a][j - 1] derives a^(2^j).
        let mut doubling: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        let mut power = |g: &mut Grammar, a: u32, j: u32| -> Sym {
            if j == 0 {
                return Sym::T(Terminal(a));
            }
            let d = doubling.entry(a).or_default();
            while d.len() < j as usize {
                let half = match d.last() {
                    Some(&r) => Sym::N(RuleId(r)),
                    None => Sym::T(Terminal(a)),
                };
                d.push(g.rules.len() as u32);
                g.rules.push(vec![half, half]);
            }
            Sym::N(RuleId(d[j as usize - 1]))
        };
        let mut stands_for = Vec::with_capacity(self.meaning.len());
        for &Token { symbol: a, run: k } in &self.meaning {
            let top = 63 - k.leading_zeros();
            if k.is_power_of_two() {
                stands_for.push(power(&mut g, a, top));
                continue;
            }
            let body: Vec<Sym> = (0..=top).rev().filter(|j| k >> j & 1 == 1).map(|j| power(&mut g, a, j)).collect();
            stands_for.push(Sym::N(RuleId(g.rules.len() as u32)));
            g.rules.push(body);
        }
        for r in 0..built {
            for s in g.rules[r].iter_mut() {
                if let Sym::T(Terminal(t)) = *s {
                    *s = stands_for[t as usize];
                }
            }
        }
        g.renumber_by_first_use();
        g
    }
}

/// The grammar a builder saw behind the run-length front end, recovered from a resolved
/// one: every rule deriving a run of one terminal (`a^k`, `k ≥ 1`) becomes a terminal of
/// its own standing for `(a, k)`, and a terminal `a` outside such rules stands for
/// `(a, 1)`. Returns that grammar (the start rule kept, other rules renumbered in order)
/// and what each of its terminals stands for. Its properties are the builder's: for
/// SEQUITUR, digram uniqueness and rule utility hold on it, while the resolved grammar's
/// doubling rules need not keep them.
pub fn collapse_run_rules(g: &Grammar) -> Result<(Grammar, Vec<Token>), crate::GrammarError> {
    if g.rules.is_empty() {
        return Ok((Grammar::default(), Vec::new()));
    }
    // Per rule, the run it derives, if it derives one.
    let mut run: Vec<Option<Token>> = vec![None; g.rules.len()];
    for RuleId(r) in g.topological_order()?.into_iter().rev() {
        let mut acc: Option<Token> = None;
        let mut is_run = true;
        for s in &g.rules[r as usize] {
            let piece = match *s {
                Sym::T(Terminal(a)) => Some(Token { symbol: a, run: 1 }),
                Sym::N(RuleId(x)) => run[x as usize],
            };
            match (piece, &mut acc) {
                (Some(p), None) => acc = Some(p),
                (Some(p), Some(a)) if a.symbol == p.symbol => a.run += p.run,
                _ => {
                    is_run = false;
                    break;
                }
            }
        }
        if is_run {
            run[r as usize] = acc;
        }
    }
    let mut index: Vec<Option<u32>> = vec![None; g.rules.len()];
    let kept: Vec<usize> = (0..g.rules.len()).filter(|&r| r == 0 || run[r].is_none()).collect();
    for (i, &r) in kept.iter().enumerate() {
        index[r] = Some(i as u32);
    }
    let mut terminal: FxHashMap<Token, u32> = FxHashMap::default();
    let mut meaning = Vec::new();
    let mut term = |t: Token| {
        *terminal.entry(t).or_insert_with(|| {
            meaning.push(t);
            meaning.len() as u32 - 1
        })
    };
    let mut rules = Rules::with_capacity(kept.len(), g.rules.symbols().len());
    for &r in &kept {
        rules.open();
        for &s in &g.rules[r] {
            rules.extend_last(match s {
                Sym::T(Terminal(a)) => Sym::T(Terminal(term(Token { symbol: a, run: 1 }))),
                Sym::N(RuleId(x)) => match run[x as usize] {
                    Some(t) => Sym::T(Terminal(term(t))),
                    None => Sym::N(RuleId(index[x as usize].expect("kept"))),
                },
            });
        }
    }
    Ok((Grammar::from(rules), meaning))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens_of(s: &[u32]) -> Vec<Token> {
        let mut rl = RunLength::default();
        let mut out: Vec<Token> = s.iter().filter_map(|&x| rl.push(x)).collect();
        out.extend(rl.finish());
        out
    }

    #[test]
    fn runs_collapse_and_round_trip_through_bytes() {
        let s = [3, 3, 3, 1, 2, 2, 3];
        let t = tokens_of(&s);
        assert_eq!(t.iter().map(|t| (t.symbol, t.run)).collect::<Vec<_>>(), [(3, 3), (1, 1), (2, 2), (3, 1)]);
        let mut bytes = Vec::new();
        for &x in &t {
            encode_token(&mut bytes, x);
        }
        assert_eq!(Tokens::new(&bytes).collect::<Result<Vec<_>, _>>().unwrap(), t);
        let big = Token { symbol: MAX_TERMINAL, run: u64::MAX };
        bytes.clear();
        encode_token(&mut bytes, big);
        assert_eq!(Tokens::new(&bytes).next().unwrap().unwrap(), big);
    }

    /// The branch-free varint is the plain one, at every length.
    #[test]
    fn varint35_is_the_varint() {
        for v in (0..35).flat_map(|b| [1u64 << b, (1u64 << b) - 1, (1u64 << b) + 1]).chain([0, (1 << 35) - 1]) {
            let (h, n) = varint35(v);
            let mut acc = 0;
            let bits = put_varint_bits(&mut acc, 0, v);
            assert_eq!((h as u128, n), (acc, bits / 8), "{v}");
        }
    }

    /// Every width of both numbers, one byte to the longest, reads back.
    #[test]
    fn tokens_of_every_width_read_back() {
        let mut bytes = Vec::new();
        let mut tokens = Vec::new();
        for symbol in [0, 1, 63, 64, 127, 128, 1 << 14, 1 << 21, MAX_TERMINAL] {
            for run in [1, 2, 3, 129, 1 << 14, 1 << 35, u64::MAX] {
                let t = Token { symbol, run };
                encode_token(&mut bytes, t);
                tokens.push(t);
            }
        }
        let back: Vec<Token> = Tokens::new(&bytes).map(|t| t.unwrap()).collect();
        assert_eq!(back, tokens);
    }

    #[test]
    fn damaged_streams_say_where() {
        assert_eq!(Tokens::new(&[0x80]).next().unwrap().unwrap_err().offset, 1);
        assert_eq!(Tokens::new(&[0x03]).next().unwrap().unwrap_err().what, "it ends inside a number");
        let huge = [0xff; 11];
        assert!(Tokens::new(&huge).next().unwrap().is_err());
        let mut acc = 0;
        let bits = put_varint_bits(&mut acc, 0, (MAX_TERMINAL as u64 + 1) << 1);
        let out_of_range = acc.to_le_bytes()[..bits as usize / 8].to_vec();
        assert_eq!(Tokens::new(&out_of_range).next().unwrap().unwrap_err().what, "a symbol is out of range");
    }

    #[test]
    fn tokens_resolve_to_doubling_rules() {
        let mut rt = RunTerminals::new();
        let seq = [Token { symbol: 0, run: 5 }, Token { symbol: 1, run: 1 }, Token { symbol: 0, run: 4 }, Token { symbol: 0, run: 5 }];
        let terms: Vec<u32> = seq.iter().map(|&t| rt.terminal(t).unwrap()).collect();
        assert_eq!(terms, [0, 1, 2, 0]);
        let g = Grammar::from(vec![terms.iter().map(|&t| Sym::T(Terminal(t))).collect()]);
        let g = rt.resolve(g);
        let expected: Vec<u32> = [0; 5].into_iter().chain([1]).chain([0; 4]).chain([0; 5]).collect();
        assert_eq!(g.expand().collect::<Vec<_>>(), expected);
        // a², a⁴ and the rule of a⁵; a⁴ is its doubling rule.
        assert_eq!(g.rules.len(), 4);
        g.validate(Some(2)).unwrap();
    }

    #[test]
    fn run_rules_collapse_back_to_tokens() {
        // a⁵ b a⁴ a⁵, resolved: a⁴ → a² a², a² → a a, a⁵ → a⁴ a.
        let mut rt = RunTerminals::new();
        let seq = [Token { symbol: 0, run: 5 }, Token { symbol: 1, run: 1 }, Token { symbol: 0, run: 4 }, Token { symbol: 0, run: 5 }];
        let terms: Vec<u32> = seq.iter().map(|&t| rt.terminal(t).unwrap()).collect();
        let g = rt.resolve(Grammar::from(vec![terms.iter().map(|&t| Sym::T(Terminal(t))).collect()]));
        let (c, meaning) = collapse_run_rules(&g).unwrap();
        assert_eq!(c.rules.len(), 1);
        let back: Vec<Token> = c.rules[0]
            .iter()
            .map(|s| match s {
                Sym::T(Terminal(t)) => meaning[*t as usize],
                Sym::N(_) => panic!("a rule left"),
            })
            .collect();
        assert_eq!(back, seq);
    }
}
