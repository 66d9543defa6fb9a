//! BRK's rules versions as named behaviours: what each version changed, read by `validate`,
//! `apply`, the options and the agent through [`Rules`], never through the version number.

crate::rules_version! {
    newest: 6;
    /// The escape hatches are held to the rules that govern what they change: a marker of a kind
    /// a face-up card is protected from (BRK-PROT-1); markers, lives and opening only for cards in
    /// play (BRK-OPEN-1) (`rules::escape_hatch_checks`).
    escape_hatches_held: 2,
    /// Once the skeleton's victory holds (BRK-OPEN-1), only the game's end may be recorded, so a
    /// later event cannot change who lost first (`rules::decided_checks`).
    decided_game_ends: 2,
    /// A false assumption about one's own hidden card (BRK-HID-10) is cited at the declaration
    /// that made it, found when the card is revealed (`Game::revealed_violations`), where
    /// versions 1 and 2 refuse the reveal.
    false_assumption_at_declaration: 3,
    /// The steps the fold made inside other events are automatic steps of their own: a revealed
    /// card's markers (`MarkersPlacedOnReveal`, BRK-HID-2), the turn start's opening
    /// (`CardsOpened`, BRK-FRAG-6, BRK-OPEN-8) and a death at no lives (`CardsSentToGraveyard`,
    /// BRK-OPEN-1); an event that moves on while one is owed is cited under its rule
    /// (`rules::steps_left_out`), so a table that forgot one is on the record.
    owed_steps: 4,
    /// A death the table left out is remembered (`Owed::left_dead`): cited once, not owed again
    /// after a later change of lives, and a late `CardsSentToGraveyard` may still move it; a card
    /// with no lives left counts for nobody in the victory (`rules::victory_as`), so `GameEnded`
    /// may come while its death is owed. Version 4 owed and cited it anew at every change.
    remembers_left_dead: 5,
    /// A card revealed to act (BRK-HID-4) that has no game action the rules accept (its costs
    /// cannot be paid, it left play, nothing on the stack to block) holds nobody up: its
    /// controller may pass or end the turn, which ends the obligation (`rules::can_act`).
    /// Version 5 demanded its action even then, and nothing could be recorded.
    declaring_lapses: 6,
}
