//! `tools/fuzz SECONDS`: a stable-toolchain fuzzer for every decoder of outside input. Each
//! target starts from the repository's fixtures and mutates them (bit flips, byte edits,
//! truncation, duplication of a range, splicing with another fixture, interesting values);
//! a panic is a crash, saved under `target/fuzz-crashes/TARGET/`. Prints one table of
//! executions and crashes per target. (No nightly toolchain or `arbitrary` crate is needed.)

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, Table};

use kifu::game::record::parse_jsonl;
use kifu::games::naruto::{catalog as ncat, Naruto};
use kifu::games::vanguard::{catalog as vcat, vgclog, Vanguard};
use kifu::log::{file, json};
use kifu::tournament::{melee, Policy};

/// One decoder under test: its name, its seed inputs, and the call (which must never panic).
struct Target {
    name: &'static str,
    corpus: Vec<Vec<u8>>,
    run: fn(&[u8]),
}

fn text(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

fn files(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.to_string_lossy().ends_with(ext)).collect())
        .unwrap_or_default();
    paths.sort();
    paths.into_iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

fn targets() -> Vec<Target> {
    vec![
        Target {
            name: ".kifu file (read + decode + open)",
            corpus: files("replays", ".kifu"),
            run: |b| {
                if let Ok(log) = file::read(b) {
                    if kifu::games::check_decodes(&log).is_ok() {
                        if let Some(d) = kifu::games::driver(&log.header.v1().ruleset) {
                            let _ = d.open(&log);
                        }
                    }
                }
            },
        },
        Target {
            name: "JSON log",
            corpus: files("replays", ".json"),
            run: |b| {
                let _ = json::from_json_str(&text(b));
            },
        },
        Target {
            name: "JSON lines (naruto)",
            corpus: files("replays", ".jsonl").into_iter().filter(|f| f.windows(6).any(|w| w == b"naruto")).collect(),
            run: |b| {
                // Both readings: all-or-nothing, and as recorded elsewhere.
                let _ = parse_jsonl::<Naruto>(&text(b), false);
                let _ = parse_jsonl::<Naruto>(&text(b), true);
            },
        },
        Target {
            name: "JSON lines (vanguard)",
            corpus: files("replays", ".jsonl").into_iter().filter(|f| f.windows(8).any(|w| w == b"vanguard")).collect(),
            run: |b| {
                // Both readings: all-or-nothing, and as recorded elsewhere.
                let _ = parse_jsonl::<Vanguard>(&text(b), false);
                let _ = parse_jsonl::<Vanguard>(&text(b), true);
            },
        },
        Target {
            name: "vgc-log",
            corpus: files("replays", ".vgclog"),
            run: |b| {
                thread_local!(static C: vcat::Catalog = vcat::Catalog::sample());
                C.with(|c| {
                    let _ = vgclog::parse(&text(b), c);
                });
            },
        },
        Target {
            name: "Melee import",
            corpus: files("tests/data/melee", ".json"),
            run: |b| {
                let _ = melee::parse(&text(b), Policy::Melee);
            },
        },
        Target {
            name: "deck list (naruto)",
            corpus: files("replays/decks", ".deck"),
            run: |b| {
                thread_local!(static C: ncat::Catalog = ncat::Catalog::sample());
                C.with(|c| {
                    let _ = ncat::parse_deck_list(&text(b), c);
                });
            },
        },
        Target {
            name: "deck list (vanguard)",
            corpus: files("replays/decks", ".deck"),
            run: |b| {
                thread_local!(static C: vcat::Catalog = vcat::Catalog::sample());
                C.with(|c| {
                    let _ = vcat::parse_deck_list(&text(b), c);
                });
            },
        },
        Target {
            name: "catalog (naruto)",
            corpus: vec![ncat::SAMPLE_CATALOG.as_bytes().to_vec()],
            run: |b| {
                let _ = ncat::Catalog::from_json(&text(b));
            },
        },
        Target {
            name: "catalog (vanguard)",
            corpus: vec![vcat::SAMPLE_CATALOG.as_bytes().to_vec()],
            run: |b| {
                let _ = vcat::Catalog::from_json(&text(b));
            },
        },
    ]
}

