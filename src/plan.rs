//! What runs: the one place where a request (an algorithm, a heuristic, where to evaluate h)
//! becomes a [`Plan`] that says what will run and runs it.
//!
//! `npuzzle solve`, `bench`, `compare` and the app's worker all plan here:
//! - [`Hardware::open`] opens the GPU for `--evaluator auto|gpu|cpu` (or [`Hardware::with`]
//!   takes the app's), saying what it found;
//! - [`choose`] resolves `auto` ([`pick_algorithm`], one rule per [`Purpose`]) and loads or
//!   builds the heuristic (pattern databases within what the GPU takes);
//! - [`Chosen::open`] opens batched A*'s evaluator or GPU IDA*'s device, falling back to the
//!   CPU where the GPU cannot take the board or heuristic (unless the GPU was insisted on);
//! - [`load_pruning`] gets IDA*'s pruning automaton ready, saying when it is built;
//! - [`Plan::run`] is the search ([`crate::search::run`]).
//!
//! Every line for the user goes to a [`Watch`] as a [`Note`]: the command line writes them on
//! stderr, the app in its messages. No terminal I/O here. [`upgrade`]: `auto`'s switch from a
//! quick table to a stronger one built mid-search, when the search looks longer than the build.

#[cfg(feature = "gpu")]
use std::sync::Arc;

pub mod upgrade;

use crate::eval::ida::IdaDevice;
use crate::eval::{BatchEvaluator, CpuEvaluator, Evaluated};
use crate::heuristic::pdb::builder::BuildProgress;
use crate::heuristic::{HeuristicChoice, HeuristicSpec, ResolveError, ResolveOptions};
use crate::puzzle::{Board, Goal};
use crate::search::{
    Algorithm, Batch, Engine, FsmNote, Limits, MoveFsm, Outcome, Problem, ProgressFn, SearchError,
};

/// Where h is to be evaluated (`--evaluator`, the app's GPU / CPU choice): it applies to
/// batched A* (its batch evaluator) and GPU IDA* (its device); the other searches evaluate h
/// inline on the CPU.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvaluatorChoice {
    /// A GPU adapter when there is one (a software one such as lavapipe counts), else the CPU.
    #[default]
    Auto,
    /// The GPU; fails with exit code 3 when there is no adapter.
    Gpu,
    /// The CPU, on all cores.
    Cpu,
}

/// What the plan is for: the rule that resolves `auto` ([`pick_algorithm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// An answer (the command line): A* up to 3×3, IDA* above ([`Algorithm::resolve`]).
    Answer,
    /// A search to watch (the app): GPU IDA* on a hardware GPU from 4×4, else batched A*
    /// ([`Algorithm::resolve_to_watch`]).
    Watch,
}

/// The algorithm `asked` resolves to on a board of `cells` cells for `purpose`;
/// `hardware_gpu`: a GPU that is not a software rasterizer is at hand. Not `Auto`.
pub fn pick_algorithm(
    asked: Algorithm,
    cells: usize,
    purpose: Purpose,
    hardware_gpu: bool,
) -> Algorithm {
    match purpose {
        Purpose::Answer => asked.resolve(cells),
        Purpose::Watch => asked.resolve_to_watch(cells, hardware_gpu),
    }
}

/// A line for the user while planning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// What `auto` picked, what was found (the GPU adapter), or a choice that was ignored.
    Chose(String),
    /// A pattern table built now and saved (or where the cache is), or IDA*'s pruning
    /// automaton about to be built for a new board shape.
    Built(String),
    /// The CPU does what the GPU was to do: no adapter, or a board or heuristic it cannot take.
    Fallback(String),
    /// A cache file found invalid and rebuilt, or a table that could not be saved.
    Warning(String),
}

impl Note {
    /// The line, without a prefix.
    pub fn text(&self) -> &str {
        match self {
            Note::Chose(s) | Note::Built(s) | Note::Fallback(s) | Note::Warning(s) => s,
        }
    }
}

/// How a caller follows planning: the notes, and the progress of pattern-database builds.
pub trait Watch: Sync {
    /// A line for the user.
    fn note(&self, note: Note);

