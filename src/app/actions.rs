//! The app's commands in one table ([`ACTIONS`]): each [`Action`] with its menu, its words and
//! its keys. The menu bar, the keyboard and the shortcuts sheet (F1) all read it, so that a
//! key is defined once and shown where its command is. No window code here.

use egui::{Key, KeyboardShortcut, Modifiers};

/// A command of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// File ▸ Open…: a puzzle file.
    Open,
    /// File ▸ Save board…: the board shown, as a text file.
    SaveBoard,
    /// File ▸ Quit.
    Quit,
    /// Edit ▸ Undo: takes back the last move by hand (a played solution at once).
    Undo,
    /// Edit ▸ Redo.
    Redo,
    /// Edit ▸ Paste board: the clipboard's text as the puzzle.
    PasteBoard,
    /// View ▸ the left panel (run controls, Puzzle, Solver).
    ShowControls,
    /// View ▸ the right panel (Inspector, Solution, Stats).
    ShowResults,
    /// View ▸ the heuristic drawn on the board.
    ShowHeuristic,
    /// View ▸ Larger text.
    TextLarger,
    /// View ▸ Smaller text.
    TextSmaller,
    /// View ▸ Normal text size.
    TextNormal,
    /// View ▸ Dark colours (on or off: light).
    Dark,
    /// Search ▸ Start: a search at the speed dial's pace.
    Start,
    /// Search ▸ Pause / resume (starts one when none runs).
    Pause,
    /// Search ▸ Stop.
    Stop,
    /// Search ▸ Step: one expansion.
    Step,
    /// Search ▸ Back: the step before.
    Back,
    /// Search ▸ Reset: the puzzle as it was loaded, no results.
    Reset,
    /// Slides the tile below the blank up.
    SlideUp,
    /// Slides the tile above the blank down.
    SlideDown,
    /// Slides the tile right of the blank left.
    SlideLeft,
    /// Slides the tile left of the blank right.
    SlideRight,
    /// Help ▸ Lessons: the Learn panel.
    Lessons,
    /// Help ▸ Keyboard shortcuts: this table as a sheet.
    Shortcuts,
    /// Help ▸ About: version and licence.
    About,
}

/// Where an action is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    /// The File menu.
    File,
    /// The Edit menu.
    Edit,
    /// The View menu.
    View,
    /// The Search menu.
    Search,
    /// The Help menu.
    Help,
    /// No menu: keys on the board only (listed in the sheet).
    Board,
}

impl Menu {
    /// Its name, as the menu bar and the sheet show it.
    pub fn name(self) -> &'static str {
        match self {
            Menu::File => "File",
            Menu::Edit => "Edit",
            Menu::View => "View",
            Menu::Search => "Search",
            Menu::Help => "Help",
            Menu::Board => "Board",
        }
    }
}

/// One row of [`ACTIONS`].
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The command.
    pub action: Action,
    /// Its menu.
    pub menu: Menu,
    /// Its words in the menu (and the sheet).
    pub label: &'static str,
    /// What it does, in a short sentence (the menu item's tooltip, the sheet).
    pub help: &'static str,
    /// Its keys; the first is shown in the menu, all of them in the sheet.
    pub keys: &'static [KeyboardShortcut],
}

const fn key(k: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, k)
}

const fn ctrl(k: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, k)
}

const fn ctrl_shift(k: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), k)
}

