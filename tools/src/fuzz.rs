//! `tools/fuzz SECONDS`: a stable-toolchain fuzzer for every decoder of outside input. Each
//! target starts from the repository's fixtures and mutates them (bit flips, byte edits,
//! truncation, duplication of a range, splicing with another fixture, interesting values); the
//! structured TOM target reads the mutated bytes through `arbitrary` as choices that build a
//! well-formed TOM document. Findings are saved under `target/fuzz-crashes/TARGET/`:
//! `crash-N` (a panic), `hang-N` (one input ran longer than KIFU_FUZZ_HANG_MS, default 2000) and
//! `memory-N` (the process RSS passed KIFU_FUZZ_RSS_MB, default 512, while one input ran); a
//! watchdog thread watches the running input. Prints one table of executions and findings per
//! target.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbitrary::{Arbitrary, Unstructured};
use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, Table};

use kifu::game::record::parse_jsonl;
use kifu::games::naruto::{catalog as ncat, Naruto};
use kifu::games::vanguard::{catalog as vcat, vgclog, Vanguard};
use kifu::log::{file, json};
use kifu::tournament::{melee, tom, Policy};

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
                    if kifu::import::check_decodes(&log).is_ok() {
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
            name: "TOM import",
            corpus: files("tests/data/tom", ".xml"),
            run: |b| {
                let _ = tom::parse(&text(b), Policy::Pokemon);
            },
        },
        Target {
            // The same fixtures' bytes, read as the generator's choices (any bytes are valid).
            name: "TOM import (structured)",
            corpus: files("tests/data/tom", ".xml"),
            run: |b| {
                if let Ok(xml) = tom_xml(&mut Unstructured::new(b)) {
                    let _ = tom::parse(&xml, Policy::Pokemon);
                }
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

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A user id for a match or a place: mostly a registered player, sometimes any string.
fn pick(u: &mut Unstructured<'_>, ids: &[String]) -> arbitrary::Result<String> {
    if ids.is_empty() || u.ratio(1u8, 10u8)? {
        return String::arbitrary(u);
    }
    u.choose(ids).cloned()
}

/// A TOM document built from the fuzzer's bytes: well-formed XML in TOM's vocabulary, so the
/// import's own checks (player ids, round numbers and types, outcomes, drops, byes, places) are
/// reached instead of stopping at the XML parser as most byte mutations do.
fn tom_xml(u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
    let ids: Vec<String> = (0..u.int_in_range(0..=12u32)?).map(|i| (4_000_000 + i).to_string()).collect();
    let mut x = format!("<tournament type=\"2\"><data><name>{}</name></data><players>", esc(&String::arbitrary(u)?));
    for id in &ids {
        let (first, last) = (String::arbitrary(u)?, String::arbitrary(u)?);
        x += &format!(
            "<player userid=\"{id}\"><firstname>{}</firstname><lastname>{}</lastname>",
            esc(&first),
            esc(&last)
        );
        if u.ratio(1u8, 5u8)? {
            x += &format!("<dropped><round>{}</round></dropped>", u.int_in_range(0..=8u32)?);
        }
        x += "</player>";
    }
    x += "</players><pods>";
    let categories = ["0", "1", "2", "8"];
    for _ in 0..u.int_in_range(0..=2u32)? {
        x += &format!("<pod category=\"{}\"><rounds>", u.choose(&categories)?);
        for r in 1..=u.int_in_range(0..=6u32)? {
            let number = if u.ratio(1u8, 8u8)? { u32::arbitrary(u)? } else { r };
            x += &format!("<round number=\"{number}\" type=\"{}\"><matches>", u.choose(&["1", "2", "3"])?);
            for table in 0..u.int_in_range(0..=8u32)? {
                let outcome = *u.choose(&[0u32, 1, 2, 3, 5, 4, 99])?;
                x += &format!("<match outcome=\"{outcome}\">");
                if outcome == 5 || u.ratio(1u8, 16u8)? {
                    x += &format!("<player userid=\"{}\"/>", esc(&pick(u, &ids)?));
                } else {
                    let (a, b) = (pick(u, &ids)?, pick(u, &ids)?);
                    x += &format!("<player1 userid=\"{}\"/><player2 userid=\"{}\"/>", esc(&a), esc(&b));
                }
                x += &format!("<tablenumber>{}</tablenumber></match>", table + 1);
            }
            x += "</matches></round>";
        }
        x += "</rounds></pod>";
    }
    x += "</pods>";
    if u.ratio(1u8, 2u8)? {
        x += &format!("<standings><pod category=\"{}\" type=\"finished\">", u.choose(&categories)?);
        for place in 1..=u.int_in_range(0..=12u32)? {
            let place = if u.ratio(1u8, 8u8)? { u32::arbitrary(u)? } else { place };
            x += &format!("<player id=\"{}\" place=\"{place}\"/>", esc(&pick(u, &ids)?));
        }
        x += "</pod></standings>";
    }
    x += "</tournament>";
    Ok(x)
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

/// The input being run, as the watchdog sees it.
struct Running {
    target: usize,
    since: Instant,
    input: Arc<Vec<u8>>,
    hang_reported: bool,
    memory_reported: bool,
}

/// Findings per target, counted by the main loop (crashes) and the watchdog (hangs, memory).
#[derive(Default)]
struct Counts {
    crashes: AtomicU64,
    hangs: AtomicU64,
    memory: AtomicU64,
}

fn rss_mib() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        / 1024
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn save(out: &Path, target: &str, kind: &str, n: u64, input: &[u8]) -> PathBuf {
    let dir = out.join(target.replace(|c: char| !c.is_ascii_alphanumeric(), "-"));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{kind}-{n}"));
    let _ = std::fs::write(&path, input);
    path
}

/// Watches the running input every 10 ms: one running past `hang` is saved as a hang, and one
/// during which the RSS passes `rss_cap` MiB as a memory finding. An input still running after
/// ten times `hang` (or a minute) will not end: the run stops there, its findings saved.
fn watchdog(
    running: Arc<Mutex<Option<Running>>>,
    counts: Arc<Vec<Counts>>,
    names: Vec<&'static str>,
    out: PathBuf,
    hang: Duration,
    rss_cap: u64,
) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(10));
        let mut guard = running.lock().unwrap_or_else(|p| p.into_inner());
        let Some(r) = guard.as_mut() else { continue };
        let elapsed = r.since.elapsed();
        let name = names[r.target];
        if elapsed > hang && !r.hang_reported {
            r.hang_reported = true;
            let n = counts[r.target].hangs.fetch_add(1, Ordering::Relaxed) + 1;
            let path = save(&out, name, "hang", n, &r.input);
            eprintln!("hang: {name}: an input ran over {} ms; saved to {}", hang.as_millis(), path.display());
        }
        if !r.memory_reported && rss_mib() > rss_cap {
            r.memory_reported = true;
            let n = counts[r.target].memory.fetch_add(1, Ordering::Relaxed) + 1;
            let path = save(&out, name, "memory", n, &r.input);
            eprintln!("memory: {name}: RSS over {rss_cap} MiB during an input; saved to {}", path.display());
        }
        if elapsed > (hang * 10).min(Duration::from_secs(60)).max(hang) {
            eprintln!("stopping: {name}: an input has run for {:.0} s", elapsed.as_secs_f64());
            std::process::exit(2);
        }
    });
}

