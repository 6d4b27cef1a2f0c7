//! A function's CFG with some of its paths on it, as a Graphviz graph: blocks as boxes
//! labelled with their source lines (or bytes), the paths' blocks and edges highlighted,
//! every edge coloured and thickened by how often it ran. In a large function, the blocks
//! the paths neither touch nor neighbour collapse into one box per run of block indices
//! (only the runs an edge of a shown block reaches are drawn), and a block that branches
//! to many of them gets one box for them all.
//!
//! Laying the graph out is the caller's (Graphviz's `dot`); the SVG it makes keeps each
//! highlighted block's `id` (`DRAWING-bN`) and the class `onpath`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use wpp_model::{BlockIdx, Cfg, Target};

use crate::text::{compact, dot_escape};
use wpp_report::heat::Heat;

/// Edges from one block to collapsed runs beyond this many are drawn as one.
const FAN_OUT: usize = 4;

/// What a block's label and link say.
pub struct BlockLabel {
    /// Source lines (`file.c:12-14`) or bytes (`0x1a2-0x1c0`).
    pub text: String,
    /// Where the label links to (a source line in the page).
    pub href: Option<String>,
}

/// What to draw.
pub struct Request<'a> {
    /// The drawing's id in the page; highlighted blocks are `ID-bN`.
    pub id: &'a str,
    pub cfg: &'a Cfg,
    pub heat: &'a Heat,
    /// The paths to highlight, each as its blocks; consecutive ones are joined by the
    /// edge between them when there is one (iterations of a loop).
    pub paths: &'a [Vec<BlockIdx>],
    pub label: &'a dyn Fn(BlockIdx) -> BlockLabel,
    /// Functions with more blocks than this collapse what the paths do not reach.
    pub collapse_above: usize,
}

/// A drawing as Graphviz source, and what it left out.
pub struct Dot {
    pub source: String,
    pub blocks_shown: usize,
    pub blocks_collapsed: usize,
}

/// A node of the drawing: a block, a run of collapsed blocks, or the exit.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    Block(u32),
    Collapsed(u32),
    Exit,
}

fn node_name(n: Node) -> String {
    match n {
        Node::Block(b) => format!("b{b}"),
        Node::Collapsed(first) => format!("c{first}"),
        Node::Exit => "exit".into(),
    }
}

/// The colour of a count on a log scale from cold grey to hot red, and a pen width.
fn heat_style(count: Option<u64>, max: u64) -> (String, f64) {
    let Some(c) = count else { return ("#9aa0a6".into(), 1.0) };
    if c == 0 {
        return ("#d0d4d9".into(), 0.8);
    }
    let t = ((c as f64 + 1.0).ln() / (max as f64 + 1.0).ln()).clamp(0.0, 1.0);
    // grey (0.62, 0.64, 0.66) to orange (0.96, 0.6, 0.1) to red (0.84, 0.15, 0.16)
    let (a, b, u) = if t < 0.5 { ((0.62, 0.64, 0.66), (0.96, 0.6, 0.1), t * 2.0) } else { ((0.96, 0.6, 0.1), (0.84, 0.15, 0.16), t * 2.0 - 1.0) };
    let mix = |x: f64, y: f64| ((x + (y - x) * u) * 255.0).round() as u8;
    (format!("#{:02x}{:02x}{:02x}", mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2)), 1.0 + 3.0 * t)
}

