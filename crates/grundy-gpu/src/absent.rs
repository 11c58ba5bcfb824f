//! The GPU modules of a build without wgpu: the same names and signatures,
//! around a `Runner` that cannot be made (it holds a `Never`). No
//! adapter is ever found, so `Backend::Gpu` never exists and every body
//! here is a `match` on nothing; the engine runs each job's CPU twin.
//! A signature that drifts from the real module's fails the CPU-only
//! build (`tests/scratch-crate`, built in CI).

/// No value has this type: what holds one can never be made.
enum Never {}

pub mod context {
    use crate::absent::Never;
    use grundy_core::error::Result;

    /// None: this build carries no wgpu backend.
    pub fn compiled_backends() -> Vec<&'static str> {
        Vec::new()
    }

    /// The smallest cap `cap_binding` takes.
    pub const MIN_BINDING_CAP: u64 = 16;

    /// Checked as the real one checks it; there is no GPU to plan for.
    pub fn cap_binding(bytes: u64) -> std::result::Result<(), String> {
        match bytes < MIN_BINDING_CAP {
            true => Err(format!(
                "expected a number of bytes, at least {MIN_BINDING_CAP}"
            )),
            false => Ok(()),
        }
    }

    /// Nothing to quiet without a Vulkan loader.
    ///
    /// # Safety
    ///
    /// None needed; `unsafe` as the real one is.
    pub unsafe fn quiet_device_select() {}

    /// None: there is no adapter to find.
    pub fn find_adapter() -> Option<Found> {
        None
    }

    pub struct Found(pub(super) Never);

    impl Found {
        pub fn name(&self) -> &str {
            match self.0 {}
        }
        pub fn is_software(&self) -> bool {
            match self.0 {}
        }
    }

    pub struct GpuContext(pub(super) Never);

    impl GpuContext {
        pub fn open() -> Result<Option<GpuContext>> {
            Ok(None)
        }
        pub fn from_adapter(found: Found) -> Result<GpuContext> {
            match found.0 {}
        }
        pub fn is_software(&self) -> bool {
            match self.0 {}
        }
        pub fn adapter_name(&self) -> String {
            match self.0 {}
        }
        pub fn adapter_detail(&self) -> String {
            match self.0 {}
        }
        pub fn max_binding(&self) -> u64 {
            match self.0 {}
        }
    }
}

pub mod runner {
    use crate::absent::Never;
    use crate::absent::context::GpuContext;
    use crate::outputs::GpuCounters;
    use grundy_core::error::Result;

    pub struct Runner(pub(super) Never);

    impl std::ops::Deref for Runner {
        type Target = GpuContext;
        fn deref(&self) -> &GpuContext {
            match self.0 {}
        }
    }

    impl Runner {
        pub fn new(ctx: GpuContext) -> Runner {
            match ctx.0 {}
        }
        pub fn open() -> Result<Option<Runner>> {
            Ok(None)
        }
        pub fn counters(&self) -> GpuCounters {
            match self.0 {}
        }
    }
}

pub mod graph {
    use crate::absent::runner::Runner;
    pub use crate::outputs::GpuGraphRun;
    use crate::outputs::Unfit;
    use grundy_core::error::Result;
    use grundy_core::hooks::RunHooks;
    use grundy_core::kernel::graph::GraphKernel;

    pub fn fits(
        runner: &Runner,
        _: &GraphKernel,
        _: Option<u32>,
    ) -> std::result::Result<u32, Unfit> {
        match runner.0 {}
    }

    pub fn dense(
        runner: &Runner,
        _: &GraphKernel,
        _: Option<u32>,
        _: u32,
        _: bool,
        _: &dyn RunHooks,
    ) -> Result<GpuGraphRun> {
        match runner.0 {}
    }
}

pub mod arrows {
    use crate::absent::runner::Runner;
    pub use crate::outputs::GpuArrowRun;
    use crate::outputs::Unfit;
    use grundy_core::error::Result;
    use grundy_core::hooks::RunHooks;
    use grundy_core::kernel::arrows::ArrowKernel;

    pub fn fits(runner: &Runner, _: &ArrowKernel) -> std::result::Result<(), Unfit> {
        match runner.0 {}
    }

    pub fn dense(
        runner: &Runner,
        _: &ArrowKernel,
        _: u32,
        _: bool,
        _: &dyn RunHooks,
    ) -> Result<GpuArrowRun> {
        match runner.0 {}
    }
}

pub mod genus {
    use crate::absent::runner::Runner;
    use crate::outputs::Unfit;
    use grundy_core::error::Result;
    use grundy_core::hooks::RunHooks;
    use grundy_core::kernel::genus::GenusKernelCode;

    pub fn fits(runner: &Runner, _: &GenusKernelCode, _: u32) -> std::result::Result<u32, Unfit> {
        match runner.0 {}
    }

    pub fn table(
        runner: &Runner,
        _: &GenusKernelCode,
        _: u32,
        _: &dyn RunHooks,
    ) -> Result<Option<Vec<u32>>> {
        match runner.0 {}
    }
}