    /// A build of table `pattern` of `patterns` (0-based) made progress `step`; `false`
    /// cancels it ([`ResolveError::Cancelled`]).
    fn building(&self, pattern: usize, patterns: usize, step: &BuildProgress) -> bool {
        let _ = (pattern, patterns, step);
        true
    }

    /// The heuristic is loaded (a progress display may go).
    fn loaded(&self) {}
}

/// A watch that shows nothing; a build stops when `cancel` is set (the app's coach and
/// Compare view load their heuristics this way).
pub struct Silent<'a>(pub &'a std::sync::atomic::AtomicBool);

impl Watch for Silent<'_> {
    fn note(&self, _: Note) {}

    fn building(&self, _: usize, _: usize, _: &BuildProgress) -> bool {
        !self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Why no plan could be made.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The heuristic could not be had (bad partition, not for this board, cancelled, cache).
    #[error(transparent)]
    Heuristic(#[from] ResolveError),
    /// The GPU was insisted on (`--evaluator gpu`) and it cannot: no adapter, a board or
    /// heuristic it does not take, tables larger than it binds, a device error.
    #[cfg(feature = "gpu")]
    #[error("--evaluator gpu: {0}")]
    Gpu(crate::eval::gpu::GpuError),
    /// The GPU was insisted on in a build without the `gpu` feature.
    #[error("--evaluator gpu: this build has no GPU support (feature \"gpu\")")]
    NoGpuSupport,
}

/// Why a planned search has no answer: its heuristic could not be had, its evaluator or device
/// could not be opened, or the search stopped or failed. The app's worker and `bench` end so.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The search stopped (a limit, cancel) or failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The heuristic could not be loaded or built.
    #[error("heuristic unavailable: {0}")]
    Heuristic(#[source] ResolveError),
    /// The evaluator or device could not be opened.
    #[error("batch evaluator failed: {0}")]
    Plan(#[source] PlanError),
}

impl From<PlanError> for RunError {
    fn from(e: PlanError) -> Self {
        match e {
            PlanError::Heuristic(e) => RunError::Heuristic(e),
            e => RunError::Plan(e),
        }
    }
}

/// The GPU (when there is one and it is wanted) and the CPU's threads for batch evaluation.
pub struct Hardware {
    #[cfg(feature = "gpu")]
    gpu: Option<Arc<crate::eval::gpu::GpuContext>>,
    /// Fall back to the CPU for boards the GPU cannot take (not when insisted on).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    fallback: bool,
    /// Threads of the CPU batch evaluator.
    threads: usize,
    /// GPU IDA*'s invocations (`None`: the device's default).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    invocations: Option<usize>,
}

impl Hardware {
    /// No GPU: batch evaluation on `threads` threads.
    pub fn cpu(threads: usize) -> Hardware {
        Hardware {
            #[cfg(feature = "gpu")]
            gpu: None,
            fallback: true,
            threads: threads.max(1),
            invocations: None,
        }
    }

    /// The app's: its GPU context `gpu` (`None`: the CPU), falling back to the CPU on
    /// `threads` threads where the GPU cannot take a board or heuristic.
    #[cfg(feature = "gpu")]
    pub fn with(gpu: Option<Arc<crate::eval::gpu::GpuContext>>, threads: usize) -> Hardware {
        Hardware {
            gpu,
            ..Hardware::cpu(threads)
        }
    }

    /// Opens the GPU for `choice` `gpu` and `auto` (the CPU on all cores for `cpu`), saying
    /// what is used and, without a GPU, what `algorithm` (batched A* or GPU IDA*) does
    /// instead. `invocations`: GPU IDA*'s (`--gpu-invocations`).
    ///
    /// # Errors
    /// [`PlanError::Gpu`] (or [`PlanError::NoGpuSupport`]) for `gpu` without an adapter.
    pub fn open(
        choice: EvaluatorChoice,
        algorithm: Algorithm,
        invocations: Option<usize>,
        watch: &dyn Watch,
    ) -> Result<Hardware, PlanError> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpu = Hardware {
            invocations,
            ..Hardware::cpu(threads)
        };
        let on_cpu = if algorithm == Algorithm::GpuIdaStar {
            "gpu-idastar runs IDA* on the CPU".to_string()
        } else {
            format!("using the CPU evaluator ({threads} threads)")
        };
        if choice == EvaluatorChoice::Cpu {
            watch.note(Note::Chose(format!("--evaluator cpu: {on_cpu}")));
            return Ok(cpu);
        }
        #[cfg(feature = "gpu")]
        match crate::eval::gpu::GpuContext::new() {
            Ok(ctx) => {
                watch.note(Note::Chose(format!("GPU adapter: {}", ctx.describe())));
                Ok(Hardware {
                    gpu: Some(ctx),
                    fallback: choice == EvaluatorChoice::Auto,
                    ..cpu
                })
            }
            Err(e) if choice == EvaluatorChoice::Auto => {
                watch.note(Note::Fallback(format!("{e}; {on_cpu}")));
                Ok(cpu)
            }
            Err(e) => Err(PlanError::Gpu(e)),
        }
        #[cfg(not(feature = "gpu"))]
        if choice == EvaluatorChoice::Auto {
            watch.note(Note::Fallback(format!(
                "built without the gpu feature; {on_cpu}"
            )));
            Ok(cpu)
        } else {
            Err(PlanError::NoGpuSupport)
        }
    }

    /// Whether the GPU is a hardware one (not a software rasterizer such as lavapipe).
    pub fn is_hardware_gpu(&self) -> bool {
        #[cfg(feature = "gpu")]
        if let Some(g) = &self.gpu {
            return !g.is_software();
        }
        false
    }

    /// The most bytes of pattern tables `algorithm` can take here: the GPU's for batched A*
    /// and GPU IDA* on a GPU, else no limit (`None`).
    pub fn max_table_bytes(&self, algorithm: Algorithm) -> Option<u64> {
        #[cfg(feature = "gpu")]
        if let Some(g) = &self.gpu
            && uses_gpu(algorithm)
        {
            return Some(if algorithm == Algorithm::GpuIdaStar {
                g.max_ida_table_bytes()
            } else {
                g.max_table_bytes()
            });
        }
        let _ = algorithm;
        None
    }

    /// GPU IDA*'s device for `heuristic` and `goal`, one handle for each of `searches`
    /// searches at once (more than one: lanes of one shared device,
    /// [`crate::eval::lanes`]), or `None` (no GPU, or one that cannot take them, said as a
    /// [`Note::Fallback`]): the CPU's IDA* then searches the same tree.
    fn device(
        &self,
        heuristic: &HeuristicSpec,
        goal: &Goal,
        searches: usize,
        watch: &dyn Watch,
    ) -> Result<Option<Vec<Box<dyn IdaDevice + Send>>>, PlanError> {
        #[cfg(feature = "gpu")]
        if let Some(ctx) = &self.gpu {
            match crate::eval::gpu_ida::GpuIda::new(ctx.clone(), heuristic, goal, self.invocations)
            {
                Ok(d) if searches <= 1 => return Ok(Some(vec![Box::new(d)])),
                Ok(d) => {
                    let lanes = crate::eval::lanes::SharedDevice::lanes(Box::new(d), searches);
                    return Ok(Some(
                        lanes
                            .into_iter()
                            .map(|l| Box::new(l) as Box<dyn IdaDevice + Send>)
                            .collect(),
                    ));
                }
                Err(e) if self.fallback => {
                    watch.note(Note::Fallback(format!(
                        "{e}; gpu-idastar runs IDA* on the CPU"
                    )));
                }
                Err(e) => return Err(PlanError::Gpu(e)),
            }
        }
        let _ = (heuristic, goal, searches, watch);
        Ok(None)
    }

    /// Batched A*'s evaluator of `heuristic` for `goal`: the GPU's, else (none, or one that
    /// cannot take them, said as a [`Note::Fallback`]) the CPU's.
    fn batcher(
        &self,
        heuristic: &HeuristicSpec,
        goal: &Goal,
        watch: &dyn Watch,
    ) -> Result<Box<dyn BatchEvaluator>, PlanError> {
        #[cfg(feature = "gpu")]
        if let Some(ctx) = &self.gpu {
            match crate::eval::gpu::GpuEvaluator::for_spec(ctx.clone(), heuristic, goal) {
                Ok(e) => return Ok(Box::new(e)),
                Err(e) if self.fallback => {
                    watch.note(Note::Fallback(format!("{e}; using the CPU evaluator")));
                }
                Err(e) => return Err(PlanError::Gpu(e)),
            }
        }
        let _ = watch;
        Ok(Box::new(CpuEvaluator::with_heuristic(
            heuristic.build(goal),
            goal.board().len(),
            self.threads,
        )))
    }
}

/// Whether `algorithm` evaluates h on the GPU when there is one (batched A*, GPU IDA*).
pub fn uses_gpu(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::BatchedAStar | Algorithm::GpuIdaStar)
}

