//! Chains of memory dependences (Tallam & Gupta's RecoverChain and ChainFreq, Fig. 21):
//! an execution of a load `u0` read what an instance of a writer `d1` wrote; at `d1` a
//! load `u1` computed part of what it wrote (its uses, `wpp_wasm::statement_uses`), and
//! that execution of `u1` read what `d2` wrote; and so on. A chain `u0 → d1 → u1 → d2 …`
//! is counted once for each execution of `u0` from which it was followed, its frequency.
//!
//! A use at a writer runs in the writer's block before it, with no call between, so the
//! Kth execution of the writer goes with the Kth execution of each of its uses: one step
//! back along a chain goes from a write instance to the load instances of the same number.
//!
//! Recovery goes one step of the chains per walk of the run (each walk the recovery of
//! every dependence, from the extended WPP's checks or the address trace), keeping only
//! the load executions the chains reach: the first walk keeps `u0`'s, the next those of
//! the uses at the write instances found, and so on, `depth` walks at most.

use std::collections::{HashMap, HashSet};

use wpp_model::access_event::AccessSite;
use wpp_model::exercised::{Dependence, ExercisedDeps, Writer};
use wpp_profile::Profile;

use super::{is_ewpp, select, site_name, sites, unsuitable, writer_row};
use crate::Error;

/// One step of a chain: the load, and the writer whose bytes it read.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChainLink {
    /// The load, `FUNCTION+0xOFFSET`.
    #[serde(rename = "use")]
    pub use_: String,
    /// The load's module byte offset.
    pub use_offset: u32,
    pub writer: String,
    /// The writer's module byte offset (`null` for the initial memory).
    pub writer_offset: Option<u32>,
    /// The writer's source lines (`null` for the initial memory).
    pub source: Option<String>,
}

/// A chain and its frequency.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChainRow {
    /// Executions of the first load from which the chain was followed.
    pub count: u64,
    pub links: Vec<ChainLink>,
}

/// What `wpp deps --chain` prints.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Chains {
    /// `address trace` or `extended WPP`.
    pub from: &'static str,
    /// The first load, its source, and the executions the chains start from (all, or the
    /// one `--instance` names).
    pub load: String,
    pub source: String,
    pub executions: u64,
    pub instance: Option<u64>,
    /// The longest chains followed, in writers.
    pub depth: usize,
    /// Walks of the run the recovery took.
    pub walks: usize,
    /// Every chain of one to `depth` writers, most frequent first.
    pub chains: Vec<ChainRow>,
    #[serde(flatten)]
    pub truncation: crate::Truncation,
}

/// The writers each kept load execution read: (writer, its instance).
type Kept = HashMap<(u32, u64), Vec<(Writer, u64)>>;

/// Runs the profile's recovery once, keeping the dependences of the load executions
/// `keep` accepts.
fn walk(p: &Profile, kept: &mut Kept, mut keep: impl FnMut(&Dependence) -> bool) -> Result<ExercisedDeps, Error> {
    let mut take = |d: &Dependence| {
        if keep(d) {
            kept.entry((d.load, d.load_instance)).or_default().push((d.writer, d.writer_instance));
        }
    };
    let recovered = match is_ewpp(p) {
        true => super::from_ewpp(p, &mut take)?.0,
        false => super::from_addresses(p, &mut take)?,
    };
    Ok(recovered.deps)
}

/// A trie of chains: node 0 is the first load; a writer's node is a chain.
#[derive(Default)]
struct Trie {
    /// (parent, label): a writer site (`u32::MAX` for the initial memory) or a use site.
    nodes: Vec<(u32, u32)>,
    /// Whether a node is a writer's.
    writer: Vec<bool>,
    children: HashMap<(u32, u32), u32>,
}

impl Trie {
    fn child(&mut self, parent: u32, label: u32) -> u32 {
        let next = self.nodes.len() as u32;
        *self.children.entry((parent, label)).or_insert_with(|| {
            self.writer.push(!self.writer[parent as usize]);
            self.nodes.push((parent, label));
            next
        })
    }
}

const INITIAL: u32 = u32::MAX;

