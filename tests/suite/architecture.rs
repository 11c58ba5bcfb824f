//! The architecture as tests: layers import only downward, no two files of
//! `src/` import each other (directly or round a longer loop), no two
//! folders of one crate either (`engine::graph` and `engine::edges`), and
//! no function is longer than a screen. These read the sources, so they run
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules from the bottom layer up; a module may import only
/// from modules of a lower rank (and itself).
const LAYERS: &[(&str, u32)] = &[
    ("setting", 0),
    ("fast_map", 0),
    ("fault", 0),
    ("error", 1),
    ("input", 1),
    ("interrupt", 1),
    ("hooks", 1),
    ("core", 1),
    ("export", 2),
    ("game", 3),
    ("analysis", 4),
    ("kernel", 5),
    ("gpu", 6),
    ("engine", 7),
    ("api", 8),
    ("front", 9),
    ("plot", 10),
    ("cli", 11),
    ("bench", 12),
    ("commands", 13),
    ("lib", 14),
    ("main", 14),
];

/// The longest function, in lines from `fn` to its closing brace.
const MAX_FN_LINES: usize = 80;

/// The workspace's crates: each one's `src/` and the module its root stands
/// for in the layers (the crates are the layers; their modules keep the
/// paths they had as one crate: `grundy-engine`'s `graph::dense` is
/// `engine::graph::dense`). The core's modules are top-level (`game`, …).
const CRATES: &[(&str, &str)] = &[
    ("crates/grundy-core/src", ""),
    ("crates/grundy-gpu/src", "gpu"),
    ("crates/grundy-engine/src", "engine"),
    ("crates/grundy/src", "api"),
    ("src", ""),
];

/// The workspace's crates, as `(src folder, module prefix)`.
fn workspace() -> Vec<(PathBuf, &'static str)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    CRATES
        .iter()
        .map(|&(dir, prefix)| (root.join(dir), prefix))
        .collect()
}

/// The module prefix of the crate (of `crates`) a file lives under.
fn prefix_of<'a>(path: &Path, crates: &[(PathBuf, &'a str)]) -> &'a str {
    crates
        .iter()
        .filter(|(dir, _)| path.starts_with(dir))
        .max_by_key(|(dir, _)| dir.as_os_str().len())
        .expect("a crate's file")
        .1
}

/// Every `.rs` file of the workspace, as its module path ("engine::graph::dense").
fn modules() -> BTreeMap<String, PathBuf> {
    modules_of(&workspace())
}

/// Every `.rs` file of `crates`, as its module path.
fn modules_of(crates: &[(PathBuf, &str)]) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                if name != "mod" {
                    p.push(name);
                }
                let key = if p.is_empty() {
                    "lib".to_string()
                } else {
                    p.join("::")
                };
                out.insert(key, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/grundy-core/src");
    for (dir, prefix) in crates {
        let mut found = BTreeMap::new();
        let prefix: Vec<String> = prefix
            .split("::")
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect();
        walk(dir, &prefix, &mut found);
        for (key, path) in found {
            // The core's root is `core`; the other roots are named by their prefix.
            let key = match (key.as_str(), prefix.is_empty(), *dir == core) {
                ("lib", true, true) => "core".to_string(),
                (k, false, _) if k.ends_with("::lib") => k.trim_end_matches("::lib").to_string(),
                _ => key,
            };
            out.insert(key, path);
        }
    }
    out
}

/// `code` with every path written as one crate would write it: the
/// crate's own `crate::` under its prefix, the other crates' names as
/// `crate::` and their prefix (`grundy_engine::heap` is `crate::engine::heap`).
fn as_one_crate(code: &str, prefix: &str) -> String {
    let code = match prefix {
        "" => code.to_string(),
        p => code.replace("crate::", &format!("crate::{p}::")),
    };
    let mut code = code
        .replace("grundy_core::", "crate::")
        .replace("grundy_gpu::", "crate::gpu::")
        .replace("grundy_engine::", "crate::engine::")
        .replace("grundy_cli::", "crate::")
        .replace("grundy_engine as", "crate::engine as")
        .replace("grundy_gpu as", "crate::gpu as")
        .replace("grundy::internals::engine", "crate::engine")
        .replace("grundy::internals::gpu", "crate::gpu");
    for module in [
        "engine",
        "gpu",
        "analysis",
        "error",
        "export",
        "game",
        "hooks",
        "input",
        "interrupt",
        "kernel",
    ] {
        code = code.replace(&format!("grundy::{module}"), &format!("crate::{module}"));
    }
    code
}

