//! The dependence graph's node numbering (each invocation a range of dense ids, checked
//! against its trace when a restored cache numbered it) and the dependence cache: the
//! nodes and dependences found, written as a file and read back in another process.

use super::*;

impl<'a> Slicer<'a> {
    /// The fingerprint of a TWPP that a dependence cache names: its sections' names,
    /// places and checksums.
    pub fn fingerprint(twpp: &Twpp) -> u64 {
        let mut toc = Vec::new();
        for e in &twpp.profile.toc {
            toc.extend_from_slice(e.name.as_bytes());
            toc.push(0);
            toc.extend_from_slice(&e.offset.to_le_bytes());
            toc.extend_from_slice(&e.len.to_le_bytes());
            toc.extend_from_slice(&e.crc32.to_le_bytes());
        }
        let end = twpp.profile.toc.iter().map(|e| e.offset + e.len).max().unwrap_or(0);
        (crc32fast::hash(&toc) as u64) | (end << 32)
    }

    /// The dependence cache: the nodes the slices kept and their dependences, with the
    /// ids they were numbered with, as a file's bytes ([`Slicer::restore`] reads them).
    pub fn cache(&self) -> Vec<u8> {
        let bases: Vec<(u32, u64)> = self.base.iter().enumerate().filter(|(_, &b)| b != u64::MAX).map(|(v, &b)| (v as u32, b)).collect();
        graph::encode(&self.graph, Slicer::fingerprint(self.run.twpp), &bases, self.next_id)
    }

    /// Whether the slices kept something a cache restored (or nothing) does not hold.
    pub fn cache_grew(&self) -> bool {
        (self.graph.len(), self.graph.deps.len()) != self.restored_size
    }

    /// Starts from a dependence cache ([`Slicer::cache`]) written for this TWPP, before
    /// any slice: its nodes and dependences are known at once. The reason when it cannot
    /// be used (written for another TWPP, damaged); the slicer is then unchanged.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<usize, String> {
        if self.graph.len() > 0 || self.next_id > 0 {
            return Err("the slicer has numbered nodes already".into());
        }
        match graph::fingerprint_of(bytes) {
            None => return Err("it is not a dependence cache of this wpp".into()),
            Some(f) if f != Slicer::fingerprint(self.run.twpp) => return Err("it was written for another TWPP".into()),
            Some(_) => {}
        }
        let d = graph::decode(bytes, self.base.len() as u32)?;
        let mut restored: Vec<(u64, u32)> = d.bases.iter().map(|&(v, b)| (b, v)).collect();
        restored.sort_unstable();
        if restored.windows(2).any(|w| w[0].0 == w[1].0) || restored.last().is_some_and(|&(b, _)| b >= d.next_id.max(1)) {
            return Err("its invocations' ranges of ids overlap".into());
        }
        for &(v, b) in &d.bases {
            self.base[v as usize] = b;
        }
        self.restored = restored;
        self.next_id = d.next_id;
        self.graph = d.graph;
        self.restored_size = (self.graph.len(), self.graph.deps.len());
        Ok(self.graph.len())
    }

    /// The dense id of node `n`, located at `p` (its invocation given ids when first
    /// reached).
    pub(super) fn id(&mut self, n: Node, p: &Pos) -> Result<u64, Error> {
        let d = &self.dense[&(p.func, p.pair)];
        let off = &self.layouts[&p.func].off[p.block.idx()];
        let part = n.part.code();
        if part >= (off[p.index + 1] - off[p.index]) as u64 {
            return Err(Error::NoInstruction { func: p.func, at: n.inst.at });
        }
        let local = d.before[n.inst.step as usize - 1] + d.block_off[p.block.idx()] as u64 + off[p.index] as u64 + part;
        let total = *d.before.last().expect("one past the last");
        let v = n.inst.node.idx();
        if self.base[v] == u64::MAX {
            self.base[v] = self.next_id;
            self.next_id += total;
            self.checked[v] = true;
        } else if !self.checked[v] {
            // A base read from a dependence cache: its range must hold the invocation.
            let base = self.base[v];
            let k = self.restored.partition_point(|&(b, _)| b <= base);
            let end = self.restored.get(k).map_or(self.next_id, |&(b, _)| b);
            if base + total > end {
                return Err(self.damaged(format!("the dependence cache numbers invocation {v} with {} nodes, its trace has {total}", end - base)));
            }
            self.checked[v] = true;
        }
        Ok(self.base[v] + local)
    }

    /// The index of node `n` in the graph, added if new.
    pub(super) fn intern(&mut self, n: Node) -> Result<u32, Error> {
        let p = self.locate(n.inst)?;
        let id = self.id(n, &p)?;
        Ok(self.graph.intern(id, n))
    }

    /// The index in the graph of node `n`, if it is there.
    pub(super) fn index_of(&mut self, n: Node) -> Result<Option<u32>, Error> {
        let p = self.locate(n.inst)?;
        let id = self.id(n, &p)?;
        Ok(self.graph.get(id))
    }

    /// Finds and keeps the dependences of the graph's node `i` (once).
    pub(super) fn store(&mut self, i: u32) -> Result<(), Error> {
        if self.graph.deps(i).is_some() {
            return Ok(());
        }
        let node = self.graph.entries[i as usize].node;
        let start = self.arena.len();
        self.find_deps(node)?;
        let mut deps = Vec::with_capacity(self.arena.len() - start);
        for k in start..self.arena.len() {
            let d = self.arena[k];
            deps.push(match d.from {
                Source::Node(m) => graph::GDep::new(d.kind, self.intern(m)?),
                leaf => graph::GDep::leaf(d.kind, leaf),
            });
        }
        self.arena.truncate(start);
        self.graph.set_deps(i, &deps).map_err(|e| self.damaged(e.to_string()))
    }
}