/// xorshift64*: reproducible mutations from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const INTERESTING: &[&[u8]] = &[
    b"0",
    b"-1",
    b"4294967295",
    b"18446744073709551615",
    b"1e999",
    b"null",
    b"[]",
    b"{}",
    b"\"\"",
    b"\xff\xff\xff\xff",
    b"\x00",
    b"\n",
    b",",
    b"\"",
    b"\\u0000",
    b"99999999999999999999999",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    for _ in 0..1 + rng.below(4) {
        let len = input.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.next() as u8;
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(16.min(len - i));
                input.drain(i..i + n);
            }
            3 => {
                let i = rng.below(len + 1);
                input.insert(i, rng.next() as u8);
            }
            4 if len > 0 => {
                input.truncate(rng.below(len));
            }
            5 if len > 0 => {
                // Duplicate a range (repeated records, lines, fields).
                let i = rng.below(len);
                let n = 1 + rng.below(64.min(len - i));
                let piece = input[i..i + n].to_vec();
                let at = rng.below(input.len() + 1);
                input.splice(at..at, piece);
            }
            6 if !other.is_empty() => {
                let i = rng.below(other.len());
                let n = 1 + rng.below(256.min(other.len() - i));
                let at = rng.below(len + 1);
                input.splice(at..at, other[i..i + n].iter().copied());
            }
            _ => {
                let v = INTERESTING[rng.below(INTERESTING.len())];
                let at = rng.below(len + 1);
                let end = (at + rng.below(8)).min(len);
                input.splice(at..end, v.iter().copied());
            }
        }
    }
}

fn main() {
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-crashes");
    // Crashes are reported in the table; the default hook would print every backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let targets = targets();
    let per_target = Duration::from_secs(seconds) / targets.len().max(1) as u32;
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec!["target", "seeds", "executions", "crashes", "exec/s"]);
    let (mut total, mut crashes_total) = (0u64, 0u64);
    for (t, target) in targets.iter().enumerate() {
        let mut rng = Rng(0x6b69_6675 ^ ((t as u64 + 1) * 0x9E37_79B9_7F4A_7C15));
        let started = Instant::now();
        let (mut execs, mut crashes) = (0u64, 0u64);
        // The seeds themselves first, then mutations of them until the time is up.
        for seed in &target.corpus {
            execs += 1;
            if catch_unwind(AssertUnwindSafe(|| (target.run)(seed))).is_err() {
                crashes += 1;
            }
        }
        while started.elapsed() < per_target && !target.corpus.is_empty() {
            for _ in 0..64 {
                let mut input = target.corpus[rng.below(target.corpus.len())].clone();
                let other = &target.corpus[rng.below(target.corpus.len())];
                mutate(&mut rng, &mut input, other);
                execs += 1;
                if catch_unwind(AssertUnwindSafe(|| (target.run)(&input))).is_err() {
                    crashes += 1;
                    let dir = out.join(target.name.replace(|c: char| !c.is_ascii_alphanumeric(), "-"));
                    let _ = std::fs::create_dir_all(&dir);
                    let _ = std::fs::write(dir.join(format!("crash-{execs}")), &input);
                }
            }
        }
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        table.add_row(vec![
            Cell::new(target.name),
            Cell::new(target.corpus.len()).set_alignment(CellAlignment::Right),
            Cell::new(execs).set_alignment(CellAlignment::Right),
            Cell::new(crashes).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:.0}", execs as f64 / secs)).set_alignment(CellAlignment::Right),
        ]);
        total += execs;
        crashes_total += crashes;
    }
    table.add_row(vec![
        Cell::new("total"),
        Cell::new(""),
        Cell::new(total).set_alignment(CellAlignment::Right),
        Cell::new(crashes_total).set_alignment(CellAlignment::Right),
        Cell::new(""),
    ]);
    println!("{table}");
    if crashes_total > 0 {
        println!("crashing inputs are in {}", out.display());
        std::process::exit(1);
    }
}