/// The file's code without comments or its test module (tests may reach
/// anywhere).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    // The inline test module (`#[cfg(test)] mod tests {`), not a test
    // module in its own file (`#[cfg(test)] mod shader_check;`).
    let inline_tests = text
        .match_indices("#[cfg(test)]\nmod ")
        .map(|(at, _)| at)
        .find(|&at| text[at..].lines().nth(1).is_some_and(|l| l.ends_with('{')));
    let code = match inline_tests {
        Some(at) => &text[..at],
        None => &text,
    };
    code.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Paths the file names: `crate::a::b`, `super::a`, and in `use` lines
/// the groups `a::{b, c::d}` expanded.
fn named_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let starts = (bytes[i..].starts_with(b"crate::") || bytes[i..].starts_with(b"super::"))
            && (i == 0 || !is_ident(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && (is_ident(bytes[j]) || bytes[j] == b':') {
            j += 1;
        }
        let head = code[i..j].trim_end_matches(':').to_string();
        if code[j..].starts_with('{') {
            let close = matching_brace(code, j);
            for part in split_group(&code[j + 1..close]) {
                out.push(format!("{head}::{part}"));
            }
            i = close;
        } else {
            out.push(head);
            i = j;
        }
    }
    out
}

fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (k, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + k;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// "a, b::{c, d}, e as f" → a, b::c, b::d, e
fn split_group(group: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (k, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(group[start..k].to_string());
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(group[start..].to_string());
    let mut out = Vec::new();
    for part in parts {
        let part = part.split(" as ").next().unwrap().trim().to_string();
        if part.is_empty() {
            continue;
        }
        match part.find("::{") {
            Some(at) => {
                let close = matching_brace(&part, at + 2);
                for inner in split_group(&part[at + 3..close]) {
                    out.push(format!("{}::{inner}", &part[..at]));
                }
            }
            None => out.push(part),
        }
    }
    out
}

/// The file a path leads into: the longest module prefix of it.
fn resolve(from: &str, path: &str, modules: &BTreeMap<String, PathBuf>) -> Option<String> {
    let mut segs: Vec<&str> = Vec::new();
    let mut rest = path.split("::").peekable();
    match rest.next()? {
        "crate" => {}
        "super" => {
            let mut here: Vec<&str> = if from == "lib" {
                vec![]
            } else {
                from.split("::").collect()
            };
            here.pop();
            while rest.peek() == Some(&"super") {
                rest.next();
                here.pop();
            }
            segs.extend(here);
        }
        _ => return None,
    }
    segs.extend(rest.filter(|s| *s != "self" && *s != "*"));
    for len in (1..=segs.len()).rev() {
        let key = segs[..len].join("::");
        if modules.contains_key(&key) {
            return Some(key);
        }
    }
    // Crate-root items are the exported macros (`outln!`), defined in `export`.
    Some(if segs.is_empty() { "lib" } else { "export" }.to_string())
}

/// File → files it imports from, over the workspace.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    imports_of(&workspace())
}

/// File → files it imports from, over `crates`.
fn imports_of(crates: &[(PathBuf, &str)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules_of(crates);
    let mut graph = BTreeMap::new();
    for (name, path) in &modules {
        let mut to = BTreeSet::new();
        let prefix = prefix_of(path, crates);
        let code = as_one_crate(&code_of(path), prefix);
        for p in named_paths(&code) {
            if let Some(target) = resolve(name, &p, &modules)
                && &target != name
            {
                to.insert(target);
            }
        }
        to.extend(children_named(name, &code, &modules));
        graph.insert(name.clone(), to);
    }
    graph
}

/// A module's own submodules that its code names (`heaps::rows(..)`,
/// `pub use backend::Backend`): edges from a parent down to a child.
fn children_named(name: &str, code: &str, modules: &BTreeMap<String, PathBuf>) -> Vec<String> {
    let prefix = if name == "lib" {
        String::new()
    } else {
        format!("{name}::")
    };
    let mut out = Vec::new();
    for child in modules.keys() {
        let Some(rest) = child.strip_prefix(&prefix) else {
            continue;
        };
        if rest.contains("::") || child == name {
            continue;
        }
        let named = code.match_indices(&format!("{rest}::")).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
        });
        if named {
            out.push(child.clone());
        }
    }
    out
}