/// The Graphviz graph of a request.
pub fn draw(r: &Request) -> Dot {
    let cfg = r.cfg;
    let n = cfg.n_blocks();
    let on_path: BTreeSet<u32> = r.paths.iter().flatten().map(|b| b.0).collect();
    let mut path_edges: BTreeSet<(u32, Target)> = BTreeSet::new();
    let mut prev_last: Option<BlockIdx> = None;
    for p in r.paths {
        for w in p.windows(2) {
            path_edges.insert((w[0].0, Target::Block(w[1])));
        }
        if let (Some(last), Some(&first)) = (prev_last, p.first()) {
            path_edges.insert((last.0, Target::Block(first)));
        }
        prev_last = p.last().copied();
    }
    // Which blocks are shown: all, or in a large function those on the paths, their
    // neighbours and the entry.
    let mut shown: BTreeSet<u32> = BTreeSet::new();
    if n <= r.collapse_above || on_path.is_empty() {
        shown.extend(0..n as u32);
    } else {
        shown.insert(0);
        shown.extend(on_path.iter().copied());
        // The paths' neighbours, hottest first, as many as the paths have blocks (at
        // least a dozen, at most thirty): a dispatch block's hundred targets stay
        // collapsed.
        let mut neighbours: Vec<u32> = Vec::new();
        for e in &cfg.edges {
            if let Target::Block(t) = e.to {
                if on_path.contains(&e.from.0) || on_path.contains(&t.0) {
                    neighbours.extend([e.from.0, t.0].into_iter().filter(|b| !on_path.contains(b)));
                }
            }
        }
        neighbours.sort_unstable();
        neighbours.dedup();
        neighbours.sort_by_key(|&b| (std::cmp::Reverse(r.heat.blocks[b as usize]), b));
        shown.extend(neighbours.into_iter().take(on_path.len().clamp(12, 30)));
    }
    // Each hidden block belongs to the run of hidden indices it is in, named by its first.
    let mut run_of = vec![None; n];
    let mut runs: BTreeMap<u32, (u32, u64)> = BTreeMap::new();
    let mut b = 0u32;
    while (b as usize) < n {
        if shown.contains(&b) {
            b += 1;
            continue;
        }
        let first = b;
        let mut ran = 0u64;
        while (b as usize) < n && !shown.contains(&b) {
            run_of[b as usize] = Some(first);
            ran = ran.max(r.heat.blocks[b as usize]);
            b += 1;
        }
        runs.insert(first, (b - 1, ran));
    }
    let node_of = |b: u32| run_of[b as usize].map_or(Node::Block(b), Node::Collapsed);
    let max = r.heat.max();
    let mut s = String::new();
    let _ = writeln!(s, "digraph \"{}\" {{", dot_escape(r.id));
    // The graph's id prefixes the ids Graphviz gives nodes and edges, unique in the page.
    let _ = writeln!(s, "  graph [id=\"{}-g\", fontname=\"Helvetica\", nodesep=0.25, ranksep=0.3, bgcolor=\"transparent\"];", dot_escape(r.id));
    s.push_str("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10, height=0.3, margin=\"0.08,0.03\"];\n");
    s.push_str("  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n");
    for &b in &shown {
        let label = (r.label)(BlockIdx(b));
        let runs_here = r.heat.blocks[b as usize];
        let text = format!("b{b}  ×{}\n{}", compact(runs_here), label.text);
        let mut attrs = format!("label=\"{}\"", dot_escape(&text));
        if let Some(h) = &label.href {
            let _ = write!(attrs, ", URL=\"{}\", tooltip=\"{}\"", dot_escape(h), dot_escape(&label.text));
        }
        if on_path.contains(&b) {
            let _ = write!(attrs, ", id=\"{}-b{b}\", class=\"onpath\", fillcolor=\"#ffd966\", color=\"#1f5fd6\", penwidth=2.2", dot_escape(r.id));
        } else if runs_here == 0 {
            attrs.push_str(", fillcolor=\"#f1f3f4\", fontcolor=\"#80868b\", color=\"#bdc1c6\", style=\"rounded,filled,dashed\"");
        }
        let _ = writeln!(s, "  b{b} [{attrs}];");
    }
    // The edges drawn: between shown blocks, from shown blocks to collapsed runs and back
    // (once per pair), to the exit.
    let mut edges: Vec<(Node, Node, usize)> = Vec::new();
    let mut drawn: BTreeSet<(Node, Node)> = BTreeSet::new();
    for (i, e) in cfg.edges.iter().enumerate() {
        let from = node_of(e.from.0);
        let to = match e.to {
            Target::Block(t) => node_of(t.0),
            Target::Exit => Node::Exit,
        };
        let hidden_end = matches!(from, Node::Collapsed(_)) || matches!(to, Node::Collapsed(_));
        if matches!((from, to), (Node::Collapsed(_), Node::Collapsed(_)) | (Node::Collapsed(_), Node::Exit)) {
            continue;
        }
        // Only the paths' own blocks show where they could have gone instead.
        let off_path = |n: Node| matches!(n, Node::Block(b) if !on_path.contains(&b));
        if hidden_end && (off_path(from) || off_path(to) || !drawn.insert((from, to))) {
            continue;
        }
        edges.push((from, to, i));
    }
    // A block that branches to many collapsed runs (a dispatch) gets one note for them
    // all: a hundred edges would cost the layout seconds and say nothing.
    let mut fan: BTreeMap<u32, (usize, u64, bool)> = BTreeMap::new();
    for &(from, to, i) in &edges {
        if let (Node::Block(b), Node::Collapsed(_)) = (from, to) {
            let f = fan.entry(b).or_insert((0, 0, true));
            f.0 += 1;
            match r.heat.edges[i] {
                Some(c) => f.1 += c,
                None => f.2 = false,
            }
        }
    }
    fan.retain(|_, f| f.0 > FAN_OUT);
    edges.retain(|&(from, to, _)| !matches!((from, to), (Node::Block(b), Node::Collapsed(_)) if fan.contains_key(&b)));
    let used: BTreeSet<u32> = edges
        .iter()
        .flat_map(|&(from, to, _)| [from, to])
        .filter_map(|n| match n {
            Node::Collapsed(first) => Some(first),
            _ => None,
        })
        .collect();
    for (&first, &(last, ran)) in runs.iter().filter(|(first, _)| used.contains(first)) {
        let count = last - first + 1;
        let what = if ran == 0 { "not run" } else { "off the path" };
        let text = if count == 1 { format!("b{first}: {what}") } else { format!("b{first}–b{last}: {count} blocks {what}") };
        let _ = writeln!(s, "  c{first} [label=\"{}\", shape=note, style=\"dashed\", fontcolor=\"#5f6368\", class=\"collapsed\"];", dot_escape(&text));
    }
    for (&b, &(targets, count, known)) in &fan {
        let _ =
            writeln!(s, "  f{b} [label=\"{targets} more targets, off the path\", shape=note, style=\"dashed\", fontcolor=\"#5f6368\", class=\"collapsed\"];");
        let count = known.then_some(count);
        let (colour, width) = heat_style(count, max);
        let label = count.map(|c| format!("label=\"{}\", ", compact(c))).unwrap_or_default();
        let _ = writeln!(s, "  b{b} -> f{b} [{label}color=\"{colour}\", penwidth={width:.1}];");
    }
    let mut has_exit = false;
    for &(from, to, i) in &edges {
        let e = &cfg.edges[i];
        let hidden_end = matches!(from, Node::Collapsed(_)) || matches!(to, Node::Collapsed(_));
        has_exit |= to == Node::Exit;
        let count = r.heat.edges[i];
        let (colour, width) = heat_style(count, max);
        let mut attrs = match count {
            Some(c) if !hidden_end => format!("label=\"{}\"", compact(c)),
            _ => String::new(),
        };
        let sep = if attrs.is_empty() { "" } else { ", " };
        if path_edges.contains(&(e.from.0, e.to)) {
            let _ = write!(attrs, "{sep}color=\"#1f5fd6\", penwidth={:.1}, class=\"onpath\", fontcolor=\"#1f5fd6\"", width.max(2.5));
        } else {
            let _ = write!(attrs, "{sep}color=\"{colour}\", penwidth={width:.1}");
        }
        match e.kind {
            wpp_model::EdgeKind::Back => attrs.push_str(", style=\"dashed\""),
            wpp_model::EdgeKind::Call => attrs.push_str(", arrowhead=\"dot\""),
            wpp_model::EdgeKind::Catch | wpp_model::EdgeKind::Throw => attrs.push_str(", style=\"dotted\", arrowhead=\"vee\""),
            _ => {}
        }
        let _ = writeln!(s, "  {} -> {} [{attrs}];", node_name(from), node_name(to));
    }
    if has_exit {
        s.push_str("  exit [label=\"exit\", shape=oval, fillcolor=\"#e8eaed\", fontsize=9];\n");
    }
    s.push_str("}\n");
    Dot { source: s, blocks_shown: shown.len(), blocks_collapsed: n - shown.len() }
}
