//! The command line: `npuzzle solve`, `bench`, `generate`, `compare`,
//! `pdb build|list|verify|clear` and `gui` (argument parsing with clap, text and JSON output, the pattern-database progress bar).
//! `gui` opens the app through a [`Launcher`] the binary gives: this module does not depend on
//! the app.
//!
//! Exit codes: 0 solved or proven unsolvable; 1 a bench length disagreed with the file (or
//! compare's searches disagreed on a length), or a
//! fault (an evaluator failure, an internal error); 2 bad input or usage; 3 a limit was reached
//! (time, memory, cancel).

mod args;
mod bench;
mod compare;
mod error;
mod generate;
mod gui;
mod input;
mod pdb;
mod solve;
mod terminal;
mod upgrade;

use std::process::ExitCode;

pub use args::Cli;
use args::*;
use clap::Parser;
#[cfg(feature = "gui")]
pub(crate) use compare::{board_csv, experiment_csv};
pub use error::CliError;
use error::*;
pub use gui::{GuiRequest, LaunchError, Launcher};
use input::*;

/// Runs the command line and returns the process exit code. `launcher` opens the desktop app
/// for `npuzzle gui` and `npuzzle` alone (the binary passes the app's; `None`: a build without
/// the app, which solves in the terminal instead).
pub fn main(launcher: Option<&Launcher>) -> ExitCode {
    started();
    stop_in_order_on_signals();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused(&e),
    };
    match run(cli, launcher) {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            crate::note!("npuzzle: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// On SIGINT or SIGTERM, removes the temporary files of the saves in progress (a table
/// being written), then ends the process by the signal's default action, so that a shell
/// sees it stopped by the signal (a loop of commands stops on Ctrl-C). Without this the
/// default action kills the process mid-save and leaves the temporary file behind.
fn stop_in_order_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return; // the default action stays: the next command's build removes leftovers
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    crate::files::remove_live_saying("stopped");
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
    }
}

/// A command line clap refused (or `--help`, `--version`): its message, and with
/// `--format json` the failure object (`error`, `exit_code`) on standard output, as every later
/// failure prints one; a file given where a command belongs gets the commands that take it.
fn refused(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = e.exit_code();
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Help and the version go to standard output: one that cannot take them is a
        // failure, not a silent success.
        if e.use_stderr() {
            let _ = e.print();
        } else if let Some(why) = stdout_unwritable() {
            crate::note!("npuzzle: writing output: {why}");
            return ExitCode::from(1);
        } else if let Err(err) = print_clap(e) {
            crate::note!("npuzzle: writing output: {err}");
            return ExitCode::from(1);
        }
        return ExitCode::from(u8::try_from(code).unwrap_or(2));
    }
    let _ = e.print();
    // Lossy: an argument that is not UTF-8 is clap's to report, not a reason to panic here.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if e.kind() == ErrorKind::InvalidSubcommand
        && let Some(first) = args.first()
        && std::path::Path::new(first).is_file()
    {
        crate::note!(
            "npuzzle: {first} is a file: open it in the app with `npuzzle gui {first}`, or solve it with `npuzzle solve {first}`"
        );
    }
    // Only the commands that print JSON (the others refuse `--format` itself).
    let json = matches!(
        args.first().map(String::as_str),
        Some("solve" | "bench" | "compare" | "generate")
    ) && (args
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json"));
    if json {
        // The message up to its first blank line ("…not provided:" and the arguments
        // named under it), on one line.
        let text = e.to_string();
        let message: Vec<&str> = text
            .lines()
            .map(str::trim)
            .take_while(|l| !l.is_empty())
            .collect();
        emit_failure(message.join(" ").trim_start_matches("error: "), code, &[]);
    }
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// With `--format json`, what `bench`, `compare` and `generate` print when `e` ends them
/// before any result was printed, so that scripts reading JSON always get an object (`solve`
/// prints its own, with the search's fields): `extra`'s fields (`bench`'s `summary: true`),
/// then `error`, `exit_code` and `version`. Gives `e` back as the command's result; nothing is
/// printed for a closed output, and a failing output is not reported instead of `e`.
///
/// # Errors
/// Always `e`.
pub(crate) fn json_failure(
    e: CliError,
    extra: &[(&str, serde_json::Value)],
) -> Result<u8, CliError> {
    if !matches!(e, CliError::Closed) {
        emit_failure(&e.to_string(), e.exit_code(), extra);
    }
    Err(e)
}

/// Prints the failure object of [`json_failure`] (and of a command line clap refused): `extra`,
/// then `error`, `exit_code` and `version`.
fn emit_failure(
    error: &str,
    exit_code: impl Into<serde_json::Value>,
    extra: &[(&str, serde_json::Value)],
) {
    let mut j = serde_json::Map::new();
    for (name, value) in extra {
        j.insert((*name).to_string(), value.clone());
    }
    j.insert("error".into(), error.into());
    j.insert("exit_code".into(), exit_code.into());
    j.insert("version".into(), crate::VERSION.into());
    let _ = emit_json(&j);
}

/// Writes clap's help or version text to standard output, reporting a failed write (clap's
/// own `print` drops it).
fn print_clap(e: &clap::Error) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    use std::io::IsTerminal;
    let text = e.render();
    let written = if out.is_terminal() {
        write!(out, "{}", text.ansi())
    } else {
        write!(out, "{text}")
    };
    match written.and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// Runs a parsed command line (the app through `launcher`, as in [`main`]); returns the exit
/// code on success.
///
/// # Errors
/// [`CliError`] with its exit code.
pub fn run(cli: Cli, launcher: Option<&Launcher>) -> Result<u8, CliError> {
    check_cache_env(&cli)?;
    match cli.command {
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Generate(a)) => generate::run(&a),
        Some(Command::Compare(a)) => compare::run(&a),
        Some(Command::Gui(a)) => gui::run(&a, launcher),
        Some(Command::Pdb(a)) => pdb::run(&a),
        None => gui::run(&gui::GuiArgs::default(), launcher),
    }
}

