//! The sinks of a run that records memory accesses beside its paths
//! (`wpp_wasm::Options::accesses`): the event stream split into path events and access
//! events ([`Split`]), then
//!
//! * [`AddressesSink`]: the paths to a [`GrammarSink`] (the whole program path, as in
//!   grammar mode), the accesses to a second one as the address trace: values only
//!   (addresses, lengths, how many ranges a host call wrote), the sites being those the
//!   control flow runs through;
//! * [`FilterSink`]: the paths counted, the accesses followed by a
//!   [`Tracker`] into the dependences the run exercised (the filtering run).

use std::collections::BTreeMap;

use wpp_model::access_event::{AccessEvent, AccessSite, Event, EventDecoder, SiteKind};
use wpp_model::exercised::{ExercisedDeps, Tracker};
use wpp_model::SiteIdx;
use wpp_runtime::{EventSink, SinkError};

use crate::sink::{BuildProgress, BuiltGrammar, GrammarSink, TraceStats};

/// Decodes a stream of path and access events, re-encoding the path events as words.
pub struct Split {
    decoder: EventDecoder,
    bulk: Vec<bool>,
    /// Scratch: the path events of the last buffer, as words.
    paths: Vec<u64>,
}

impl Split {
    pub fn new(sites: &[AccessSite]) -> Self {
        Split { decoder: EventDecoder::default(), bulk: sites.iter().map(AccessSite::is_bulk).collect(), paths: Vec::new() }
    }

    /// Whether the stream ended inside a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event()
    }

    /// Splits `words`: each access to `access`, in order; the path words are returned.
    fn feed(&mut self, words: &[u64], mut access: impl FnMut(AccessEvent)) -> &[u64] {
        let Split { decoder, bulk, paths } = self;
        paths.clear();
        decoder.feed(
            words,
            |s| bulk.get(s as usize).copied().unwrap_or(false),
            |e| match e {
                Event::Path(p) => p.encode(paths),
                Event::Access(a) => access(a),
            },
        );
        paths
    }
}

/// The whole program path and the address trace, each built into a grammar.
pub struct AddressesSink {
    split: Split,
    sites: Vec<AccessSite>,
    paths: GrammarSink,
    addresses: GrammarSink,
    /// Scratch: the address trace's values of the last buffer, as words.
    values: Vec<u64>,
    /// Accesses seen.
    pub n_accesses: u64,
    error: Option<SinkError>,
}

/// What [`AddressesSink::finish`] gives back.
pub struct BuiltAddresses {
    pub paths: BuiltGrammar,
    pub addresses: BuiltGrammar,
    pub n_accesses: u64,
}

impl AddressesSink {
    /// `paths` and `addresses` are the two grammar sinks (the second numbering no
    /// functions: its terminals are values).
    pub fn new(sites: Vec<AccessSite>, paths: GrammarSink, addresses: GrammarSink) -> Self {
        AddressesSink { split: Split::new(&sites), sites, paths, addresses, values: Vec::new(), n_accesses: 0, error: None }
    }

    pub fn is_truncated(&self) -> bool {
        self.split.is_truncated() || self.paths.is_truncated()
    }

    /// Both grammars, built on up to `threads` threads (`progress` hears of the paths').
    pub fn finish(self, threads: usize, progress: impl FnMut(BuildProgress)) -> Result<BuiltAddresses, SinkError> {
        let paths = self.paths.finish(threads, progress)?;
        let addresses = self.addresses.finish(threads, |_| {})?;
        Ok(BuiltAddresses { paths, addresses, n_accesses: self.n_accesses })
    }
}

/// The address trace's values of one access: its first byte, and a bulk access's length
/// (for a host call, how many ranges it wrote).
fn values(site: &AccessSite, a: AccessEvent, out: &mut Vec<u64>) {
    out.push(a.addr as u64);
    if let (true, Some(len)) = (site.is_bulk(), a.len) {
        out.push(len);
    }
}

impl EventSink for AddressesSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        let AddressesSink { split, sites, values: vals, n_accesses, error, .. } = self;
        vals.clear();
        let paths = split.feed(words, |a| match sites.get(a.site as usize) {
            Some(s) => {
                *n_accesses += 1;
                values(s, a, vals)
            }
            None => *error = Some(format!("an access event names site {}, past the module's {}", a.site, sites.len()).into()),
        });
        if let Some(e) = error.take() {
            return Err(e);
        }
        self.paths.events(paths)?;
        self.addresses.events(&self.values)
    }

    fn idle(&mut self) -> Result<bool, SinkError> {
        Ok(self.paths.idle()? | self.addresses.idle()?)
    }
}

/// The filtering run's sink: path counts, and the dependences exercised.
pub struct FilterSink {
    split: Split,
    tracker: Tracker,
    pub stats: TraceStats,
    pub exercised: ExercisedDeps,
    pub n_accesses: u64,
    error: Option<SinkError>,
}

impl FilterSink {
    pub fn new(sites: Vec<AccessSite>, stats: TraceStats) -> Result<Self, SinkError> {
        let split = Split::new(&sites);
        let tracker = Tracker::new(sites).map_err(|e| SinkError::from(e.to_string()))?;
        Ok(FilterSink { split, tracker, stats, exercised: ExercisedDeps::default(), n_accesses: 0, error: None })
    }

    pub fn is_truncated(&self) -> bool {
        self.split.is_truncated() || self.stats.is_truncated()
    }

    /// The dependences, with every load site's executions.
    pub fn finish(mut self) -> (TraceStats, ExercisedDeps) {
        let mut loads = BTreeMap::new();
        for (i, s) in self.tracker.sites().iter().enumerate() {
            let n = self.tracker.instances(SiteIdx(i as u32));
            if matches!(s.kind, SiteKind::Read { .. }) && n > 0 {
                loads.insert(SiteIdx(i as u32), n);
            }
        }
        self.exercised.loads = loads;
        (self.stats, self.exercised)
    }

    /// Bytes of shadow memory the tracker holds.
    pub fn memory_bytes(&self) -> usize {
        self.tracker.memory_bytes()
    }
}

impl EventSink for FilterSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        let FilterSink { split, tracker, exercised, n_accesses, error, .. } = self;
        let paths = split.feed(words, |a| {
            *n_accesses += 1;
            if let Err(e) = tracker.access(SiteIdx(a.site), a.addr, a.len, |d| exercised.add(&d)) {
                error.get_or_insert_with(|| e.to_string().into());
            }
        });
        if let Some(e) = error.take() {
            return Err(e);
        }
        self.stats.events(paths)
    }
}