pub mod tuples {
    use crate::absent::runner::Runner;
    pub use crate::outputs::Failure;
    use crate::outputs::Unfit;
    use grundy_core::hooks::RunHooks;
    use grundy_core::kernel::tuples::{LevelPlan, TupleKernel};

    pub fn fits(runner: &Runner, _: &TupleKernel) -> std::result::Result<(), Unfit> {
        match runner.0 {}
    }

    pub fn solve(
        runner: &Runner,
        _: &TupleKernel,
        _: &LevelPlan,
        _: &dyn RunHooks,
    ) -> Result<Vec<u32>, Failure> {
        match runner.0 {}
    }
}

pub mod survey {
    use crate::absent::context::GpuContext;
    use crate::absent::runner::Runner;
    use crate::outputs::Unfit;
    use grundy_core::error::Result;
    use grundy_core::kernel::survey::{SurveyKernel, SurveyMode};

    pub fn workgroup_for(ctx: &GpuContext, _: Option<u32>) -> Result<u32> {
        match ctx.0 {}
    }

    pub fn codes_per_batch(ctx: &GpuContext, _: usize) -> usize {
        match ctx.0 {}
    }

    pub fn fits(runner: &Runner, _: &SurveyKernel) -> std::result::Result<(), Unfit> {
        match runner.0 {}
    }

    pub struct GpuSurvey<'a> {
        runner: &'a Runner,
        pub state_words: Vec<u32>,
    }

    impl<'a> GpuSurvey<'a> {
        pub fn new(runner: &'a Runner, _: &'a SurveyKernel, _: u32) -> Result<GpuSurvey<'a>> {
            match runner.0 {}
        }
        pub fn set_mode(&mut self, _: usize, _: &SurveyMode) {
            match self.runner.0 {}
        }
        pub fn is_rare(&self, _: usize) -> bool {
            match self.runner.0 {}
        }
        pub fn run_to(&mut self, _: &[u32]) -> Result<()> {
            match self.runner.0 {}
        }
        pub fn tables(&self) -> Result<Vec<u32>> {
            match self.runner.0 {}
        }
    }
}

pub mod heap {
    use crate::absent::context::GpuContext;
    use crate::absent::runner::Runner;
    use crate::outputs::Unfit;
    pub use crate::outputs::{GpuTuning, HeapStats};
    use grundy_core::error::Result;
    use grundy_core::hooks::RunHooks;
    use grundy_core::kernel::heap::HeapKernelCode;

    pub fn chunk_shift_for(
        ctx: &GpuContext,
        _: u64,
        _: &GpuTuning,
    ) -> std::result::Result<u32, Unfit> {
        match ctx.0 {}
    }

    pub fn block_limit(
        ctx: &GpuContext,
        _: &HeapKernelCode,
        _: u32,
        _: &GpuTuning,
    ) -> std::result::Result<u32, Unfit> {
        match ctx.0 {}
    }

    pub fn extend(
        runner: &Runner,
        _: &HeapKernelCode,
        _: &[u16],
        _: u32,
        _: &GpuTuning,
        _: &dyn RunHooks,
    ) -> Result<(Vec<u16>, HeapStats)> {
        match runner.0 {}
    }
}

pub mod rare {
    use crate::absent::runner::Runner;
    pub use crate::outputs::{Launched, PassOutput, Table};
    use grundy_core::error::Result;
    use grundy_core::kernel::rare::{PassParams, RareCode};

    pub fn unfit(runner: &Runner) -> Option<String> {
        match runner.0 {}
    }

    pub struct GpuPass<'a> {
        runner: &'a Runner,
    }

    impl<'a> GpuPass<'a> {
        pub fn new(runner: &'a Runner, _: &RareCode, _: u64) -> GpuPass<'a> {
            match runner.0 {}
        }
        pub fn in_pieces(runner: &'a Runner, _: &RareCode, _: u64, _: u64) -> GpuPass<'a> {
            match runner.0 {}
        }
        pub fn holds(&self) -> u64 {
            match self.runner.0 {}
        }
        pub fn short_of_room(&self) -> Option<&str> {
            match self.runner.0 {}
        }
        pub fn takes(&self, _: usize, _: usize, _: usize, _: usize) -> bool {
            match self.runner.0 {}
        }
        pub fn run(
            &mut self,
            _: PassParams,
            _: &Table,
            _: &[usize],
            _: &[u32],
        ) -> Result<PassOutput> {
            match self.runner.0 {}
        }
        pub fn launch(&mut self, _: PassParams, _: &Table, _: &[usize], _: &[u32]) -> Launched {
            match self.runner.0 {}
        }
        pub fn collect(&mut self, _: Launched) -> Result<PassOutput> {
            match self.runner.0 {}
        }
        pub fn note_in_flight(&self, _: u64) {
            match self.runner.0 {}
        }
    }
}