/// The chains from load `use_` (one load, as `wpp deps --use` names it), from every
/// execution of it or from its `instance`th, of one to `depth` writers. `uses` is the
/// module's [`wpp_wasm::statement_uses`] by site.
pub fn chains(p: &Profile, uses: &[Vec<u32>], use_: &str, instance: Option<u64>, depth: usize, top: crate::Top) -> Result<Chains, Error> {
    let sites = sites(p)?;
    if uses.len() != sites.len() {
        return Err(unsuitable(p, format!("the module has {} access sites, the profile {}: not the module recorded", uses.len(), sites.len())));
    }
    if super::exercised(p)?.is_some() {
        return Err(unsuitable(
            p,
            "chains need each load execution's writers: record with `--mode addresses` or `--mode ewpp` (a filtering run keeps totals only)",
        ));
    }
    let u0 = match select(p, &sites, Some(use_))?.as_slice() {
        [one] => *one,
        many => {
            let names: Vec<String> = many.iter().take(5).map(|&l| site_name(p, &sites[l as usize])).collect();
            let more = if many.len() > 5 { ", ..." } else { "" };
            return Err(unsuitable(p, format!("--chain starts from one load; --use {use_} names {}: {}{more}", many.len(), names.join(", "))));
        }
    };
    let depth = depth.max(1);
    let mut kept = Kept::new();
    let all = walk(p, &mut kept, |d| d.load == u0 && instance.is_none_or(|k| d.load_instance == k))?;
    let mut walks = 1;
    let executions = all.loads.get(&u0).copied().unwrap_or(0);
    if let Some(k) = instance {
        if k == 0 || k > executions {
            return Err(unsuitable(p, format!("--instance {k}: the load ran {executions} times (instances 1 to {executions})")));
        }
    }
    let mut roots: Vec<u64> = kept.keys().map(|&(_, t)| t).collect();
    roots.sort_unstable();
    // One step back per walk: the load executions at the write instances just found.
    let mut frontier: Vec<(u32, u64)> = kept.keys().copied().collect();
    for _ in 1..depth {
        let mut next: HashSet<(u32, u64)> = HashSet::new();
        for key in &frontier {
            for &(w, k) in &kept[key] {
                if let Writer::Site(s) = w {
                    next.extend(uses[s as usize].iter().map(|&u| (u, k)).filter(|n| !kept.contains_key(n)));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        let mut wanted = vec![false; sites.len()];
        next.iter().for_each(|&(u, _)| wanted[u as usize] = true);
        walk(p, &mut kept, |d| wanted[d.load as usize] && next.contains(&(d.load, d.load_instance)))?;
        walks += 1;
        frontier = next.into_iter().filter(|n| kept.contains_key(n)).collect();
    }
    // ChainFreq: each execution of u0 counts once for each chain followed from it.
    let mut trie = Trie { nodes: vec![(0, u0)], writer: vec![false], ..Default::default() };
    let mut counts: Vec<u64> = Vec::new();
    let mut reached: Vec<u32> = Vec::new();
    for t in roots {
        reached.clear();
        follow(&kept, uses, &mut trie, 0, (u0, t), depth, &mut reached);
        reached.sort_unstable();
        reached.dedup();
        counts.resize(trie.nodes.len(), 0);
        for &n in &reached {
            counts[n as usize] += 1;
        }
    }
    let mut rows: Vec<ChainRow> =
        (1..trie.nodes.len()).filter(|&n| counts[n] > 0 && trie.writer[n]).map(|n| ChainRow { count: counts[n], links: links(p, &sites, &trie, n) }).collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.links.len().cmp(&b.links.len())).then_with(|| names(a).cmp(&names(b))));
    let mut truncation = crate::Truncation::default();
    truncation.cut("chains", &mut rows, top);
    let s = &sites[u0 as usize];
    Ok(Chains {
        from: if is_ewpp(p) { "extended WPP" } else { "address trace" },
        load: site_name(p, s),
        source: crate::source::block_source(p, s.func, s.block),
        executions: if instance.is_some() { 1 } else { executions },
        instance,
        depth,
        walks,
        chains: rows,
        truncation,
    })
}

fn names(r: &ChainRow) -> Vec<(&str, &str)> {
    r.links.iter().map(|l| (l.use_.as_str(), l.writer.as_str())).collect()
}

/// The chain nodes reached from load execution `at` (whose node is `node`), `depth`
/// writers deep, added to `reached`.
fn follow(kept: &Kept, uses: &[Vec<u32>], trie: &mut Trie, node: u32, at: (u32, u64), depth: usize, reached: &mut Vec<u32>) {
    let Some(writers) = kept.get(&at) else { return };
    for &(w, k) in writers {
        let label = match w {
            Writer::Site(s) => s,
            Writer::Initial => INITIAL,
        };
        let wn = trie.child(node, label);
        reached.push(wn);
        if let (Writer::Site(s), true) = (w, depth > 1) {
            for &u in &uses[s as usize] {
                let un = trie.child(wn, u);
                follow(kept, uses, trie, un, (u, k), depth - 1, reached);
            }
        }
    }
}

/// The links of the chain ending at writer node `n`.
fn links(p: &Profile, sites: &[AccessSite], trie: &Trie, mut n: usize) -> Vec<ChainLink> {
    let mut out = Vec::new();
    while n != 0 {
        let (use_node, writer) = trie.nodes[n];
        let load = trie.nodes[use_node as usize].1;
        let w = if writer == INITIAL { Writer::Initial } else { Writer::Site(writer) };
        let (writer, _, writer_offset, source) = writer_row(p, sites, w);
        let u = &sites[load as usize];
        out.push(ChainLink { use_: site_name(p, u), use_offset: u.at, writer, writer_offset, source });
        n = if use_node == 0 { 0 } else { trie.nodes[use_node as usize].0 as usize };
    }
    out.reverse();
    out
}
