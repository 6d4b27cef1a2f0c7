//! Proptest strategies shared by several suites: random control flow graphs (feature
//! `cfg`) for the numbering tests, random grammars (feature `grammar`) for the grammar
//! analyses. Strategies only one suite uses stay in that suite.

#[cfg(feature = "cfg")]
pub use self::cfgs::arb_cfg;
#[cfg(feature = "grammar")]
pub use self::grammars::arb_grammar;

#[cfg(feature = "cfg")]
mod cfgs {
    use proptest::prelude::*;
    use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeKind, Target};

    /// Random CFGs: blocks in code order, forward edges to later blocks, back edges to earlier
    /// (or the same) blocks, call edges to the next block, exits.
    pub fn arb_cfg() -> impl Strategy<Value = Cfg> {
        (1usize..14).prop_flat_map(|n| {
            proptest::collection::vec((proptest::collection::vec(any::<u16>(), 0..4), any::<u8>(), any::<u8>(), any::<u8>()), n).prop_map(move |specs| {
                let mut edges = Vec::new();
                for (v, (fwd, back, call, exit)) in specs.into_iter().enumerate() {
                    let mut out: Vec<Edge> = Vec::new();
                    let add = |to: Target, kind: EdgeKind, out: &mut Vec<Edge>| {
                        if !out.iter().any(|e| e.to == to) {
                            out.push(Edge { from: BlockIdx(v as u32), to, kind });
                        }
                    };
                    if call % 5 == 0 && v + 1 < n {
                        add(Target::Block(BlockIdx(v as u32 + 1)), EdgeKind::Call, &mut out);
                    } else {
                        for f in fwd {
                            if v + 1 < n {
                                let w = v + 1 + f as usize % (n - v - 1);
                                add(Target::Block(BlockIdx(w as u32)), EdgeKind::Forward, &mut out);
                            }
                        }
                        if back % 3 == 0 {
                            let w = back as usize % (v + 1);
                            add(Target::Block(BlockIdx(w as u32)), EdgeKind::Back, &mut out);
                        }
                    }
                    if exit % 4 == 0 || out.is_empty() {
                        let kind = if exit % 8 == 0 { EdgeKind::Trap } else { EdgeKind::Return };
                        add(Target::Exit, kind, &mut out);
                    }
                    edges.extend(out);
                }
                Cfg { blocks: vec![Block { start: 0, end: 1, n_instrs: 1 }; n], edges }
            })
        })
    }
}

#[cfg(feature = "grammar")]
mod grammars {
    use proptest::prelude::*;
    use wpp_grammar::{Grammar, RuleId, Sym, Terminal};

    /// A random valid grammar: rule i refers only to rules above i, so it is acyclic.
    pub fn arb_grammar() -> impl Strategy<Value = Grammar> {
        (2usize..8, 1u32..6).prop_flat_map(|(n_rules, n_terms)| {
            proptest::collection::vec(proptest::collection::vec((0u32..100, 0u32..100), 1..6), n_rules).prop_map(move |raw| {
                let n = raw.len() as u32;
                let rules = raw
                    .iter()
                    .enumerate()
                    .map(|(i, body)| {
                        body.iter()
                            .map(|&(kind, v)| {
                                let i = i as u32;
                                if kind < 40 && i + 1 < n {
                                    Sym::N(RuleId(i + 1 + v % (n - i - 1)))
                                } else {
                                    Sym::T(Terminal(v % n_terms))
                                }
                            })
                            .collect::<Vec<Sym>>()
                    })
                    .collect();
                Grammar { rules }
            })
        })
    }
}
