//! docs/library.md's first example as a user's program: Dawson's Kayles
//! (`0.07`) to heap 500, its period certified; then whether this build
//! carries the GPU, as its features say it should.

use grundy::Sequence;

fn main() -> Result<(), grundy::Error> {
    let table = Sequence::octal("0.07")?.heaps(500).run()?;
    assert_eq!(table.values(0, 10), [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]);
    let period = table.period().expect("0.07 is periodic");
    assert!(period.certified);
    println!("period {} from heap {}", period.period, period.preperiod);
    assert_eq!(grundy::device::WITH_WGPU, cfg!(feature = "gpu"));
    println!("GPU compiled in: {}", grundy::device::WITH_WGPU);
    Ok(())
}
