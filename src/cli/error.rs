//! `CliError`: a command's failure and its exit code.

use crate::heuristic::pdb::PdbError;
use crate::puzzle::parse::ParseError;
use crate::search::SearchError;

/// A failure of a command, with its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input file or board (exit 2).
    #[error("{0}")]
    Input(#[from] ParseError),
    /// Bad usage (exit 2).
    #[error("{0}")]
    Usage(String),
    /// A limit was reached (exit 3).
    #[error("{}", limit_message(.0))]
    Limit(SearchError),
    /// A limit stopped a search that had proven the optimum at least `bound` moves long
    /// (exit 3): `time limit of 10 s reached before an answer; the optimum is at least 52 moves`.
    #[error("{}; the optimum is at least {bound} moves", no_answer(.search))]
    Bounded {
        /// The limit.
        search: SearchError,
        /// The lower bound ([`crate::search::Progress::lower_bound`]), in moves.
        bound: u32,
    },
    /// Anything else (exit 1).
    #[error("{0}")]
    Other(String),
    /// A device or feature asked for is not available (exit 3).
    #[error("{0}")]
    Unavailable(String),
    /// Standard output was closed by its reader (e.g. `| head`): stop quietly (exit 0).
    #[error("output closed")]
    Closed,
    /// The time limit ran out while the input was still being read (exit 3).
    #[error(
        "time limit of {seconds} s reached while reading {input}: the input has not ended \
         (a terminal or a pipe still open; end it with Ctrl-D or close the pipe)"
    )]
    ReadLimit {
        /// The input's name (`<stdin>` or the file).
        input: String,
        /// The limit, in seconds, as given.
        seconds: f64,
    },
}

/// A search error's message, a memory cap's with the options that change it on the command
/// line.
pub(super) fn limit_message(e: &SearchError) -> String {
    match e {
        SearchError::MemoryLimit { refused: true, .. } => {
            format!("{e} (--algorithm idastar, or give the process more memory)")
        }
        SearchError::MemoryLimit { .. } => {
            format!("{e} (raise --max-memory, or --algorithm idastar)")
        }
        e => e.to_string(),
    }
}

/// A limit that stopped a search before its answer: `time limit of 10 s reached before an
/// answer` for the time limit (the same words as [`CliError::Limit`]'s, so a script can match
/// either), else the limit's message.
fn no_answer(e: &SearchError) -> String {
    match e {
        SearchError::TimeLimit(_) => format!("{e} before an answer"),
        e => limit_message(e),
    }
}

impl CliError {
    /// Whether a limit (time, memory, cancel) was reached, as the JSON `limit` says.
    pub(crate) fn is_limit(&self) -> bool {
        matches!(
            self,
            CliError::Limit(_) | CliError::Bounded { .. } | CliError::ReadLimit { .. }
        )
    }

    /// The limit `e` stopping a search whose last report proved `bound` (a
    /// [`CliError::Bounded`] when it says more than 0 moves), or `e` as it is.
    pub(crate) fn with_bound(e: SearchError, bound: Option<u32>) -> CliError {
        match bound {
            Some(bound) if bound > 0 && e.is_limit() => CliError::Bounded { search: e, bound },
            _ => e.into(),
        }
    }

    /// This error with the lower bound `bound` the searches proved when it is a search's limit
    /// ([`CliError::with_bound`]); any other error as it is.
    pub(crate) fn bounded(self, bound: Option<u32>) -> CliError {
        match self {
            CliError::Limit(e) => CliError::with_bound(e, bound),
            e => e,
        }
    }

    /// The lower bound on the optimum a limited search proved ([`CliError::Bounded`]).
    pub(crate) fn lower_bound(&self) -> Option<u32> {
        match self {
            CliError::Bounded { bound, .. } => Some(*bound),
            _ => None,
        }
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) | CliError::Usage(_) => 2,
            CliError::Limit(_)
            | CliError::Bounded { .. }
            | CliError::Unavailable(_)
            | CliError::ReadLimit { .. } => 3,
            CliError::Other(_) => 1,
            CliError::Closed => 0,
        }
    }
}

impl CliError {
    /// A pattern-database error `e`, reported as `msg`, with the exit code it calls for:
    /// a pattern or partition that does not fit the board is bad usage (exit 2); a build
    /// past its memory cap or memory that cannot be had is a limit (exit 3); a cache folder
    /// or file that cannot be read or written is an error (exit 1).
    pub(crate) fn from_pdb(e: &PdbError, msg: String) -> Self {
        match e {
            PdbError::BadPattern { .. }
            | PdbError::TooManyPlacements { .. }
            | PdbError::WrongSize { .. }
            | PdbError::BadPartition(_) => CliError::Usage(msg),
            PdbError::TooBig { need, .. } => CliError::Unavailable(format!(
                "{msg}: raise --max-memory to at least {}",
                memory_rounded_up(*need)
            )),
            PdbError::Memory(_) => CliError::Unavailable(msg),
            PdbError::Cancelled
            | PdbError::NoCacheDir
            | PdbError::Missing { .. }
            | PdbError::Io { .. }
            | PdbError::Corrupt { .. } => CliError::Other(msg),
        }
    }
}

/// `bytes` as a `--max-memory` value that is never less: tenths of a GiB from 1 GiB up, else
/// whole MiB, rounded up (`13.2GiB` for 14,172,958,800 bytes).
fn memory_rounded_up(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        // The least tenths t with t · 2³⁰ / 10 ≥ bytes.
        let tenths = (u128::from(bytes) * 10).div_ceil(1 << 30);
        format!("{}.{}GiB", tenths / 10, tenths % 10)
    } else {
        format!("{}MiB", bytes.div_ceil(1 << 20))
    }
}

impl From<SearchError> for CliError {
    /// Limits (time, memory, cancel) exit with 3; faults, including the internal errors
    /// (a solution that does not replay, an exhausted search, a panicked search thread),
    /// with 1. The JSON `error` is the message, `limit` whether it was a limit.
    fn from(e: SearchError) -> Self {
        if e.is_limit() {
            CliError::Limit(e)
        } else {
            CliError::Other(e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_hints_round_up_and_parse_back_to_enough() {
        for (bytes, text) in [
            (14_172_958_800, "13.2GiB"),
            (2_500_980_300, "2.4GiB"),
            (1 << 30, "1.0GiB"),
            (746_000_000, "712MiB"),
        ] {
            let s = memory_rounded_up(bytes);
            assert_eq!(s, text);
            let back = super::super::parse_memory(&s).unwrap().as_u64();
            assert!(back >= bytes, "{s} = {back} < {bytes}");
        }
    }

    #[test]
    fn a_time_limit_says_the_same_words_with_or_without_a_bound() {
        let plain = CliError::Limit(SearchError::TimeLimit(10.0)).to_string();
        assert_eq!(plain, "time limit of 10 s reached");
        let bounded = CliError::with_bound(SearchError::TimeLimit(10.0), Some(52)).to_string();
        assert_eq!(
            bounded,
            "time limit of 10 s reached before an answer; the optimum is at least 52 moves"
        );
        // No bound proven: the plain message.
        let none = CliError::with_bound(SearchError::TimeLimit(10.0), Some(0)).to_string();
        assert_eq!(none, plain);
    }
}
