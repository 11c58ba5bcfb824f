/// A failed allocation ends the run with one line, not an abort.
#[global_allocator]
static ALLOC: grundy::frontend::interrupt::GuardedAlloc = grundy::frontend::interrupt::GuardedAlloc;

fn main() {
    // `grundy octal ... | head` should end quietly, as other Unix tools do,
    // not panic when the reader goes away.
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // SAFETY: no other thread has started yet.
    unsafe { grundy::device::quiet_device_select() };
    // Before any thread starts: the memory budget under `ulimit -v` stays true.
    grundy::memory::one_malloc_arena_under_address_limit();
    grundy::frontend::interrupt::install();
    grundy::frontend::interrupt::set_words(&grundy_cli::front::CliWords);
    let cli = grundy_cli::cli::parse();
    let result = grundy_cli::commands::run(cli);
    // A full disk behind `> file` must not end as a success.
    if let Some(e) = grundy::frontend::export::stdout_error() {
        eprintln!("error: writing to stdout: {e}");
        std::process::exit(1);
    }
    if let Err(e) = result {
        let said = e.worded(&grundy_cli::front::CliWords);
        match e {
            // A run a signal stopped after saving: a note, not a failure,
            // and the process ends by that signal.
            grundy::error::Error::Interrupted { .. } => {
                eprintln!("grundy: {said}");
                grundy::frontend::interrupt::end_by_signal(e.exit_code());
            }
            _ => eprintln!("error: {said}"),
        }
        std::process::exit(e.exit_code());
    }
}
