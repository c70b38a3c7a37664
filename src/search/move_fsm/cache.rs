//! Pruning automata ([`MoveFsm`]) kept on disk beside the pattern databases, so that the build
//! (0.56 s for 4×4, 2.6 s for 5×5) is paid once per board shape rather than once per process.
//!
//! One file per `(rows, cols, depth)`: `{rows}x{cols}-moves{depth}.fsm` in the cache folder.
//! Layout, little-endian: `NPUZZFSM` (8 bytes); format version, builder version
//! ([`BUILDER`]: a file from an older builder is rebuilt, never trusted), rows, cols, the depth
//! asked for, the depth built (lower when the asked one needs more states than a `u16` holds), the
//! number of states and of forbidden strings (u32 each); the transition table (`u16` per
//! state and move, `u16::MAX` = pruned); each forbidden string as its length (a byte) and
//! its moves (a byte each, the index in [`Move::ALL`]); a CRC-32 of everything before it.
//! Written atomically ([`crate::files::write_atomic`]); read back only when every part checks
//! out (magic, versions, parameters, sizes, every transition to a state or pruned, every
//! move, the CRC), else the caller rebuilds it.

use std::path::{Path, PathBuf};

use super::{BUILDER, DEAD, MoveFsm};
use crate::puzzle::Move;

const MAGIC: &[u8; 8] = b"NPUZZFSM";
/// Format version; files of another version are rebuilt.
const VERSION: u32 = 1;
/// The header after the magic: version, builder, rows, cols, asked depth, depth, states,
/// strings.
const HEADER_WORDS: usize = 8;

/// The file the automaton for `rows × cols` with strings of up to `depth` moves is kept in.
pub(super) fn path_for(dir: &Path, rows: usize, cols: usize, depth: usize) -> PathBuf {
    dir.join(format!("{rows}x{cols}-moves{depth}.fsm"))
}

/// Saves `fsm` (built for `rows × cols`, `depth` asked) in `dir`, atomically.
///
/// # Errors
/// The I/O error of creating the folder or writing the file.
pub(super) fn write(
    dir: &Path,
    rows: usize,
    cols: usize,
    depth: usize,
    fsm: &MoveFsm,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    crate::files::write_atomic(
        &path_for(dir, rows, cols, depth),
        &encode(rows, cols, depth, fsm),
    )
}

/// The automaton kept in `dir` for `rows × cols` and `depth`.
///
/// # Errors
/// Why there is none to use: the file is missing or unreadable, or (the message says what)
/// it is of another version, for other parameters, or corrupt.
pub(super) fn read(
    dir: &Path,
    rows: usize,
    cols: usize,
    depth: usize,
) -> Result<MoveFsm, FsmFileError> {
    let path = path_for(dir, rows, cols, depth);
    let bytes = std::fs::read(&path).map_err(|source| FsmFileError::Io {
        path: path.clone(),
        source,
    })?;
    decode(&bytes, rows, cols, depth).map_err(|why| FsmFileError::Bad { path, why })
}

/// Why a pruning automaton's file cannot be used.
#[derive(Debug, thiserror::Error)]
pub(super) enum FsmFileError {
    /// It cannot be read (missing, unreadable).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// It was read and is not this automaton: see [`Corrupt`].
    #[error("{}: {why}", path.display())]
    Bad {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        why: Corrupt,
    },
}

/// What is wrong with an automaton file that was read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum Corrupt {
    #[error("shorter than its checksum")]
    Short,
    #[error("checksum mismatch (corrupt)")]
    Checksum,
    #[error("not a pruning automaton file")]
    NotAutomaton,
    #[error("truncated header")]
    TruncatedHeader,
    #[error("format version {0} (this build reads {VERSION})")]
    Version(usize),
    #[error("made by builder {0} (this one is {BUILDER})")]
    Builder(usize),
    #[error("built for other parameters")]
    OtherParameters,
    #[error("bad header: depth {built}, {states} states")]
    BadHeader { built: usize, states: usize },
    #[error("truncated transition table")]
    TruncatedTable,
    #[error("a transition to state {to} of {states}")]
    BadTransition { to: u16, states: usize },
    #[error("{strings} forbidden strings in {bytes} bytes")]
    TooManyStrings { strings: usize, bytes: usize },
    #[error("truncated strings")]
    TruncatedStrings,
    #[error("a bad forbidden string")]
    BadString,
    #[error("trailing bytes")]
    Trailing,
}

