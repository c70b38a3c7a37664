//! `npuzzle bench --merge FILE…`: the JSON lines of several bench runs (the shards of a job
//! array, concatenated or not) read back and printed as one run: the table in the bench
//! file's order and the summary of them all, through [`output`](super::output)'s printer and
//! summary.

use serde::Deserialize;

use super::output::{Printer, Row, RunFacts, summarize, table_header};
use crate::cli::{BenchArgs, CliError, Format};
use crate::puzzle::Board;
use crate::report::published::PublishedCounts;

/// What a run's summary line adds to the rows: its jobs, wall time and choices.
#[derive(Deserialize)]
struct RunSummary {
    /// Its instances: the rows it printed.
    instances: usize,
    jobs: usize,
    wall_seconds: f64,
    choices: Vec<String>,
}

/// A row read, and where: `FILE:LINE`.
struct Read {
    row: Row,
    at: String,
}

/// Reads `a.files` as bench JSON lines and prints them as one run (`a.opts.format`); with
/// `--published`, each row's published count is taken from that file instead.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) naming the file and line: a line that is not a bench JSON
/// line (row or summary), a failed run's line, rows whose goal or search differ on one board
/// size or whose options differ (naming the field), an id whose results differ; and no rows.
pub(super) fn run(a: &BenchArgs) -> Result<u8, CliError> {
    let mut rows: Vec<Read> = Vec::new();
    let mut summaries: Vec<RunSummary> = Vec::new();
    for path in &a.files {
        let (name, text) = crate::cli::read_input(path, false)?;
        read_lines(&name, &text, &mut rows, &mut summaries)?;
    }
    let Some(first) = rows.first() else {
        return Err(CliError::Usage(
            "--merge: no bench rows in the files (bench --format json prints them)".into(),
        ));
    };
    // A run cut short (a job killed) printed rows but no summary; a summary with no rows, a
    // file left out.
    let counted: usize = summaries.iter().map(|s| s.instances).sum();
    if counted != rows.len() {
        crate::note!(
            "npuzzle: {} rows read, and the {} summary lines count {counted}: is a run cut short or a file left out?",
            rows.len(),
            summaries.len()
        );
    }
    let facts = RunFacts {
        goal_name: first.row.goal.clone(),
        jobs: summaries.iter().map(|s| s.jobs).max().unwrap_or(1),
        wall_seconds: summaries.iter().map(|s| s.wall_seconds).sum(),
        conditions: first.row.conditions.clone(),
        choices: distinct(summaries.into_iter().flat_map(|s| s.choices)),
    };
    agree(&rows)?;
    let mut rows = without_repeats(rows)?;
    rows.sort_by(|x, y| (x.line, &x.id).cmp(&(y.line, &y.id)));
    if let Some(p) = &a.published {
        let (name, text) = crate::cli::read_input(p, false)?;
        let counts = PublishedCounts::parse(&text, &name)
            .map_err(|e| CliError::Usage(format!("--published: {e}")))?;
        rows.iter_mut().for_each(|r| r.compare_with(Some(&counts)));
    }
    print(&rows, a.opts.format)?;
    summarize(&rows, facts, a.opts.format)
}

/// Reads the lines of `text` (file `name`): rows into `rows`, summaries into `summaries`.
fn read_lines(
    name: &str,
    text: &str,
    rows: &mut Vec<Read>,
    summaries: &mut Vec<RunSummary>,
) -> Result<(), CliError> {
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let bad = |why: String| CliError::Usage(format!("--merge: {at}: {why}"));
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
            bad(format!(
                "not a JSON line ({e}); bench --format json prints them"
            ))
        })?;
        if value.get("summary").is_some() {
            if let Some(e) = value.get("error") {
                return Err(bad(format!("the summary of a failed run: {e}")));
            }
            let s = serde_json::from_value(value)
                .map_err(|e| bad(format!("not a bench summary line ({e})")))?;
            summaries.push(s);
            continue;
        }
        let mut row: Row = serde_json::from_value(value).map_err(|e| {
            bad(format!(
                "not a bench JSON line of this version ({e}); bench --format json prints them"
            ))
        })?;
        let board: Board = row
            .start
            .parse()
            .map_err(|e| bad(format!("its start board does not parse: {e}")))?;
        row.size = (board.rows(), board.cols());
        rows.push(Read { row, at });
    }
    Ok(())
}

/// Checks that the rows come from runs that may be merged: the same options everywhere
/// ([`Row::options`]) and, on each board size, the same goal and search ([`Row::search`]).
fn agree(rows: &[Read]) -> Result<(), CliError> {
    let differ = |r: &Read, other: &Read, field: &str, x: &str, y: &str| {
        CliError::Usage(format!(
            "--merge: {} has {field} {x}, {} has {y}: runs with other options cannot be merged",
            r.at, other.at
        ))
    };
    let first = &rows[0];
    let mut by_size: Vec<&Read> = Vec::new();
    for r in rows {
        for ((field, x), (_, y)) in r.row.options().iter().zip(first.row.options()) {
            if *x != y {
                return Err(differ(r, first, field, x, &y));
            }
        }
        match by_size.iter().find(|s| s.row.size == r.row.size) {
            None => by_size.push(r),
            Some(s) => {
                for ((field, x), (_, y)) in r.row.search().iter().zip(s.row.search()) {
                    if *x != y {
                        return Err(differ(r, s, field, x, &y));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The rows with each id once: a repeat (the same shard read twice) must have the same
/// result ([`Row::result`]).
fn without_repeats(rows: Vec<Read>) -> Result<Vec<Row>, CliError> {
    let mut kept: Vec<Read> = Vec::with_capacity(rows.len());
    let mut at_id: std::collections::HashMap<(String, usize), usize> = Default::default();
    for r in rows {
        match at_id.get(&(r.row.id.clone(), r.row.line)) {
            Some(&k) if kept[k].row.result() == r.row.result() => {}
            Some(&k) => {
                return Err(CliError::Usage(format!(
                    "--merge: {}: repeats id {} of {} with another result: {}; there: {}",
                    r.at,
                    r.row.id,
                    kept[k].at,
                    r.row.result(),
                    kept[k].row.result()
                )));
            }
            None => {
                at_id.insert((r.row.id.clone(), r.row.line), kept.len());
                kept.push(r);
            }
        }
    }
    Ok(kept.into_iter().map(|r| r.row).collect())
}

/// Prints `rows` as the bench prints them (text table, JSON lines or CSV rows).
fn print(rows: &[Row], format: Format) -> Result<(), CliError> {
    let published = rows.iter().any(|r| r.published_count().is_some());
    if format == Format::Text {
        table_header(published)?;
    }
    let mut printer = Printer {
        rows: vec![None; rows.len()],
        next: 0,
        format,
        csv: crate::cli::CsvLines::default(),
        failed: None,
        published,
    };
    let hidden = indicatif::ProgressBar::hidden();
    for (i, r) in rows.iter().enumerate() {
        printer.put(i, r.clone(), &hidden);
    }
    printer.failed.map_or(Ok(()), Err)
}

/// The distinct strings of `all`, in their first order.
fn distinct(all: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = Vec::new();
    for s in all {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen
}
