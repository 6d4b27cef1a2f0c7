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

/// The time of each step `write_report` announced.
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
        self.secs_of(|n| n == name)
    }

    fn secs_of(&self, wanted: impl Fn(&str) -> bool) -> f64 {
        self.done.iter().filter(|(n, _)| wanted(n)).map(|(_, s)| s).sum()
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
        let (events, symbols) = {
            let prof = wpp_profile::Profile::open(&profile)?;
            (prof.meta.events, prof.grammar()?.stats().symbols)
        };
        let html = keep.join(format!("{}.html", p.name));
        let request = wpp_html::Request {
            run: None,
            profile: &profile,
            output: &html,
            options: wpp_html::Options::default(),
            twpp: None,
            dot: std::path::Path::new("dot"),
            source_map: &[],
        };
        let live = alloc::reset_peak();
        let mut steps = Steps::default();
        let start = Instant::now();
        let written = wpp_html::write_report::<std::convert::Infallible>(&request, None, &mut steps)?;
        steps.end();
        let total = start.elapsed().as_secs_f64();
        let peak = alloc::peak().saturating_sub(live) as f64 / (1u64 << 20) as f64;
        anyhow::ensure!(written.not_drawn.is_none(), "{}: {}", p.name, written.not_drawn.unwrap_or_default());
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
        let open = steps.secs("reading the profile");
        let decode = steps.secs("decoding the grammar");
        let calls = steps.secs("reading the calls");
        let dot = steps.secs_of(|name| name.starts_with("laying out"));
        let render = steps.secs("writing the page");
        writeln!(
            out,
            "{:<14} {:>12} {:>10} {:>8} {:>9} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.2} {:>9.1} {:>8} {:>8}",
            p.name,
            events,
            symbols,
            written.drawings,
            written.bytes.div_ceil(1024),
            open,
            decode,
            calls,
            total - open - decode - calls - dot - render,
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
