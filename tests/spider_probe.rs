use grundy::engine::arrows_memo::ArrowMemo;
use grundy::game::arrows::{ArrowRule, spider};
#[test]
#[ignore]
fn probe() {
    let l: usize = std::env::var("L").unwrap().parse().unwrap();
    let t = std::time::Instant::now();
    let mut memo = ArrowMemo::new();
    let mut rows = 0;
    for a in 1..=l {
        for b in a..=l {
            for c in b..=l {
                let g = spider(&[a, b, c], ArrowRule::Arrows);
                let v = memo.value_of_state(&g, &vec![0; g.edges.len()]).unwrap();
                rows += 1;
                if c == l && b == l && a == l {
                    eprintln!("{a},{b},{c} -> {v}");
                }
            }
        }
    }
    eprintln!(
        "L={l} rows {rows} pieces {} in {:?}",
        memo.pieces(),
        t.elapsed()
    );
}
