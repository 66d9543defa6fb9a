//! The library's layering, as a test: which top-level module may import which, and no cycle
//! among the files of a module.
//!
//! The layers, lowest first (ARCHITECTURE.md, "Layers"): `log` ← `clock` ← `store` ← `game` ←
//! {`games`, `tournament`} ← `import` ← `server`. A module may use the modules below it and
//! never one beside or above it: the games and the tournaments know each other only through
//! `game` (a tournament plays games through the type-erased `Driver`, handed to it by its
//! caller). The binary (`src/main.rs`, `src/cli/`) sits on top and may use all of them.
//!
//! Within a module, a file may use its ancestors' `mod.rs` (where a module keeps what its files
//! share), but the files beside each other must not import each other in a circle: a cycle
//! means two files are one concern or a third is missing.
//!
//! References are read from the source text with comments and strings removed: `use` trees
//! (braces expanded) and inline `crate::`, `super::` and `self::` paths. A reference names the
//! file of the longest prefix of its path that is a file module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of the library, lowest first; modules of one rank must not import
/// each other.
const LAYERS: &[(&str, u32)] = &[
    ("log", 0),
    ("clock", 1),
    ("store", 2),
    ("game", 3),
    ("games", 4),
    ("tournament", 4),
    ("import", 5),
    ("server", 6),
];

type Module = Vec<String>;

/// Every file of the library (not the binary) by its module path: `src/game/record.rs` is
/// `game::record`, `src/game/mod.rs` is `game`, `src/lib.rs` is the root.
fn library_files() -> BTreeMap<Module, PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap().with_extension("");
            let mut module: Module = rel.iter().map(|c| c.to_string_lossy().to_string()).collect();
            // The binary: src/main.rs and the CLI it declares (`mod cli`) are not the library.
            if module == ["main"] || module[0] == "cli" {
                continue;
            }
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            files.insert(module, path);
        }
    }
    files
}

/// The source without comments, string and character literals (so a path in a doc comment or
/// a message is not a reference).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if b.get(i + 1).is_some_and(|&c| c == b'"' || c == b'#')
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                // A raw string: r"...", r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                j += 1;
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += 1;
                }
                i = j + close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') || (b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'')) => {
                // A character literal ('x', '\n'); a lifetime ('a) is left alone.
                i += if b[i + 1] == b'\\' { 4 } else { 3 };
                out.push_str("' '");
            }
            _ => {
                let c = text[i..].chars().next().unwrap();
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// The paths a `use` tree names, braces expanded: `crate::game::{record, driver::Driver}` is
/// `crate::game::record` and `crate::game::driver::Driver`.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn parse(s: &[char], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut current = String::new();
        let segments = |current: &str| -> Vec<String> {
            let mut path = prefix.to_vec();
            // `a as b`: the path is `a`.
            let current = current.split(" as ").next().unwrap_or_default();
            path.extend(current.split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from));
            path
        };
        while *i < s.len() {
            let c = s[*i];
            *i += 1;
            match c {
                '{' => {
                    let base = segments(&current);
                    parse(s, i, &base, out);
                    current.clear();
                }
                '}' => break,
                ',' => {
                    if !current.trim().is_empty() {
                        out.push(segments(&current));
                    }
                    current.clear();
                }
                _ => current.push(c),
            }
        }
        if !current.trim().is_empty() {
            out.push(segments(&current));
        }
    }
    let chars: Vec<char> = tree.chars().collect();
    let mut out = Vec::new();
    parse(&chars, &mut 0, &[], &mut out);
    out
}

/// Every path in `code` that starts at `crate`, `super` or `self`: those of `use` trees, and
/// those written inline.
fn referenced_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    // `use` trees.
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at + 4..];
        if before.is_some_and(is_ident) {
            rest = tail;
            continue;
        }
        let end = tail.find(';').unwrap_or(tail.len());
        paths.extend(expand_use(&tail[..end]));
        rest = &tail[end..];
    }
    // Inline paths.
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !is_ident(chars[i]) || (i > 0 && (is_ident(chars[i - 1]) || chars[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let mut path = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while j < chars.len() && is_ident(chars[j]) {
                j += 1;
            }
            path.push(chars[start..j].iter().collect::<String>());
            if chars.get(j) == Some(&':')
                && chars.get(j + 1) == Some(&':')
                && chars.get(j + 2).is_some_and(|&c| is_ident(c))
            {
                j += 2;
            } else {
                break;
            }
        }
        if path.len() > 1 && matches!(path[0].as_str(), "crate" | "super" | "self") {
            paths.push(path);
        }
        i = j.max(i + 1);
    }
    paths
}

