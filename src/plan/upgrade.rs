//! `auto`'s second thought on a fresh cache: a 4×4 IDA* search with the quick table
//! (`pdb555`, built in a fraction of a second) that its first iterations say will take longer
//! than building `pdb78` is stopped; `pdb78` is built (with progress, and cached) and the
//! search runs again with it.
//!
//! [`offer`] says whether a plan may switch so ([`Upgrade`]); a [`Switch`] follows the search's
//! progress reports, forecasts its remaining time at each iteration's end
//! ([`crate::search::forecast`]) and [`judge`]s it against the build's estimate
//! ([`build_seconds`]); the caller stops the search through the switch's cancel flag, builds
//! ([`Upgrade::load`]) and searches again. Only [`Purpose::Answer`]: the app's searches are
//! watched, not raced.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Chosen, Hardware, Note, Purpose, Request, Watch};
use crate::heuristic::pdb::PartitionSpec;
use crate::heuristic::pdb::cache::PdbCache;
use crate::heuristic::{HeuristicChoice, HeuristicSpec, ResolveError};
use crate::puzzle::Goal;
use crate::search::forecast::IterationLog;
use crate::search::{Algorithm, Progress};

/// Pattern-table entries one core fills per second while building (the breadth-first build of
/// `heuristic::pdb::builder`, on all cores through rayon), so that `pdb78`'s 576,576,000
/// entries take 82 s on 2 cores: calibrated on this project's 2-core machine, where
/// `npuzzle pdb build pdb78` took 73–95 s alone (docs/benchmarks.md) and the measure
/// was "about a minute". Part of a build is not parallel (saving, checks), so more cores
/// gain less than this says; another process's load on the cores makes it slower (148 s wall,
/// 114.8 s of CPU, beside other builds).
pub const ENTRIES_PER_CORE_SECOND: f64 = 3.5e6;

/// How many iterations ahead the search's remaining time is forecast. The answer lies beyond
/// the threshold just finished; where this matters pdb555's first estimate is far below it
/// (the devil board `1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0`: h 46, answer 72; the first
/// 80-move position of `assets/bench/hard15.txt`: h 62), so two iterations stay below the time
/// left while a board answered in the next iteration is not held up by a build.
pub const HORIZON: u32 = 2;

/// A stronger table a plan may switch to mid-search.
#[derive(Clone, Debug)]
pub struct Upgrade {
    /// The quick table searched with first (`pdb555`).
    pub from: String,
    /// The table to build (`pdb78`).
    pub to: PartitionSpec,
    /// The build's estimated seconds here ([`build_seconds`]).
    pub build_seconds: f64,
}

/// The seconds building `spec`'s tables for `goal` takes on `cores` cores, estimated from
/// their entries at [`ENTRIES_PER_CORE_SECOND`]; `None` for a partition that does not fit.
pub fn build_seconds(spec: &PartitionSpec, goal: &Goal, cores: usize) -> Option<f64> {
    let entries = crate::heuristic::table_bytes(spec, goal)?;
    Some(entries as f64 / (ENTRIES_PER_CORE_SECOND * cores.max(1) as f64))
}

