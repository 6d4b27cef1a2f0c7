//! The rows of `wpp deps --chain`: the chains of memory dependences from one load
//! ([`wpp_twpp::recover::chain`] follows them), each link named and placed in the source.

use wpp_model::SiteIdx;
use wpp_profile::Profile;

use super::{select, site_name, sites, unsuitable, writer_row};
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

/// The chains from load `use_` (one load, as `wpp deps --use` names it), from every
/// execution of it or from its `instance`th, of one to `depth` writers. `uses` is the
/// module's `wpp_wasm::statement_uses` by site.
pub fn chains(p: &Profile, uses: &[Vec<SiteIdx>], use_: &str, instance: Option<u64>, depth: usize, top: crate::Top) -> Result<Chains, Error> {
    let sites = sites(p)?;
    if uses.len() != sites.len() {
        return Err(unsuitable(p, format!("the module has {} access sites, the profile {}: not the module recorded", uses.len(), sites.len())));
    }
    if wpp_twpp::recover::exercised(p)?.is_some() {
        return Err(unsuitable(
            p,
            "chains need each load execution's writers: record with `--mode addresses` or `--mode ewpp` (a filtering run keeps totals only)",
        ));
    }
    let u0 = match select(p, &sites, Some(use_))?.as_slice() {
        [one] => *one,
        many => {
            let names: Vec<String> = many.iter().take(5).map(|&l| site_name(p, &sites[l.idx()])).collect();
            let more = if many.len() > 5 { ", ..." } else { "" };
            return Err(unsuitable(p, format!("--chain starts from one load; --use {use_} names {}: {}{more}", many.len(), names.join(", "))));
        }
    };
    let followed = wpp_twpp::recover::chain::follow(p, uses, u0, instance, depth)?;
    let link = |(load, w): (SiteIdx, wpp_model::exercised::Writer)| {
        let (writer, _, writer_offset, source) = writer_row(p, &sites, w);
        let u = &sites[load.idx()];
        ChainLink { use_: site_name(p, u), use_offset: u.at, writer, writer_offset, source }
    };
    let mut rows: Vec<ChainRow> = followed.counted().map(|(n, count)| ChainRow { count, links: followed.links(n).into_iter().map(link).collect() }).collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.links.len().cmp(&b.links.len())).then_with(|| names(a).cmp(&names(b))));
    let mut truncation = crate::Truncation::default();
    truncation.cut("chains", &mut rows, top);
    let s = &sites[u0.idx()];
    Ok(Chains {
        from: if wpp_twpp::recover::is_ewpp(p) { "extended WPP" } else { "address trace" },
        load: site_name(p, s),
        source: crate::source::block_source(p, s.func, s.block),
        executions: if instance.is_some() { 1 } else { followed.executions },
        instance,
        depth: depth.max(1),
        walks: followed.walks,
        chains: rows,
        truncation,
    })
}

fn names(r: &ChainRow) -> Vec<(&str, &str)> {
    r.links.iter().map(|l| (l.use_.as_str(), l.writer.as_str())).collect()
}
