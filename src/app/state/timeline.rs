//! The learner's control of time in a stepped search: the speed dial, "go to step", Back.

use super::AppState;

impl AppState {
    /// Sets the speed dial (steps a second, 0 as fast as possible), and the running search's
    /// speed.
    pub fn set_speed(&mut self, steps_per_second: u32) {
        self.settings.steps_per_second = steps_per_second;
        self.run.set_rate(steps_per_second);
    }

    /// Shows step `n` of the stepped search (0: before the first expansion; past the last
    /// taken: the last), pausing it: the board, inspector, open list, tree, heatmap, stats and
    /// iteration chart all show that moment, and stepping on goes on from it.
    pub fn go_to_step(&mut self, n: u64) {
        self.run.go_to(n);
    }

    /// Shows the step before the one shown (Back), pausing the search.
    pub fn step_back(&mut self) {
        self.run.back(1);
    }
}