/// The file a path starting at `crate`, `super` or `self` names, seen from the file `from`.
fn resolve(files: &BTreeMap<Module, PathBuf>, from: &Module, path: &[String]) -> Option<Module> {
    let mut module: Module = match path.first()?.as_str() {
        "crate" => Vec::new(),
        "super" | "self" => from.clone(),
        _ => return None,
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        module.pop();
    }
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => {
                module.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    module.extend(rest.iter().cloned());
    (0..=module.len()).rev().map(|k| module[..k].to_vec()).find(|m| files.contains_key(m))
}

/// Every file's references to other files of the library.
fn references() -> BTreeMap<Module, BTreeSet<Module>> {
    let files = library_files();
    let mut edges = BTreeMap::new();
    for (module, path) in &files {
        let code = code_only(&std::fs::read_to_string(path).unwrap());
        let targets: BTreeSet<Module> = referenced_paths(&code)
            .iter()
            .filter_map(|p| resolve(&files, module, p))
            .filter(|t| t != module && !t.is_empty())
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

fn rank(module: &Module) -> Option<u32> {
    LAYERS.iter().find(|(name, _)| module.first().is_some_and(|m| m == name)).map(|(_, r)| *r)
}

fn name(module: &Module) -> String {
    module.join("::")
}

#[test]
fn every_library_module_has_a_layer() {
    for module in library_files().keys().filter(|m| !m.is_empty()) {
        assert!(rank(module).is_some(), "src/{} has no layer in tests/it/layering.rs LAYERS", module[0]);
    }
}

#[test]
fn modules_import_only_lower_layers() {
    let mut wrong = Vec::new();
    for (from, targets) in references() {
        for to in targets {
            let (Some(a), Some(b)) = (rank(&from), rank(&to)) else { continue };
            if from[0] != to[0] && a <= b {
                wrong.push(format!("{} uses {} ({} is not below {})", name(&from), name(&to), to[0], from[0]));
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn no_cycle_among_a_modules_files() {
    let related = |a: &Module, b: &Module| a.starts_with(b) || b.starts_with(a);
    let edges: BTreeMap<Module, Vec<Module>> = references()
        .into_iter()
        .map(|(from, targets)| {
            let kept = targets.into_iter().filter(|to| !related(&from, to)).collect();
            (from, kept)
        })
        .collect();
    // Depth-first search; a back edge closes a cycle, reported as the path around it.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        m: &Module,
        edges: &BTreeMap<Module, Vec<Module>>,
        marks: &mut BTreeMap<Module, Mark>,
        stack: &mut Vec<Module>,
        cycles: &mut Vec<String>,
    ) {
        marks.insert(m.clone(), Mark::Open);
        stack.push(m.clone());
        for to in edges.get(m).into_iter().flatten() {
            match marks.get(to) {
                None => visit(to, edges, marks, stack, cycles),
                Some(Mark::Open) => {
                    let at = stack.iter().position(|s| s == to).unwrap_or(0);
                    let mut around: Vec<String> = stack[at..].iter().map(name).collect();
                    around.push(name(to));
                    cycles.push(around.join(" -> "));
                }
                Some(Mark::Done) => {}
            }
        }
        stack.pop();
        marks.insert(m.clone(), Mark::Done);
    }
    let (mut marks, mut cycles) = (BTreeMap::new(), Vec::new());
    for m in edges.keys() {
        if !marks.contains_key(m) {
            visit(m, &edges, &mut marks, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "files importing each other in a circle:\n{}", cycles.join("\n"));
}

/// The reader itself: a `use` tree is expanded, comments and strings are not references, and
/// `super` climbs from the file's module.
#[test]
fn the_reader_finds_what_a_file_uses() {
    let code = code_only(
        "use crate::game::{record::{self, GameError}, driver::Driver as D};\n\
         // crate::server::state in a comment\n\
         let s = \"crate::tournament::x\"; let c = '\"'; fn f<'a>() { super::state::X; crate::log::hash::Hash32::zero() }",
    );
    let paths: Vec<String> = referenced_paths(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        [
            "crate::game::record::self",
            "crate::game::record::GameError",
            "crate::game::driver::Driver",
            "crate::game",
            "super::state::X",
            "crate::log::hash::Hash32::zero"
        ]
    );
    let files: BTreeMap<Module, PathBuf> = [
        vec![],
        vec!["games".into()],
        vec!["games".into(), "lc".into()],
        vec!["games".into(), "lc".into(), "state".into()],
    ]
    .into_iter()
    .map(|m| (m, PathBuf::new()))
    .collect();
    let from: Module = vec!["games".into(), "lc".into(), "apply".into()];
    let to = resolve(&files, &from, &["super".into(), "state".into(), "LcState".into()]);
    assert_eq!(to, Some(vec!["games".to_string(), "lc".into(), "state".into()]));
}

/// ARCHITECTURE.md's code map has an entry for every folder of `src/` (and names only folders
/// that exist), so a new folder cannot land unmapped.
#[test]
fn the_code_map_names_every_source_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let arch = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("src")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !arch.contains(&format!("**`src/{name}/`**")) {
                missing.push(format!("src/{name}/"));
            }
        }
    }
    assert!(missing.is_empty(), "ARCHITECTURE.md's code map has no entry for {missing:?}");
    for entry in arch.split("**`").skip(1) {
        let Some((path, _)) = entry.split_once("`**") else { continue };
        if path.ends_with('/') && !path.contains('<') {
            assert!(root.join(path).is_dir(), "ARCHITECTURE.md's code map names {path}, which does not exist");
        }
    }
}
