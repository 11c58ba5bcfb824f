//! Delete Nim and its many-heap rules (Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim): delete some heaps, split
//! others, so that a position keeps its number of heaps.

use super::MAX_HEAPS;
use crate::setting::Setting;

/// A ruleset of Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Delete Nim (2 heaps): delete one, take a token from the other and split the rest into two possibly empty heaps.
    Delete,
    /// Variant Delete Nim (2 heaps): delete one, split the other into two non-empty heaps.
    Vdn,
    /// All-but-one-delete Nim: delete n-1 heaps, split the last into n.
    Abo,
    /// No-more-than-half-delete Nim: delete k <= n/2 heaps, split k of the others into two.
    Nmth,
    /// Half-delete Nim (n = 2m): delete m heaps, split each of the others into two.
    Half,
    /// (k-1)/k n-delete Nim (n = km, --k K): delete (k-1)m heaps, split each of the others into k.
    Kdelete,
    /// Single-delete Nim: delete one heap, split one of the others into two.
    Single,
}

/// One kind of move: delete `delete` heaps, split `split` of the others into
/// `parts` non-empty heaps each, keep the rest. Every rule keeps the number
/// of heaps: split * (parts - 1) = delete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveKind {
    pub delete: u32,
    pub split: u32,
    pub parts: u32,
}

/// A Delete Nim ruleset on a number of heaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeleteNim {
    pub rule: Rule,
    pub heaps: usize,
    /// k of the (k-1)/k n-delete rule.
    pub k: Option<usize>,
}

impl DeleteNim {
    /// The ruleset, or what was wrong with the heap count or k.
    pub fn new(rule: Rule, heaps: usize, k: Option<usize>) -> Result<DeleteNim, String> {
        if !(2..=MAX_HEAPS).contains(&heaps) {
            return Err(format!(
                "{}: expected 2 to {MAX_HEAPS} heaps",
                Setting::Heaps.is(heaps)
            ));
        }
        match rule {
            Rule::Delete | Rule::Vdn if heaps != 2 => {
                return Err(format!(
                    "{}: the {} rule is a two-heap game; expected {} (or {} abo, nmth, half, \
                     kdelete, single for more heaps)",
                    Setting::Heaps.is(heaps),
                    rule.name(),
                    Setting::Heaps.is(2),
                    Setting::Rule.named()
                ));
            }
            Rule::Half if !heaps.is_multiple_of(2) => {
                return Err(format!(
                    "{}: Half-delete Nim needs an even number of heaps",
                    Setting::Heaps.is(heaps)
                ));
            }
            _ => {}
        }
        match (rule, k) {
            (Rule::Kdelete, None) => {
                return Err(format!(
                    "{} needs {} (heaps are split into K, n = K*m)",
                    Setting::Rule.is("kdelete"),
                    Setting::K.is("K")
                ));
            }
            (Rule::Kdelete, Some(k)) if k < 2 || !heaps.is_multiple_of(k) => {
                return Err(format!(
                    "{}: expected k >= 2 dividing the number of heaps ({heaps})",
                    Setting::K.is(k)
                ));
            }
            (Rule::Kdelete, _) => {}
            (_, Some(_)) => {
                return Err(format!(
                    "{} applies to {} only, not {}",
                    Setting::K.named(),
                    Setting::Rule.is("kdelete"),
                    rule.name()
                ));
            }
            _ => {}
        }
        Ok(DeleteNim { rule, heaps, k })
    }

    /// The rule's name on the command line.
    pub fn name(&self) -> &'static str {
        self.rule.name()
    }

    /// Delete Nim's heaps may be empty: its table is VDN's, shifted by one
    /// (Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim, after Definition 2.3). The size stored is the heap plus this.
    pub fn shift(&self) -> u32 {
        u32::from(self.rule == Rule::Delete)
    }

    /// The kinds of move the rule allows.
    pub fn moves(&self) -> Vec<MoveKind> {
        let n = self.heaps as u32;
        let kind = |delete, split, parts| MoveKind {
            delete,
            split,
            parts,
        };
        match self.rule {
            Rule::Delete | Rule::Vdn | Rule::Single => vec![kind(1, 1, 2)],
            Rule::Abo => vec![kind(n - 1, 1, n)],
            Rule::Nmth => (1..=n / 2).map(|k| kind(k, k, 2)).collect(),
            Rule::Half => vec![kind(n / 2, n / 2, 2)],
            Rule::Kdelete => {
                let k = self.k.unwrap_or(2) as u32;
                let m = n / k;
                vec![kind((k - 1) * m, m, k)]
            }
        }
    }
}

/// One move of a Delete Nim rule: the heaps deleted, each heap split with
/// its parts, and the position left (sorted). Sizes as the table stores
/// them (`DeleteNim::shift` added).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeleteMove {
    pub deleted: Vec<u32>,
    pub split: Vec<(u32, Vec<u32>)>,
    pub left: Vec<u32>,
}

