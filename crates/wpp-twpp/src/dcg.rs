//! The dynamic call graph as a stream of numbers, and its compression (Zhang & Gupta §2,
//! "Compacting the DCG": LZW in the paper; here LZW and wpp's own grammar builder, the
//! smaller kept).
//!
//! The stream lists the invocations in post-order, each as `function, trace, calls` and
//! then, per call, how many of its paths ran since the previous call (doubled, plus one
//! for a tail call). Post-order makes the tree implicit: an invocation's callees are the
//! last `calls` subtrees read before it, and the subtrees left at the end are the roots.

use rustc_hash::FxHashMap;
use wpp_model::FuncIdx;

use crate::partition::{Call, Dcg, DcgNode, Invocation, TraceIdx};

/// `dcg` as its stream of numbers.
pub fn to_numbers(dcg: &Dcg) -> Vec<u32> {
    let mut out = Vec::with_capacity(3 * dcg.nodes.len() + dcg.calls.len());
    for n in &dcg.nodes {
        out.extend([n.func.0, n.trace.0, n.calls.len() as u32]);
        let mut at = 0;
        for c in &dcg.calls[n.calls.start as usize..n.calls.end as usize] {
            out.push(((c.at - at) << 1) | c.tail as u32);
            at = c.at;
        }
    }
    out
}

/// Why a stream is not a call graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DcgDecodeError {
    #[error("the call graph stream ends inside an invocation")]
    Truncated,
    #[error("invocation {node} makes {calls} calls, but only {available} invocations precede it")]
    TooManyCalls { node: Invocation, calls: u32, available: usize },
    #[error("invocation {node}: its calls are not in the order of its paths")]
    Position { node: Invocation },
}

/// The call graph again from [`to_numbers`]'s stream.
pub fn from_numbers(numbers: &[u32]) -> Result<Dcg, DcgDecodeError> {
    let mut dcg = Dcg::default();
    let mut done: Vec<Invocation> = Vec::new();
    let mut it = numbers.iter().copied();
    while let Some(func) = it.next() {
        let node = Invocation(dcg.nodes.len() as u32);
        let (trace, n_calls) = (it.next().ok_or(DcgDecodeError::Truncated)?, it.next().ok_or(DcgDecodeError::Truncated)?);
        if n_calls as usize > done.len() {
            return Err(DcgDecodeError::TooManyCalls { node, calls: n_calls, available: done.len() });
        }
        let callees = done.split_off(done.len() - n_calls as usize);
        let start = dcg.calls.len() as u32;
        let mut at = 0u32;
        for callee in callees {
            let x = it.next().ok_or(DcgDecodeError::Truncated)?;
            at = at.checked_add(x >> 1).ok_or(DcgDecodeError::Position { node })?;
            dcg.calls.push(Call { at, node: callee, tail: x & 1 == 1 });
        }
        dcg.nodes.push(DcgNode { func: FuncIdx(func), trace: TraceIdx(trace), calls: start..dcg.calls.len() as u32 });
        done.push(node);
    }
    dcg.roots = done;
    Ok(dcg)
}

/// LZW codes of `input` over its own alphabet: the alphabet (sorted, distinct) is codes
/// `0..alphabet.len()`, each new code one entry longer than one before it.
pub fn lzw_encode(input: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut alphabet: Vec<u32> = input.to_vec();
    alphabet.sort_unstable();
    alphabet.dedup();
    let index: FxHashMap<u32, u32> = alphabet.iter().enumerate().map(|(i, &s)| (s, i as u32)).collect();
    let mut dict: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut next = alphabet.len() as u32;
    let mut codes = Vec::new();
    let mut it = input.iter();
    let Some(first) = it.next() else { return (alphabet, codes) };
    let mut w = index[first];
    for s in it {
        let s = index[s];
        match dict.get(&(w, s)) {
            Some(&code) => w = code,
            None => {
                codes.push(w);
                dict.insert((w, s), next);
                next += 1;
                w = s;
            }
        }
    }
    codes.push(w);
    (alphabet, codes)
}

/// `input` compressed by SEQUITUR(1) over `alphabet` (sorted, as [`lzw_encode`] gives it:
/// terminals are alphabet positions), in wpp's grammar encoding.
pub fn grammar_encode(input: &[u32], alphabet: &[u32]) -> Vec<u8> {
    let mut s = wpp_grammar::Sequitur::with_lookahead();
    s.extend(input.iter().map(|x| alphabet.binary_search(x).expect("every number is in the alphabet") as u32));
    wpp_grammar::encode_grammar(&s.finish(), alphabet.len() as u32)
}

