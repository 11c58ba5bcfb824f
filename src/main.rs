fn main() {
    // `grundy octal ... | head` should end quietly, as other Unix tools do,
    // not panic when the reader goes away.
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = grundy::cli::parse();
    if let Err(e) = grundy::commands::run(cli) {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
