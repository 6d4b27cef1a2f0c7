//! Progress on stderr, on a terminal only: `Bar` for the libraries' stages, and the
//! grammar's progress after a recorded program ended.

/// Progress on stderr, drawn as a bar (a spinner for a step of unknown length) when stderr
/// is a terminal, and nothing otherwise. Every step that can take over a second reports
/// to one.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    pub fn on_terminal() -> Bar {
        Bar(None)
    }
}

impl wpp_model::progress::Progress for Bar {
    fn stage(&mut self, name: &str, total: Option<u64>) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
        let b = match total {
            Some(n) => indicatif::ProgressBar::with_draw_target(Some(n), indicatif::ProgressDrawTarget::stderr()).with_style(
                indicatif::ProgressStyle::with_template("wpp: {msg} {bar:30} {percent:>3}% of {human_len} ({eta} left)").expect("a valid template"),
            ),
            None => {
                let b = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr())
                    .with_style(indicatif::ProgressStyle::with_template("wpp: {spinner} {msg} ({elapsed})").expect("a valid template"));
                b.enable_steady_tick(std::time::Duration::from_millis(120));
                b
            }
        };
        b.set_message(name.to_owned());
        self.0 = Some(b);
    }

    fn advance(&mut self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}

/// A progress bar for building the grammar after the guest ended, shown once that
/// starts, cleared when it is done.
pub fn grammar_bar() -> impl Fn(wpp_record::BuildProgress) + Send + Sync + 'static {
    let bar = std::sync::OnceLock::<indicatif::ProgressBar>::new();
    move |p| {
        let bar = bar.get_or_init(|| {
            let b = indicatif::ProgressBar::new(p.total);
            b.set_style(
                indicatif::ProgressStyle::with_template("wpp: building the grammar {bar:40} {percent:>3}% ({human_pos}/{human_len} paths, {eta} left)")
                    .expect("a valid template"),
            );
            b
        });
        bar.set_position(p.built);
        if p.built >= p.total {
            bar.finish_and_clear();
        }
    }
}
