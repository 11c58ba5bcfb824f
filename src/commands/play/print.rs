//! `play`'s report as text.

use grundy::game::Convention;
use grundy::play::PlayReport;

/// The components, the nim-sum, the outcome and the winning moves listed.
pub fn print_report(r: &PlayReport) {
    grundy::frontend::outln!("game        {}", r.game);
    grundy::frontend::outln!("position    {}", r.position);
    let width = r
        .components
        .iter()
        .map(|c| c.component.chars().count())
        .max();
    let width = width.unwrap_or(0).max(24);
    for (i, c) in r.components.iter().enumerate() {
        let label = if i == 0 { "components" } else { "" };
        grundy::frontend::outln!("{label:<11} {:<width$} G = {}", c.component, c.g);
    }
    let values: Vec<String> = r.components.iter().map(|c| c.g.to_string()).collect();
    grundy::frontend::outln!(
        "nim-sum     {} = {}{}",
        if values.is_empty() {
            "(no component)".into()
        } else {
            values.join(" xor ")
        },
        r.nim_sum,
        match r.convention {
            Convention::Normal => "",
            Convention::Misere => " (normal play's; misère play does not add by it)",
        }
    );
    if let Some(g) = r.misere_value {
        grundy::frontend::outln!(
            "misère      g⁻ of the whole sum = {g} (the last player to move loses)"
        );
    }
    if r.convention == Convention::Misere {
        print_misere_moves(r);
    } else if r.outcome == "P" {
        grundy::frontend::outln!(
            "outcome     P: the player to move loses; every move leaves a nonzero nim-sum"
        );
    } else {
        let total = r.winning_moves_total;
        grundy::frontend::outln!(
            "outcome     N: the player to move wins; {total} winning move{} (moves to a P-position){}",
            if total == 1 { "" } else { "s" },
            if r.winning_moves.len() < total {
                format!(
                    ", the first {} listed (--limit all lists every one)",
                    r.winning_moves.len()
                )
            } else {
                String::new()
            }
        );
        for m in &r.winning_moves {
            grundy::frontend::outln!(
                "  in {} (G {} -> {}): {}",
                r.components[m.component].component,
                r.components[m.component].g,
                m.g,
                m.text
            );
        }
    }
    for note in &r.notes {
        grundy::frontend::outln!("note        {note}");
    }
}

/// The outcome under misère play and the moves to a sum of misère value 0.
fn print_misere_moves(r: &PlayReport) {
    if r.outcome == "P" {
        grundy::frontend::outln!(
            "outcome     P: the player to move loses; every move leaves g⁻ ≠ 0"
        );
        return;
    }
    let total = r.winning_moves_total;
    grundy::frontend::outln!(
        "outcome     N: the player to move wins; {total} winning move{} (moves to g⁻ = 0)",
        if total == 1 { "" } else { "s" }
    );
    for m in &r.winning_moves {
        grundy::frontend::outln!("  in {}: {}", r.components[m.component].component, m.text);
    }
}
