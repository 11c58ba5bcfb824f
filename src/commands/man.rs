//! `grundy man`: the manual pages, rendered by clap_mangen from the same
//! definitions as `--help`, so they cannot drift from the flags.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, ManArgs};
use grundy::error::Result;
use grundy::frontend::export::{self, OutputRules};

pub fn man(args: &ManArgs) -> Result<()> {
    let pages = pages();
    let Some(dir) = &args.dir else {
        let (_, top) = &pages[0];
        return Ok(std::io::stdout().write_all(top)?);
    };
    let rules = OutputRules {
        create_folders: true,
        ..OutputRules::default()
    };
    for (name, text) in &pages {
        export::write_to(&dir.join(format!("{name}.1")), rules, |w| w.write_all(text))?;
    }
    grundy::frontend::outln!("wrote {} pages into {}", pages.len(), dir.display());
    Ok(())
}

/// Every page, named as `man` finds it: `grundy`, then `grundy-COMMAND`
/// for each command and `grundy-COMMAND-SUB` for theirs.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let mut pages = Vec::new();
    collect(Cli::command(), &mut pages);
    pages
}

fn collect(cmd: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) {
    let name = cmd.get_name().to_string();
    let mut text = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut text)
        .expect("rendering into memory");
    pages.push((name.clone(), text));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(
            sub.clone().name(format!("{name}-{}", sub.get_name())),
            pages,
        );
    }
}