/// The upgrade open to a search of `algorithm` with `heuristic` towards `goal` for `request`:
/// `auto` asked for an answer ([`Purpose::Answer`]), IDA* on the CPU on a 4×4 board with
/// `pdb555`, and `pdb78` neither cached nor too big for the memory cap. `None` otherwise (a
/// heuristic named by the user is never replaced).
pub fn offer(
    request: &Request,
    algorithm: Algorithm,
    heuristic: &HeuristicSpec,
    goal: &Goal,
) -> Option<Upgrade> {
    let b = goal.board();
    let quick = request.heuristic == HeuristicChoice::Auto
        && request.purpose == Purpose::Answer
        && algorithm == Algorithm::IdaStar
        && (b.rows(), b.cols()) == (4, 4)
        && heuristic.name() == "pdb555";
    if !quick {
        return None;
    }
    let to = PartitionSpec::Named("pdb78".into());
    let cache = PdbCache::new(request.cache_dir.clone()).ok()?;
    if crate::heuristic::is_cached(&cache, goal, &to) {
        return None;
    }
    let patterns = to.patterns(goal).ok()?;
    let need = patterns
        .iter()
        .map(|p| crate::heuristic::pdb::builder::build_memory(b.len(), p.len()))
        .max()?;
    if need > request.max_memory {
        return None;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Some(Upgrade {
        from: heuristic.name().to_string(),
        build_seconds: build_seconds(&to, goal, cores)?,
        to,
    })
}

impl Upgrade {
    /// The table to switch to, built now (with progress and notes on `watch`) and cached:
    /// the plan's choice for `algorithm` with it.
    ///
    /// # Errors
    /// As [`super::load_heuristic`]: a cancelled build, a cache that cannot be written, …
    pub fn load(
        &self,
        request: &Request,
        algorithm: Algorithm,
        goal: &Goal,
        hardware: &Hardware,
        watch: &dyn Watch,
    ) -> Result<Chosen, ResolveError> {
        let request = Request {
            heuristic: HeuristicChoice::Pdb(self.to.clone()),
            ..request.clone()
        };
        let heuristic = super::load_heuristic(&request, algorithm, goal, hardware, watch)?;
        Ok(Chosen {
            algorithm,
            heuristic: heuristic.heuristic,
        })
    }
}

/// What the forecast says of a search that could switch tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Go on: no forecast yet, or one shorter than the build.
    Stay,
    /// Stop, build, search again: the search's forecast `search` seconds exceed the build's
    /// `build` seconds.
    Build {
        /// The forecast of the search's next [`HORIZON`] iterations, in seconds.
        search: f64,
        /// The build's estimate, in seconds.
        build: f64,
    },
    /// The build would pay, but the time limit leaves less than it takes: go on.
    NoTime {
        /// The forecast of the search's next [`HORIZON`] iterations, in seconds.
        search: f64,
        /// The build's estimate, in seconds.
        build: f64,
    },
}

/// The decision rule: a search whose finished iterations generated `generated` nodes each, at
/// `nodes_per_second`, is stopped for a build of `build` seconds when its next [`HORIZON`]
/// iterations are forecast to take longer ([`crate::search::forecast::next_iteration`]);
/// `time_left`: seconds the time limit leaves (`None`: no limit).
pub fn judge(
    generated: &[u64],
    nodes_per_second: f64,
    build: f64,
    time_left: Option<f64>,
) -> Verdict {
    let Some(next) = crate::search::forecast::next_iteration(generated, nodes_per_second) else {
        return Verdict::Stay;
    };
    let search = next.seconds_within(HORIZON);
    if search <= build {
        Verdict::Stay
    } else if time_left.is_some_and(|t| t < build) {
        Verdict::NoTime { search, build }
    } else {
        Verdict::Build { search, build }
    }
}

/// Follows one search's progress for an [`Upgrade`]: judges it at each iteration's end, says
/// what it decides (a [`Note::Chose`]) and stops the search through its cancel flag.
pub struct Switch {
    upgrade: Upgrade,
    log: IterationLog,
    cancel: Arc<AtomicBool>,
    deadline: Option<Instant>,
    verdict: Verdict,
}

impl Switch {
    /// A switch for `upgrade`; `deadline`: when the time limit ends. The search must be run
    /// with [`Switch::cancel_flag`] as its limits' cancel flag.
    pub fn new(upgrade: Upgrade, deadline: Option<Instant>) -> Switch {
        Switch {
            upgrade,
            log: IterationLog::new(),
            cancel: Arc::new(AtomicBool::new(false)),
            deadline,
            verdict: Verdict::Stay,
        }
    }

    /// The flag that stops the search.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// The upgrade it watches for.
    pub fn upgrade(&self) -> &Upgrade {
        &self.upgrade
    }

