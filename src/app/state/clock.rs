//! The UI's clock: the frame time, the smoothed frame duration, and how long the last search
//! took from the UI's view. Set by the frame loop (the window, or a test's harness).

/// Times in seconds on the UI's clock (any origin; the frame loop sets it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    now: f64,
    frame_seconds: f64,
    /// When the frame being drawn began (`None` between frames).
    frame_began: Option<f64>,
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

    /// What a frame costs to draw (build, render, present), in seconds, smoothed; 0 before the
    /// first frame has ended. The time between frames is not a cost: an idle window draws
    /// rarely.
    pub fn frame_seconds(&self) -> f64 {
        self.frame_seconds
    }

    /// A frame starts being drawn at `t` (seconds on any clock that `frame_ended` shares).
    pub fn frame_began(&mut self, t: f64) {
        self.frame_began = Some(t);
    }

    /// The frame begun last ended at `t`: its cost enters the smoothed figure (exponential
    /// smoothing, weight 0.1).
    pub fn frame_ended(&mut self, t: f64) {
        let Some(began) = self.frame_began.take() else {
            return;
        };
        let dt = (t - began).max(0.0);
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

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn a_frame_costs_its_drawing_not_the_gap_before_it() {
        let mut c = Clock::default();
        c.frame_began(0.0);
        c.frame_ended(0.012);
        assert!((c.frame_seconds() - 0.012).abs() < 1e-12);
        // An idle second and more between frames (the trial saw "frame 1.1 s" when idle).
        for k in 1..20 {
            let t = 1.1 * f64::from(k);
            c.frame_began(t);
            c.frame_ended(t + 0.012);
        }
        assert!(
            (c.frame_seconds() - 0.012).abs() < 1e-9,
            "{}",
            c.frame_seconds()
        );
        // An end without a beginning changes nothing.
        c.frame_ended(100.0);
        assert!((c.frame_seconds() - 0.012).abs() < 1e-9);
    }
}
