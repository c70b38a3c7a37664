//! Reading the input: boards and bench files (within the time limit, FIFOs and terminals
//! too), goals from flags and bench lines, and the length a file states.

use super::*;
use crate::puzzle::parse::{
    GOAL_NAMES, Instance, NamedGoal, ParseError, goal_name, parse_board, parse_instance, read_from,
    read_source,
};
use crate::puzzle::{Goal, GoalSpec};

/// Resolves a `--goal` value: a goal name or a board file.
pub(super) fn goal_spec(s: &str) -> Result<GoalSpec, CliError> {
    if let Some(g) = goal_name(s) {
        return Ok(g);
    }
    // Neither a goal's name nor a file: most likely a misspelt name. (Other failures to read
    // the file, such as a permission, are reported by the reading below.)
    if s != "-" && std::fs::metadata(s).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        let names: Vec<&str> = GOAL_NAMES.iter().map(|(n, _)| *n).collect();
        return Err(CliError::Usage(format!(
            "--goal {s}: not a goal name ({}) and no such file",
            names.join(", ")
        )));
    }
    let (name, text) = read_input(std::path::Path::new(s), false)?;
    Ok(GoalSpec::Board(parse_board(&text, &name, None)?))
}

/// The goal a command solves towards, the one place `--goal` meets the goal a file names:
/// the file's goal where it names one (`named`: [`Instance::named_goal`] and the source's
/// name), else `--goal` (`flag`, already read by [`goal_spec`]; `None` when not given), else
/// blank-last. Resolved for a `rows`×`cols` board.
///
/// # Errors
/// [`CliError::Usage`] when `--goal` was given and names another goal than the file (both
/// are said, with `source:line`), or when the goal does not fit the board.
pub(super) fn resolve_goal(
    flag: Option<&(&str, GoalSpec)>,
    named: Option<(NamedGoal<'_>, &str)>,
    rows: usize,
    cols: usize,
) -> Result<Goal, CliError> {
    let from_flag = |(text, spec): &(&str, GoalSpec)| {
        spec.resolve(rows, cols)
            .map_err(|e| CliError::Usage(format!("--goal {text}: {e}")))
    };
    match (flag, named) {
        (flag, Some((named, source))) => {
            let no = named.line;
            let goal = named
                .goal
                .resolve(rows, cols)
                .map_err(|e| CliError::Usage(format!("{source}:{no}: goal: {e}")))?;
            if let Some(flag) = flag {
                let asked = from_flag(flag)?;
                if asked.board() != goal.board() {
                    return Err(CliError::Usage(format!(
                        "{source}:{no}: {} names the {} goal but --goal {} was given: \
                         leave --goal out to use {}",
                        named.by(),
                        goal.name(),
                        flag.0,
                        named.whose(),
                    )));
                }
            }
            Ok(goal)
        }
        (Some(flag), None) => from_flag(flag),
        (None, None) => from_flag(&("blank-last", GoalSpec::BlankLast)),
    }
}

/// The goal `--goal TEXT` gives a `rows`×`cols` board where no bench line names one
/// (`generate`, `pdb build`): [`resolve_goal`] with the flag alone.
///
/// # Errors
/// As [`goal_spec`] and [`resolve_goal`].
pub(super) fn flag_goal(text: &str, rows: usize, cols: usize) -> Result<Goal, CliError> {
    resolve_goal(Some(&(text, goal_spec(text)?)), None, rows, cols)
}

/// `--goal`'s value read (a name or a goal file), with its text; `None` when not given.
pub(super) fn goal_flag(flag: Option<&str>) -> Result<Option<(&str, GoalSpec)>, CliError> {
    flag.map(|f| Ok((f, goal_spec(f)?))).transpose()
}

/// The optimal length a file states for its one puzzle (a bench line's last number), and
/// where: what `solve`, `compare` and the terminal `gui` check their answer against.
#[derive(Clone, Debug)]
pub(super) struct StatedLength {
    pub(super) moves: usize,
    /// `source:line`.
    pub(super) place: String,
}

impl StatedLength {
    /// The length `inst` states, read from `source`; `None` when its line gives none.
    pub(super) fn of(inst: &Instance, source: &str) -> Option<Self> {
        Some(StatedLength {
            moves: inst.optimal? as usize,
            place: format!("{source}:{}", inst.line),
        })
    }

    /// What to report when the answer disagrees with the stated length: `found` is the
    /// optimal length found, `None` for a board proven unsolvable. `None` when they agree.
    pub(super) fn disagreement(&self, found: Option<usize>) -> Option<String> {
        let place = &self.place;
        let stated = self.moves;
        match found {
            Some(m) if m == stated => None,
            Some(m) => Some(format!(
                "{place}: the file states {stated} moves, but the optimal solution has {m}"
            )),
            None => Some(format!(
                "{place}: the file states {stated} moves, but the board is unsolvable towards \
                 this goal: is it the file's goal? (Korf's files use --goal blank-first)"
            )),
        }
    }

    /// The exit code for an answer (`found`, as [`StatedLength::disagreement`] takes it) to a
    /// puzzle that may state a length: 1 when they disagree, said on stderr; else 0.
    pub(super) fn check(stated: Option<&Self>, found: Option<usize>) -> u8 {
        match stated.and_then(|s| s.disagreement(found)) {
            Some(why) => {
                crate::note!("npuzzle: {why}");
                1
            }
            None => 0,
        }
    }
}

/// Reads a whole input: a file path, or `-` for standard input (the one place the command line
/// reads the terminal; `puzzle` itself only reads what it is given). `bounded`: a time limit
/// covers the read (said when a FIFO keeps it waiting).
pub(super) fn read_input(
    path: &std::path::Path,
    bounded: bool,
) -> Result<(String, String), ParseError> {
    if path.as_os_str() == "-" {
        use std::io::IsTerminal;
        if std::io::stdin().is_terminal() {
            // Not a hang: the FILE left out (or `-`) is the terminal.
            crate::note!(
                "npuzzle: reading a board from the terminal (type or paste it, then Ctrl-D; or give a FILE)"
            );
        }
        read_from("<stdin>", std::io::stdin().lock())
    } else {
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() => read_special(path, &m, bounded),
            _ => read_source(path),
        }
    }
}

