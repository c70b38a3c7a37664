//! The app's files in the user's config folder (`~/.config/npuzzle/` on Linux, as the
//! `directories` crate finds it): one home for finding, reading back and checking them, and
//! writing them atomically. The recent files list ([`Recent`](super::Recent)) and the settings
//! kept between runs ([`Saved`](super::Saved)) are two such files.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A JSON file in the user's config folder.
#[derive(Clone, Copy, Debug)]
pub struct ConfigFile {
    /// Its name in the folder, e.g. `recent.json`.
    pub name: &'static str,
    /// The largest file read, in bytes: anything larger is refused unread.
    pub max_bytes: u64,
}

/// What reading a [`ConfigFile`] found.
#[derive(Debug)]
pub enum Read<T> {
    /// No file: nothing was kept yet.
    Missing,
    /// The file, read and checked.
    Good(T),
    /// A file that could not be read, and why in words: not a regular file (a FIFO or device
    /// is refused without blocking), larger than the bound, or an I/O error.
    Unreadable(String),
    /// A file read whole that is not JSON of the expected shape: serde's words.
    Invalid(String),
}

impl ConfigFile {
    /// Where the file is, or `None` when the system names no config folder (no home).
    pub fn path(&self) -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "npuzzle").map(|d| d.config_dir().join(self.name))
    }

    /// Reads `path` (see [`Read`]); never blocks on a special file and never reads past
    /// `max_bytes`.
    pub fn read_from<T: DeserializeOwned>(&self, path: &Path) -> Read<T> {
        match crate::files::read_regular(path, self.max_bytes) {
            Ok(bytes) => match serde_json::from_slice::<T>(&bytes) {
                Ok(v) => Read::Good(v),
                Err(e) => Read::Invalid(e.to_string()),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Read::Missing,
            Err(e) => Read::Unreadable(e.to_string()),
        }
    }

    /// Writes `value` as pretty JSON to `path` atomically (creating its folder).
    ///
    /// # Errors
    /// The folder's creation or the write's I/O error.
    pub fn write_to<T: Serialize>(&self, path: &Path, value: &T) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let json = serde_json::to_vec_pretty(value).map_err(std::io::Error::other)?;
        crate::files::write_atomic(path, &json)
    }

    /// Writes `value` to the file in the config folder (see [`ConfigFile::write_to`]).
    ///
    /// # Errors
    /// As [`ConfigFile::write_to`]; [`std::io::ErrorKind::NotFound`] without a config folder.
    pub fn write<T: Serialize>(&self, value: &T) -> std::io::Result<()> {
        match self.path() {
            Some(p) => self.write_to(&p, value),
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "the system names no config folder",
            )),
        }
    }
}
