//! `--evaluator gpu|cpu|auto`: which batch evaluator batched A* uses.

#[cfg(feature = "gpu")]
use std::sync::Arc;

use clap::ValueEnum;

use super::CliError;
use crate::eval::ida::IdaDevice;
use crate::eval::{BatchEvaluator, CpuEvaluator};
use crate::heuristic::HeuristicSpec;
use crate::puzzle::Goal;
use crate::search::Algorithm;

/// The `--evaluator` choice.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum EvaluatorArg {
    /// A GPU adapter when there is one (a software one such as lavapipe counts), else the CPU.
    #[default]
    Auto,
    /// The GPU; fails with exit code 3 when there is no adapter.
    Gpu,
    /// The CPU, on all cores.
    Cpu,
}

/// Opened once per command; makes one evaluator per problem.
pub(super) struct Evaluators {
    #[cfg(feature = "gpu")]
    ctx: Option<Arc<crate::eval::gpu::GpuContext>>,
    /// Fall back to the CPU for boards the GPU cannot take (auto only).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    fallback: bool,
    threads: usize,
    /// GPU IDA*'s invocations (`--gpu-invocations`; `None`: the device's default).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    invocations: Option<usize>,
}

impl Evaluators {
    /// Opens the GPU for `gpu` and `auto`, saying on stderr what is used and, without a GPU,
    /// what `algorithm` (batched A* or GPU IDA*) does instead.
    ///
    /// # Errors
    /// [`CliError::Unavailable`] for `gpu` without an adapter (or without the `gpu` feature).
    pub(super) fn open(
        choice: EvaluatorArg,
        algorithm: Algorithm,
        invocations: Option<usize>,
    ) -> Result<Evaluators, CliError> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpu = Evaluators {
            #[cfg(feature = "gpu")]
            ctx: None,
            fallback: true,
            threads,
            invocations,
        };
        let on_cpu = if algorithm == Algorithm::GpuIdaStar {
            "gpu-idastar runs IDA* on the CPU".to_string()
        } else {
            format!("using the CPU evaluator ({threads} threads)")
        };
        if choice == EvaluatorArg::Cpu {
            crate::note!("npuzzle: --evaluator cpu: {on_cpu}");
            return Ok(cpu);
        }
        #[cfg(feature = "gpu")]
        {
            match crate::eval::gpu::GpuContext::new() {
                Ok(ctx) => {
                    crate::note!("npuzzle: GPU adapter: {}", ctx.describe());
                    Ok(Evaluators {
                        ctx: Some(ctx),
                        fallback: choice == EvaluatorArg::Auto,
                        threads,
                        invocations,
                    })
                }
                Err(e) if choice == EvaluatorArg::Auto => {
                    crate::note!("npuzzle: {e}; {on_cpu}");
                    Ok(cpu)
                }
                Err(e) => Err(CliError::Unavailable(format!("--evaluator gpu: {e}"))),
            }
        }
        #[cfg(not(feature = "gpu"))]
        {
            if choice == EvaluatorArg::Auto {
                crate::note!("npuzzle: built without the gpu feature; {on_cpu}");
                Ok(cpu)
            } else {
                Err(CliError::Unavailable(
                    "--evaluator gpu: this build has no GPU support (feature \"gpu\")".into(),
                ))
            }
        }
    }

    /// The most bytes of pattern tables the GPU takes (batch evaluator and GPU IDA* alike),
    /// when there is one.
    pub(super) fn max_table_bytes(&self) -> Option<u64> {
        #[cfg(feature = "gpu")]
        if let Some(ctx) = &self.ctx {
            return Some(ctx.max_table_bytes());
        }
        None
    }

    /// The device GPU IDA* searches its subtrees on for `heuristic` and `goal`, or `None`
    /// (no GPU, or `auto` and a board or heuristic the GPU cannot take, said on stderr): the
    /// CPU IDA* then searches the same tree.
    ///
    /// # Errors
    /// When `--evaluator gpu` was asked for what the GPU cannot take: see [`refusal`].
    pub(super) fn make_ida(
        &self,
        heuristic: &HeuristicSpec,
        goal: &Goal,
    ) -> Result<Option<Box<dyn IdaDevice + Send>>, CliError> {
        #[cfg(feature = "gpu")]
        if let Some(ctx) = &self.ctx {
            match crate::eval::gpu_ida::GpuIda::new(ctx.clone(), heuristic, goal, self.invocations)
            {
                Ok(d) => return Ok(Some(Box::new(d))),
                Err(e) if self.fallback => {
                    crate::note!("npuzzle: {e}; gpu-idastar runs IDA* on the CPU");
                }
                Err(e) => return Err(refusal(e)),
            }
        }
        let _ = (heuristic, goal);
        Ok(None)
    }

    /// An evaluator of `kind` for `goal`.
    ///
    /// # Errors
    /// When `--evaluator gpu` was asked for what the GPU cannot take: see [`refusal`].
    pub(super) fn make(
        &self,
        heuristic: &HeuristicSpec,
        goal: &Goal,
    ) -> Result<Box<dyn BatchEvaluator>, CliError> {
        #[cfg(feature = "gpu")]
        if let Some(ctx) = &self.ctx {
            match crate::eval::gpu::GpuEvaluator::for_spec(ctx.clone(), heuristic, goal) {
                Ok(e) => return Ok(Box::new(e)),
                Err(e) if self.fallback => {
                    crate::note!("npuzzle: {e}; using the CPU evaluator");
                }
                Err(e) => return Err(refusal(e)),
            }
        }
        Ok(Box::new(CpuEvaluator::with_heuristic(
            heuristic.build(goal),
            goal.board().len(),
            self.threads,
        )))
    }
}

/// `--evaluator gpu` asked for what the GPU cannot do: a board or heuristic no GPU program
/// takes is bad usage (exit 2); tables larger than this adapter binds, or a device error, are
/// this machine's limit (exit 3).
#[cfg(feature = "gpu")]
fn refusal(e: crate::eval::gpu::GpuError) -> CliError {
    use crate::eval::gpu::GpuError;
    match e {
        GpuError::TooLarge(..) | GpuError::TooLargeForIda(..) | GpuError::Unsupported(_) => {
            CliError::Usage(format!("--evaluator gpu: {e}"))
        }
        GpuError::NoAdapter(_)
        | GpuError::Device(_)
        | GpuError::Adapter(_)
        | GpuError::TablesTooLarge { .. } => CliError::Unavailable(format!("--evaluator gpu: {e}")),
    }
}
