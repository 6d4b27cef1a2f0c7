//! Questions about the expansion answered on the DAG (Larus 1999, §3.3): how often a
//! sequence occurs ([`crate::PatternCounts`]), whether one symbol ever comes before
//! another, and the context symbols around each occurrence of a symbol.

use rustc_hash::FxHashMap;

use super::occur::Cursor;
use crate::{Grammar, RuleId, Sym, Terminal};

/// The positions (0-based) of the first and the last occurrence of terminal `t` in the
/// expansion, or `None` if it never occurs. One pass over the DAG.
pub fn first_and_last(g: &Grammar, t: Terminal) -> Option<(u64, u64)> {
    let order = g.topological_order().ok()?;
    let n = g.rules.len();
    // Filled in the same children-first pass.
    let mut lengths = vec![0u64; n];
    let mut first: Vec<Option<u64>> = vec![None; n];
    let mut last: Vec<Option<u64>> = vec![None; n];
    // Children before parents.
    for &RuleId(r) in order.iter().rev() {
        let body = &g.rules[r as usize];
        let mut at = 0u64;
        let (mut f, mut l) = (None, None);
        for &s in body {
            let (sf, sl, len) = match s {
                Sym::T(x) => ((x == t).then_some(0), (x == t).then_some(0), 1),
                Sym::N(RuleId(q)) => (first[q as usize], last[q as usize], lengths[q as usize]),
            };
            if f.is_none() {
                f = sf.map(|p| at.saturating_add(p));
            }
            if let Some(p) = sl {
                l = Some(at.saturating_add(p));
            }
            at = at.saturating_add(len);
        }
        first[r as usize] = f;
        last[r as usize] = l;
        lengths[r as usize] = at;
    }
    Some((first[0]?, last[0]?))
}

/// Whether terminal `p` occurs somewhere before an occurrence of terminal `q`.
pub fn runs_before(g: &Grammar, p: Terminal, q: Terminal) -> bool {
    match (first_and_last(g, p), first_and_last(g, q)) {
        (Some((fp, _)), Some((_, lq))) => fp < lq,
        _ => false,
    }
}

/// A context: up to `k` symbols before an occurrence and up to `k` after it (fewer at the
/// ends of the sequence).
pub type Context = (Vec<Terminal>, Vec<Terminal>);

/// The contexts of every occurrence of terminal `t`, aggregated: each distinct context with
/// the number of occurrences it surrounds, most frequent first. Computed top-down on the
/// DAG: a rule's occurrences get their outer contexts from its parents', and only where a
/// rule's own expansion is too short to supply the `k` symbols on a side.
pub fn contexts(g: &Grammar, t: Terminal, k: usize) -> Vec<(Context, u64)> {
    let Ok(order) = g.topological_order() else { return Vec::new() };
    let freq = g.rule_frequencies();
    let n = g.rules.len();
    // Which rules contain `t` somewhere in their expansion.
    let mut has = vec![false; n];
    for &RuleId(r) in order.iter().rev() {
        has[r as usize] = g.rules[r as usize].iter().any(|&s| match s {
            Sym::T(x) => x == t,
            Sym::N(RuleId(q)) => has[q as usize],
        });
    }
    let mut cursor = Cursor::default();
    // `k` symbols of the expansion of `body[..i]` read backwards (nearest first), and of
    // `body[i + 1..]` forwards.
    let mut inner = |body: &[Sym], i: usize| -> Context {
        let mut left = Vec::new();
        for &s in body[..i].iter().rev() {
            cursor.start_backward(g, s);
            while left.len() < k {
                match cursor.next_backward(g) {
                    Some(x) => left.push(Terminal(x)),
                    None => break,
                }
            }
        }
        left.reverse();
        let mut right = Vec::new();
        for &s in &body[i + 1..] {
            cursor.start_forward(g, s);
            while right.len() < k {
                match cursor.next_forward(g) {
                    Some(x) => right.push(Terminal(x)),
                    None => break,
                }
            }
        }
        (left, right)
    };
    // Outer contexts of each rule's occurrences, parents first; only rules holding `t`.
    let mut outer: Vec<FxHashMap<Context, u64>> = vec![FxHashMap::default(); n];
    outer[0].insert((Vec::new(), Vec::new()), 1);
    let mut result: FxHashMap<Context, u64> = FxHashMap::default();
    for &RuleId(r) in &order {
        if !has[r as usize] || freq[r as usize] == 0 {
            continue;
        }
        let out = std::mem::take(&mut outer[r as usize]);
        let body = &g.rules[r as usize];
        for (i, &s) in body.iter().enumerate() {
            let into = match s {
                Sym::T(x) if x == t => &mut result,
                Sym::N(RuleId(q)) if has[q as usize] => &mut outer[q as usize],
                _ => continue,
            };
            let (left, right) = inner(body, i);
            let need_left = left.len() < k;
            let need_right = right.len() < k;
            if !need_left && !need_right {
                *into.entry((left, right)).or_insert(0) += freq[r as usize];
                continue;
            }
            for ((ol, or), &w) in &out {
                let mut l = left.clone();
                if need_left {
                    let take = (k - left.len()).min(ol.len());
                    l = ol[ol.len() - take..].iter().chain(&left).copied().collect();
                }
                let mut rr = right.clone();
                if need_right {
                    rr.extend(or.iter().take(k - right.len()));
                }
                let e = into.entry((l, rr)).or_insert(0);
                *e = e.saturating_add(w);
            }
        }
    }
    let mut v: Vec<(Context, u64)> = result.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// The oracle for [`contexts`]: a scan of the expanded sequence.
pub fn contexts_brute(seq: &[u32], t: Terminal, k: usize) -> Vec<(Context, u64)> {
    let mut m: FxHashMap<Context, u64> = FxHashMap::default();
    for (i, &x) in seq.iter().enumerate() {
        if x == t.0 {
            let left = seq[i.saturating_sub(k)..i].iter().map(|&x| Terminal(x)).collect();
            let right = seq[i + 1..(i + 1 + k).min(seq.len())].iter().map(|&x| Terminal(x)).collect();
            *m.entry((left, right)).or_insert(0) += 1;
        }
    }
    let mut v: Vec<(Context, u64)> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}
