//! How the command line follows planning ([`crate::plan`]): notes on stderr, a progress bar
//! while pattern databases are built, and plan errors as [`CliError`]s with their exit codes.

use std::time::Instant;

use super::CliError;
use crate::heuristic::ResolveError;
use crate::heuristic::pdb::builder::BuildProgress;
use crate::heuristic::{HeuristicChoice, Resolved};
use crate::plan::{Hardware, Note, PlanError, Purpose, Request, Watch};
use crate::puzzle::Goal;
use crate::search::Algorithm;

/// The terminal: notes as `npuzzle: …` lines on stderr, builds as a progress bar there.
pub(super) struct Terminal {
    bar: indicatif::ProgressBar,
    /// The heuristic asked for, as the bar names it.
    name: String,
    /// An instant and the limit it stands for, in seconds: a build that runs past it stops.
    deadline: Option<(Instant, f64)>,
    /// What was chosen and built, as said ([`Terminal::chosen`]).
    said: std::sync::Mutex<Vec<String>>,
}

impl Terminal {
    /// Follows the planning of `heuristic` (its name, for the bar); `deadline`: stop a build
    /// that runs past it.
    pub(super) fn new(heuristic: &impl ToString, deadline: Option<(Instant, f64)>) -> Terminal {
        // Drawn from the first build step on, not before (notes would draw an empty bar).
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(0),
            indicatif::ProgressDrawTarget::hidden(),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "building {msg} {bar:30} {pos}/{len} entries {elapsed_precise}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Terminal {
            bar,
            name: heuristic.to_string(),
            deadline,
            said: std::sync::Mutex::default(),
        }
    }

    /// Notes only, no progress bar (nothing is built).
    pub(super) fn quiet() -> Terminal {
        Terminal {
            bar: indicatif::ProgressBar::hidden(),
            name: String::new(),
            deadline: None,
            said: std::sync::Mutex::default(),
        }
    }

    /// `e` as the command line reports it: a heuristic that does not fit the board named with
    /// the option `flag` it came from (`"--heuristic "`), a build stopped at the deadline as the
    /// time limit, an insisted-on GPU that cannot as bad usage or this machine's limit.
    pub(super) fn error(&self, e: PlanError, flag: &str) -> CliError {
        match e {
            PlanError::Heuristic(e) => resolve_error(e, flag, self.deadline),
            #[cfg(feature = "gpu")]
            PlanError::Gpu(g) => {
                use crate::eval::gpu::GpuError;
                let message = format!("--evaluator gpu: {g}");
                match g {
                    GpuError::TooLarge(..)
                    | GpuError::TooLargeForIda(..)
                    | GpuError::Unsupported(_) => CliError::Usage(message),
                    GpuError::NoAdapter(_)
                    | GpuError::Device(_)
                    | GpuError::Adapter(_)
                    | GpuError::TablesTooLarge { .. } => CliError::Unavailable(message),
                }
            }
            e @ PlanError::NoGpuSupport => CliError::Unavailable(e.to_string()),
        }
    }
}

/// `choice` for `algorithm` towards `goal`, loaded or built with a progress bar and notes on
/// stderr ([`crate::plan::load_heuristic`], the CPU's tables, no deadline); `flag` names the
/// option it came from in errors (`"--heuristics "`); a pattern database is looked up as
/// `pdb_lookup` says.
///
/// # Errors
/// As [`Terminal::error`].
pub(super) fn load_heuristic(
    choice: HeuristicChoice,
    algorithm: Algorithm,
    goal: &Goal,
    cache_dir: Option<std::path::PathBuf>,
    max_memory: u64,
    pdb_lookup: crate::heuristic::pdb::PdbLookup,
    flag: &str,
) -> Result<Resolved, CliError> {
    let request = Request {
        algorithm,
        heuristic: choice,
        purpose: Purpose::Answer,
        cache_dir,
        max_memory,
        pdb_lookup,
        batch_size: crate::search::DEFAULT_BATCH_SIZE,
    };
    let terminal = Terminal::new(&request.heuristic, None);
    crate::plan::load_heuristic(&request, algorithm, goal, &Hardware::cpu(1), &terminal)
        .map_err(|e| terminal.error(e.into(), flag))
}

impl Terminal {
    /// The lines said of what was chosen (`auto`'s picks) and built, in order: for a summary
    /// that says why its heuristic is what it is.
    pub(super) fn chosen(&self) -> Vec<String> {
        self.said.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Watch for Terminal {
    fn note(&self, note: Note) {
        if let Note::Chose(s) | Note::Built(s) = &note
            && let Ok(mut said) = self.said.lock()
        {
            said.push(s.clone());
        }
        self.bar.suspend(|| match note {
            Note::Warning(w) => crate::note!("npuzzle: warning: {w}"),
            n => crate::note!("npuzzle: {}", n.text()),
        });
    }

    fn building(&self, pattern: usize, patterns: usize, step: &BuildProgress) -> bool {
        let bar = &self.bar;
        bar.set_message(format!("{} pattern {}/{patterns}", self.name, pattern + 1));
        bar.set_length(step.total);
        bar.set_position(step.filled);
        if bar.is_hidden() && !self.name.is_empty() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.deadline.is_none_or(|(d, _)| Instant::now() < d)
    }

    fn loaded(&self) {
        self.bar.finish_and_clear();
    }
}

/// A heuristic that could not be had, as the command line reports it: see [`Terminal::error`].
fn resolve_error(e: ResolveError, flag: &str, deadline: Option<(Instant, f64)>) -> CliError {
    // A choice that does not fit the board is named with the option it came from.
    let message = match e {
        ResolveError::NotForBoard { .. } | ResolveError::BadPartition { .. } => {
            format!("{flag}{e}")
        }
        _ => e.to_string(),
    };
    match (e, deadline) {
        (ResolveError::Cancelled, Some((_, secs))) => {
            CliError::Limit(crate::search::SearchError::TimeLimit(secs))
        }
        (ResolveError::NotForBoard { .. }, _) => CliError::Usage(message),
        (e, _) => match e.pdb_error() {
            Some(why) => CliError::from_pdb(why, message),
            None => CliError::Other(message),
        },
    }
}
