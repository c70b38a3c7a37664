//! Files we write (caches, exports, screenshots) are written atomically: into a temporary file
//! in the target's folder, flushed to disk, then renamed over the target. A reader never sees a
//! half-written file, and a failed write leaves the old one untouched.

use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `path` atomically, the contents produced by `fill` (given a buffered writer).
///
/// # Errors
/// Any I/O error from creating, filling, syncing or renaming; the target is then untouched.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
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
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
///
/// # Errors
/// As [`write_atomic_with`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}
