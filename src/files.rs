//! Files we write (caches, exports, screenshots) are written atomically: into a temporary file
//! in the target's folder, flushed to disk, then renamed over the target. A reader never sees a
//! half-written file, and a failed write leaves the old one untouched.
//!
//! A temporary file is named `.npuzzle-XXXXXX.tmp` and its writer holds an exclusive lock on
//! it until the rename, so a temporary file that nobody holds was left by a writer that was
//! killed: [`stale_temporaries`] finds those (and [`remove_stale_temporaries`] deletes them)
//! without touching a live writer's file (a file taken in the instant between its creation and
//! its lock is noticed by its writer, who starts another). On NFS, where Linux emulates these
//! locks per process, a process's own cleaner does not see its other threads' locks.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Prefix and suffix of the temporary files [`write_atomic_with`] creates.
const TMP_PREFIX: &str = ".npuzzle-";
const TMP_SUFFIX: &str = ".tmp";
/// Earlier versions used `tempfile`'s default names (`.tmpXXXXXX`) without a lock: such a file
/// counts as stale once it has not been written to for this long.
const LEGACY_PREFIX: &str = ".tmp";
const LEGACY_AGE: Duration = Duration::from_secs(60);

/// What a file that is not a regular file is, in words: `FIFO`, `socket`, `device`,
/// `folder` or `special file`.
pub fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_socket() {
            return "socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "device";
        }
    }
    if t.is_dir() { "folder" } else { "special file" }
}

/// Reads the whole of `path` when it is a regular file of at most `max` bytes, without ever
/// blocking on it: a FIFO, device or socket (also behind a link) is refused before it is read,
/// and the file is opened non-blocking, so that a FIFO put in its place meanwhile does not
/// hold the caller in `open`. For what a window's thread reads (board files, the app's lists).
///
/// # Errors
/// [`std::io::ErrorKind::InvalidInput`] for anything but a regular file ("a FIFO, not a
/// regular file"), [`std::io::ErrorKind::FileTooLarge`] past `max` bytes, and the I/O errors
/// of opening and reading.
pub fn read_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let not_regular = |t: &std::fs::FileType| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("a {}, not a regular file", kind_of(t)),
        )
    };
    let before = std::fs::metadata(path)?;
    if !before.is_file() {
        return Err(not_regular(&before.file_type()));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let now = file.metadata()?;
    if !now.is_file() {
        return Err(not_regular(&now.file_type()));
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("larger than {}", bytesize::ByteSize(max).display().iec()),
        ));
    }
    Ok(bytes)
}

/// Writes `path` atomically, the contents produced by `fill` (given a buffered writer).
///
/// # Errors
/// Any I/O error from creating, locking, filling, syncing or renaming; the target is then
/// untouched.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = locked_temporary(dir)?;
    // Known while it exists, so that an orderly stop can remove it (see `remove_live`).
    let _live = Live::register(tmp.path());
    // Temporary files are created 0600; the saved file is an ordinary one.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    {
        let mut w = BufWriter::new(tmp.as_file_mut());
        fill(&mut w)?;
        w.flush()?;
    }
    tmp.as_file().sync_all()?;
    hold_before_rename();
    // The lock goes with the file handle, after the rename.
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The environment variable that holds every save this many milliseconds before its rename:
/// for the tests that stop a process mid-save (a save of a few milliseconds cannot be caught
/// otherwise). Unset in normal use.
pub const HOLD_SAVES_ENV: &str = "NPUZZLE_TEST_HOLD_SAVES_MS";

