//! A quotient written as the papers write it (Plambeck and Siegel,
//! "Misère quotients for impartial games"): generators a, b, c, … taken
//! in heap order, each heap that is not a product of earlier ones getting
//! the next; each element named by its least monomial (fewest letters,
//! then most of the earlier letters: ab before bc); relations u = v, one for each
//! least monomial u that names no element while every monomial dividing
//! it does. Every monomial rewrites to its element's name by these
//! relations, since each rewrite makes it smaller in that order.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashSet};

use super::monoid::Monoid;

/// A monomial: an exponent for each generator.
pub type Monomial = Vec<u32>;

/// Generators, element names and relations.
#[derive(Clone, Debug)]
pub struct Presentation {
    /// The heap each generator is, in order (a, b, c, …).
    pub generator_heaps: Vec<u16>,
    /// Each element's name.
    pub names: Vec<Monomial>,
    /// Relations u = v.
    pub relations: Vec<(Monomial, Monomial)>,
}

/// The letter of generator `g`: a … z, then g26, g27, ….
pub fn generator_name(g: usize) -> String {
    match g {
        0..=25 => ((b'a' + g as u8) as char).to_string(),
        _ => format!("g{g}"),
    }
}

/// `a^2b`, or `1` for the identity.
pub fn monomial_text(m: &[u32]) -> String {
    written(m, |g, k| format!("{}^{k}", generator_name(g)))
}

/// The same in LaTeX: `a^{2}b`.
pub fn monomial_latex(m: &[u32]) -> String {
    written(m, |g, k| format!("{}^{{{k}}}", generator_name(g)))
}

fn written(m: &[u32], power: impl Fn(usize, u32) -> String) -> String {
    let mut out = String::new();
    for (g, &k) in m.iter().enumerate() {
        match k {
            0 => {}
            1 => out += &generator_name(g),
            _ => out += &power(g, k),
        }
    }
    if out.is_empty() {
        out.push('1');
    }
    out
}

/// The generators: heaps in order whose element the earlier generators
/// do not reach.
fn generators(monoid: &Monoid) -> Vec<usize> {
    let mut reached = vec![false; monoid.len()];
    reached[0] = true;
    let mut chosen: Vec<usize> = Vec::new();
    for l in 0..monoid.heaps.len() {
        if reached[monoid.times[l][0] as usize] {
            continue;
        }
        chosen.push(l);
        // Close the reached set under every chosen letter.
        let mut stack: Vec<u32> = (0..monoid.len() as u32)
            .filter(|&e| reached[e as usize])
            .collect();
        while let Some(e) = stack.pop() {
            for &c in &chosen {
                let f = monoid.times[c][e as usize] as usize;
                if !reached[f] {
                    reached[f] = true;
                    stack.push(f as u32);
                }
            }
        }
    }
    chosen
}

impl Presentation {
    /// The presentation of `monoid` (a quotient: every element a product
    /// of heaps).
    pub fn of(monoid: &Monoid) -> Presentation {
        let gens = generators(monoid);
        let mut names: Vec<Option<Monomial>> = vec![None; monoid.len()];
        names[0] = Some(vec![0; gens.len()]);
        let mut layer: Vec<(Monomial, u32)> = vec![(vec![0; gens.len()], 0)];
        let mut relations = Vec::new();
        while !layer.is_empty() {
            // The next degree's monomials, least first, each with its element.
            let mut next: BTreeMap<Vec<Reverse<u32>>, (Monomial, u32)> = BTreeMap::new();
            for (m, e) in &layer {
                for (g, &l) in gens.iter().enumerate() {
                    let mut up = m.clone();
                    up[g] += 1;
                    let key = up.iter().map(|&k| Reverse(k)).collect();
                    next.insert(key, (up, monoid.times[l][*e as usize]));
                }
            }
            let named: HashSet<Monomial> = layer.iter().map(|(m, _)| m.clone()).collect();
            layer = Vec::new();
            for (_, (m, e)) in next {
                match &names[e as usize] {
                    None => {
                        names[e as usize] = Some(m.clone());
                        layer.push((m, e));
                    }
                    Some(name) if divisors_named(&m, &named) => relations.push((m, name.clone())),
                    Some(_) => {}
                }
            }
        }
        Presentation {
            generator_heaps: gens.iter().map(|&l| monoid.heaps[l]).collect(),
            names: names.into_iter().map(Option::unwrap_or_default).collect(),
            relations,
        }
    }

    /// The elements in the order their names come: by degree, then least
    /// first (the order `of` names them in); the identity first.
    pub fn naming_order(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.names.len() as u32).collect();
        order.sort_by_key(|&e| {
            let name = &self.names[e as usize];
            let degree: u32 = name.iter().sum();
            (degree, name.iter().map(|&k| Reverse(k)).collect::<Vec<_>>())
        });
        order
    }
}

/// Whether every monomial one letter below `m` is an element's name.
fn divisors_named(m: &[u32], named: &HashSet<Monomial>) -> bool {
    (0..m.len()).filter(|&g| m[g] > 0).all(|g| {
        let mut down = m.to_vec();
        down[g] -= 1;
        named.contains(&down)
    })
}