/// What was asked for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The algorithm (`Auto` allowed).
    pub algorithm: Algorithm,
    /// The heuristic (`auto` and pattern databases allowed).
    pub heuristic: HeuristicChoice,
    /// Which rule resolves `auto`.
    pub purpose: Purpose,
    /// Pattern-database cache folder (`None`: `$NPUZZLE_CACHE_DIR`, else the user's).
    pub cache_dir: Option<std::path::PathBuf>,
    /// Memory cap for building a table, in bytes.
    pub max_memory: u64,
    /// Nodes expanded per round (batched A*).
    pub batch_size: usize,
    /// How a pattern database is looked up (reflection, blank-region flags).
    pub pdb_lookup: crate::heuristic::pdb::PdbLookup,
}

/// The algorithm (resolved) and its heuristic (loaded).
#[derive(Clone, Debug)]
pub struct Chosen {
    /// Not `Auto`.
    pub algorithm: Algorithm,
    /// Loaded: pattern databases are in memory.
    pub heuristic: HeuristicSpec,
}

/// Resolves `request`'s `auto` for `start` (said as a [`Note::Chose`]) and loads its
/// heuristic for `goal`: see [`load_heuristic`].
///
/// # Errors
/// [`PlanError::Heuristic`].
pub fn choose(
    request: &Request,
    start: &Board,
    goal: &Goal,
    hardware: &Hardware,
    watch: &dyn Watch,
) -> Result<Chosen, PlanError> {
    let asked = request.algorithm;
    let algorithm = pick_algorithm(
        asked,
        start.len(),
        request.purpose,
        hardware.is_hardware_gpu(),
    );
    if asked == Algorithm::Auto {
        watch.note(Note::Chose(format!(
            "auto picked {algorithm} for a {}×{} board",
            start.rows(),
            start.cols()
        )));
    }
    let heuristic = load_heuristic(request, algorithm, goal, hardware, watch)?.heuristic;
    if algorithm != Algorithm::Bfs && !heuristic.is_admissible() {
        watch.note(Note::Warning(format!(
            "{} overestimates (not admissible): {algorithm} with it may return a path longer than the optimum",
            heuristic.name()
        )));
    }
    Ok(Chosen {
        algorithm,
        heuristic,
    })
}