/// Writes one line to standard output.
///
/// # Errors
/// [`CliError::Closed`] when the reader went away (broken pipe), [`CliError::Other`] otherwise,
/// also when standard output is not open at all (`>&-`), which the standard library's stdout
/// would otherwise take silently.
pub(crate) fn emit(line: &str) -> Result<(), CliError> {
    use std::io::Write;
    if let Some(why) = stdout_unwritable() {
        return Err(CliError::Other(format!("writing output: {why}")));
    }
    writeln!(std::io::stdout().lock(), "{line}").map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::Other(format!("writing output: {e}"))
        }
    })
}

/// Writes `value` to standard output as one line of compact JSON: every command's
/// `--format json` prints its objects this way (JSON Lines where there are several).
///
/// # Errors
/// As [`emit`]; [`CliError::Other`] if `value` cannot be serialised (not expected: the
/// objects are plain data).
pub(crate) fn emit_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let line = serde_json::to_string(value).map_err(|e| CliError::Other(format!("JSON: {e}")))?;
    emit(&line)
}

/// `--format csv`'s lines: the header row before the first record, then one row per record.
/// The columns are the fields of the record's JSON object in their order (the same names as
/// `--format json`); a field holding a list or an object (`iterations`) is one cell of compact
/// JSON, null an empty cell. Written with the `csv` crate (RFC 4180 quoting).
#[derive(Default)]
pub(crate) struct CsvLines {
    /// The header's columns, once written: every later record must have the same.
    columns: Option<Vec<String>>,
}

impl CsvLines {
    /// Writes `record` (a struct serialising to a JSON object) as a CSV row, after the header
    /// row when it is the first.
    ///
    /// # Errors
    /// As [`emit`]; [`CliError::Other`] for a record that is not an object or whose fields
    /// differ from the header's (a bug).
    pub(crate) fn emit(&mut self, record: &impl serde::Serialize) -> Result<(), CliError> {
        emit(self.text(record)?.trim_end_matches('\n'))
    }

    /// `record`'s row as text ending in a newline, after the header row when it is the first:
    /// what [`CsvLines::emit`] prints (the app's CSV exports write the same rows to a file).
    ///
    /// # Errors
    /// [`CliError::Other`] for a record that is not an object or whose fields differ from the
    /// header's (a bug).
    pub(crate) fn text(&mut self, record: &impl serde::Serialize) -> Result<String, CliError> {
        let bad = |why: String| CliError::Other(format!("CSV: {why}"));
        let value = serde_json::to_value(record).map_err(|e| bad(e.to_string()))?;
        let serde_json::Value::Object(fields) = value else {
            return Err(bad("a record is not an object".into()));
        };
        let names: Vec<String> = fields.keys().cloned().collect();
        let cells: Vec<String> = fields.values().map(cell).collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        match &self.columns {
            Some(columns) if *columns != names => {
                return Err(bad(format!(
                    "fields {names:?} after a header of {columns:?}"
                )));
            }
            Some(_) => {}
            None => w.write_record(&names).map_err(|e| bad(e.to_string()))?,
        }
        w.write_record(&cells).map_err(|e| bad(e.to_string()))?;
        let bytes = w.into_inner().map_err(|e| bad(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|e| bad(e.to_string()))?;
        self.columns = Some(names);
        Ok(text)
    }
}

/// One CSV cell of a JSON value: a string as it is, null empty, a list or object as compact
/// JSON, anything else as JSON writes it (`true`, `12`, `0.5`).
fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Why standard output cannot take what the program writes, checked once: closed when the
/// program started (`>&-`), or open for reading only (`1</etc/hostname`). The standard
/// library takes writes to either silently: it puts `/dev/null`, opened for reading and
/// writing, in place of a closed descriptor, and treats a write that fails with `EBADF` as
/// done. (A shell's `>/dev/null` opens it for writing only, so that stays a quiet success.)
fn stdout_unwritable() -> Option<&'static str> {
    static WHY: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *WHY.get_or_init(stdout_check)
}

#[cfg(target_os = "linux")]
fn stdout_check() -> Option<&'static str> {
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    const CLOSED: &str = "standard output is closed";
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return Some(CLOSED);
    };
    let file = std::fs::File::from(fd);
    let is_null = match (file.metadata(), std::fs::metadata("/dev/null")) {
        (Ok(m), Ok(null)) => m.file_type().is_char_device() && m.rdev() == null.rdev(),
        _ => false,
    };
    // SAFETY: F_GETFL only reads the flags of a descriptor that `file` owns and keeps open.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 {
        return Some(CLOSED);
    }
    match flags & libc::O_ACCMODE {
        libc::O_RDWR if is_null => Some(CLOSED),
        libc::O_RDONLY => Some("standard output is open for reading only"),
        _ => None,
    }
}

#[cfg(not(target_os = "linux"))]
fn stdout_check() -> Option<&'static str> {
    None
}
