//! The UI's clock: the frame time, the smoothed frame duration, and how long the last search
//! took from the UI's view. Set by the frame loop (the window, or a test's harness).

/// Times in seconds on the UI's clock (any origin; the frame loop sets it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    now: f64,
    frame_seconds: f64,
    started: f64,
    elapsed: f64,
}

impl Clock {
    /// The current time.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Sets the current time (once a frame, before the panels run).
    pub fn set_now(&mut self, now: f64) {
        self.now = now;
    }

    /// The frame duration, smoothed; 0 before the second frame.
    pub fn frame_seconds(&self) -> f64 {
        self.frame_seconds
    }

    /// Records a frame that took `dt` seconds (exponential smoothing, weight 0.1).
    pub fn add_frame(&mut self, dt: f64) {
        self.frame_seconds = if self.frame_seconds == 0.0 {
            dt
        } else {
            self.frame_seconds * 0.9 + dt * 0.1
        };
    }

    /// Seconds the last finished search took, from the UI's view.
    pub fn elapsed(&self) -> f64 {
        self.elapsed
    }

    /// A search starts now.
    pub(super) fn start_search(&mut self) {
        self.started = self.now;
    }

    /// The search ended now.
    pub(super) fn end_search(&mut self) {
        self.elapsed = self.now - self.started;
    }
}