/// `request`'s heuristic for `algorithm` towards `goal`, loaded from the cache or built
/// ([`crate::heuristic::resolve`]: `auto` picks the strongest within what `hardware` takes for
/// `algorithm`; BFS builds nothing); what `auto` picked and what was built are said, and
/// given back with it.
///
/// # Errors
/// [`ResolveError`], as [`crate::heuristic::resolve`].
pub fn load_heuristic(
    request: &Request,
    algorithm: Algorithm,
    goal: &Goal,
    hardware: &Hardware,
    watch: &dyn Watch,
) -> Result<crate::heuristic::Resolved, ResolveError> {
    let resolved = crate::heuristic::resolve(
        &request.heuristic,
        goal,
        &ResolveOptions {
            uses_heuristic: algorithm != Algorithm::Bfs,
            cache_dir: request.cache_dir.clone(),
            max_memory: request.max_memory,
            max_table_bytes: hardware.max_table_bytes(algorithm),
            progress: &|i, n, step| watch.building(i, n, step),
            warn: &|w| watch.note(Note::Warning(w)),
        },
    );
    watch.loaded();
    let mut resolved = resolved?;
    if let HeuristicSpec::Pdb(p) = &resolved.heuristic
        && request.pdb_lookup != crate::heuristic::pdb::PdbLookup::default()
    {
        let pdb = p.as_ref().clone().with_lookup(request.pdb_lookup);
        resolved.heuristic = HeuristicSpec::Pdb(std::sync::Arc::new(pdb));
    }
    if let HeuristicSpec::PdbMax(p) = &resolved.heuristic
        && request.pdb_lookup != crate::heuristic::pdb::PdbLookup::default()
    {
        if !request.pdb_lookup.reflect && p.reflects() {
            watch.note(Note::Warning(format!(
                "{} always reads the reflection (its partitions share tables through it)",
                p.name()
            )));
        }
        let pdb = p.as_ref().clone().with_regions(request.pdb_lookup.regions);
        resolved.heuristic = HeuristicSpec::PdbMax(std::sync::Arc::new(pdb));
    }
    if let Some(n) = &resolved.note {
        watch.note(Note::Chose(n.clone()));
    }
    if !resolved.built.is_empty() {
        let cache = crate::heuristic::pdb::cache::PdbCache::new(request.cache_dir.clone()).ok();
        if let Some(n) = cache.as_ref().and_then(|c| c.location_note()) {
            watch.note(Note::Built(n));
        }
        let dir = cache
            .map(|c| c.dir().display().to_string())
            .unwrap_or_default();
        for p in &resolved.built {
            watch.note(Note::Built(format!(
                "built pattern {:?} ({} entries), saved in {dir}",
                p,
                crate::heuristic::pdb::cache::header_for(goal, p).entries,
            )));
        }
    }
    Ok(resolved)
}

