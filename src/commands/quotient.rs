//! `grundy quotient CODE --max-heap H`: the misère quotient of a code's
//! heaps (`grundy::quotient`), as text, JSON or LaTeX.

use std::time::Instant;

use super::cli_hooks::CliHooks;
use super::output::{print_json, shows_text};
use crate::cli::{QuotientArgs, QuotientMethod};
use grundy::error::Result;
use grundy::quotient::{Method, MisereQuotient, Quotient, QuotientSummary, monomial_latex};

pub fn quotient(args: &QuotientArgs) -> Result<()> {
    let method = match args.method {
        QuotientMethod::Learn => Method::Learn,
        QuotientMethod::Exact => Method::Exact,
    };
    let started = Instant::now();
    let job = MisereQuotient::of(&args.code)?
        .max_heap(args.max_heap)
        .method(method)
        .until_solved(args.until_solved);
    let code = job.code().clone();
    let hooks = CliHooks::new(args.report.quiet || args.latex);
    let q = job.run_with(&hooks)?;
    let summary = QuotientSummary::of(&code, &q, method, started.elapsed().as_secs_f64());
    if args.report.json {
        return print_json(&summary);
    }
    if args.latex {
        grundy::frontend::out!("{}", latex(&summary, &q));
    } else if shows_text(false, args.report.quiet, None) {
        grundy::frontend::out!("{}", text(&summary));
    }
    Ok(())
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
         checked on every sum of heaps up to {} ({} candidates, {} sums searched) in {:.2} s\n\
         {}\n",
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
        s.seconds,
        solved_line(s)
    )
}

/// Whether the periodicity theorem proves the quotient whole, in words.
fn solved_line(s: &QuotientSummary) -> String {
    match (s.solved, s.not_covered) {
        (Some(p), _) => format!(
            "solved      the pretending function has period {} from heap {} (proved by the \
             periodicity theorem from the heaps up to {}): this is the quotient of every sum of \
             heaps, of any size",
            p.period, p.start, p.checked_to
        ),
        (None, Some(why)) => format!("not solved  the periodicity theorem does not apply: {why}"),
        (None, None) => format!(
            "not solved  no period of the pretending function is proved from heaps up to {}",
            s.max_heap
        ),
    }
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
