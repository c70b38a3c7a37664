//! Solution playback: the position in the solution, automatic play, and the tile slide being
//! animated (of a playback step or of the player's own move).

/// A tile slide being animated: tile, from cell, to cell, start time (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    /// The tile.
    pub tile: u8,
    /// Cell it left (row-major).
    pub from: usize,
    /// Cell it entered.
    pub to: usize,
    /// When the slide started, in the UI's clock (seconds).
    pub start: f64,
}

/// Seconds a slide animation takes.
pub const SLIDE_SECONDS: f64 = 0.12;

/// Where playback stands. Positions count solution moves applied to the start board
/// (0 ..= the solution's length); the caller passes that length.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    position: usize,
    playing: bool,
    speed: f32,
    last_step: f64,
    slide: Option<Slide>,
}

impl Default for Playback {
    /// At the start, not playing, 4 moves a second.
    fn default() -> Self {
        Playback {
            position: 0,
            playing: false,
            speed: 4.0,
            last_step: 0.0,
            slide: None,
        }
    }
}

impl Playback {
    /// Solution moves applied to the shown board.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Whether playback advances by itself.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Playback speed in moves per second (the panel's slider edits it).
    pub fn speed_mut(&mut self) -> &mut f32 {
        &mut self.speed
    }

    /// The last tile slide, for the highlight and the animation.
    pub fn slide(&self) -> Option<Slide> {
        self.slide
    }

    /// Whether the last slide is still being animated at `now`.
    pub fn animating(&self, now: f64) -> bool {
        self.slide.is_some_and(|s| now - s.start < SLIDE_SECONDS)
    }

    /// Back to the start, stopped, nothing animated (a new puzzle or search).
    pub(super) fn reset(&mut self) {
        self.position = 0;
        self.playing = false;
        self.slide = None;
    }

    /// Starts animating `slide` (or stops animating).
    pub(super) fn set_slide(&mut self, slide: Option<Slide>) {
        self.slide = slide;
    }

    /// The position `delta` moves away, clamped to `0..=len`; `None` when that is where
    /// playback already is.
    pub(super) fn target(&self, delta: isize, len: usize) -> Option<usize> {
        let target = (self.position as isize + delta).clamp(0, len as isize) as usize;
        (target != self.position).then_some(target)
    }

    /// Goes to `position`, animating `slide`.
    pub(super) fn go(&mut self, position: usize, slide: Option<Slide>) {
        self.position = position;
        self.slide = slide;
    }

    /// Goes to `position` (clamped to `len`), without animation.
    pub(super) fn seek(&mut self, position: usize, len: usize) {
        self.go(position.min(len), None);
    }

    /// Starts or pauses automatic play at `now` (from the start again when at the end).
    pub(super) fn toggle(&mut self, len: usize, now: f64) {
        if self.position >= len {
            self.position = 0;
        }
        self.playing = !self.playing;
        self.last_step = now;
    }

    /// While playing: `Some(true)` when the next automatic step is due at `now` (and counts
    /// it as taken), `Some(false)` otherwise (stopping at the end). `None` when not playing.
    pub(super) fn due(&mut self, len: usize, now: f64) -> Option<bool> {
        if !self.playing {
            return None;
        }
        if self.position >= len {
            self.playing = false;
            return Some(false);
        }
        let due = now - self.last_step >= 1.0 / f64::from(self.speed.max(0.1));
        if due {
            self.last_step = now;
        }
        Some(due)
    }
}
