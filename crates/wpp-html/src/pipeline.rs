//! `wpp report` end to end, for the command line and the benchmark alike: the profile
//! opened and its grammar decoded once, the extras (a TWPP file of the same run, data
//! flow frequencies computed by the caller on the decoded run) added, the analyses built,
//! the drawings laid out with one run of `dot`, the sources read (through a source map
//! when they were built elsewhere), and the page written atomically.

use std::path::{Path, PathBuf};

use wpp_profile::Profile;
use wpp_report::dataflow::DffReport;
use wpp_report::Dag;

use crate::report::Input;
use crate::{Error, Options, Progress};

/// What a page is made from.
pub struct Request<'a> {
    pub profile: &'a Path,
    /// Of a merged profile, only this run (from 1); the sum of the runs when `None`.
    pub run: Option<usize>,
    /// The page, replaced whole (or left as it was if making it fails).
    pub output: &'a Path,
    pub options: Options,
    /// A TWPP file of the same run.
    pub twpp: Option<&'a Path>,
    /// Graphviz's `dot`.
    pub dot: &'a Path,
    /// Source names starting with the first string are read under the directory instead
    /// (the first that reads wins, then the name itself).
    pub source_map: &'a [(String, PathBuf)],
}

/// Why a page could not be made: the page's own steps, or the caller's data flow.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError<E: std::error::Error + 'static> {
    #[error(transparent)]
    Page(#[from] Error),
    #[error(transparent)]
    Dataflow(E),
}

/// Data flow frequencies the caller computes on the run decoded for the page.
pub type Dataflow<'a, E> = &'a dyn Fn(&Dag) -> Result<DffReport, E>;

/// A page written.
pub struct Written {
    pub bytes: usize,
    pub drawings: usize,
    /// Why the paths are not drawn, when `dot` could not lay them out.
    pub not_drawn: Option<String>,
}

/// Makes the page `request` asks for, with data flow frequencies from `dataflow` when
/// given (called once, on the run decoded for the page), telling `progress` of each step.
pub fn write_report<E: std::error::Error + 'static>(
    request: &Request,
    dataflow: Option<Dataflow<'_, E>>,
    progress: &mut dyn Progress,
) -> Result<Written, PipelineError<E>> {
    // A page that cannot be written is refused before the work, not after it.
    if request.output.is_dir() {
        let source = std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a directory");
        return Err(Error::Write { path: request.output.to_owned(), source }.into());
    }
    progress.stage("reading the profile", None);
    let profile = match request.run {
        Some(n) => Profile::open_run(request.profile, n),
        None => Profile::open(request.profile),
    };
    let input = Input::of(profile.map_err(Error::from)?, progress)?;
    let mut extras = crate::Extras::default();
    if let Some(t) = request.twpp {
        progress.stage("reading the TWPP file", None);
        let t = wpp_twpp::Twpp::open(t).map_err(|e| Error::Twpp(Box::new(e)))?;
        extras.twpp = Some(crate::twpp_view(&t, input.profile())?);
    }
    if let Some(dataflow) = dataflow {
        progress.stage("computing data flow frequencies", None);
        let report = match input.dag() {
            Some(dag) => dataflow(dag),
            // Refused as every analysis of a whole program path refuses a profile of counts.
            None => dataflow(&Dag::open(request.profile).map_err(Error::from)?),
        };
        extras.dataflow = Some(report.map_err(PipelineError::Dataflow)?);
    }
    let report = crate::build(input, &request.options, extras, progress)?;
    progress.stage(&format!("laying out {} drawings with {}", report.drawings.len(), request.dot.display()), None);
    let dots: Vec<&str> = report.drawings.iter().map(|d| d.dot.as_str()).collect();
    let laid_out = crate::graphviz::layout(request.dot, &dots);
    progress.stage("writing the page", None);
    let read = |file: &str| wpp_report::read_source(file, request.source_map).map(|(_, text)| text);
    let page = match &laid_out {
        Ok(svgs) => crate::render(&report, Ok(svgs), &read),
        Err(why) => crate::render(&report, Err(why), &read),
    };
    wpp_profile::write_atomically(request.output, |w| w.write_all(page.as_bytes()))
        .map_err(|source| Error::Write { path: request.output.to_owned(), source })?;
    Ok(Written { bytes: page.len(), drawings: report.drawings.len(), not_drawn: laid_out.err() })
}