/// Every command, in the menus' order. Ctrl+V arrives as the clipboard's text (the window
/// reads the clipboard), which [`Action::PasteBoard`] takes as a board.
pub const ACTIONS: &[Entry] = &[
    Entry {
        action: Action::Open,
        menu: Menu::File,
        label: "Open…",
        help: "Open a puzzle file (any board or bench format).",
        keys: &[ctrl(Key::O)],
    },
    Entry {
        action: Action::SaveBoard,
        menu: Menu::File,
        label: "Save board…",
        help: "Save the board shown as a text file that npuzzle opens again.",
        keys: &[ctrl(Key::S)],
    },
    Entry {
        action: Action::Quit,
        menu: Menu::File,
        label: "Quit",
        help: "Close the app (the settings are kept for the next run).",
        keys: &[ctrl(Key::Q)],
    },
    Entry {
        action: Action::Undo,
        menu: Menu::Edit,
        label: "Undo",
        help: "Take back the last move made by hand (a solution played back, all at once).",
        keys: &[ctrl(Key::Z), key(Key::U), key(Key::Backspace)],
    },
    Entry {
        action: Action::Redo,
        menu: Menu::Edit,
        label: "Redo",
        help: "Make again the move last taken back.",
        keys: &[ctrl_shift(Key::Z), ctrl(Key::Y)],
    },
    Entry {
        action: Action::PasteBoard,
        menu: Menu::Edit,
        label: "Paste board",
        help: "Take the text on the clipboard as the puzzle (any format npuzzle reads).",
        keys: &[ctrl(Key::V)],
    },
    Entry {
        action: Action::ShowControls,
        menu: Menu::View,
        label: "Left panel",
        help: "Show the run controls, Puzzle and Solver on the left.",
        keys: &[],
    },
    Entry {
        action: Action::ShowResults,
        menu: Menu::View,
        label: "Right panel",
        help: "Show the Inspector, Solution and Stats on the right.",
        keys: &[],
    },
    Entry {
        action: Action::ShowHeuristic,
        menu: Menu::View,
        label: "Heuristic on the board",
        help: "Draw the chosen heuristic's parts and value on the board.",
        keys: &[],
    },
    Entry {
        action: Action::TextLarger,
        menu: Menu::View,
        label: "Larger text",
        help: "Make the text and controls larger.",
        keys: &[ctrl(Key::Plus), ctrl(Key::Equals)],
    },
    Entry {
        action: Action::TextSmaller,
        menu: Menu::View,
        label: "Smaller text",
        help: "Make the text and controls smaller.",
        keys: &[ctrl(Key::Minus)],
    },
    Entry {
        action: Action::TextNormal,
        menu: Menu::View,
        label: "Normal text size",
        help: "Bring the text back to its normal size.",
        keys: &[ctrl(Key::Num0)],
    },
    Entry {
        action: Action::Dark,
        menu: Menu::View,
        label: "Dark colours",
        help: "Light text on a dark background; off: dark text on a light one.",
        keys: &[],
    },
    Entry {
        action: Action::Start,
        menu: Menu::Search,
        label: "Start",
        help: "Start a search on the board at the speed dial's pace.",
        keys: &[key(Key::F5)],
    },
    Entry {
        action: Action::Pause,
        menu: Menu::Search,
        label: "Pause / resume",
        help: "Pause the search, or let it run on (starts one when none runs).",
        keys: &[key(Key::Space)],
    },
    Entry {
        action: Action::Stop,
        menu: Menu::Search,
        label: "Stop",
        help: "Stop the search, keeping what it shows.",
        keys: &[KeyboardShortcut::new(Modifiers::SHIFT, Key::F5)],
    },
    Entry {
        action: Action::Step,
        menu: Menu::Search,
        label: "Step",
        help: "Expand one node (starts a stepped search when none runs).",
        keys: &[key(Key::N)],
    },
    Entry {
        action: Action::Back,
        menu: Menu::Search,
        label: "Back",
        help: "Show the step before, in a stepped search.",
        keys: &[key(Key::B)],
    },
    Entry {
        action: Action::Reset,
        menu: Menu::Search,
        label: "Reset",
        help: "Stop, clear the results and bring back the puzzle as it was loaded.",
        keys: &[key(Key::R)],
    },
    Entry {
        action: Action::SlideUp,
        menu: Menu::Board,
        label: "Slide a tile up",
        help: "Slide the tile below the blank up.",
        keys: &[key(Key::ArrowUp)],
    },
    Entry {
        action: Action::SlideDown,
        menu: Menu::Board,
        label: "Slide a tile down",
        help: "Slide the tile above the blank down.",
        keys: &[key(Key::ArrowDown)],
    },
    Entry {
        action: Action::SlideLeft,
        menu: Menu::Board,
        label: "Slide a tile left",
        help: "Slide the tile right of the blank left.",
        keys: &[key(Key::ArrowLeft)],
    },
    Entry {
        action: Action::SlideRight,
        menu: Menu::Board,
        label: "Slide a tile right",
        help: "Slide the tile left of the blank right.",
        keys: &[key(Key::ArrowRight)],
    },
    Entry {
        action: Action::Lessons,
        menu: Menu::Help,
        label: "Lessons",
        help: "Open the Learn panel: short guided lessons on search.",
        keys: &[],
    },
    Entry {
        action: Action::Shortcuts,
        menu: Menu::Help,
        label: "Keyboard shortcuts",
        help: "List every key and what it does.",
        keys: &[key(Key::F1)],
    },
    Entry {
        action: Action::About,
        menu: Menu::Help,
        label: "About npuzzle",
        help: "The version and the licence.",
        keys: &[],
    },
];

