//! OPEN-point policies as a declarative table: each row names its key, its values (default
//! first), the OPEN rule ID it settles and how it reads and writes the game's policy struct.
//! Setting, listing and documenting policies is written once here, not per game.

use super::RuleId;

/// A policy whose values are a fixed list of names (most OPEN points): an enum or a flag.
pub trait Choice: Copy + Sized + 'static {
    /// The value names, in the order of [`Choice::index`].
    const NAMES: &'static [&'static str];
    fn index(self) -> usize;
    fn from_index(i: usize) -> Option<Self>;

    fn name(self) -> &'static str {
        Self::NAMES.get(self.index()).copied().unwrap_or("?")
    }

    fn parse(value: &str) -> Option<Self> {
        Self::NAMES.iter().position(|n| *n == value).and_then(Self::from_index)
    }
}

/// Implements [`Choice`] for a fieldless enum: `choice!(Mode { Physical = "physical", Digital = "digital" });`.
#[macro_export]
macro_rules! choice {
    ($ty:ty { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $crate::game::policy::Choice for $ty {
            const NAMES: &'static [&'static str] = &[$($name),+];
            fn index(self) -> usize {
                [$(<$ty>::$variant),+].iter().position(|v| *v == self).unwrap_or(0)
            }
            fn from_index(i: usize) -> Option<Self> {
                [$(<$ty>::$variant),+].get(i).copied()
            }
        }
    };
}

/// One row of a game's policy table.
pub struct Policy<P: 'static> {
    pub key: &'static str,
    /// The accepted values, default first. A value in angle brackets (`<cards per turn>`)
    /// describes a free-form value the row's `set` parses.
    pub values: &'static [&'static str],
    /// The OPEN point (or digest note) the policy settles.
    pub open: RuleId,
    /// The current value's name.
    pub get: fn(&P) -> String,
    /// Sets the value from its name; `None` if the row does not accept it.
    pub set: fn(&mut P, &str) -> Option<()>,
}

/// Sets `field` to the [`Choice`] named `value`: the `set` of a choice row.
pub fn set_choice<T: Choice>(field: &mut T, value: &str) -> Option<()> {
    *field = T::parse(value)?;
    Some(())
}

/// Sets a flag from a row with two values: `yes` sets it, `no` clears it.
pub fn set_flag(field: &mut bool, value: &str, yes: &str, no: &str) -> Option<()> {
    *field = match value {
        v if v == yes => true,
        v if v == no => false,
        _ => return None,
    };
    Some(())
}

/// The name of a flag's value.
pub fn flag(field: bool, yes: &str, no: &str) -> String {
    if field { yes } else { no }.to_string()
}

/// Sets policy `key` to `value`, with one error wording for every game.
pub fn set<P>(table: &[Policy<P>], policies: &mut P, key: &str, value: &str) -> Result<(), String> {
    let Some(row) = table.iter().find(|r| r.key == key) else {
        let keys: Vec<&str> = table.iter().map(|r| r.key).collect();
        return Err(format!("unknown policy {key:?} (known: {})", keys.join(", ")));
    };
    let bad = || format!("policy {key} does not accept {value:?} (allowed: {})", row.values.join("|"));
    // A row lists the values it accepts, which may be a subset of its type's names.
    let free_form = row.values.iter().any(|v| v.starts_with('<'));
    if !free_form && !row.values.contains(&value) {
        return Err(bad());
    }
    (row.set)(policies, value).ok_or_else(bad)
}

/// Sets `key` to `value` in a header that keeps one [`Choice`] beside its policy table (the
/// shuffle mode, `shuffles=physical|digital`): `mode_key` sets `mode`, any other key a row of `table`.
pub fn set_with_mode<P, M: Choice>(
    table: &[Policy<P>],
    policies: &mut P,
    (mode_key, mode): (&str, &mut M),
    key: &str,
    value: &str,
) -> Result<(), String> {
    if key != mode_key {
        return set(table, policies, key, value);
    }
    set_choice(mode, value)
        .ok_or_else(|| format!("policy {key} does not accept {value:?} (allowed: {})", M::NAMES.join("|")))
}

/// Every policy as `(key, value)`, in table order: for headers, views and `--policy` round trips.
pub fn pairs<P>(table: &[Policy<P>], policies: &P) -> Vec<(&'static str, String)> {
    table.iter().map(|r| (r.key, (r.get)(policies))).collect()
}

/// Every key with its allowed values (default first) and OPEN rule ID, for help texts and docs.
pub fn keys<P>(table: &[Policy<P>]) -> Vec<(&'static str, String, RuleId)> {
    table.iter().map(|r| (r.key, r.values.join("|"), r.open)).collect()
}

/// Applies every `KEY=VALUE` of a request in order; the first bad one is the error.
pub fn apply_all<P>(table: &[Policy<P>], policies: &mut P, pairs: &[(String, String)]) -> Result<(), String> {
    for (k, v) in pairs {
        set(table, policies, k, v)?;
    }
    Ok(())
}

/// Self-play's mix of readings: each row named in `keys`, with probability `chance`, takes a value
/// drawn from its listed values, so every reading of an OPEN point gets played. Rows of free-form
/// values (`<cards per turn>`) are left alone.
pub fn randomize<P>(table: &[Policy<P>], policies: &mut P, keys: &[&str], chance: f64, rng: &mut super::AgentRng) {
    let rows: Vec<(&str, &[&str])> = keys
        .iter()
        .map(|key| {
            let row = table.iter().find(|r| r.key == *key && !r.values.iter().any(|v| v.starts_with('<')));
            (*key, row.map_or(&[][..], |r| r.values))
        })
        .collect();
    // An unlisted or free-form row still draws its coin (and picks nothing), so the random
    // sequence does not depend on the table.
    super::selfplay::random_policies(policies, &rows, chance, rng, |p, key, value| {
        table.iter().find(|r| r.key == key).and_then(|r| (r.set)(p, value)).ok_or_else(|| format!("{key}={value}"))
    });
}
