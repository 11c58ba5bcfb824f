//! grundy-cli: the `grundy` command line over the `grundy` library: its
//! arguments, subcommands and reports, pictures, and the `bench` command.

pub mod bench;
pub mod cli;
pub mod commands;
pub mod front;
pub mod plot;
