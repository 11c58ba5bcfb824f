//! Sharded surveys on the command line: which slice a run takes
//! (`--shard`, or a Slurm array task's), and `survey merge`, which writes
//! the file one run would have written (`grundy::SurveyMerge` reads and
//! checks the parts).

use std::path::Path;

use crate::cli::MergeArgs;
use grundy::SurveyMerge;
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, OutputRules};
use grundy::hooks::RunHooks;
use grundy::setting::Marked;
use grundy::survey_parts::{MAX_SHARDS, Shard};

/// The slice this run takes: `--shard`, else a Slurm array task's, else
/// none (the whole list).
pub fn shard_of(given: Option<Shard>, hooks: &dyn RunHooks) -> Result<Option<Shard>> {
    if given.is_some() {
        return Ok(given);
    }
    let env = |name: &str| std::env::var(name).ok();
    let shard = slurm_shard(&env)?;
    if let Some(shard) = shard {
        hooks.notice(Marked(&format!(
            "running shard {shard} of the code list (from SLURM_ARRAY_TASK_ID; --shard K/N overrides)"
        )));
    }
    Ok(shard)
}

/// A Slurm array task's slice: index SLURM_ARRAY_TASK_ID − MIN of COUNT
/// (or MAX − MIN + 1) tasks.
fn slurm_shard(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<Shard>> {
    let Some(id) = env("SLURM_ARRAY_TASK_ID") else {
        return Ok(None);
    };
    let number = |name: &str, text: Option<String>| -> Result<Option<u64>> {
        text.map(|t| {
            t.trim().parse::<u64>().map_err(|_| {
                Error::Input(format!(
                    "{name}={t}: expected a whole number (or pass --shard K/N)"
                ))
            })
        })
        .transpose()
    };
    let id = number("SLURM_ARRAY_TASK_ID", Some(id))?.unwrap_or(0);
    let min = number("SLURM_ARRAY_TASK_MIN", env("SLURM_ARRAY_TASK_MIN"))?.unwrap_or(0);
    let max = number("SLURM_ARRAY_TASK_MAX", env("SLURM_ARRAY_TASK_MAX"))?;
    let count = number("SLURM_ARRAY_TASK_COUNT", env("SLURM_ARRAY_TASK_COUNT"))?
        .or(max.map(|m| m.saturating_sub(min) + 1));
    let steps = matches!((max, count), (Some(m), Some(c)) if m.saturating_sub(min) + 1 != c);
    match count {
        Some(count) if !steps && id >= min && id - min < count && count <= MAX_SHARDS as u64 => {
            Ok(Some(Shard {
                index: (id - min) as u32,
                count: count as u32,
            }))
        }
        _ => Err(Error::Input(format!(
            "SLURM_ARRAY_TASK_ID={id}: expected an array of consecutive tasks with \
             SLURM_ARRAY_TASK_COUNT (or SLURM_ARRAY_TASK_MIN and MAX) set, such as \
             --array=0-63; pass --shard K/N for other arrays"
        ))),
    }
}

/// `grundy survey merge OUT PART…`.
pub fn merge(args: &MergeArgs, rules: OutputRules) -> Result<()> {
    for part in &args.parts {
        if same_file(part, &args.out) {
            return Err(Error::Input(format!(
                "{}: it is both OUT and a PART; expected the merged file somewhere else",
                args.out.display()
            )));
        }
    }
    let merged = SurveyMerge::of(&args.parts).run()?;
    let what = format!("a survey of {} codes to heap {}", merged.codes, merged.n);
    export::write_table(&args.out, rules, args.format, &what, |w| {
        w.write_all(merged.csv.as_bytes())
    })?;
    if !args.quiet && !export::is_stdout(&args.out) {
        grundy::frontend::outln!(
            "merged {} parts: {} codes to heap {} in {}",
            merged.parts,
            merged.codes,
            merged.n,
            args.out.display()
        );
    }
    Ok(())
}

/// Whether two paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn slurm_arrays_give_their_slice() {
        let shard = |pairs: &[(&str, &str)]| slurm_shard(&env_of(pairs));
        assert_eq!(shard(&[]).unwrap(), None);
        let counted = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "64"),
        ];
        assert_eq!(
            shard(&counted).unwrap(),
            Some(Shard {
                index: 5,
                count: 64
            })
        );
        let ranged = [
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "13"),
        ];
        assert_eq!(shard(&ranged).unwrap(), Some(Shard { index: 2, count: 4 }));
        // --array=0-62:2 has 32 tasks over 63 ids: not consecutive.
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "62"),
            ("SLURM_ARRAY_TASK_COUNT", "32"),
        ];
        assert!(shard(&stepped).is_err());
        assert!(shard(&[("SLURM_ARRAY_TASK_ID", "3")]).is_err());
        assert!(
            shard(&[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ])
            .is_err()
        );
    }

    #[test]
    fn shards_cover_a_list_once() {
        let costs: Vec<u64> = (0..103).map(|i| (i * 7919 % 101) as u64).collect();
        let dealt = grundy::internals::engine::survey::balanced_shards(&costs, 7);
        let mut seen = Vec::new();
        for index in 0..7 {
            let shard = Shard { index, count: 7 };
            let places = shard.places(&dealt);
            assert!(places.windows(2).all(|w| w[0] < w[1]), "in list order");
            seen.extend(places);
            let in_turn = (0..103).filter(|i| i % 7 == index as usize).count();
            assert_eq!(shard.len_in_turn(103), in_turn as u64);
        }
        seen.sort();
        assert_eq!(seen, (0..103).collect::<Vec<_>>());
        assert_eq!(
            "3/64".parse::<Shard>().unwrap(),
            Shard {
                index: 3,
                count: 64
            }
        );
        for bad in ["64/64", "1/0", "3", "-1/4", "a/b", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