/// Waits as [`HOLD_SAVES_ENV`] says (not at all when it is unset or not a number).
fn hold_before_rename() {
    let held = std::env::var(HOLD_SAVES_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(ms) = held {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// The temporary files this process is writing now (the saves in progress).
static LIVE: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file on the [`LIVE`] list while this guard lives.
struct Live(PathBuf);

impl Live {
    fn register(path: &Path) -> Live {
        let mut live = LIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        live.push(path.to_path_buf());
        Live(path.to_path_buf())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let mut live = LIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        live.retain(|p| *p != self.0);
    }
}

/// Removes the temporary files of the saves this process has in progress, for an orderly
/// stop that will not wait for them (a signal, a window closed during a save): a save then
/// leaves nothing behind, and its target keeps what it held before. Returns how many were
/// removed. The saves themselves fail from then on (their rename finds no file), or, if one
/// renamed first, its target is complete.
pub fn remove_live() -> usize {
    remove_live_in(None)
}

/// [`remove_live`] for the saves into `dir` only (all with `None`).
fn remove_live_in(dir: Option<&Path>) -> usize {
    let live = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    live.iter()
        .filter(|p| dir.is_none_or(|d| p.parent() == Some(d)))
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count()
}

/// [`remove_live`], saying on stderr how many were removed when any were, after `what`
/// happened ("stopped", "closed during a save").
pub fn remove_live_saying(what: &str) {
    let removed = remove_live();
    if removed > 0 {
        crate::note!(
            "npuzzle: {what}; removed {removed} unfinished temporary file{}",
            if removed == 1 { "" } else { "s" }
        );
    }
}

/// A new temporary file in `dir`, locked exclusively. A cleaner may take a file in the instant
/// between its creation and its lock (it looks abandoned then) and delete it: the name is
/// checked to still lead to the locked file, and a new one made if not.
fn locked_temporary(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    for _ in 0..8 {
        let tmp = tempfile::Builder::new()
            .prefix(TMP_PREFIX)
            .suffix(TMP_SUFFIX)
            .tempfile_in(dir)?;
        match tmp.as_file().lock() {
            Ok(()) => {}
            // A file system without locks: write unlocked (the cleaners' age rule then
            // protects the file, as for files of earlier versions).
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported => return Ok(tmp),
            Err(e) => return Err(e),
        }
        if same_file(tmp.as_file(), tmp.path()) {
            return Ok(tmp);
        }
    }
    Err(std::io::Error::other(format!(
        "{}: temporary files keep vanishing",
        dir.display()
    )))
}

/// Whether `path` names the open file `file`.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
///
/// # Errors
/// As [`write_atomic_with`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// A temporary file of [`write_atomic_with`]'s in a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Temporary {
    /// Its path.
    pub path: PathBuf,
    /// Its size, in bytes.
    pub bytes: u64,
    /// Whether a live writer holds it (a save in progress); otherwise its writer was killed
    /// before the rename and the file is garbage.
    pub live: bool,
}

/// The temporary files of [`write_atomic_with`] in `dir` (plain files only), each with whether
/// a live writer holds it. A folder that does not exist has none.
///
/// # Errors
/// Reading the folder.
pub fn temporaries(dir: &Path) -> std::io::Result<Vec<Temporary>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.starts_with(TMP_PREFIX) && name.ends_with(TMP_SUFFIX);
        let legacy = !ours && name.starts_with(LEGACY_PREFIX);
        if !ours && !legacy {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let live = if legacy {
            // No lock to ask: recent writes mean a writer may still be at it.
            meta.modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_none_or(|age| age < LEGACY_AGE)
        } else {
            match File::open(entry.path()) {
                Ok(f) => f.try_lock().is_err(),
                // Renamed or removed since the listing: nothing left to clean.
                Err(_) => continue,
            }
        };
        out.push(Temporary {
            path: entry.path(),
            bytes: meta.len(),
            live,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The temporary files in `dir` that no live writer holds (see [`temporaries`]).
///
/// # Errors
/// Reading the folder.
pub fn stale_temporaries(dir: &Path) -> std::io::Result<Vec<Temporary>> {
    Ok(temporaries(dir)?.into_iter().filter(|t| !t.live).collect())
}

/// Deletes the temporary files in `dir` that no live writer holds; returns them. A file is
/// deleted while this process holds its lock, so a writer that opened it in between finds its
/// name gone and starts a new one (see `locked_temporary`).
///
/// # Errors
/// Reading the folder, or the first file that cannot be deleted.
pub fn remove_stale_temporaries(dir: &Path) -> std::io::Result<Vec<Temporary>> {
    let mut removed = Vec::new();
    for t in stale_temporaries(dir)? {
        // Hold the lock across the delete (legacy files have none to take).
        let held = File::open(&t.path).ok().filter(|f| f.try_lock().is_ok());
        let name = t.path.file_name().map(|n| n.to_string_lossy().into_owned());
        let legacy = name.is_some_and(|n| !n.starts_with(TMP_PREFIX));
        if held.is_none() && !legacy {
            continue; // taken by a writer since the listing
        }
        match std::fs::remove_file(&t.path) {
            Ok(()) => removed.push(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        drop(held);
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_temporary_is_live_and_an_abandoned_one_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A writer at work: its file is locked.
        let live = locked_temporary(dir.path()).unwrap();
        // A writer killed before the rename: the file stays, nobody holds it.
        let dead = locked_temporary(dir.path()).unwrap();
        let (file, dead_path) = dead.keep().unwrap();
        drop(file);
        std::fs::write(dir.path().join("table.pdb"), b"not a temporary").unwrap();
        let all = temporaries(dir.path()).unwrap();
        assert_eq!(all.len(), 2, "{all:?}");
        assert!(all.iter().any(|t| t.path == live.path() && t.live));
        assert!(all.iter().any(|t| t.path == dead_path && !t.live));
        let removed = remove_stale_temporaries(dir.path()).unwrap();
        assert_eq!(removed.len(), 1);
        assert_eq!(removed[0].path, dead_path);
        assert!(!dead_path.exists());
        assert!(
            live.path().exists(),
            "a live writer's file is never touched"
        );
        assert!(dir.path().join("table.pdb").exists());
    }

    /// An orderly stop during a save (a signal, the window closed) removes its temporary
    /// file: a killed `pdb build` left 2–4 MiB, a closed window 254 MB.
    #[test]
    fn a_save_in_progress_is_removed_by_remove_live() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("table.pdb");
        let (started, hold) = (std::sync::mpsc::channel(), std::sync::mpsc::channel::<()>());
        let (started_tx, started_rx) = started;
        let (hold_tx, hold_rx) = hold;
        let t = target.clone();
        let writer = std::thread::spawn(move || {
            write_atomic_with(&t, |w| {
                w.write_all(b"half")?;
                w.flush()?;
                started_tx.send(()).unwrap();
                hold_rx.recv().unwrap();
                w.write_all(b" and the rest")
            })
        });
        started_rx.recv().unwrap();
        let tmp_count = || {
            std::fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(TMP_SUFFIX))
                .count()
        };
        assert_eq!(tmp_count(), 1);
        // (Only this test's folder: the process's other tests may be saving too.)
        assert_eq!(remove_live_in(Some(dir.path())), 1);
        assert_eq!(tmp_count(), 0);
        hold_tx.send(()).unwrap();
        // The save fails (its file is gone) and leaves nothing: no target, no temporary.
        assert!(writer.join().unwrap().is_err());
        assert!(!target.exists());
        assert_eq!(tmp_count(), 0);
    }

    #[test]
    fn atomic_write_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(temporaries(dir.path()).unwrap(), []);
    }
}
