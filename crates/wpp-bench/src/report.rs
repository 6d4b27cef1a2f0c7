//! `wpp-bench report`: the HTML report of each workload run — how long each step of making
//! it takes, its peak heap, the page's size, and (with `--browser`) how fast headless
//! Chromium paints and loads it.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use wpp_record::{Builder, RecordMode, Recorder};

use crate::alloc;
use crate::workloads::{load, WorkloadArgs};

/// Time making each workload run's HTML report, step by step, and the page's size and load.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Load each page in headless Chromium with this script (the report test's
    /// `crates/wpp-cli/tests/browser/check.mjs`, after `npm ci` there) and print its first
    /// paint and load times.
    #[arg(long, value_name = "CHECK.mjs")]
    browser: Option<PathBuf>,
    /// Keep the pages in this directory (as PROGRAM.html).
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
}

/// The time of each step `build` announced.
#[derive(Default)]
struct Steps {
    current: Option<(String, Instant)>,
    done: Vec<(String, f64)>,
}

impl Steps {
    fn end(&mut self) {
        if let Some((name, t)) = self.current.take() {
            self.done.push((name, t.elapsed().as_secs_f64()));
        }
    }

    fn secs(&self, name: &str) -> f64 {
        self.done.iter().filter(|(n, _)| n == name).map(|(_, s)| s).sum()
    }
}

impl wpp_html::Progress for Steps {
    fn stage(&mut self, name: &str, _: Option<u64>) {
        self.end();
        self.current = Some((name.to_owned(), Instant::now()));
    }

    fn advance(&mut self, _: u64) {}
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let Some(w) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    let dir = tempfile::tempdir()?;
    let keep = o.keep.clone().unwrap_or_else(|| dir.path().to_owned());
    std::fs::create_dir_all(&keep)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<14} {:>12} {:>10} {:>8} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>8} {:>8}",
        "program",
        "events",
        "symbols",
        "drawings",
        "page KiB",
        "open s",
        "decode s",
        "calls s",
        "other s",
        "dot s",
        "render s",
        "total s",
        "peak MiB",
        "paint ms",
        "load ms"
    )?;
    for (p, run) in &w.runs {
        eprint!("wpp-bench report: {} ...\r", p.name);
        let (wasm, cfg) = load(&w.dir, p, run)?;
        let profile = dir.path().join(format!("{}.wpp", p.name));
        Recorder::from_bytes(&p.name, wasm)?.mode(RecordMode::Grammar(Builder::Sequitur1)).run_config(cfg).record(&profile)?;
        let live = alloc::reset_peak();
        let start = Instant::now();
        let t = Instant::now();
        let prof = wpp_profile::Profile::open(&profile)?;
        let open = t.elapsed().as_secs_f64();
        let (events, symbols) = (prof.meta.events, prof.grammar()?.stats().symbols);
        let mut steps = Steps::default();
        let t = Instant::now();
        let report = wpp_html::build(prof, &wpp_html::Options::default(), wpp_html::Extras::default(), &mut steps)?;
        steps.end();
        let build = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let dots: Vec<&str> = report.drawings.iter().map(|d| d.dot.as_str()).collect();
        let svgs = wpp_html::graphviz::layout(std::path::Path::new("dot"), &dots).map_err(anyhow::Error::msg)?;
        let dot = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let page = wpp_html::render(&report, Ok(&svgs), &|_| None);
        let render = t.elapsed().as_secs_f64();
        let total = start.elapsed().as_secs_f64();
        let peak = alloc::peak().saturating_sub(live) as f64 / (1u64 << 20) as f64;
        let html = keep.join(format!("{}.html", p.name));
        std::fs::write(&html, &page)?;
        let (paint, loaded) = match &o.browser {
            Some(script) => {
                let shot = dir.path().join(format!("{}.png", p.name));
                let r = std::process::Command::new("node").arg(script).arg(std::path::absolute(&html)?).arg(&shot).output()?;
                anyhow::ensure!(r.status.success(), "{}: {}", script.display(), String::from_utf8_lossy(&r.stderr));
                let v: serde_json::Value = serde_json::from_slice(&r.stdout)?;
                anyhow::ensure!(v["errors"].as_array().is_some_and(|e| e.is_empty()), "{}: errors in the browser: {}", p.name, v["errors"]);
                (format!("{:.0}", v["paint"].as_f64().unwrap_or(f64::NAN)), v["loadMs"].to_string())
            }
            None => ("-".into(), "-".into()),
        };
        let decode = steps.secs("decoding the grammar");
        let calls = steps.secs("reading the calls");
        writeln!(
            out,
            "{:<14} {:>12} {:>10} {:>8} {:>9} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.2} {:>9.1} {:>8} {:>8}",
            p.name,
            events,
            symbols,
            report.drawings.len(),
            page.len().div_ceil(1024),
            open,
            decode,
            calls,
            build - decode - calls,
            dot,
            render,
            total,
            peak,
            paint,
            loaded
        )?;
    }
    Ok(())
}