    /// Takes the search's progress report `p`; at an iteration's end that the forecast says
    /// to switch on, says so on `watch` and sets the cancel flag (once; a forecast without
    /// time for the build is said once, and the search goes on).
    pub fn observe(&mut self, p: &Progress, watch: &dyn Watch) {
        if self.verdict != Verdict::Stay || p.finished || !self.log.observe(p) {
            return;
        }
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
        let u = &self.upgrade;
        self.verdict = judge(
            self.log.generated(),
            self.log.nodes_per_second(),
            u.build_seconds,
            left,
        );
        let (from, to) = (&u.from, u.to.name());
        match self.verdict {
            Verdict::Stay => {}
            Verdict::Build { search, build } => {
                watch.note(Note::Chose(format!(
                    "auto: this board looks hard for {from} (~{search:.0} s more); building {to} (~{build:.0} s) and searching again"
                )));
                self.cancel.store(true, Ordering::Relaxed);
            }
            Verdict::NoTime { search, build } => watch.note(Note::Chose(format!(
                "auto: this board looks hard for {from} (~{search:.0} s more); building {to} would take ~{build:.0} s, more than the time limit leaves (`npuzzle pdb build {to}` once makes such boards quick)"
            ))),
        }
    }

    /// Whether it stopped the search to build.
    pub fn switched(&self) -> bool {
        matches!(self.verdict, Verdict::Build { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    /// The devil board `1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0` (blank-last goal) with pdb555:
    /// nodes generated in its iterations of thresholds 46, 48, …, 66, and the seconds at each
    /// end, as measured on the 2-core machine (IDA*, one thread).
    const DEVIL: [(u64, f64); 11] = [
        (2, 0.000),
        (103, 0.002),
        (959, 0.003),
        (4_733, 0.003),
        (27_348, 0.004),
        (141_792, 0.009),
        (723_342, 0.054),
        (3_623_422, 0.274),
        (18_105_936, 1.407),
        (89_448_885, 6.900),
        (438_791_579, 35.784),
    ];

    /// The verdicts after each of the devil board's iterations, with a build of `build` s.
    fn verdicts(build: f64, time_left: Option<f64>) -> Vec<Verdict> {
        (1..=DEVIL.len())
            .map(|n| {
                let generated: Vec<u64> = DEVIL[..n].iter().map(|d| d.0).collect();
                let rate = generated.iter().sum::<u64>() as f64 / DEVIL[n - 1].1;
                judge(&generated, rate, build, time_left)
            })
            .collect()
    }

    #[test]
    fn the_devil_board_switches_after_threshold_64() {
        // pdb78's build is about 82 s on two cores: the forecast after threshold 62 (1.4 s
        // in, next two iterations ~34 s) stays, after 64 (6.9 s in, ~164 s) switches.
        let v = verdicts(82.0, None);
        let first = v.iter().position(|v| *v != Verdict::Stay).unwrap();
        assert_eq!(first, 9, "{v:?}");
        let Verdict::Build { search, build } = v[9] else {
            panic!("{v:?}")
        };
        assert!((150.0..200.0).contains(&search), "{search}");
        assert_eq!(build, 82.0);
        // A quicker build switches an iteration earlier.
        assert_eq!(
            verdicts(20.0, None)
                .iter()
                .position(|v| *v != Verdict::Stay),
            Some(8)
        );
    }

    /// A watch that keeps the notes.
    #[derive(Default)]
    struct Said(std::sync::Mutex<Vec<String>>);

    impl Watch for Said {
        fn note(&self, note: Note) {
            self.0.lock().unwrap().push(note.text().to_string());
        }
    }

    /// Feeds the devil board's progress to `switch`, a report within each iteration and one
    /// at its end; gives, after each iteration, whether the cancel flag was set.
    fn feed(switch: &mut Switch, said: &Said) -> Vec<bool> {
        let flag = switch.cancel_flag();
        let mut total = 0;
        let mut set = Vec::new();
        for (i, &(nodes, seconds)) in DEVIL.iter().enumerate() {
            for (share, done) in [(2, false), (1, true)] {
                let p = Progress {
                    generated: total + nodes / share,
                    seconds,
                    ida: crate::search::IdaIteration {
                        number: i as u32 + 1,
                        done,
                        ..Default::default()
                    },
                    ..Progress::default()
                };
                switch.observe(&p, said);
            }
            total += nodes;
            set.push(flag.load(Ordering::Relaxed));
        }
        set
    }

    fn devil_upgrade() -> Upgrade {
        Upgrade {
            from: "pdb555".into(),
            to: PartitionSpec::Named("pdb78".into()),
            build_seconds: 82.0,
        }
    }

    #[test]
    fn a_switch_says_why_and_stops_the_search() {
        let mut switch = Switch::new(devil_upgrade(), None);
        let said = Said::default();
        let set = feed(&mut switch, &said);
        assert_eq!(set.iter().position(|&s| s), Some(9), "{set:?}");
        assert!(set[9..].iter().all(|&s| s));
        assert!(switch.switched());
        assert_eq!(
            *said.0.lock().unwrap(),
            [
                "auto: this board looks hard for pdb555 (~164 s more); building pdb78 (~82 s) and searching again"
            ]
        );
    }

    #[test]
    fn a_switch_without_time_for_the_build_says_so_once_and_goes_on() {
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        let mut switch = Switch::new(devil_upgrade(), Some(deadline));
        let said = Said::default();
        assert!(feed(&mut switch, &said).iter().all(|&s| !s));
        assert!(!switch.switched());
        let said = said.0.lock().unwrap();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].ends_with("building pdb78 would take ~82 s, more than the time limit leaves (`npuzzle pdb build pdb78` once makes such boards quick)"),
            "{said:?}"
        );
    }

    #[test]
    fn a_time_limit_shorter_than_the_build_keeps_the_search() {
        let v = verdicts(82.0, Some(30.0));
        assert!(matches!(v[9], Verdict::NoTime { .. }), "{v:?}");
        assert!(matches!(
            verdicts(82.0, Some(90.0))[9],
            Verdict::Build { .. }
        ));
    }

    #[test]
    fn an_easy_board_stays() {
        // Small iterations never forecast a minute.
        assert_eq!(
            judge(&[10, 400, 9_000, 60_000], 2e7, 82.0, None),
            Verdict::Stay
        );
    }

    #[test]
    fn the_build_is_estimated_from_its_entries() {
        let g = GoalSpec::BlankLast.resolve(4, 4).unwrap();
        let s = build_seconds(&PartitionSpec::Named("pdb78".into()), &g, 2).unwrap();
        assert!((s - 576_576_000.0 / 7e6).abs() < 1e-6, "{s}");
        assert_eq!(
            build_seconds(&PartitionSpec::Named("pdb8".into()), &g, 2),
            None
        );
    }

    #[test]
    fn only_auto_on_4x4_with_pdb555_is_offered_an_upgrade() {
        let dir = tempfile::tempdir().unwrap();
        let g = GoalSpec::BlankLast.resolve(4, 4).unwrap();
        let request = |heuristic: HeuristicChoice, purpose| Request {
            algorithm: Algorithm::Auto,
            heuristic,
            purpose,
            cache_dir: Some(dir.path().to_path_buf()),
            max_memory: 4 << 30,
            batch_size: 1,
            pdb_lookup: Default::default(),
        };
        let manhattan = HeuristicSpec::Kind(crate::heuristic::HeuristicKind::Manhattan);
        // A heuristic that is not pdb555 is never replaced.
        let auto = request(HeuristicChoice::Auto, Purpose::Answer);
        assert!(offer(&auto, Algorithm::IdaStar, &manhattan, &g).is_none());
        let named = request("pdb555".parse().unwrap(), Purpose::Answer);
        let watch = request(HeuristicChoice::Auto, Purpose::Watch);
        let quick = crate::heuristic::resolve(
            &HeuristicChoice::Auto,
            &g,
            &crate::heuristic::ResolveOptions {
                uses_heuristic: true,
                cache_dir: Some(dir.path().to_path_buf()),
                max_memory: 1 << 30,
                max_table_bytes: None,
                progress: &|_, _, _| true,
                warn: &|w| panic!("{w}"),
            },
        )
        .unwrap()
        .heuristic;
        assert_eq!(quick.name(), "pdb555");
        let u = offer(&auto, Algorithm::IdaStar, &quick, &g).unwrap();
        assert_eq!(u.to.name(), "pdb78");
        assert!(offer(&named, Algorithm::IdaStar, &quick, &g).is_none());
        assert!(offer(&watch, Algorithm::IdaStar, &quick, &g).is_none());
        assert!(offer(&auto, Algorithm::GpuIdaStar, &quick, &g).is_none());
        let small = Request {
            max_memory: 1 << 30,
            ..auto.clone()
        };
        assert!(offer(&small, Algorithm::IdaStar, &quick, &g).is_none());
    }
}
