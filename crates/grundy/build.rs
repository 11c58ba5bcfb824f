//! Names the commit the library is built from, as `grundy::COMMIT`: the
//! `GRUNDY_COMMIT` variable where a packager building from a source archive
//! sets it, git's HEAD (`+changes` when tracked files differ from it) in a
//! checkout of the repository, the commit `cargo package` recorded in a
//! packaged crate, or "unknown commit".

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-env-changed=GRUNDY_COMMIT");
    let given = std::env::var("GRUNDY_COMMIT")
        .ok()
        .filter(|c| !c.is_empty());
    let commit = given
        .or_else(|| from_checkout(&manifest))
        .or_else(|| from_package(&manifest))
        .unwrap_or_else(|| "unknown commit".into());
    println!("cargo:rustc-env=GRUNDY_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
}

/// Runs this script again when `path` changes; a path that does not exist
/// is not watched (cargo would run the script, and rebuild the crate, on
/// every build).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// `git` run in `dir`: its output, when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    out.status.success().then_some(text)
}

/// HEAD of the repository this crate sits in at `crates/grundy` (not of a
/// repository that merely holds the crate, as a home folder under git
/// holds cargo's downloads).
fn from_checkout(manifest: &Path) -> Option<String> {
    let top = PathBuf::from(git(manifest, &["rev-parse", "--show-toplevel"])?);
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok();
    if !same(&top.join("crates/grundy"), manifest) {
        return None;
    }
    for dir in ["--absolute-git-dir", "--git-common-dir"] {
        if let Some(git_dir) = git(manifest, &["rev-parse", dir]) {
            // A relative answer is relative to where git ran.
            let git_dir = manifest.join(git_dir);
            for watched in ["HEAD", "index", "packed-refs", "refs"] {
                watch(&git_dir.join(watched));
            }
        }
    }
    // Edits to the sources change `+changes` before git's index sees them.
    for sources in ["crates", "src", "python/src"] {
        watch(&top.join(sources));
    }
    let head = git(manifest, &["rev-parse", "--short=12", "HEAD"])?;
    let status = git(&top, &["status", "--porcelain", "--untracked-files=no"]);
    Some(match status.is_some_and(|s| !s.is_empty()) {
        true => format!("{head}+changes"),
        false => head,
    })
}

/// The commit `cargo package` wrote into `.cargo_vcs_info.json`.
fn from_package(manifest: &Path) -> Option<String> {
    let path = manifest.join(".cargo_vcs_info.json");
    watch(&path);
    let text = std::fs::read_to_string(path).ok()?;
    let at = text.find("\"sha1\"")?;
    let sha = text[at + 6..].split('"').nth(1)?;
    let short: String = sha.chars().take(12).collect();
    (short.len() == 12 && short.chars().all(|c| c.is_ascii_hexdigit())).then_some(short)
}