fn main() {
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let hang = Duration::from_millis(env_u64("KIFU_FUZZ_HANG_MS", 2_000));
    let rss_cap = env_u64("KIFU_FUZZ_RSS_MB", 512);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-crashes");
    // Crashes are reported in the table; the default hook would print every backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let targets = targets();
    let counts: Arc<Vec<Counts>> = Arc::new(targets.iter().map(|_| Counts::default()).collect());
    let running: Arc<Mutex<Option<Running>>> = Arc::new(Mutex::new(None));
    watchdog(running.clone(), counts.clone(), targets.iter().map(|t| t.name).collect(), out.clone(), hang, rss_cap);
    // Runs one input under the watchdog; a panic is saved as a crash.
    let exec = |t: usize, input: Vec<u8>| {
        let input = Arc::new(input);
        *running.lock().unwrap_or_else(|p| p.into_inner()) = Some(Running {
            target: t,
            since: Instant::now(),
            input: input.clone(),
            hang_reported: false,
            memory_reported: false,
        });
        let crashed = catch_unwind(AssertUnwindSafe(|| (targets[t].run)(&input))).is_err();
        *running.lock().unwrap_or_else(|p| p.into_inner()) = None;
        if crashed {
            let n = counts[t].crashes.fetch_add(1, Ordering::Relaxed) + 1;
            save(&out, targets[t].name, "crash", n, &input);
        }
    };
    let per_target = Duration::from_secs(seconds) / targets.len().max(1) as u32;
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "target",
        "seeds",
        "executions",
        "crashes",
        "hangs",
        "memory",
        "exec/s",
    ]);
    let right = |v: u64| Cell::new(v).set_alignment(CellAlignment::Right);
    let (mut total, mut findings) = (0u64, [0u64; 3]);
    for (t, target) in targets.iter().enumerate() {
        let mut rng = Rng(0x6b69_6675 ^ ((t as u64 + 1) * 0x9E37_79B9_7F4A_7C15));
        let started = Instant::now();
        let mut execs = 0u64;
        // The seeds themselves first, then mutations of them until the time is up.
        for seed in &target.corpus {
            execs += 1;
            exec(t, seed.clone());
        }
        while started.elapsed() < per_target && !target.corpus.is_empty() {
            for _ in 0..64 {
                let mut input = target.corpus[rng.below(target.corpus.len())].clone();
                let other = &target.corpus[rng.below(target.corpus.len())];
                mutate(&mut rng, &mut input, other);
                execs += 1;
                exec(t, input);
            }
        }
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let c = &counts[t];
        let found =
            [c.crashes.load(Ordering::Relaxed), c.hangs.load(Ordering::Relaxed), c.memory.load(Ordering::Relaxed)];
        table.add_row(vec![
            Cell::new(target.name),
            right(target.corpus.len() as u64),
            right(execs),
            right(found[0]),
            right(found[1]),
            right(found[2]),
            Cell::new(format!("{:.0}", execs as f64 / secs)).set_alignment(CellAlignment::Right),
        ]);
        total += execs;
        for (sum, f) in findings.iter_mut().zip(found) {
            *sum += f;
        }
    }
    table.add_row(vec![
        Cell::new("total"),
        Cell::new(""),
        right(total),
        right(findings[0]),
        right(findings[1]),
        right(findings[2]),
        Cell::new(""),
    ]);
    println!("{table}");
    println!("limits: {} ms per input, {rss_cap} MiB RSS", hang.as_millis());
    if findings.iter().sum::<u64>() > 0 {
        println!("findings are in {}", out.display());
        std::process::exit(1);
    }
}
