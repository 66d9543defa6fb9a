//! Terminal output helpers shared by the subcommands: tables, JSON and progress bars.

use anyhow::Result;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// The most characters a table cell shows; longer values are cut with [`CUT`]. Laying out a
/// table costs more than linear time in a cell's length (comfy-table splits and re-measures
/// long cells when it wraps them), so one imported 1 MB player name made `kifu streams` spin.
pub const CELL_MAX: usize = 200;
/// The marker at the end of a cut cell.
pub const CUT: &str = "…[cut]";

/// `text` cut to at most `max` characters plus [`CUT`] (in one pass over at most `max + 1`
/// characters, whatever the length of `text`).
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}{CUT}", &text[..end])),
    }
}

/// A comfy-table `Table` whose `add_row` cuts every cell to [`CELL_MAX`] characters and makes it
/// inert ([`kifu::log::limits::inert`]: control and bidi characters shown as escapes) before the
/// table ever sees it; everything else is the inner table's (through `Deref`).
pub struct Table(comfy_table::Table);

impl Table {
    pub fn add_row<I, C>(&mut self, row: I) -> &mut Self
    where
        I: IntoIterator<Item = C>,
        C: Into<comfy_table::Cell>,
    {
        let cells: Vec<comfy_table::Cell> = row
            .into_iter()
            .map(|c| {
                let c: comfy_table::Cell = c.into();
                let content = c.content();
                // Made inert before the table lays it out, so the widths it measures are the
                // ones printed (the `println!` of `main.rs` would escape it anyway, too late
                // for the borders).
                let clipped = clip(&content, CELL_MAX);
                match kifu::log::limits::inert(&clipped) {
                    std::borrow::Cow::Borrowed(_) if matches!(clipped, std::borrow::Cow::Borrowed(_)) => c,
                    shown => comfy_table::Cell::new(shown.into_owned()),
                }
            })
            .collect();
        self.0.add_row(cells);
        self
    }
}

impl std::ops::Deref for Table {
    type Target = comfy_table::Table;
    fn deref(&self) -> &comfy_table::Table {
        &self.0
    }
}

impl std::ops::DerefMut for Table {
    fn deref_mut(&mut self) -> &mut comfy_table::Table {
        &mut self.0
    }
}

impl std::fmt::Display for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A table with kifu's house style and the given header row.
pub fn table<I, S>(header: I) -> Table
where
    I: IntoIterator<Item = S>,
    S: Into<comfy_table::Cell>,
{
    let mut t = comfy_table::Table::new();
    t.load_preset(UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Dynamic).set_header(header);
    // Off a terminal (pipes, files, CI logs) there is no width to fit, so wrap at a readable one.
    if t.width().is_none() {
        t.set_width(120);
    }
    Table(t)
}

/// Prints a value as pretty JSON on stdout, inert for a terminal and still the same JSON
/// ([`kifu::log::limits::inert_json`]).
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    println!("{}", kifu::log::limits::inert_json(&serde_json::to_string_pretty(value)?));
    Ok(())
}

/// A progress bar on stderr; hidden automatically when stderr is not a terminal.
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}