fn rank(module: &str) -> u32 {
    let top = module.split("::").next().unwrap();
    LAYERS
        .iter()
        .find(|(name, _)| *name == top)
        .map(|&(_, r)| r)
        .unwrap_or_else(|| panic!("{top} is in no layer: add it to LAYERS"))
}

#[test]
fn layers_import_only_downward() {
    let mut upward = Vec::new();
    for (from, targets) in imports() {
        for to in targets {
            let same_top = from.split("::").next() == to.split("::").next();
            if !same_top && rank(&to) >= rank(&from) {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not go down:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_two_files_import_each_other() {
    let cycles = file_cycles(&imports());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// Every loop of imports between files, as `a -> b -> a`.
fn file_cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    // Tarjan would do; files are few, so a search from each file suffices.
    let mut cycles = Vec::new();
    for start in graph.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in &graph[&at] {
                if next == start {
                    cycles.push(trail.join(" -> ") + " -> " + start);
                } else if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    cycles
}

/// The folder (or file) directly under a crate's root that `module` lives
/// in: `engine::graph` for `engine::graph::memo`; none for the crates whose
/// top-level modules are layers of their own (core, the command line).
fn folder_of(module: &str) -> Option<String> {
    let parts: Vec<&str> = module.split("::").collect();
    match parts[..] {
        [top @ ("gpu" | "engine" | "api"), folder, ..] => Some(format!("{top}::{folder}")),
        _ => None,
    }
}

/// The imports between two folders of one crate: `a -> b` for each file
/// of `a` that imports a file of `b`.
fn folder_imports(files: BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in files {
        let Some(a) = folder_of(&from) else { continue };
        for to in targets {
            let same_crate = from.split("::").next() == to.split("::").next();
            match folder_of(&to) {
                Some(b) if same_crate && a != b => {
                    graph.entry(a.clone()).or_default().insert(b);
                }
                _ => {}
            }
        }
    }
    graph
}

#[test]
fn no_two_folders_of_a_crate_import_each_other() {
    let cycles = folder_cycles(&folder_imports(imports()));
    assert!(
        cycles.is_empty(),
        "folders importing each other:\n{}",
        cycles.join("\n")
    );
}

/// The checks fail where they should: a fixture crate whose `graph` and
/// `edges` folders import each other (the tie this test was written for),
/// and whose `edges` files import each other.
#[test]
fn the_cycle_checks_fail_on_a_fixture_with_cycles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/module-cycles/src");
    let files = imports_of(&[(root, "engine")]);
    assert!(files["engine::graph::batch"].contains("engine::edges::solve"));
    assert_eq!(
        folder_cycles(&folder_imports(files.clone())),
        ["engine::edges <-> engine::graph"]
    );
    let loops = file_cycles(&files);
    assert!(
        loops.contains(
            &"engine::edges::solve -> engine::edges::memo -> engine::edges::solve".into()
        ),
        "{loops:?}"
    );
    assert!(
        !loops.iter().any(|l| l.contains("graph::batch")),
        "{loops:?}"
    );
}

/// Every loop between folders of one crate, as `a <-> b` (two folders) or
/// `a -> … -> a` (longer).
fn folder_cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut cycles = Vec::new();
    for (a, targets) in graph {
        for b in targets {
            if graph.get(b).is_some_and(|back| back.contains(a)) && a < b {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    // Longer loops: a search from each folder.
    for start in graph.keys() {
        let mut stack = vec![start.clone()];
        let mut seen = BTreeSet::new();
        while let Some(at) = stack.pop() {
            for next in graph.get(&at).into_iter().flatten() {
                if next == start && !cycles.iter().any(|c| c.contains(start.as_str())) {
                    cycles.push(format!("{start} -> … -> {start}"));
                } else if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
    }
    cycles
}

/// (file, function, lines) of every function longer than `MAX_FN_LINES`.
fn long_functions() -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    for (name, path) in modules() {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            let Some(fn_at) = trimmed.find("fn ") else {
                continue;
            };
            let prefix = &trimmed[..fn_at];
            let is_item = prefix
                .split_whitespace()
                .all(|w| ["pub", "pub(crate)", "const", "unsafe", "async"].contains(&w));
            if !is_item || trimmed.ends_with(';') {
                continue;
            }
            let close = " ".repeat(indent) + "}";
            let end =
                (i..lines.len()).find(|&k| lines[k] == close || (k == i && line.ends_with('}')));
            if let Some(end) = end {
                let len = end - i + 1;
                if len > MAX_FN_LINES {
                    let fn_name = trimmed[fn_at + 3..]
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                        .unwrap()
                        .to_string();
                    out.push((name.clone(), fn_name, len));
                }
            }
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_a_screen() {
    let long = long_functions();
    let listing: Vec<String> = long
        .iter()
        .map(|(file, f, n)| format!("{file}::{f}: {n} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        listing.join("\n")
    );
}

#[test]
fn the_checks_see_what_they_check() {
    // The parser finds the imports it must: a check that sees nothing passes.
    let graph = imports();
    assert!(graph["engine::graph::dense"].contains("kernel::graph"));
    assert!(graph["gpu::graph"].contains("kernel::graph"));
    // across crates: grundy-engine's sequence reads grundy-gpu's rare pass
    assert!(graph["engine::heap::sequence"].contains("gpu::rare"));
    assert!(graph["api::sequence"].contains("engine::heap::driver"));
    assert!(graph["commands"].len() > 3);
    // a parent's own children count, past a `#[cfg(test)] mod x;` line
    assert!(
        graph["kernel"].contains("kernel::heap"),
        "{:?}",
        graph["kernel"]
    );
    let paths = named_paths("use crate::a::{b, c::{d, e as f}};\nuse super::g;");
    assert_eq!(
        paths,
        [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "super::g"
        ]
    );
    assert!(modules().len() > 60);
}

/// The paths past the library's door that `code` names: the engine and GPU
/// crates, by any of their names.
fn past_the_door(code: &str) -> Vec<&'static str> {
    [
        "grundy::internals",
        "grundy::engine",
        "grundy::gpu",
        "grundy_engine",
        "grundy_gpu",
        "grundy::kernel",
        "grundy_core::kernel",
    ]
    .into_iter()
    .filter(|name| code.contains(name))
    .collect()
}

/// Which of the core's `modules` a `pub use grundy_core::…` line of `code`
/// hands out whole (named as a module, not an item inside it), outside a
/// `frontend` module.
fn whole_modules(code: &str, modules: &[&str]) -> Vec<String> {
    let mut whole = Vec::new();
    for stmt in code.split("pub use grundy_core::").skip(1) {
        let stmt = &stmt[..stmt.find(';').unwrap_or(stmt.len())];
        let names = stmt.trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',').map(str::trim) {
            if modules.contains(&name) {
                whole.push(name.to_string());
            }
        }
    }
    whole
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The command line (but its `bench`) and the Python module reach the
/// engine only through the `grundy` crate's builders and types, and the
/// crate's root hands out neither lower crate whole but in `internals`,
/// nor a core module whole but in `frontend`.
#[test]
fn the_front_ends_go_through_the_library() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut leaks = Vec::new();
    for dir in ["src", "python/src"] {
        for path in rust_files(&root.join(dir)) {
            if path.starts_with(root.join("src/bench")) {
                continue;
            }
            let found = past_the_door(&code_of(&path));
            if !found.is_empty() {
                leaks.push(format!("{}: {found:?}", path.display()));
            }
        }
    }
    assert!(leaks.is_empty(), "{leaks:#?}");
    let lib = code_of(&root.join("crates/grundy/src/lib.rs"));
    let (outside, inside) = lib.split_at(lib.find("pub mod internals").expect("the internals"));
    for whole in ["grundy_engine as", "grundy_gpu as", "grundy_core::kernel;"] {
        assert!(!outside.contains(whole), "the root re-exports {whole}");
        assert!(inside.contains(whole), "internals lacks {whole}");
    }
    // The core's modules go out whole only in `frontend` (and internals).
    let start = lib.find("pub mod frontend").expect("the frontend");
    let end = start + lib[start..].find("}\n").expect("its end");
    assert!(
        lib[start..end].contains("export, interrupt"),
        "frontend lacks them"
    );
    let door = format!("{}{}", &lib[..start], &outside[end.min(outside.len())..]);
    let core = [
        "analysis",
        "export",
        "game",
        "interrupt",
        "kernel",
        "setting",
    ];
    let whole = whole_modules(&door, &core);
    assert!(whole.is_empty(), "the root hands out {whole:?} whole");
    // The check sees what it checks.
    assert_eq!(
        whole_modules("pub use grundy_core::{error, interrupt};", &["interrupt"]),
        ["interrupt"]
    );
    assert!(whole_modules("pub use grundy_core::interrupt::f;", &["interrupt"]).is_empty());
    assert_eq!(
        past_the_door("use grundy::engine::memory;"),
        ["grundy::engine"]
    );
    assert!(past_the_door("use grundy::memory;").is_empty());
}
