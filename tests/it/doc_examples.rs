//! Examples that cannot drift: every ```console block of README.md and docs/*.md is run, in order,
//! with the real `kifu` binary, and the docs' promised shape is checked (line limits, the how-to
//! naming every item of the `Game` trait).
//!
//! The convention (docs/testing.md, "Runnable examples"): in a ```console block a line starting
//! `$ kifu ` is a command (a line ending in ` \` continues on the next; words are split as a shell
//! would, with '…' and "…" quoting and unquoted `#` starting a comment); the lines after it, up to
//! the next command, are output fragments, each of which must appear in what the command printed
//! (stdout or stderr); `[exit N]` says the command exits N (0 otherwise); lines starting `#` are
//! comments. Each file runs from an empty data directory (`KIFU_DATA`), with the fixed test clock,
//! in a scratch working directory that links the repository's `replays/`, `docs/`, `tests/`,
//! `schema/` and `src/`, so a block reads like a session at the repository root and writes nothing
//! into it. ```sh blocks are illustrative and never run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a console block: where it is, its words, the output fragments it must print and
/// its exit status.
#[derive(Debug)]
struct Step {
    at: String,
    words: Vec<String>,
    expect: Vec<String>,
    exit: i32,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose console blocks run: README.md, then docs/*.md by name.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut all = vec![root().join("README.md")];
    all.extend(docs);
    all
}

/// Splits a command line into words as a POSIX shell would for plain words and quotes; an
/// unquoted `#` at the start of a word ends the line.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    w.push(d);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' if chars.peek().is_some_and(|n| matches!(n, '"' | '\\' | '$' | '`')) => {
                            w.push(chars.next().unwrap());
                        }
                        _ => w.push(d),
                    }
                }
            }
            '\\' => {
                if let Some(d) = chars.next() {
                    word.get_or_insert_with(String::new).push(d);
                }
            }
            '#' if word.is_none() => break,
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The steps of every ```console block of `text`, in order.
fn steps(name: &str, text: &str) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut in_console = false;
    let mut pending: Option<(String, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            assert!(pending.is_none(), "{at}: a command's line continues past the end of its block");
            in_console = !in_console && trimmed == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some((start, mut cmd)) = pending.take() {
            cmd.push(' ');
            cmd.push_str(trimmed.trim_end_matches('\\'));
            if trimmed.ends_with('\\') {
                pending = Some((start, cmd));
            } else {
                out.push(Step { at: start, words: split_words(&cmd), expect: vec![], exit: 0 });
            }
            continue;
        }
        if let Some(cmd) = trimmed.strip_prefix("$ ") {
            if cmd.ends_with('\\') {
                pending = Some((at, cmd.trim_end_matches('\\').to_string()));
            } else {
                out.push(Step { at, words: split_words(cmd), expect: vec![], exit: 0 });
            }
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
        } else if let Some(n) = trimmed.strip_prefix("[exit ").and_then(|r| r.strip_suffix(']')) {
            let last = out.last_mut().unwrap_or_else(|| panic!("{at}: an exit status before any command"));
            last.exit = n.parse().unwrap_or_else(|_| panic!("{at}: bad exit status {n:?}"));
        } else {
            let last = out.last_mut().unwrap_or_else(|| panic!("{at}: output before any command"));
            last.expect.push(trimmed.to_string());
        }
    }
    out
}

/// A scratch working directory that reads like the repository root.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["replays", "docs", "tests", "schema", "src"] {
        std::os::unix::fs::symlink(root().join(name), dir.path().join(name)).unwrap();
    }
    dir
}

fn run(steps: &[Step]) -> usize {
    let dir = scratch();
    for step in steps {
        assert_eq!(step.words.first().map(String::as_str), Some("kifu"), "{}: only `kifu` commands run", step.at);
        let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(&step.words[1..])
            .current_dir(dir.path())
            .env("KIFU_DATA", dir.path().join("data"))
            .env("KIFU_TEST_CLOCK", "fixed")
            .env_remove("KIFU_STORE")
            .output()
            .unwrap();
        let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            out.status.code(),
            Some(step.exit),
            "{}: `{}` exited {:?}, the doc says {}:\n{printed}",
            step.at,
            step.words.join(" "),
            out.status.code(),
            step.exit
        );
        for want in &step.expect {
            assert!(
                printed.contains(want.as_str()),
                "{}: `{}` did not print {want:?}:\n{printed}",
                step.at,
                step.words.join(" ")
            );
        }
    }
    steps.len()
}

#[test]
fn every_console_block_in_the_docs_runs() {
    let mut total = 0;
    for doc in documents() {
        let name = doc.strip_prefix(root()).unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&doc).unwrap();
        let steps = steps(&name, &text);
        total += run(&steps);
    }
    assert!(total >= 40, "only {total} documented commands ran");
}

#[test]
fn the_block_reader_splits_words_continuations_and_expectations() {
    assert_eq!(split_words(r#"kifu a 'b c' "d \"e\"" f\ g  # note"#), ["kifu", "a", "b c", "d \"e\"", "f g"]);
    assert_eq!(split_words(r#"kifu act --json '{"A":{"b":null}}'"#), ["kifu", "act", "--json", r#"{"A":{"b":null}}"#]);
    let text = "```sh\n$ kifu not run\n```\n```console\n# a comment\n$ kifu one \\\n    two\nsome output\n[exit 1]\n$ kifu three # why\n```\n";
    let s = steps("t", text);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].words, ["kifu", "one", "two"]);
    assert_eq!((s[0].expect.clone(), s[0].exit), (vec!["some output".to_string()], 1));
    assert_eq!((s[1].words.clone(), s[1].exit), (vec!["kifu".to_string(), "three".into()], 0));
}

/// The docs a newcomer reads first stay short enough to read in ten minutes.
#[test]
fn readme_and_architecture_stay_within_their_lengths() {
    for (file, max) in [("README.md", 250), ("ARCHITECTURE.md", 350)] {
        let n = std::fs::read_to_string(root().join(file)).unwrap().lines().count();
        assert!(n <= max, "{file} has {n} lines; at most {max} (move detail to docs/)");
    }
}

/// docs/adding-a-game.md names every item of the `Game` trait.
#[test]
fn the_game_how_to_names_every_item_of_the_game_trait() {
    let src = std::fs::read_to_string(root().join("src/game/mod.rs")).unwrap();
    let start = src.find("pub trait Game").expect("src/game/mod.rs defines the Game trait");
    let body = &src[start..start + src[start..].find("\n}\n").expect("the trait ends")];
    let mut items = Vec::new();
    for line in body.lines() {
        for kw in ["    const ", "    type ", "    fn "] {
            if let Some(rest) = line.strip_prefix(kw) {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                items.push(name);
            }
        }
    }
    assert!(items.len() >= 30, "suspiciously few trait items: {items:?}");
    let doc = std::fs::read_to_string(root().join("docs/adding-a-game.md")).unwrap();
    let missing: Vec<_> = items.iter().filter(|i| !doc.contains(&format!("`{i}`"))).collect();
    assert!(missing.is_empty(), "docs/adding-a-game.md does not name {missing:?}");
}
