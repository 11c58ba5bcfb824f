//! The backend choice: what the user asked for (`BackendChoice`), what
//! opened (`Backend`), and the one function that runs a job on the GPU when
//! one is open and fits, else on the job's CPU twin, and says which ran.

use grundy_core::error::{Error, Result};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::tuples::TupleRule;
use grundy_core::setting::Marked;
use grundy_core::setting::Setting;
use grundy_gpu::{GpuContext, GpuCounters, Runner, Unfit};

/// The backend the user asked for.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendChoice {
    /// A real GPU when there is one and the job is large enough to pay for
    /// opening it (docs/gpu.md has the sizes), else the CPU; never a
    /// software adapter such as llvmpipe.
    Auto,
    /// The GPU, even a software adapter (said on stderr), or an error when there is none.
    Gpu,
    /// The CPU (rayon).
    Cpu,
}

/// An opened backend.
pub enum Backend {
    Cpu,
    Gpu(Box<Runner>),
}

impl Backend {
    /// Opens what `choice` asks for. `auto` takes a GPU only when it is a
    /// real device; with a software adapter alone (llvmpipe), or none, it
    /// runs on the CPU and a notice says so in one line. `gpu` takes a
    /// software adapter too (that is how the kernels are tested) and says so.
    pub fn open(choice: BackendChoice, hooks: &dyn RunHooks) -> Result<Backend> {
        if choice == BackendChoice::Cpu {
            return Ok(Backend::Cpu);
        }
        let Some(adapter) = grundy_gpu::context::find_adapter() else {
            return no_adapter(choice, hooks);
        };
        let (name, software) = (adapter.name().to_string(), adapter.is_software());
        if software && choice == BackendChoice::Auto {
            hooks.notice(Marked(&format!(
                "only a software GPU ({}) here; running on the CPU backend, which is faster",
                name
            )));
            return Ok(Backend::Cpu);
        }
        match GpuContext::from_adapter(adapter) {
            Ok(ctx) => {
                let runner = Runner::new(ctx);
                if software {
                    hooks.notice(Marked(&format!(
                        "{} is a software adapter (the CPU emulating a GPU): right values, \
                         slower than {}",
                        name,
                        Setting::Backend.is("cpu")
                    )));
                }
                Ok(Backend::Gpu(Box::new(runner)))
            }
            Err(e) if choice == BackendChoice::Gpu => Err(e),
            Err(e) => {
                hooks.notice(Marked(&format!("{}; running on the CPU", e.message())));
                Ok(Backend::Cpu)
            }
        }
    }

    /// Opens what `choice` asks for, for a job of `size` (in the unit
    /// `from` counts): under `auto` a job smaller than `from` stays on the
    /// CPU without looking for a GPU.
    pub fn open_for(
        choice: BackendChoice,
        size: u64,
        from: GpuFrom,
        hooks: &dyn RunHooks,
    ) -> Result<Backend> {
        if from.keeps_on_cpu(choice, size) {
            return Ok(Backend::Cpu);
        }
        Backend::open(choice, hooks)
    }

    /// Which backend runs work given to this one.
    pub fn ran(&self) -> Ran {
        match self {
            Backend::Cpu => Ran::Cpu,
            Backend::Gpu(_) => Ran::Gpu,
        }
    }

    /// What the run asked of the GPU, when one is open.
    pub fn gpu_counters(&self) -> Option<GpuCounters> {
        match self {
            Backend::Cpu => None,
            Backend::Gpu(runner) => Some(runner.counters()),
        }
    }

    pub fn adapter(&self) -> Option<String> {
        match self {
            Backend::Cpu => None,
            Backend::Gpu(ctx) => Some(ctx.adapter_name()),
        }
    }
}

/// What a run without an adapter does: `gpu` fails, saying why (no
/// driver, or a build without the GPU); `auto` runs on the CPU and says so.
fn no_adapter(choice: BackendChoice, hooks: &dyn RunHooks) -> Result<Backend> {
    let (why, remedy) = if grundy_gpu::WITH_WGPU {
        (
            "no GPU adapter found (Vulkan, Metal or DX12)",
            "install the GPU's driver",
        )
    } else {
        (
            "this build has no GPU (grundy built without its `gpu` feature)",
            "rebuild with it",
        )
    };
    if choice == BackendChoice::Gpu {
        return Err(Error::Input(format!(
            "{}: {why}; {remedy}, or use {}",
            Setting::Backend.is("gpu"),
            Setting::Backend.is("cpu")
        )));
    }
    hooks.notice(Marked(&format!("{why}; running on the CPU")));
    Ok(Backend::Cpu)
}

