//! Who called a function, kept beside its part in a TWPP file, so that one function's
//! traces and callers are read without the call graph: for each of its distinct traces
//! (pairs), how many of the invocations that followed it each caller made; and the order of
//! its invocations (which pair each followed and who made it), compressed by SEQUITUR(1),
//! from which the `n`-th invocation is found by descending the grammar by rule lengths.
//!
//! ```text
//! callers   := n_callers caller* n_pairs (n (caller_pos count)*)* n_invocations
//!              n_symbols symbol* order
//! order     := 0 position*  (each invocation's symbol, as a position in the list), or
//!              1 grammar    (the same compressed), whichever is smaller
//! caller    := 0 for the host, or the function's index + 1
//! symbol    := pair * n_callers + caller_pos, ascending; the grammar's terminals are
//!              positions in this list
//! ```

use rustc_hash::FxHashMap;
use wpp_grammar::{Grammar, Sym};
use wpp_model::FuncIdx;

use crate::format::{put, FormatError, Reader};
use crate::partition::{Caller, Dcg};

/// For each pair, its callers with the invocations each made, most first.
pub type ByPair = Vec<Vec<(Caller, u64)>>;

/// Every function's invocations in the order the run made them: the pair each followed
/// and its caller, by function.
pub fn invocations(dcg: &Dcg, n_functions: usize) -> Vec<Vec<(u32, Caller)>> {
    let mut out: Vec<Vec<(u32, Caller)>> = vec![Vec::new(); n_functions];
    dcg.in_order(|node, caller| {
        let n = &dcg.nodes[node];
        if let Some(v) = out.get_mut(n.func.idx()) {
            v.push((n.trace.0, caller));
        }
    });
    out
}

/// Encodes a function's callers from its invocations in order (`order`), over `n_pairs`
/// pairs.
pub fn encode(n_pairs: usize, order: &[(u32, Caller)]) -> Vec<u8> {
    let mut callers: Vec<Caller> = order.iter().map(|&(_, c)| c).collect();
    callers.sort_unstable();
    callers.dedup();
    let pos = |c: Caller| callers.binary_search(&c).expect("a caller of the list") as u64;
    let mut by_pair: Vec<FxHashMap<u64, u64>> = vec![FxHashMap::default(); n_pairs];
    for &(pair, c) in order {
        *by_pair[pair as usize].entry(pos(c)).or_default() += 1;
    }
    let mut out = Vec::new();
    put(&mut out, callers.len() as u64);
    callers.iter().for_each(|c| put(&mut out, c.map_or(0, |g| g.0 as u64 + 1)));
    put(&mut out, n_pairs as u64);
    for m in by_pair {
        let mut v: Vec<(u64, u64)> = m.into_iter().collect();
        v.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
        put(&mut out, v.len() as u64);
        for (c, n) in v {
            put(&mut out, c);
            put(&mut out, n);
        }
    }
    let n_callers = callers.len() as u64;
    let symbols: Vec<u64> = order.iter().map(|&(pair, c)| pair as u64 * n_callers + pos(c)).collect();
    let mut alphabet = symbols.clone();
    alphabet.sort_unstable();
    alphabet.dedup();
    put(&mut out, symbols.len() as u64);
    put(&mut out, alphabet.len() as u64);
    alphabet.iter().for_each(|&a| put(&mut out, a));
    let positions: Vec<u32> = symbols.iter().map(|x| alphabet.binary_search(x).expect("every symbol is in the alphabet") as u32).collect();
    let mut plain = vec![0u8];
    positions.iter().for_each(|&p| put(&mut plain, p as u64));
    let mut s = wpp_grammar::Sequitur::with_lookahead();
    s.extend(positions.iter().copied());
    let mut grammar = vec![1u8];
    grammar.extend_from_slice(&wpp_grammar::encode_grammar(&s.finish(), alphabet.len() as u32));
    out.extend_from_slice(if plain.len() <= grammar.len() { &plain } else { &grammar });
    out
}

/// A function's callers section, read up to the order of its invocations.
pub struct Callers<'a> {
    callers: Vec<Caller>,
    n_pairs: usize,
    pub by_pair: ByPair,
    rest: Reader<'a>,
}

/// Reads the callers of a function of `n_pairs` pairs.
pub fn decode(bytes: &[u8], n_pairs: usize) -> Result<Callers<'_>, FormatError> {
    let mut r = Reader { bytes, pos: 0 };
    let mut callers = Vec::new();
    for _ in 0..r.count()? {
        let c = r.number()?;
        callers.push(match c {
            0 => None,
            g => Some(FuncIdx(u32::try_from(g - 1).map_err(|_| r.err("a caller past 32 bits"))?)),
        });
    }
    if r.number()? != n_pairs as u64 {
        return Err(r.err("callers of another number of traces than the function has"));
    }
    let mut by_pair = Vec::with_capacity(n_pairs);
    for _ in 0..n_pairs {
        let mut v = Vec::new();
        for _ in 0..r.count()? {
            let c = r.number()?;
            let &caller = callers.get(c as usize).ok_or_else(|| r.err("a caller past the list"))?;
            v.push((caller, r.number()?));
        }
        by_pair.push(v);
    }
    Ok(Callers { callers, n_pairs, by_pair, rest: r })
}