fn encode(rows: usize, cols: usize, depth: usize, fsm: &MoveFsm) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let header = [
        VERSION,
        BUILDER,
        rows as u32,
        cols as u32,
        depth as u32,
        fsm.depth() as u32,
        fsm.states() as u32,
        fsm.forbidden().len() as u32,
    ];
    for w in header {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for row in fsm.table() {
        for t in row {
            out.extend_from_slice(&t.to_le_bytes());
        }
    }
    for s in fsm.forbidden() {
        out.push(s.len() as u8);
        out.extend(s.iter().map(|m| m.index() as u8));
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

fn decode(bytes: &[u8], rows: usize, cols: usize, depth: usize) -> Result<MoveFsm, Corrupt> {
    let body_len = bytes.len().checked_sub(4).ok_or(Corrupt::Short)?;
    let (body, crc) = bytes.split_at(body_len);
    let crc = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
    if crc32fast::hash(body) != crc {
        return Err(Corrupt::Checksum);
    }
    let rest = body
        .strip_prefix(MAGIC.as_slice())
        .ok_or(Corrupt::NotAutomaton)?;
    let word = |i: usize| -> Result<usize, Corrupt> {
        rest.get(4 * i..4 * i + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or(Corrupt::TruncatedHeader)
    };
    if word(0)? != VERSION as usize {
        return Err(Corrupt::Version(word(0)?));
    }
    if word(1)? != BUILDER as usize {
        return Err(Corrupt::Builder(word(1)?));
    }
    if (word(2)?, word(3)?, word(4)?) != (rows, cols, depth) {
        return Err(Corrupt::OtherParameters);
    }
    let (built, states, strings) = (word(5)?, word(6)?, word(7)?);
    if built > depth || states == 0 || states >= usize::from(DEAD) {
        return Err(Corrupt::BadHeader { built, states });
    }
    let mut at = 4 * HEADER_WORDS;
    let table_bytes = states * 8;
    let table = rest
        .get(at..at + table_bytes)
        .ok_or(Corrupt::TruncatedTable)?;
    at += table_bytes;
    let mut next = Vec::with_capacity(states);
    for row in table.chunks_exact(8) {
        let mut r = [0u16; 4];
        for (mi, t) in r.iter_mut().enumerate() {
            *t = u16::from_le_bytes([row[2 * mi], row[2 * mi + 1]]);
            if *t != DEAD && usize::from(*t) >= states {
                return Err(Corrupt::BadTransition { to: *t, states });
            }
        }
        next.push(r);
    }
    // Each string takes at least a byte: a count beyond what is left is a lie (and would
    // reserve memory for it).
    if strings > rest.len().saturating_sub(at) {
        return Err(Corrupt::TooManyStrings {
            strings,
            bytes: rest.len() - at,
        });
    }
    let mut forbidden = Vec::with_capacity(strings);
    for _ in 0..strings {
        let len = usize::from(*rest.get(at).ok_or(Corrupt::TruncatedStrings)?);
        let moves = rest
            .get(at + 1..at + 1 + len)
            .ok_or(Corrupt::TruncatedStrings)?;
        if len > built || moves.iter().any(|&m| m > 3) {
            return Err(Corrupt::BadString);
        }
        forbidden.push(moves.iter().map(|&m| Move::ALL[usize::from(m)]).collect());
        at += 1 + len;
    }
    if at != rest.len() {
        return Err(Corrupt::Trailing);
    }
    Ok(MoveFsm::from_parts(next, forbidden, built))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_automaton_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let fsm = MoveFsm::new(3, 4, 10);
        write(dir.path(), 3, 4, 10, &fsm).unwrap();
        let back = read(dir.path(), 3, 4, 10).unwrap();
        assert_eq!(back.table(), fsm.table());
        assert_eq!(back.forbidden(), fsm.forbidden());
        assert_eq!(back.depth(), fsm.depth());
        // Another shape or depth has its own file.
        assert!(read(dir.path(), 4, 3, 10).is_err());
        assert!(read(dir.path(), 3, 4, 12).is_err());
    }

    #[test]
    fn a_damaged_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fsm = MoveFsm::new(2, 4, 8);
        write(dir.path(), 2, 4, 8, &fsm).unwrap();
        let path = path_for(dir.path(), 2, 4, 8);
        let good = std::fs::read(&path).unwrap();
        // Every single flipped bit, and every truncation, is caught.
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            assert!(decode(&bad, 2, 4, 8).is_err(), "byte {i} flipped");
        }
        for n in 0..good.len() {
            assert!(decode(&good[..n], 2, 4, 8).is_err(), "cut at {n}");
        }
        // A count of strings beyond the file's bytes, with a checksum to match, is refused
        // before anything is reserved for it.
        let mut lie = good[..good.len() - 4].to_vec();
        let at = 8 + 4 * 7;
        lie[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let crc = crc32fast::hash(&lie);
        lie.extend_from_slice(&crc.to_le_bytes());
        assert!(
            decode(&lie, 2, 4, 8)
                .unwrap_err()
                .to_string()
                .contains("forbidden strings")
        );
        // A file for other parameters, renamed into place, is refused too.
        let other = encode(2, 4, 6, &MoveFsm::new(2, 4, 6));
        assert!(decode(&other, 2, 4, 8).is_err());
    }

    #[test]
    // 2×3 at 12 moves: a shape and depth no search asks for (`fsm_depth` gives 2×3 14), so
    // the process cache cannot already hold it from another test.
    fn shared_rebuilds_over_a_corrupt_file_and_saves_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_for(dir.path(), 2, 3, 12);
        std::fs::write(&path, b"NPUZZFSM garbage").unwrap();
        let fsm = MoveFsm::shared(2, 3, 12, Some(dir.path()));
        assert_eq!(fsm.table(), MoveFsm::new(2, 3, 12).table());
        // The rebuilt automaton replaced the corrupt file.
        assert_eq!(read(dir.path(), 2, 3, 12).unwrap().table(), fsm.table());
    }
}