/// The size from which `auto` takes a real GPU, per family. Below it the
/// card's fixed cost (the device opened, the pipelines built) outweighs
/// what its kernels save. Each lies between a loss and a win measured on
/// the first H100 and H200 against their hosts' CPUs (BENCHMARKS-log.md, "On a
/// real GPU"; docs/gpu.md has the table); `--backend gpu` takes the card
/// at any size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuFrom(pub u64);

impl GpuFrom {
    /// The blocked brute force of a heap game, in heaps.
    pub const HEAPS: GpuFrom = GpuFrom(1 << 16);
    /// A misère table of a code with unbounded takes, in heaps: its work
    /// grows with their square (`misere_heaps`). Not yet measured on a
    /// card, so set high: the CPU twin takes about 11 s there on the
    /// project's 2-core VM, and the card's in-order pass (29 planes a heap,
    /// a few barriers each) is the part a many-core host may beat.
    pub const GENUS_HEAPS: GpuFrom = GpuFrom(1 << 15);
    /// A survey, in codes times heaps.
    pub const SURVEY_VALUES: GpuFrom = GpuFrom(1 << 22);
    /// Dense graph and edge tables, in positions.
    pub const POSITIONS: GpuFrom = GpuFrom(1 << 22);
    /// Rectangles and boxes, in positions: a workgroup per box pays once
    /// the CPU's share passes the card's fixed cost (BENCHMARKS.md).
    pub const BOXES: GpuFrom = GpuFrom(1 << 20);
    /// Delete Nim's tables: never. Its kernels lost to the host's CPU at
    /// every size measured on an H200, up to 8.4 million positions.
    pub const DELETE_NIM: GpuFrom = GpuFrom(u64::MAX);

    /// Tables of tuples under `rule`, in positions.
    pub fn tuples(rule: &TupleRule) -> GpuFrom {
        match rule {
            TupleRule::Rect(_) => GpuFrom::BOXES,
            TupleRule::DeleteNim(_) => GpuFrom::DELETE_NIM,
        }
    }

    /// Whether `auto` takes a real GPU, when there is one, for a job of
    /// `size`.
    pub fn takes(self, size: u64) -> bool {
        size >= self.0
    }

    /// Whether `choice` leaves a job of `size` on the CPU without looking
    /// for a GPU: `auto`, below this size.
    fn keeps_on_cpu(self, choice: BackendChoice, size: u64) -> bool {
        choice == BackendChoice::Auto && !self.takes(size)
    }
}

/// A backend opened the first time work needs it: a run that never leaves
/// the CPU (rare values, a table filled from its period) never probes for a
/// GPU, which costs tens of milliseconds even when none is there.
pub struct LazyBackend {
    choice: BackendChoice,
    opened: std::cell::OnceCell<Backend>,
    /// What `auto` runs a job too small for the GPU on.
    cpu: Backend,
}

impl LazyBackend {
    /// `--backend gpu` opens at once: its errors come before any work.
    pub fn new(choice: BackendChoice, hooks: &dyn RunHooks) -> Result<LazyBackend> {
        let lazy = LazyBackend {
            choice,
            opened: std::cell::OnceCell::new(),
            cpu: Backend::Cpu,
        };
        if choice != BackendChoice::Auto {
            lazy.get(hooks)?;
        }
        Ok(lazy)
    }

    /// The CPU backend, already open.
    pub fn cpu() -> LazyBackend {
        LazyBackend {
            choice: BackendChoice::Cpu,
            opened: std::cell::OnceCell::from(Backend::Cpu),
            cpu: Backend::Cpu,
        }
    }

    /// The backend, opened now if it was not yet (`hooks` hear how).
    pub fn get(&self, hooks: &dyn RunHooks) -> Result<&Backend> {
        if let Some(backend) = self.opened.get() {
            return Ok(backend);
        }
        let backend = Backend::open(self.choice, hooks)?;
        Ok(self.opened.get_or_init(|| backend))
    }

    /// The backend for a job of `size`: under `auto`, the CPU while no
    /// GPU is open and the job is smaller than `from`.
    pub fn get_for(&self, size: u64, from: GpuFrom, hooks: &dyn RunHooks) -> Result<&Backend> {
        if from.keeps_on_cpu(self.choice, size) && self.opened.get().is_none() {
            return Ok(&self.cpu);
        }
        self.get(hooks)
    }

