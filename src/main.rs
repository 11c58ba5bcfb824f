use clap::Parser;

fn main() {
    let cli = grundy::cli::Cli::parse();
    if let Err(e) = grundy::commands::run(cli) {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
