//! `grundy quotient CODE --max-heap H`: the misère quotient of a code's
//! heaps (`grundy::quotient`), as text, JSON or LaTeX.

use std::time::Instant;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, shows_text};
use crate::cli::{QuotientArgs, QuotientMethod};
use grundy::error::Result;
use grundy::quotient::{Method, MisereQuotient, Named, Quotient, monomial_latex, monomial_text};

/// The JSON summary of `grundy quotient`.
#[derive(Serialize)]
pub struct QuotientSummary {
    pub code: String,
    pub max_heap: u16,
    /// "misere": the last player to move loses.
    pub convention: &'static str,
    /// "learn" or "exact".
    pub method: &'static str,
    /// |Q_H|.
    pub order: usize,
    /// Each generator's letter and the heap it is.
    pub generators: Vec<Generator>,
    /// Relations [u, v]: u = v.
    pub relations: Vec<[String; 2]>,
    /// Every element by name; element 0 is the identity, 1.
    pub elements: Vec<String>,
    pub p_portion: Vec<String>,
    /// The element of each heap 0 ..= H.
    pub pretending: Vec<String>,
    /// |Q_h| for h = 0 ..= H.
    pub orders: Vec<usize>,
    /// The heaps at which the quotient grew, with its order from there.
    pub growth: Vec<Growth>,
    /// Candidates tried (learn).
    pub candidates: usize,
    /// Sums valued by search.
    pub sums_searched: usize,
    pub seconds: f64,
}

#[derive(Serialize)]
pub struct Generator {
    pub name: String,
    pub heap: u16,
}

#[derive(Serialize)]
pub struct Growth {
    pub heap: u16,
    pub order: usize,
}

pub fn quotient(args: &QuotientArgs) -> Result<()> {
    let method = match args.method {
        QuotientMethod::Learn => Method::Learn,
        QuotientMethod::Exact => Method::Exact,
    };
    let started = Instant::now();
    let job = MisereQuotient::of(&args.code)?
        .max_heap(args.max_heap)
        .method(method);
    let hooks = CliHooks::new(args.report.quiet || args.latex);
    let q = job.run_with(&hooks)?;
    let summary = summary_of(&args.code, &q, method, started.elapsed().as_secs_f64());
    if args.report.json {
        return print_json(&summary);
    }
    if args.latex {
        grundy::out!("{}", latex(&summary, &q));
    } else if shows_text(false, args.report.quiet, None) {
        grundy::out!("{}", text(&summary));
    }
    Ok(())
}

fn summary_of(code: &str, q: &Quotient, method: Method, seconds: f64) -> QuotientSummary {
    let p = &q.presentation;
    QuotientSummary {
        code: code.to_string(),
        max_heap: q.max_heap,
        convention: "misere",
        method: match method {
            Method::Learn => "learn",
            Method::Exact => "exact",
        },
        order: q.order(),
        generators: p
            .generator_heaps
            .iter()
            .enumerate()
            .map(|(g, &heap)| Generator {
                name: grundy::analysis::quotient::presentation::generator_name(g),
                heap,
            })
            .collect(),
        relations: p
            .relations
            .iter()
            .map(|(u, v)| [monomial_text(u), monomial_text(v)])
            .collect(),
        elements: (0..q.order() as u32).map(|e| q.name(e)).collect(),
        p_portion: q.p_portion_names(),
        pretending: q.pretending_names(),
        orders: q.orders.clone(),
        growth: q
            .growth()
            .into_iter()
            .map(|(heap, order)| Growth { heap, order })
            .collect(),
        candidates: q.candidates,
        sums_searched: q.positions,
        seconds,
    }
}

fn text(s: &QuotientSummary) -> String {
    let generators: Vec<String> = s
        .generators
        .iter()
        .map(|g| format!("{} = heap {}", g.name, g.heap))
        .collect();
    let relations: Vec<String> = s
        .relations
        .iter()
        .map(|[u, v]| format!("{u} = {v}"))
        .collect();
    let growth: Vec<String> = s
        .growth
        .iter()
        .map(|g| format!("heap {} ({})", g.heap, g.order))
        .collect();
    let pretending: Vec<String> = s
        .pretending
        .chunks(10)
        .enumerate()
        .map(|(row, names)| format!("  {:>5}  {}", row * 10, names.join(" ")))
        .collect();
    format!(
        "misère quotient of {} for heaps up to {}: order {}\n\
         generators  {}\nrelations   {}\nP-portion   {}\nelements    {}\ngrew at     {}\n\
         pretending function (heap n + column):\n{}\n\
         checked on every sum of heaps up to {} ({} candidates, {} sums searched) in {:.2} s\n",
        s.code,
        s.max_heap,
        s.order,
        or_none(&generators),
        or_none(&relations),
        s.p_portion.join(", "),
        s.elements.join(", "),
        or_none(&growth),
        pretending.join("\n"),
        s.max_heap,
        s.candidates,
        s.sums_searched,
        s.seconds
    )
}

fn or_none(items: &[String]) -> String {
    match items.is_empty() {
        true => "none".into(),
        false => items.join(", "),
    }
}

fn latex(s: &QuotientSummary, q: &Quotient) -> String {
    let name = |e: u32| monomial_latex(&q.presentation.names[e as usize]);
    let gens: Vec<&str> = s.generators.iter().map(|g| g.name.as_str()).collect();
    let rels: Vec<String> = q
        .presentation
        .relations
        .iter()
        .map(|(u, v)| format!("{} = {}", monomial_latex(u), monomial_latex(v)))
        .collect();
    let p: Vec<String> = q.p_portion().into_iter().map(name).collect();
    let mut rows = String::new();
    for start in (0..=q.max_heap).step_by(10) {
        let cells: Vec<String> = (start..(start + 10).min(q.max_heap + 1))
            .map(|h| format!("${}$", name(q.element_of_heap(h))))
            .collect();
        rows += &format!("{start} & {} \\\\\n", cells.join(" & "));
    }
    format!(
        "% grundy quotient {} --max-heap {}\n\
         \\[ \\mathcal{{Q}} = \\langle {} \\mid {} \\rangle, \\quad |\\mathcal{{Q}}| = {}, \\quad \
         \\mathcal{{P}} = \\{{{}\\}} \\]\n\
         \\begin{{tabular}}{{r|llllllllll}}\n$n$ & +0 & +1 & +2 & +3 & +4 & +5 & +6 & +7 & +8 & +9 \\\\\n\
         \\hline\n{rows}\\end{{tabular}}\n",
        s.code,
        s.max_heap,
        gens.join(", "),
        rels.join(",\\ "),
        s.order,
        p.join(", ")
    )
}
