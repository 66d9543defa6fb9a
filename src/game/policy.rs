//! OPEN-point policies as a declarative table: each row names its key, its values (default
//! first), the OPEN rule ID it settles and how it reads and writes the game's policy struct.
//! Setting, listing and documenting policies is written once here, not per game.

use thiserror::Error;

use super::RuleId;

/// A `--policy KEY=VALUE` the game's policy table does not accept.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PolicyError {
    /// No row has this key; `known` lists the table's keys.
    #[error("unknown policy {key:?} (known: {known})")]
    UnknownKey { key: String, known: String },
    /// The row does not accept this value; `allowed` lists its values (`a|b|c`).
    #[error("policy {key} does not accept {value:?} (allowed: {allowed})")]
    BadValue { key: String, value: String, allowed: String },
}

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

/// A game's policy struct and its table: setting and listing a policy, written once for every game.
/// A game writes `impl PolicyTable for Policies { const TABLE: ... = POLICIES; }`.
pub trait PolicyTable: Sized + 'static {
    /// Every row, in the order headers, views and help texts list them.
    const TABLE: &'static [Policy<Self>];

    /// Sets one policy from its string key and value ([`set`]).
    fn set(&mut self, key: &str, value: &str) -> Result<(), PolicyError> {
        set(Self::TABLE, self, key, value)
    }

    /// The policies as `(key, value)` pairs, for headers, views and `--policy` round trips.
    fn to_pairs(&self) -> Vec<(&'static str, String)> {
        pairs(Self::TABLE, self)
    }
}

/// The accessors of a game's header enum whose versions so far are one, `V1` (with fields
/// `policies` and, for games that keep a shuffle mode beside the table, `shuffles`), written once:
/// `v1()`, `policies()` and `set_policy(key, value)` (the `--policy KEY=VALUE` of `kifu game new`).
/// `config_v1!(MyConfig, ConfigV1, Policies)`; add `, mode: shuffles` for a shuffle mode, which
/// `shuffles=physical|digital` sets ([`set_with_mode`]).
#[macro_export]
macro_rules! config_v1 {
    ($config:ident, $v1:ty, $policies:ty $(, mode: $mode:ident)?) => {
        impl $config {
            /// The header's first (and so far only) version.
            pub fn v1(&self) -> &$v1 {
                match self {
                    $config::V1(c) => c,
                }
            }

            pub fn policies(&self) -> &$policies {
                &self.v1().policies
            }

            /// Sets a policy by key (`--policy KEY=VALUE`).
            pub fn set_policy(&mut self, key: &str, value: &str) -> Result<(), $crate::game::policy::PolicyError> {
                let $config::V1(c) = self;
                $crate::config_v1!(@set c, key, value $(, $mode)?)
            }
        }
    };
    (@set $c:ident, $key:ident, $value:ident) => {
        $crate::game::policy::PolicyTable::set(&mut $c.policies, $key, $value)
    };
    (@set $c:ident, $key:ident, $value:ident, $mode:ident) => {
        $crate::game::policy::set_with_mode(
            <$crate::game::policy::Policy<_>>::table_of(&$c.policies),
            &mut $c.policies,
            (stringify!($mode), &mut $c.$mode),
            $key,
            $value,
        )
    };
}

impl<P: PolicyTable> Policy<P> {
    /// The table of a policy struct (so a macro can name it from a value).
    pub fn table_of(_: &P) -> &'static [Policy<P>] {
        P::TABLE
    }
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
pub fn set<P>(table: &[Policy<P>], policies: &mut P, key: &str, value: &str) -> Result<(), PolicyError> {
    let Some(row) = table.iter().find(|r| r.key == key) else {
        let keys: Vec<&str> = table.iter().map(|r| r.key).collect();
        return Err(PolicyError::UnknownKey { key: key.to_string(), known: keys.join(", ") });
    };
    let bad =
        || PolicyError::BadValue { key: key.to_string(), value: value.to_string(), allowed: row.values.join("|") };
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
) -> Result<(), PolicyError> {
    if key != mode_key {
        return set(table, policies, key, value);
    }
    set_choice(mode, value).ok_or_else(|| PolicyError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        allowed: M::NAMES.join("|"),
    })
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
pub fn apply_all<P>(table: &[Policy<P>], policies: &mut P, pairs: &[(String, String)]) -> Result<(), PolicyError> {
    for (k, v) in pairs {
        set(table, policies, k, v)?;
    }
    Ok(())
}