/// Reads a FIFO or a device named on the command line (a shell's `<(…)` is one), saying on
/// stderr what it waits for when nothing has ended it within half a second: not a hang, the
/// writer has not closed it yet.
pub(super) fn read_special(
    path: &std::path::Path,
    m: &std::fs::Metadata,
    bounded: bool,
) -> Result<(String, String), ParseError> {
    use std::sync::mpsc::RecvTimeoutError;
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("read special file".into())
        .spawn(move || {
            let _ = tx.send(read_source(&owned));
        });
    if spawned.is_err() {
        return read_source(path);
    }
    let stopped = || ParseError {
        source: path.to_string_lossy().into_owned(),
        line: None,
        kind: crate::puzzle::parse::ParseErrorKind::Io("the reading thread stopped".into()),
    };
    match rx.recv_timeout(std::time::Duration::from_millis(500)) {
        Ok(read) => read,
        Err(RecvTimeoutError::Disconnected) => Err(stopped()),
        Err(RecvTimeoutError::Timeout) => {
            crate::note!(
                "npuzzle: reading {}, a {}, until its writer closes it{}",
                path.display(),
                crate::files::kind_of(&m.file_type()),
                if bounded {
                    " (--time-limit bounds the wait)"
                } else {
                    ""
                }
            );
            rx.recv().unwrap_or_else(|_| Err(stopped()))
        }
    }
}

/// When the command started (the first call): a `--time-limit` counts from here, reading the
/// input included.
pub(crate) fn started() -> std::time::Instant {
    static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *STARTED.get_or_init(std::time::Instant::now)
}

/// Reads a whole input as [`read_input`] does, giving up when `limit` (counted from
/// [`started`]) runs out first: a pipe or terminal that never ends, or a FIFO nobody writes.
/// The reading thread is left blocked; the command ends with the error.
///
/// # Errors
/// [`CliError::ReadLimit`] when the limit ran out; the reading's own errors.
pub(super) fn read_input_within(
    path: &std::path::Path,
    limit: Option<std::time::Duration>,
) -> Result<(String, String), CliError> {
    let Some(limit) = limit else {
        return Ok(read_input(path, false)?);
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::Builder::new()
        .name("read input".into())
        .spawn(move || {
            let _ = tx.send(read_input(&owned, true));
        })
        .map_err(|e| {
            let path = path.display();
            CliError::Other(format!("cannot start a thread to read {path}: {e}"))
        })?;
    match rx.recv_timeout(limit.saturating_sub(started().elapsed())) {
        Ok(read) => Ok(read?),
        Err(_) => Err(CliError::ReadLimit {
            input: if path.as_os_str() == "-" {
                "<stdin>".to_string()
            } else {
                path.to_string_lossy().into_owned()
            },
            seconds: limit.as_secs_f64(),
        }),
    }
}

/// Reads one puzzle from a file or `-` within `limit` ([`read_input_within`]): its board,
/// and the goal and length its line may give. Returns the source's name (as errors name it)
/// and the puzzle.
pub(super) fn read_instance(
    path: &std::path::Path,
    size: Option<(usize, usize)>,
    limit: Option<std::time::Duration>,
) -> Result<(String, Instance), CliError> {
    let (name, text) = read_input_within(path, limit)?;
    let inst = parse_instance(&text, &name, size)?;
    Ok((name, inst))
}