impl DeleteNim {
    /// Every move from `sizes` (as stored, any order), each once: moves
    /// that delete and split heaps of the same sizes the same way are one.
    pub fn options(&self, sizes: &[u32]) -> Vec<DeleteMove> {
        let n = sizes.len();
        let mut found: Vec<DeleteMove> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for kind in self.moves() {
            for deleted in subsets(n, kind.delete as usize, 0) {
                for split in subsets(n, kind.split as usize, deleted) {
                    let pick = |mask: usize| -> Vec<u32> {
                        let mut v: Vec<u32> = (0..n)
                            .filter(|i| mask >> i & 1 == 1)
                            .map(|i| sizes[i])
                            .collect();
                        v.sort_unstable();
                        v
                    };
                    let kept = pick(!(deleted | split) & ((1 << n) - 1));
                    let (gone, cut) = (pick(deleted), pick(split));
                    for parts in every_split(&cut, kind.parts) {
                        let mut left = kept.clone();
                        left.extend(parts.iter().flatten());
                        left.sort_unstable();
                        let split = cut.iter().copied().zip(parts).collect();
                        let option = DeleteMove {
                            deleted: gone.clone(),
                            split,
                            left,
                        };
                        if seen.insert(option.clone()) {
                            found.push(option);
                        }
                    }
                }
            }
        }
        found
    }
}

/// Every mask of `k` of `n` places outside `taken`.
fn subsets(n: usize, k: usize, taken: usize) -> Vec<usize> {
    (0..1usize << n)
        .filter(|m| m & taken == 0 && m.count_ones() as usize == k)
        .collect()
}

/// Every way to split each heap of `heaps` into `parts` non-empty parts
/// (each heap's parts nondecreasing).
fn every_split(heaps: &[u32], parts: u32) -> Vec<Vec<Vec<u32>>> {
    let mut ways = vec![Vec::new()];
    for &h in heaps {
        let mut next = Vec::new();
        for way in &ways {
            for p in partitions(h, parts, 1) {
                let mut w: Vec<Vec<u32>> = way.clone();
                w.push(p);
                next.push(w);
            }
        }
        ways = next;
    }
    ways
}

/// The partitions of `h` into `k` nondecreasing parts of at least `min`.
fn partitions(h: u32, k: u32, min: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut parts = Vec::new();
    super::code::each_partition(h.into(), k.into(), min.into(), &mut parts, &mut |p| {
        out.push(p.iter().map(|&x| x as u32).collect())
    });
    out
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Delete => "delete",
            Rule::Vdn => "vdn",
            Rule::Abo => "abo",
            Rule::Nmth => "nmth",
            Rule::Half => "half",
            Rule::Kdelete => "kdelete",
            Rule::Single => "single",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_keeps_the_number_of_heaps() {
        for (rule, heaps, k) in [
            (Rule::Vdn, 2, None),
            (Rule::Abo, 5, None),
            (Rule::Nmth, 7, None),
            (Rule::Half, 6, None),
            (Rule::Kdelete, 6, Some(3)),
            (Rule::Single, 4, None),
        ] {
            let game = DeleteNim::new(rule, heaps, k).unwrap();
            for m in game.moves() {
                assert_eq!(m.split * (m.parts - 1), m.delete, "{rule:?} {m:?}");
                assert!(m.delete + m.split <= heaps as u32);
            }
        }
    }

    #[test]
    fn moves_are_listed_once_each() {
        let vdn = DeleteNim::new(Rule::Vdn, 2, None).unwrap();
        let left: Vec<Vec<u32>> = vdn.options(&[4, 5]).into_iter().map(|m| m.left).collect();
        // Delete 4, split 5 (1+4, 2+3); delete 5, split 4 (1+3, 2+2).
        assert_eq!(left, [vec![1, 4], vec![2, 3], vec![1, 3], vec![2, 2]]);
        // Equal heaps: deleting either is one move.
        assert_eq!(vdn.options(&[3, 3]).len(), 1);
        let half = DeleteNim::new(Rule::Half, 4, None).unwrap();
        for m in half.options(&[2, 3, 3, 5]) {
            assert_eq!((m.deleted.len(), m.split.len(), m.left.len()), (2, 2, 4));
        }
        assert_eq!(
            partitions(6, 3, 1),
            [vec![1, 1, 4], vec![1, 2, 3], vec![2, 2, 2]]
        );
    }

    #[test]
    fn heap_counts_a_rule_cannot_have_are_refused() {
        assert!(
            DeleteNim::new(Rule::Vdn, 3, None)
                .unwrap_err()
                .contains("two-heap")
        );
        assert!(
            DeleteNim::new(Rule::Half, 5, None)
                .unwrap_err()
                .contains("even")
        );
        assert!(
            DeleteNim::new(Rule::Kdelete, 6, None)
                .unwrap_err()
                .contains(&Setting::K.is("K"))
        );
        assert!(
            DeleteNim::new(Rule::Kdelete, 6, Some(4))
                .unwrap_err()
                .contains("dividing")
        );
        assert!(
            DeleteNim::new(Rule::Abo, 9, None)
                .unwrap_err()
                .contains("2 to 8")
        );
        assert!(
            DeleteNim::new(Rule::Single, 3, Some(3))
                .unwrap_err()
                .contains(&format!("{} only", Setting::Rule.is("kdelete")))
        );
    }
}