/// Gets IDA*'s pruning automaton for a `rows × cols` board ready before `algorithm`'s search
/// (IDA* and GPU IDA*; nothing for the others), with `limits`' pruning and cache folder: read
/// from the cache, or built now for a new board shape, which is said first (a [`Note::Built`]
/// naming what is built and where it is kept: the build takes seconds on 5×5); a cached file
/// that cannot be used is said as a [`Note::Warning`] and rebuilt. The search then finds it
/// ready (its clock does not pay for it).
pub fn load_pruning(
    algorithm: Algorithm,
    rows: usize,
    cols: usize,
    limits: &Limits,
    watch: &dyn Watch,
) {
    if !matches!(algorithm, Algorithm::IdaStar | Algorithm::GpuIdaStar) {
        return;
    }
    let depth = limits.ida_pruning().depth(rows * cols);
    let say = |n: FsmNote| {
        match n {
        FsmNote::Building { file, .. } => watch.note(Note::Built(format!(
            "building IDA*'s pruning automaton for {rows}×{cols} (duplicate move strings of up to {depth} moves), once per board shape{}",
            file.map_or(" in this process (no cache folder)".to_string(), |f| format!(
                ", kept in {}",
                f.display()
            ))
        ))),
        FsmNote::Unusable(why) => watch.note(Note::Warning(format!(
            "{why}; rebuilding the pruning automaton"
        ))),
    }
    };
    let _ = MoveFsm::shared_saying(rows, cols, depth, limits.cache_dir.as_deref(), &say);
}

/// Where a plan's search runs.
enum On {
    /// On the CPU, h inline (GPU IDA* without a device: IDA* on the same tree).
    Cpu,
    /// Batched A* on this evaluator.
    Batched(Box<dyn BatchEvaluator>),
    /// GPU IDA* on this device.
    Device(Box<dyn IdaDevice + Send>),
}

/// What will run: the algorithm, its heuristic, and the evaluator or device it runs on.
pub struct Plan {
    chosen: Chosen,
    on: On,
    batch_size: usize,
}

impl Chosen {
    /// The plan that runs this on `hardware` towards `goal`: batched A* on its evaluator, GPU
    /// IDA* on its device, the rest on the CPU; `batch_size`: batched A*'s nodes a round.
    ///
    /// # Errors
    /// [`PlanError::Gpu`] where the GPU was insisted on and cannot take the board or heuristic.
    pub fn open(
        self,
        hardware: &Hardware,
        goal: &Goal,
        batch_size: usize,
        watch: &dyn Watch,
    ) -> Result<Plan, PlanError> {
        let on = match self.algorithm {
            Algorithm::GpuIdaStar => match hardware.device(&self.heuristic, goal, 1, watch)? {
                Some(mut d) => On::Device(d.remove(0)),
                None => On::Cpu,
            },
            Algorithm::BatchedAStar => {
                On::Batched(hardware.batcher(&self.heuristic, goal, watch)?)
            }
            _ => On::Cpu,
        };
        Ok(Plan {
            chosen: self,
            on,
            batch_size,
        })
    }