/// The input of [`lzw_encode`] again; `None` for codes no encoder makes.
pub fn lzw_decode(alphabet: &[u32], codes: &[u32]) -> Option<Vec<u32>> {
    // Each entry: (previous entry or NONE, last symbol, length).
    const NONE: u32 = u32::MAX;
    let mut entries: Vec<(u32, u32)> = (0..alphabet.len() as u32).map(|i| (NONE, i)).collect();
    let spell = |entries: &[(u32, u32)], mut code: u32, out: &mut Vec<u32>| {
        let start = out.len();
        while code != NONE {
            let (prev, sym) = entries[code as usize];
            out.push(alphabet[sym as usize]);
            code = prev;
        }
        out[start..].reverse();
    };
    let first_sym = |entries: &[(u32, u32)], mut code: u32| loop {
        let (prev, sym) = entries[code as usize];
        if prev == NONE {
            return sym;
        }
        code = prev;
    };
    let mut out = Vec::new();
    let mut prev: Option<u32> = None;
    for &code in codes {
        let known = (code as usize) < entries.len();
        if let Some(p) = prev {
            // The new entry: the previous one plus the first symbol of this one (of the
            // previous one, when this code is the entry being made).
            let sym = if known { first_sym(&entries, code) } else { first_sym(&entries, p) };
            if !known && code as usize != entries.len() {
                return None;
            }
            entries.push((p, sym));
        } else if !known {
            return None;
        }
        spell(&entries, code, &mut out);
        prev = Some(code);
    }
    Some(out)
}

/// Bytes of LZW output written with the usual growing code width (each code as wide as
/// the dictionary at that point needs), plus the alphabet as 4-byte numbers.
pub fn lzw_bytes(alphabet_len: usize, n_codes: usize) -> u64 {
    // The i-th code is written when the dictionary holds alphabet_len + i entries.
    let sizes = alphabet_len as u64..(alphabet_len + n_codes) as u64;
    let bits: u64 = sizes.map(|size| (64 - size.max(2).saturating_sub(1).leading_zeros()) as u64).sum();
    bits.div_ceil(8) + 4 * alphabet_len as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use wpp_base::IndexVec;

    #[test]
    fn lzw_round_trips_with_the_repeated_entry_case() {
        // `a b a b a b a`: the decoder meets a code it is making (KwKwK).
        for input in [vec![], vec![7], vec![1, 2, 1, 2, 1, 2, 1], vec![5, 5, 5, 5, 5, 5, 5, 5], vec![3, 9, 3, 9, 9, 3, 3, 3, 9]] {
            let (alphabet, codes) = lzw_encode(&input);
            assert_eq!(lzw_decode(&alphabet, &codes), Some(input.clone()));
        }
        let (alphabet, codes) = lzw_encode(&[5; 1000]);
        assert!(codes.len() < 50, "runs compress: {} codes", codes.len());
        assert_eq!(lzw_decode(&alphabet, &[0, 5]), None);
    }

    #[test]
    fn a_call_graph_round_trips() {
        // main(0) calls f(1) twice, the second call tail-calls g(2).
        let dcg = Dcg {
            nodes: IndexVec::from(vec![
                DcgNode { func: FuncIdx(1), trace: TraceIdx(0), calls: 0..0 },
                DcgNode { func: FuncIdx(2), trace: TraceIdx(0), calls: 0..0 },
                DcgNode { func: FuncIdx(1), trace: TraceIdx(1), calls: 0..1 },
                DcgNode { func: FuncIdx(0), trace: TraceIdx(0), calls: 1..3 },
            ]),
            calls: vec![
                Call { at: 3, node: Invocation(1), tail: true },
                Call { at: 2, node: Invocation(0), tail: false },
                Call { at: 5, node: Invocation(2), tail: false },
            ],
            roots: vec![Invocation(3)],
        };
        let numbers = to_numbers(&dcg);
        assert_eq!(numbers, [1, 0, 0, 2, 0, 0, 1, 1, 1, 7, 0, 0, 2, 4, 6]);
        assert_eq!(from_numbers(&numbers), Ok(dcg));
        assert_eq!(from_numbers(&[0, 0, 1]), Err(DcgDecodeError::TooManyCalls { node: Invocation(0), calls: 1, available: 0 }));
        assert_eq!(from_numbers(&[0, 0]), Err(DcgDecodeError::Truncated));
    }
}
