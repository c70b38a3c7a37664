//! The two lists the app keeps: messages for the user, and recently opened files.

use std::path::{Path, PathBuf};

use super::config::{ConfigFile, Read};

/// How a message reads: a notice (informational: what the app did), a warning (something
/// worked around), or an error (something failed; what the user asked for did not happen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Informational: shown plainly.
    Notice,
    /// Worked around (a cache file rebuilt, …): shown in amber.
    Warning,
    /// Failed: shown in red.
    Error,
}

/// One message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// How it reads.
    pub level: Level,
    /// The text.
    pub text: String,
    /// Whether it is about the puzzle shown (its answer, a load that kept it): dropped when
    /// another puzzle comes in or a new search starts ([`Messages::drop_board`]).
    pub about_board: bool,
}

/// Messages for the user, oldest first.
#[derive(Clone, Debug, Default)]
pub struct Messages(Vec<Message>);

/// Messages kept; older ones are dropped.
const MAX_MESSAGES: usize = 50;

impl Messages {
    /// Shows a notice in the app and writes it to standard error.
    pub fn note(&mut self, msg: impl Into<String>) {
        self.add(Level::Notice, msg.into(), true);
    }

    /// Shows a warning in the app and writes it to standard error.
    pub fn warn(&mut self, msg: impl Into<String>) {
        self.add(Level::Warning, msg.into(), true);
    }

    /// Shows an error in the app and writes it to standard error.
    pub fn error(&mut self, msg: impl Into<String>) {
        self.add(Level::Error, msg.into(), true);
    }

    /// Shows a notice in the app only.
    pub fn show(&mut self, msg: impl Into<String>) {
        self.add(Level::Notice, msg.into(), false);
    }

    /// Shows a message about the puzzle shown (and writes it to standard error): it stays
    /// until another puzzle comes in or a new search starts.
    pub fn about_board(&mut self, level: Level, msg: impl Into<String>) {
        self.push(level, msg.into(), true, true);
    }

    /// Shows a notice in the app only, dropped with the messages about the puzzle shown (a
    /// file dialog that chose nothing: moot once a puzzle is pasted or loaded).
    pub fn show_about_board(&mut self, msg: impl Into<String>) {
        self.push(Level::Notice, msg.into(), false, true);
    }

    /// Drops the messages about the puzzle that was shown (see [`Messages::about_board`]).
    pub fn drop_board(&mut self) {
        self.0.retain(|m| !m.about_board);
    }

    fn add(&mut self, level: Level, text: String, stderr: bool) {
        self.push(level, text, stderr, false);
    }

    fn push(&mut self, level: Level, text: String, stderr: bool, about_board: bool) {
        if stderr {
            crate::note!("npuzzle: {text}");
        }
        self.0.push(Message {
            level,
            text,
            about_board,
        });
        if self.0.len() > MAX_MESSAGES {
            self.0.remove(0);
        }
    }

    /// Removes every message.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The newest message's text.
    pub fn last(&self) -> Option<&String> {
        self.0.last().map(|m| &m.text)
    }

    /// The newest message.
    pub fn last_message(&self) -> Option<&Message> {
        self.0.last()
    }

    /// All messages, oldest first.
    pub fn iter(&self) -> std::slice::Iter<'_, Message> {
        self.0.iter()
    }
}

/// Recently opened files, newest first (at most 8), kept in the config folder between runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recent(Vec<PathBuf>);

/// Files kept in the list.
const MAX_RECENT: usize = 8;

/// The recent files list's file: eight paths take a few hundred bytes.
const RECENT_FILE: ConfigFile = ConfigFile {
    name: "recent.json",
    max_bytes: 64 << 10,
};

impl Recent {
    /// The list saved in the config folder, and a message when a file there could not be
    /// used: an unreadable, corrupt or foreign list (or a FIFO, a device, a file past 64 KiB,
    /// none of which is read) gives an empty one; no file, an empty list and no message.
    pub fn load() -> (Recent, Option<String>) {
        match RECENT_FILE.path() {
            Some(p) => Recent::load_from(&p),
            None => (Recent::default(), None),
        }
    }

    /// [`Recent::load`] from the file `path`.
    pub fn load_from(path: &Path) -> (Recent, Option<String>) {
        let ignored = |why: String| {
            let shown = path.display();
            (
                Recent::default(),
                Some(format!(
                    "{shown}: {why}; the recent files list starts empty"
                )),
            )
        };
        match RECENT_FILE.read_from::<Vec<PathBuf>>(path) {
            Read::Good(mut list) => {
                list.truncate(MAX_RECENT);
                (Recent(list), None)
            }
            Read::Missing => (Recent::default(), None),
            Read::Unreadable(why) => ignored(why),
            Read::Invalid(why) => ignored(format!("not a list of files ({why})")),
        }
    }

    /// Saves the list to the config folder (best effort, atomically).
    pub fn save(&self) {
        let _ = RECENT_FILE.write(&self.0);
    }

    /// Puts `path` first (once).
    pub fn add(&mut self, path: &Path) {
        self.0.retain(|p| p != path);
        self.0.insert(0, path.to_path_buf());
        self.0.truncate(MAX_RECENT);
    }

    /// The files, newest first.
    pub fn paths(&self) -> &[PathBuf] {
        &self.0
    }
}
