//! Each compaction step is lossless: dynamic basic blocks and the timestamped form give
//! the trace back exactly, on random traces shaped like real ones (loops over a few paths
//! with branches) and on arbitrary ones.

use proptest::prelude::*;
use wpp_model::BlockIdx;
use wpp_twpp::dbb::{collapse, expand};
use wpp_twpp::timestamps::{timestamp, untimestamp};

/// A loop over a body with branch arms, iterated with a few distinct paths, with a prefix
/// and a suffix: what an invocation's block trace looks like.
fn loopy() -> impl Strategy<Value = Vec<BlockIdx>> {
    (1usize..6, prop::collection::vec(prop::collection::vec(1u32..20, 1..6), 1..4), prop::collection::vec(0usize..4, 0..60)).prop_map(
        |(prefix, arms, picks)| {
            let mut t: Vec<u32> = (100..100 + prefix as u32).collect();
            for p in picks {
                t.push(50);
                t.extend(&arms[p % arms.len()]);
                t.push(60);
            }
            t.push(99);
            t.into_iter().map(BlockIdx).collect()
        },
    )
}

fn arbitrary() -> impl Strategy<Value = Vec<BlockIdx>> {
    prop::collection::vec(0u32..8, 0..200).prop_map(|v| v.into_iter().map(BlockIdx).collect())
}

fn check(trace: &[BlockIdx]) -> Result<(), TestCaseError> {
    let d = collapse(trace);
    prop_assert_eq!(&expand(&d), trace);
    prop_assert!(d.heads.len() <= trace.len());
    // Every chain is a dynamic basic block: wherever its first block runs, the rest follow.
    for chain in &d.dictionary.chains {
        prop_assert!(chain.len() >= 2);
        for (i, _) in trace.iter().enumerate().filter(|(_, &b)| b == chain[0]) {
            prop_assert_eq!(&trace[i..i + chain.len()], &chain[..]);
        }
    }
    let t = timestamp(&d.heads);
    prop_assert_eq!(untimestamp(&t), Some(d.heads.clone()));
    prop_assert!(t.n_series() <= d.heads.len());
    // Both steps at once, streaming the trace, give the same.
    let n_blocks = trace.iter().map(|b| b.idx() + 1).max().unwrap_or(0);
    let (dictionary, streamed) = wpp_twpp::dbb::collapse_timestamped(n_blocks, || trace.iter().copied());
    prop_assert_eq!(&dictionary, &d.dictionary);
    prop_assert_eq!(&streamed, &t);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn loop_shaped_traces_round_trip(trace in loopy()) {
        check(&trace)?;
    }

    #[test]
    fn arbitrary_traces_round_trip(trace in arbitrary()) {
        check(&trace)?;
    }
}

/// A function part made of random traces (one of them twice, so pairs share a trace) encodes and decodes to itself, and damaged
/// bytes are an error or another valid part, never a panic.
fn part_of(traces: &[Vec<BlockIdx>]) -> wpp_twpp::format::FunctionPart {
    use wpp_twpp::format::Pair;
    let mut part = wpp_twpp::format::FunctionPart::default();
    for (i, t) in traces.iter().enumerate() {
        let d = collapse(t);
        fn index<T: PartialEq>(v: &mut Vec<T>, x: T) -> u32 {
            match v.iter().position(|y| *y == x) {
                Some(k) => k as u32,
                None => {
                    v.push(x);
                    v.len() as u32 - 1
                }
            }
        }
        let dictionary = index(&mut part.dictionaries, d.dictionary.clone());
        let trace = index(&mut part.traces, timestamp(&d.heads));
        part.pairs.push(Pair { trace, dictionary, calls: 1 + i as u64 * 1000, blocks: t.len() as u64 });
    }
    part
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn function_parts_round_trip(mut traces in prop::collection::vec(loopy(), 0..5), flip in any::<(usize, u8)>(), apart in 0usize..64) {
        use wpp_twpp::format::{decode, decode_body, decode_head, encode, Body};
        if let Some(t) = traces.first().cloned() {
            traces.push(t);
        }
        let part = part_of(&traces);
        let bytes = encode(&part, usize::MAX).part;
        prop_assert_eq!(decode(&bytes), Ok(part.clone()));
        // With the bodies of `apart` bytes or more stored apart: the head holds the rest,
        // and each body read where the head says it is gives the same trace.
        let split = encode(&part, apart);
        let head = decode_head(&split.part).unwrap();
        prop_assert_eq!(&head.pairs, &part.pairs);
        prop_assert_eq!(&head.dictionaries, &part.dictionaries);
        let mut apart_bodies = split.apart.iter();
        for (k, (entry, want)) in head.traces.iter().zip(&part.traces).enumerate() {
            let got = match &entry.body {
                Body::Inline(range) => decode_body(&split.part[range.clone()], entry.len).unwrap(),
                Body::Apart(len) => {
                    let (at, body) = apart_bodies.next().unwrap();
                    prop_assert_eq!((*at as usize, body.len()), (k, *len));
                    prop_assert!(body.len() >= apart);
                    decode_body(body, entry.len).unwrap()
                }
            };
            prop_assert_eq!(&got, want);
        }
        prop_assert!(apart_bodies.next().is_none());
        // Every stored trace expands back to the blocks it came from.
        for (t, pair) in traces.iter().zip(&part.pairs) {
            let heads = untimestamp(&part.traces[pair.trace as usize]).unwrap();
            let d = wpp_twpp::dbb::DbbTrace { heads, dictionary: part.dictionaries[pair.dictionary as usize].clone() };
            prop_assert_eq!(&expand(&d), t);
        }
        if !bytes.is_empty() {
            let mut damaged = bytes.clone();
            let i = flip.0 % damaged.len();
            damaged[i] ^= flip.1.max(1);
            if let Ok(p) = decode(&damaged) {
                prop_assert_eq!(encode(&p, usize::MAX).part.len() <= damaged.len() + 16, true);
            }
            prop_assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        }
    }
}