/// The row of `action`.
pub fn entry(action: Action) -> &'static Entry {
    ACTIONS
        .iter()
        .find(|e| e.action == action)
        .unwrap_or(&ACTIONS[0])
}

/// A key in words, as the menus and the sheet show it: `Ctrl+Shift+Z`, `Space`, `Up`,
/// `Ctrl+Plus` (no arrows or symbols the default font may lack).
pub fn key_text(k: &KeyboardShortcut) -> String {
    let mut s = String::new();
    if k.modifiers.command || k.modifiers.ctrl {
        s.push_str("Ctrl+");
    }
    if k.modifiers.alt {
        s.push_str("Alt+");
    }
    if k.modifiers.shift {
        s.push_str("Shift+");
    }
    s.push_str(match k.logical_key {
        Key::ArrowUp => "Up",
        Key::ArrowDown => "Down",
        Key::ArrowLeft => "Left",
        Key::ArrowRight => "Right",
        Key::Plus => "Plus",
        Key::Minus => "Minus",
        Key::Equals => "Equals",
        Key::Escape => "Esc",
        other => other.name(),
    });
    s
}

/// Every key of `action`, in words, joined by ", ".
pub fn keys_text(action: Action) -> String {
    entry(action)
        .keys
        .iter()
        .map(key_text)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `k` is a key a control with the keyboard focus takes for itself: Space (a button
/// clicks) and the arrows (the focus moves; the board moves its ring), unmodified.
pub fn focus_key(k: &KeyboardShortcut) -> bool {
    k.modifiers == Modifiers::NONE
        && matches!(
            k.logical_key,
            Key::Space | Key::ArrowUp | Key::ArrowDown | Key::ArrowLeft | Key::ArrowRight
        )
}

/// Takes the actions whose keys were pressed this frame out of `input` (each key press once),
/// grouped by key: a key with more modifiers is matched first, so that Ctrl+Shift+Z is
/// Redo, not Undo (egui's matching ignores an extra Shift). While a control has the keyboard
/// focus (`focused`), the [`focus_key`]s are left to it.
pub fn take_pressed(input: &mut egui::InputState, focused: bool) -> Vec<Action> {
    let mut keys: Vec<(&KeyboardShortcut, Action)> = ACTIONS
        .iter()
        .flat_map(|e| e.keys.iter().map(move |k| (k, e.action)))
        .filter(|(k, _)| !(focused && focus_key(k)))
        .collect();
    let weight = |m: Modifiers| u8::from(m.command) + u8::from(m.shift) + u8::from(m.alt);
    keys.sort_by_key(|(k, _)| std::cmp::Reverse(weight(k.modifiers)));
    let mut pressed = Vec::new();
    for (k, action) in keys {
        for _ in 0..input.count_and_consume_key(k.modifiers, k.logical_key) {
            pressed.push(action);
        }
    }
    pressed
}
