//! `solve`'s search when `auto` may switch mid-search to a stronger table
//! ([`crate::plan::upgrade`]): the quick table's search runs under a [`Switch`]; when the
//! switch stops it, the stronger table is built (progress bar and notes on the terminal) and
//! the search runs again with it.

use std::time::Instant;

use super::terminal::Terminal;
use crate::plan::upgrade::Switch;
use crate::plan::{Hardware, Plan, PlanError, Request, RunError};
use crate::search::{Limits, Outcome, Problem, Progress, ProgressFn, SearchError};

/// What a switch needs to build its table and search again.
pub(super) struct Rebuild<'a> {
    /// Where the build's bar and notes go.
    pub(super) terminal: &'a Terminal,
    /// What the new plan runs on.
    pub(super) hardware: &'a Hardware,
    /// The request planned (its cache, memory cap, batch size).
    pub(super) request: &'a Request,
    /// When the time limit ends, counted from the command's start.
    pub(super) deadline: Option<Instant>,
}

/// Runs `plan` on `problem` within `limits`, showing progress with `show` on `spinner`; with a
/// `switch`, stops when it says so, builds its table (as `rebuild` says, the spinner hidden
/// meanwhile), and searches again within what the deadline leaves. Gives back the plan that
/// answered (the new one after a switch) and its outcome.
pub(super) fn search(
    mut plan: Plan,
    problem: &Problem,
    limits: &Limits,
    switch: Option<Switch>,
    (spinner, show): (&indicatif::ProgressBar, &mut ProgressFn<'_>),
    rebuild: &Rebuild<'_>,
) -> (Plan, Result<Outcome, RunError>) {
    let Rebuild {
        terminal,
        hardware,
        request,
        deadline,
    } = *rebuild;
    let Some(mut switch) = switch else {
        let outcome = plan.run(problem, None, limits, show);
        return (plan, outcome.map_err(RunError::Search));
    };
    let watched = Limits {
        cancel: Some(switch.cancel_flag()),
        ..limits.clone()
    };
    let outcome = {
        let mut watch = |p: &Progress| {
            show(p);
            // The switch speaks, if at all, at an iteration's end: the spinner is cleared then
            // only, not at each of the reports within an iteration.
            if p.ida.done {
                spinner.suspend(|| switch.observe(p, terminal));
            } else {
                switch.observe(p, terminal);
            }
        };
        plan.run(problem, None, &watched, &mut watch)
    };
    if !(matches!(outcome, Err(SearchError::Cancelled)) && switch.switched()) {
        return (plan, outcome.map_err(RunError::Search));
    }
    let algorithm = plan.algorithm();
    spinner.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    let chosen = switch
        .upgrade()
        .load(request, algorithm, &problem.goal, hardware, terminal);
    spinner.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    let opened = chosen
        .map_err(PlanError::Heuristic)
        .and_then(|c| c.open(hardware, &problem.goal, request.batch_size, terminal));
    let mut upgraded = match opened {
        Ok(p) => p,
        Err(e) => return (plan, Err(e.into())),
    };
    // What is left of the limit (at least a millisecond, so that the limit stays a limit).
    let again = Limits {
        time_limit: deadline.map(|d| {
            d.saturating_duration_since(Instant::now())
                .max(std::time::Duration::from_millis(1))
        }),
        ..limits.clone()
    };
    let outcome = upgraded.run(problem, None, &again, show);
    (upgraded, outcome.map_err(RunError::Search))
}
