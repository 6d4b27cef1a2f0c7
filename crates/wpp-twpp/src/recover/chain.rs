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

use wpp_model::exercised::{Dependence, ExercisedDeps, Writer};
use wpp_model::SiteIdx;
use wpp_profile::Profile;

use super::{exercised, from_addresses, from_ewpp, is_ewpp, sites, unsuitable, Error};

/// The writers each kept load execution read: (writer, its instance).
type Kept = HashMap<(SiteIdx, u64), Vec<(Writer, u64)>>;

/// Runs the profile's recovery once, keeping the dependences of the load executions
/// `keep` accepts.
fn walk(p: &Profile, kept: &mut Kept, mut keep: impl FnMut(&Dependence) -> bool) -> Result<ExercisedDeps, Error> {
    let mut take = |d: &Dependence| {
        if keep(d) {
            kept.entry((d.load, d.load_instance)).or_default().push((d.writer, d.writer_instance));
        }
    };
    let recovered = match is_ewpp(p) {
        true => from_ewpp(p, &mut take)?.0,
        false => from_addresses(p, &mut take)?,
    };
    Ok(recovered.deps)
}

/// The chains followed from one load, as a trie: node 0 is the first load; every other
/// node is a writer's (a chain ending at that writer) or a use's under a writer.
#[derive(Default)]
pub struct Chains {
    /// (parent, label): a writer site (`INITIAL` for the initial memory) or a use site.
    nodes: Vec<(u32, SiteIdx)>,
    /// Whether a node is a writer's.
    writer: Vec<bool>,
    children: HashMap<(u32, SiteIdx), u32>,
    /// Executions of the first load from which the chain ending at each node was followed.
    counts: Vec<u64>,
    /// Executions of the first load in the run.
    pub executions: u64,
    /// Walks of the run the recovery took.
    pub walks: usize,
}

impl Chains {
    fn child(&mut self, parent: u32, label: SiteIdx) -> u32 {
        let next = self.nodes.len() as u32;
        *self.children.entry((parent, label)).or_insert_with(|| {
            self.writer.push(!self.writer[parent as usize]);
            self.nodes.push((parent, label));
            next
        })
    }

    /// Every chain followed, as its writer node, with its frequency.
    pub fn counted(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (1..self.nodes.len()).filter(|&n| self.counts[n] > 0 && self.writer[n]).map(|n| (n, self.counts[n]))
    }

    /// The links of the chain ending at writer node `n`, first load first: each load
    /// site and the writer whose bytes it read.
    pub fn links(&self, mut n: usize) -> Vec<(SiteIdx, Writer)> {
        let mut out = Vec::new();
        while n != 0 {
            let (use_node, writer) = self.nodes[n];
            let load = self.nodes[use_node as usize].1;
            let w = if writer == INITIAL { Writer::Initial } else { Writer::Site(writer) };
            out.push((load, w));
            n = if use_node == 0 { 0 } else { self.nodes[use_node as usize].0 as usize };
        }
        out.reverse();
        out
    }
}

const INITIAL: SiteIdx = SiteIdx(u32::MAX);

/// The chains from load site `u0`, from every execution of it or from its `instance`th,
/// of one to `depth` writers. `uses` is the module's `wpp_wasm::statement_uses` by site.
pub fn follow(p: &Profile, uses: &[Vec<SiteIdx>], u0: SiteIdx, instance: Option<u64>, depth: usize) -> Result<Chains, Error> {
    let sites = sites(p)?;
    if uses.len() != sites.len() {
        return Err(unsuitable(p, format!("the module has {} access sites, the profile {}: not the module recorded", uses.len(), sites.len())));
    }
    if exercised(p)?.is_some() {
        return Err(unsuitable(
            p,
            "chains need each load execution's writers: record with `--mode addresses` or `--mode ewpp` (a filtering run keeps totals only)",
        ));
    }
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
    let mut frontier: Vec<(SiteIdx, u64)> = kept.keys().copied().collect();
    for _ in 1..depth {
        let mut next: HashSet<(SiteIdx, u64)> = HashSet::new();
        for key in &frontier {
            for &(w, k) in &kept[key] {
                if let Writer::Site(s) = w {
                    next.extend(uses[s.idx()].iter().map(|&u| (u, k)).filter(|n| !kept.contains_key(n)));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        let mut wanted = vec![false; sites.len()];
        next.iter().for_each(|&(u, _)| wanted[u.idx()] = true);
        walk(p, &mut kept, |d| wanted[d.load.idx()] && next.contains(&(d.load, d.load_instance)))?;
        walks += 1;
        frontier = next.into_iter().filter(|n| kept.contains_key(n)).collect();
    }
    // ChainFreq: each execution of u0 counts once for each chain followed from it.
    let mut trie = Chains { nodes: vec![(0, u0)], writer: vec![false], executions, walks, ..Default::default() };
    let mut reached: Vec<u32> = Vec::new();
    for t in roots {
        reached.clear();
        follow_from(&kept, uses, &mut trie, 0, (u0, t), depth, &mut reached);
        reached.sort_unstable();
        reached.dedup();
        trie.counts.resize(trie.nodes.len(), 0);
        for &n in &reached {
            trie.counts[n as usize] += 1;
        }
    }
    trie.counts.resize(trie.nodes.len(), 0);
    Ok(trie)
}

/// The chain nodes reached from load execution `at` (whose node is `node`), `depth`
/// writers deep, added to `reached`.
fn follow_from(kept: &Kept, uses: &[Vec<SiteIdx>], trie: &mut Chains, node: u32, at: (SiteIdx, u64), depth: usize, reached: &mut Vec<u32>) {
    let Some(writers) = kept.get(&at) else { return };
    for &(w, k) in writers {
        let label = match w {
            Writer::Site(s) => s,
            Writer::Initial => INITIAL,
        };
        let wn = trie.child(node, label);
        reached.push(wn);
        if let (Writer::Site(s), true) = (w, depth > 1) {
            for &u in &uses[s.idx()] {
                let un = trie.child(wn, u);
                follow_from(kept, uses, trie, un, (u, k), depth - 1, reached);
            }
        }
    }
}