impl Callers<'_> {
    /// The `n`-th invocation (from 1, in the order the run made them): the pair it followed
    /// and its caller; `None` if there were fewer.
    pub fn nth(mut self, n: u64) -> Result<Option<(u32, Caller)>, FormatError> {
        let r = &mut self.rest;
        let invocations = r.number()?;
        let n_symbols = r.count()?;
        let alphabet = (0..n_symbols).map(|_| r.number()).collect::<Result<Vec<u64>, _>>()?;
        let position = match r.bytes.get(r.pos) {
            Some(0) => {
                r.pos += 1;
                let mut nth = None;
                let mut count = 0u64;
                while r.pos < r.bytes.len() {
                    let p = r.number()?;
                    count += 1;
                    if count == n {
                        nth = Some(p);
                    }
                }
                if count != invocations {
                    return Err(r.err("a list of another number of invocations"));
                }
                match nth {
                    Some(p) => p,
                    None => return Ok(None),
                }
            }
            Some(1) => {
                r.pos += 1;
                let grammar: Grammar = wpp_grammar::decode_grammar(&r.bytes[r.pos..]).map_err(|_| r.err("a damaged grammar of the invocations"))?;
                grammar.validate(Some(n_symbols as u32)).map_err(|_| r.err("a damaged grammar of the invocations"))?;
                let lens = grammar.rule_lengths();
                if lens.first().copied().unwrap_or(0) != invocations {
                    return Err(r.err("a grammar of another number of invocations"));
                }
                if n == 0 || n > invocations {
                    return Ok(None);
                }
                nth_terminal(&grammar, &lens, n - 1) as u64
            }
            _ => return Err(r.err("an order of invocations of an unknown kind")),
        };
        let symbol = *alphabet.get(position as usize).ok_or_else(|| self.rest.err("an invocation past the symbols"))?;
        let k = self.callers.len().max(1) as u64;
        let caller = self.callers.get((symbol % k) as usize).copied().ok_or_else(|| self.rest.err("an invocation of no caller"))?;
        let pair = symbol / k;
        if pair >= self.n_pairs as u64 {
            return Err(self.rest.err("an invocation of a trace past the function's"));
        }
        Ok(Some((pair as u32, caller)))
    }
}

/// The terminal at position `i` (from 0) of `grammar`'s expansion, `lens` its rule lengths;
/// `i` below the start rule's length.
fn nth_terminal(grammar: &Grammar, lens: &[u64], mut i: u64) -> u32 {
    let mut rule = 0usize;
    loop {
        let mut next = None;
        for &s in &grammar.rules[rule] {
            let len = match s {
                Sym::T(_) => 1,
                Sym::N(r) => lens[r.idx()],
            };
            if i < len {
                next = Some(s);
                break;
            }
            i -= len;
        }
        match next.expect("a position within the rule") {
            Sym::T(t) => return t.0,
            Sym::N(r) => rule = r.idx(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn caller(c: u8) -> Caller {
        (c > 0).then(|| FuncIdx(c as u32 * 7))
    }

    /// A long, repetitive order is stored as a grammar, a short one as a list.
    #[test]
    fn the_smaller_form_is_kept() {
        let order: Vec<(u32, Caller)> = (0..10_000).map(|i| (i % 3, caller((i % 2) as u8))).collect();
        let kind = |order: &[(u32, Caller)]| {
            let bytes = encode(3, order);
            let mut c = decode(&bytes, 3).unwrap();
            let (_, n_symbols) = (c.rest.number().unwrap(), c.rest.count().unwrap());
            for _ in 0..n_symbols {
                c.rest.number().unwrap();
            }
            c.rest.bytes[c.rest.pos]
        };
        assert_eq!(kind(&order), 1);
        assert_eq!(kind(&order[..3]), 0);
        assert_eq!(decode(&encode(3, &order), 3).unwrap().nth(9_999).unwrap(), Some(order[9_998]));
    }

    proptest! {
        /// Callers and the `n`-th invocation read back equal the order they were made
        /// from, counted and indexed the obvious way, for lists short and long (where the
        /// grammar is the smaller form); damaged bytes are an error, never a panic.
        #[test]
        fn read_back_equals_the_order(order in prop::collection::vec((0u32..4, 0u8..4), 0..300), repeat in 1usize..40, flip in any::<(usize, u8)>()) {
            let order: Vec<(u32, Caller)> = order.iter().cycle().take(order.len() * repeat).map(|&(p, c)| (p, caller(c))).collect();
            let bytes = encode(4, &order);
            let c = decode(&bytes, 4).unwrap();
            for (pair, got) in c.by_pair.iter().enumerate() {
                let mut want: Vec<(Caller, u64)> = Vec::new();
                for &(p, who) in &order {
                    if p as usize == pair {
                        match want.iter_mut().find(|(c, _)| *c == who) {
                            Some((_, n)) => *n += 1,
                            None => want.push((who, 1)),
                        }
                    }
                }
                want.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
                prop_assert_eq!(got, &want);
            }
            for n in [0, 1, order.len() as u64 / 2, order.len() as u64, order.len() as u64 + 1] {
                let want = (n >= 1).then(|| order.get(n as usize - 1).copied()).flatten();
                prop_assert_eq!(decode(&bytes, 4).unwrap().nth(n), Ok(want));
            }
            prop_assert!(decode(&bytes, 5).is_err());
            if !bytes.is_empty() {
                let mut damaged = bytes.clone();
                let i = flip.0 % damaged.len();
                damaged[i] ^= flip.1.max(1);
                if let Ok(c) = decode(&damaged, 4) {
                    let _ = c.nth(1);
                }
            }
        }
    }
}