    /// Plans for `searches` searches at once towards `goal`: for GPU IDA* with a device,
    /// each in a lane of one device they share ([`crate::eval::lanes`]); else each opened as
    /// [`Chosen::open`] does.
    ///
    /// # Errors
    /// As [`Chosen::open`].
    pub fn open_many(
        self,
        hardware: &Hardware,
        goal: &Goal,
        batch_size: usize,
        searches: usize,
        watch: &dyn Watch,
    ) -> Result<Vec<Plan>, PlanError> {
        if self.algorithm == Algorithm::GpuIdaStar && searches > 1 {
            let plan = |on| Plan {
                chosen: self.clone(),
                on,
                batch_size,
            };
            return Ok(
                match hardware.device(&self.heuristic, goal, searches, watch)? {
                    Some(devices) => devices.into_iter().map(|d| plan(On::Device(d))).collect(),
                    None => (0..searches).map(|_| plan(On::Cpu)).collect(),
                },
            );
        }
        (0..searches.max(1))
            .map(|_| self.clone().open(hardware, goal, batch_size, watch))
            .collect()
    }
}

/// [`choose`], then [`Chosen::open`]: the plan for `request` on `problem`.
///
/// # Errors
/// As those.
pub fn make(
    request: &Request,
    problem: &Problem,
    hardware: &Hardware,
    watch: &dyn Watch,
) -> Result<Plan, PlanError> {
    choose(request, &problem.start, &problem.goal, hardware, watch)?.open(
        hardware,
        &problem.goal,
        request.batch_size,
        watch,
    )
}

impl Plan {
    /// The algorithm (not `Auto`).
    pub fn algorithm(&self) -> Algorithm {
        self.chosen.algorithm
    }

    /// The heuristic, loaded.
    pub fn heuristic(&self) -> &HeuristicSpec {
        &self.chosen.heuristic
    }

    /// Whether its answers are optimal: an optimal search with an admissible heuristic
    /// ([`Algorithm::guarantees_optimal`]).
    pub fn guarantees_optimal(&self) -> bool {
        self.algorithm()
            .guarantees_optimal(self.heuristic().is_admissible())
    }

    /// Where h is evaluated.
    pub fn evaluated(&self) -> Evaluated {
        match &self.on {
            On::Cpu => Evaluated::Cpu,
            On::Batched(e) => e.kind(),
            On::Device(_) => Evaluated::Gpu,
        }
    }

    /// The evaluator in words: `cpu (inline)`, `cpu (2 threads)`, or the GPU adapter and its
    /// backend.
    pub fn describe(&self) -> String {
        match &self.on {
            On::Cpu => "cpu (inline)".to_string(),
            On::Batched(e) => e.describe(),
            On::Device(d) => d.describe(),
        }
    }

    /// The GPU adapter, when h is evaluated on one.
    pub fn adapter(&self) -> Option<String> {
        (self.evaluated() == Evaluated::Gpu).then(|| self.describe())
    }

    /// Runs the search on `problem` (the one it was planned for) within `limits`, reporting to
    /// `progress`; `from`: batched A* goes on from this stepped A* (the app's step mode).
    ///
    /// # Errors
    /// As [`crate::search::run`].
    pub fn run(
        &mut self,
        problem: &Problem,
        from: Option<Box<crate::search::stepper::Stepper>>,
        limits: &Limits,
        progress: &mut ProgressFn<'_>,
    ) -> Result<Outcome, SearchError> {
        let heuristic = self.chosen.heuristic.clone();
        let engine = match &mut self.on {
            On::Cpu => Engine::cpu(self.chosen.algorithm, heuristic),
            On::Batched(e) => Engine::Batched {
                batch: Batch {
                    evaluator: e.as_mut(),
                    size: self.batch_size,
                },
                from,
            },
            On::Device(d) => Engine::Device {
                device: d.as_mut(),
                heuristic,
            },
        };
        crate::search::run(problem, engine, limits, progress)
    }
}