    /// The GPU for rare values' block pass: only under `--backend gpu`; on
    /// the first H100 the pass lost to the host's CPU (BENCHMARKS-log.md, "On a
    /// real GPU"), so `auto` keeps it on the CPU.
    pub fn pass_runner(&self) -> Option<&Runner> {
        match (self.choice, self.opened.get()) {
            (BackendChoice::Gpu, Some(Backend::Gpu(runner))) => Some(runner),
            _ => None,
        }
    }

    /// The backend if some work opened it.
    pub fn opened(&self) -> Option<&Backend> {
        self.opened.get()
    }
}

/// Which backend computed a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ran {
    Gpu,
    Cpu,
}

impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Ran::Gpu => "gpu",
            Ran::Cpu => "cpu",
        })
    }
}

/// A job with a GPU plan and a CPU twin that compute the same result.
pub trait Dual {
    type Output;
    /// `Err` says why this adapter cannot run the job.
    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit>;
    fn on_gpu(&self, runner: &Runner) -> Result<Self::Output>;
    fn on_cpu(&self) -> Result<Self::Output>;
}

/// Runs `job` on `backend`: the GPU when one is open and the job fits it,
/// else the CPU twin, with a notice saying why the GPU could not.
pub fn run<J: Dual>(job: &J, backend: &Backend, hooks: &dyn RunHooks) -> Result<(J::Output, Ran)> {
    if let Backend::Gpu(runner) = backend {
        match job.fits(runner) {
            Ok(()) => return Ok((job.on_gpu(runner)?, Ran::Gpu)),
            Err(why) => hooks.notice(Marked(&format!("{why}; running the CPU twin"))),
        }
    }
    Ok((job.on_cpu()?, Ran::Cpu))
}

/// Where a result was computed, as every JSON summary says it: the backend,
/// and on the GPU the adapter, the kernel time and what the run asked of it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RanOn {
    pub backend: Ran,
    pub adapter: Option<String>,
    /// Kernel time from GPU timestamp queries (null on the CPU or without them).
    pub kernel_seconds: Option<f64>,
    /// Pipelines built, submissions, bytes each way (null on the CPU).
    pub gpu: Option<GpuCounters>,
}

impl RanOn {
    pub fn cpu() -> RanOn {
        RanOn {
            backend: Ran::Cpu,
            adapter: None,
            kernel_seconds: None,
            gpu: None,
        }
    }
}

impl Backend {
    /// What a summary says of a result computed on `ran`: the run's GPU
    /// counters so far when it was the GPU.
    pub fn ran_on(&self, ran: Ran) -> RanOn {
        match (ran, self) {
            (Ran::Gpu, Backend::Gpu(runner)) => {
                let counters = runner.counters();
                RanOn {
                    backend: Ran::Gpu,
                    adapter: Some(runner.adapter_name()),
                    kernel_seconds: Some(counters.kernel_seconds).filter(|&k| k > 0.0),
                    gpu: Some(counters),
                }
            }
            _ => RanOn::cpu(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_takes_the_gpu_from_each_familys_size_and_never_for_tuples() {
        let auto = BackendChoice::Auto;
        assert!(GpuFrom::HEAPS.keeps_on_cpu(auto, (1 << 16) - 1));
        assert!(!GpuFrom::HEAPS.keeps_on_cpu(auto, 1 << 16));
        assert!(!GpuFrom::POSITIONS.keeps_on_cpu(auto, 1 << 30));
        for positions in [0, 1 << 20, 1 << 23, 1 << 40] {
            assert!(GpuFrom::DELETE_NIM.keeps_on_cpu(auto, positions));
            assert!(!GpuFrom::DELETE_NIM.keeps_on_cpu(BackendChoice::Gpu, positions));
        }
        assert!(GpuFrom::GENUS_HEAPS.keeps_on_cpu(auto, (1 << 15) - 1));
        assert!(!GpuFrom::GENUS_HEAPS.keeps_on_cpu(auto, 1 << 15));
        assert!(GpuFrom::BOXES.keeps_on_cpu(auto, (1 << 20) - 1));
        assert!(!GpuFrom::BOXES.keeps_on_cpu(auto, 1 << 20));
    }
}
