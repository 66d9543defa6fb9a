//! LC's rules versions as named behaviours: one version so far, so none (a later version adds a
//! field here, read through [`Rules`], and `Lc` passes `rules: Self::RULES` to `forward_game!`).

crate::rules_version! {
    newest: 1;
}
