// The judges' floor (/tournament/ID/judge), phone first: judge calls (open, take, escalate,
// close with an outcome), penalties by the policy's infraction table and each player's history
// (upgrades, appeals, rulings in games; searchable by name), appeals for the head judge to
// decide, deck checks, investigations' statements, a player's printable case file, and
// overrides (pairings swapped, late entries admitted, results entered where the players' reports
// do not settle them). Everything is chosen from lists (players by name); nothing is typed as JSON or ids.
// Only an official's token for this event sees it; anyone else gets a message, not the data.
"use strict";

(() => {
  const { api, el } = kifu;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[parts.length - 2]);
  const enc = encodeURIComponent(id);
  const TABS = ["calls", "players", "appeals", "decks", "statements", "case", "overrides"];
  let floor = null;
  let infractions = [];
  let histories = [];

  const official = () => {
    const w = kifu.who();
    return (w.role === "organizer" || w.role === "judge") && (w.scope === "*" || w.scope === id);
  };
  const say = (text, bad) => {
    $("status").textContent = text || "";
    $("status").className = bad ? "error" : "muted";
  };
  const post = (path, body) => api(`/tournaments/${enc}/${path}`, { method: "POST", body });
  // Times in the event's time zone (labelled on the page's info line).
  const time = (iso) => kifu.zonedTime(iso, floor && floor.time_zone);

  // An action: runs, says what happened (or the server's refusal), then reloads the floor.
  async function act(what, f) {
    say("…");
    try {
      const r = await f();
      say(what(r));
      await load();
      return r;
    } catch (e) {
      say(e.message, true);
      return null;
    }
  }

  function tab(name) {
    if (!TABS.includes(name)) name = "calls";
    for (const b of document.querySelectorAll("nav.floor-tabs button")) {
      b.classList.toggle("on", b.dataset.tab === name);
      b.setAttribute("aria-pressed", String(b.dataset.tab === name));
    }
    for (const s of document.querySelectorAll("section.tab")) s.classList.toggle("on", s.id === name);
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
  }

  // Fills a <select> with player names (keeping the choice); `filter` narrows the list.
  function players(select, filter = () => true, blank) {
    const cur = select.value;
    const names = floor.players.filter(filter).map((p) => p.name);
    select.replaceChildren(...(blank ? [el("option", { value: "" }, blank)] : []), ...names.map((n) => el("option", { value: n }, n)));
    if (names.includes(cur)) select.value = cur;
  }

  function renderCalls() {
    const tables = floor.tables;
    const tsel = $("call-table");
    const cur = tsel.value;
    tsel.replaceChildren(...tables.map((t) => el("option", { value: t.table }, `${floor.pods ? "Pod" : "Table"} ${t.table}: ${t.players.join(" v ")}`)));
    if (cur) tsel.value = cur;
    fillCaller();
    const card = (c) => {
      const where = tables.find((t) => t.table === c.table && c.round === floor.round);
      const who = where ? ` (${where.players.join(" v ")})` : "";
      const head = el("div", { class: "item-head" }, `Call ${c.call} · round ${c.round} ${floor.pods ? "pod" : "table"} ${c.table}${who}`);
      const facts = [`called by ${c.caller} at ${time(c.opened)}`];
      if (c.taken) facts.push(`taken by ${c.taken.judge}`);
      if (c.escalated) facts.push(`escalated to ${c.escalated.judge}`);
      if (c.closed) facts.push(`closed by ${c.closed.judge}: ${c.closed.outcome}${c.closed.note ? " — " + c.closed.note : ""}`, `+${c.extension_minutes} min`);
      const body = [head, el("div", { class: "muted" }, facts.join(" · "))];
      if (!c.closed) {
        const buttons = el("div", { class: "buttons" });
        if (!c.taken) buttons.append(el("button", { type: "button", dataset: { callTake: c.call }, onclick: () => act(() => `call ${c.call} taken`, () => post(`calls/${c.call}/take`, {})) }, "Take"));
        if (!c.escalated && floor.head_judge) buttons.append(el("button", { type: "button", dataset: { callEscalate: c.call }, onclick: () => act(() => `call ${c.call} escalated to ${floor.head_judge}`, () => post(`calls/${c.call}/escalate`, {})) }, "Escalate"));
        const outcome = el("select", { "aria-label": `outcome of call ${c.call}`, dataset: { callOutcome: c.call } },
          el("option", { value: "ruling" }, "ruling"), el("option", { value: "no-action" }, "no action"), el("option", { value: "penalty" }, "penalty"));
        const note = el("input", { "aria-label": `note on call ${c.call}`, placeholder: "note (optional)", dataset: { callNote: c.call } });
        const close = el("button", { type: "button", dataset: { callClose: c.call }, onclick: () => act(() => `call ${c.call} closed`, () => post(`calls/${c.call}/close`, { outcome: outcome.value, note: note.value })) }, "Close");
        body.push(buttons, el("div", { class: "stack" }, outcome, note, close));
      }
      return el("div", { class: "item", dataset: { call: c.call, status: c.status } }, ...body);
    };
    const open = floor.calls.filter((c) => !c.closed);
    const closed = floor.calls.filter((c) => c.closed).reverse();
    $("calls-open").replaceChildren(...(open.length ? open.map(card) : [el("p", { class: "muted" }, "No call in progress.")]));
    $("calls-closed").replaceChildren(...closed.map(card));
    $("calls-closed-count").textContent = closed.length;
    const psel = $("pen-call");
    const pcur = psel.value;
    psel.replaceChildren(el("option", { value: "" }, "none"), ...floor.calls.map((c) => el("option", { value: c.call }, `call ${c.call} (table ${c.table})`)));
    psel.value = pcur;
  }

  function fillCaller() {
    const t = floor.tables.find((x) => String(x.table) === $("call-table").value);
    const names = t ? t.players : [];
    $("call-caller").replaceChildren(...names.map((n) => el("option", { value: n }, n)), el("option", { value: "" }, "a judge (me)"));
  }

  // A player's penalties, each with what stands, upgrades, downgrades and appeals.
  function historyCard(h) {
    const rows = h.penalties.map((p) => {
      const tags = [];
      if (p.upgraded) tags.push("upgraded");
      if (p.downgrade) tags.push("downgraded: " + p.downgrade);
      const stands = p.standing === p.issued ? "" : ` → ${p.standing || "overturned"}`;
      const appeals = p.appeals.map((a) => `appeal ${a.appeal}: ${a.decision}${a.reason ? " (" + a.reason + ")" : ""}`);
      const mayAppeal = !floor.appeals.some((a) => a.penalty === p.penalty);
      return el("li", { dataset: { penalty: p.penalty } },
        el("strong", {}, `${p.issued}${stands}`), ` · round ${p.round} · ${p.infraction_name || p.infraction || "penalty"}`,
        tags.length ? el("span", { class: "tag" }, " " + tags.join(", ")) : null,
        el("div", { class: "muted" }, `${p.judge}: ${p.reason}`), appeals.length ? el("div", {}, appeals.join("; ")) : null,
        mayAppeal ? el("button", { type: "button", dataset: { appeal: p.penalty }, onclick: () => act((r) => `appeal ${r.appeal} lodged for ${h.player}`, () => post("appeals", { penalty: p.penalty, player: h.player })) }, "Record appeal") : null);
    });
    const games = (h.game_rulings || []).map((g) => el("li", { class: "game-ruling" }, el("strong", {}, g.kind), ` · in game ${g.game}${g.round ? " (round " + g.round + ")" : ""} · ${g.judge}${g.note ? ": " + g.note : ""}`));
    const list = rows.concat(games);
    return el("div", { class: "item", dataset: { history: h.player } },
      el("div", { class: "item-head" }, h.player, el("span", { class: "muted" }, ` · ${h.penalties.length} penalt${h.penalties.length === 1 ? "y" : "ies"}`)),
      list.length ? el("ul", { class: "plain" }, ...list) : el("p", { class: "muted" }, "No penalty."));
  }

  function renderHistory() {
    const q = $("search").value.trim().toLowerCase();
    const names = floor.players.map((p) => p.name).filter((n) => n.toLowerCase().includes(q));
    const byName = Object.fromEntries(histories.map((h) => [h.player, h]));
    // With a search, everyone it finds; without, those with a penalty.
    const shown = q ? names : names.filter((n) => byName[n]);
    $("history").replaceChildren(...(shown.length
      ? shown.map((n) => historyCard(byName[n] || { player: n, penalties: [], game_rulings: [] }))
      : [el("p", { class: "muted" }, q ? "No player by that name." : "No penalty yet.")]));
  }

  function renderAppeals() {
    const open = floor.appeals.filter((a) => !a.decided);
    const done = floor.appeals.filter((a) => a.decided);
    const head = floor.head_judge ? `Only the head judge, ${floor.head_judge}, decides.` : "The organizer names a head judge first.";
    $("appeals-open").replaceChildren(...(open.length ? open.map((a) => {
      const decision = el("select", { "aria-label": `decision on appeal ${a.appeal}`, dataset: { decision: a.appeal } },
        el("option", { value: "upheld" }, "upheld"), el("option", { value: "overturned" }, "overturned"),
        ...(a.penalty ? ["warning", "game-loss", "match-loss"].map((p) => el("option", { value: "changed:" + p }, "changed to " + p)) : []));
      const reason = el("input", { "aria-label": `reason for appeal ${a.appeal}`, placeholder: "reason", dataset: { decisionReason: a.appeal } });
      const decide = el("button", { type: "button", dataset: { decide: a.appeal }, onclick: () => {
        const [d, p] = decision.value.split(":");
        return act(() => `appeal ${a.appeal} decided: ${decision.value.replace(":", " to ")}`, () => post(`appeals/${a.appeal}/decision`, { decision: d, penalty: p, reason: reason.value }));
      } }, "Decide");
      return el("div", { class: "item", dataset: { appealOpen: a.appeal } }, el("div", { class: "item-head" }, `Appeal ${a.appeal}: ${a.player}, ${a.ruling}`), el("div", { class: "muted" }, head), el("div", { class: "stack" }, decision, reason, decide));
    }) : [el("p", { class: "muted" }, "No appeal is waiting.")]));
    $("appeals-done").replaceChildren(...(done.length ? done.map((a) => el("div", { class: "item", dataset: { appealDone: a.appeal } }, `Appeal ${a.appeal}: ${a.player}, ${a.ruling} — ${a.decided.decision} by ${a.decided.judge} (${a.decided.reason})`))
      : [el("p", { class: "muted" }, "None yet.")]));
  }

  function renderDecks() {
    players($("dc-player"), (p) => p.deck_list && !p.dropped);
    if (!$("dc-player").options.length) $("dc-player").append(el("option", { value: "" }, "nobody has registered a list"));
    $("dc-list-done").replaceChildren(...(floor.deck_checks.length ? floor.deck_checks.slice().reverse().map((d) =>
      el("div", { class: "item", dataset: { deckCheck: d.check } }, `Check ${d.check}: ${d.player}, round ${d.round}${d.table ? " table " + d.table : ""} by ${d.judge} at ${time(d.at)} — ${d.matches ? "matches the list" : d.cards + " card(s) differ"}`))
      : [el("p", { class: "muted" }, "No deck check yet.")]));
  }

  async function renderStatements() {
    const who = $("st-player").value;
    $("st-about").textContent = who;
    if (!who) return $("st-list").replaceChildren();
    try {
      const r = await api(`/tournaments/${enc}/statements?player=${encodeURIComponent(who)}`);
      $("st-list").replaceChildren(...(r.statements.length ? r.statements.map((s) => el("div", { class: "item", dataset: { statement: s.statement } },
        el("div", { class: "item-head" }, `Statement ${s.statement}: ${s.by} ${s.author}`),
        el("div", { class: "muted" }, `taken by ${s.judge} at ${time(s.at)}`),
        el("p", { class: "statement-text" }, s.text === null ? "(the text is not on this server)" : s.text)))
        : [el("p", { class: "muted" }, "No statement about this player.")]));
    } catch (e) {
      $("st-list").replaceChildren(el("p", { class: "error" }, e.message));
    }
  }

  function renderOverrides() {
    $("ov-list").replaceChildren(...(floor.overrides.length ? floor.overrides.map((o, i) => el("div", { class: "item", dataset: { override: i + 1, overrideKind: o.kind } }, o.what))
      : [el("p", { class: "muted" }, "Nothing was changed by hand.")]));
  }

  // A table's pending report, with number steppers for the score an official enters instead
  // (games won by each player, draws) and the reason; the page never asks for a bare "2-1-0".
  function pendingCard(r) {
    const n = (label, key, v) => el("label", { class: "stepper" }, label, el("input", { type: "number", min: 0, max: 9, value: v, inputmode: "numeric", dataset: { enterScore: key } }));
    const [aw, bw, d] = r.score.split("-").map(Number);
    const a = n(`${r.a} won`, "a", aw), b = n(`${r.b} won`, "b", bw), dr = n("draws", "d", d || 0);
    const reason = el("input", { "aria-label": `reason for table ${r.table}`, placeholder: "reason", dataset: { enterReason: r.table } });
    const said = `${r.reported_by} reported ${r.winner ? r.winner + " won " : "a draw "}${r.score}` + (r.disputed ? `; ${r.disputed}` : `; waiting for ${r.confirms}`);
    const enter = el("button", { type: "button", dataset: { enterResult: r.table }, onclick: () => {
      const score = [a, b, dr].map((l) => Number(l.querySelector("input").value) || 0).join("-");
      return act(() => `round ${r.round} table ${r.table}: ${score} entered`, () => post("results", { round: r.round, table: r.table, score, reason: reason.value }));
    } }, "Enter result");
    return el("div", { class: "item", dataset: { pendingTable: r.table, disputed: r.disputed ? "yes" : "no" } },
      el("div", { class: "item-head" }, `Round ${r.round} table ${r.table}: ${r.a} v ${r.b}`), el("div", { class: "muted" }, said),
      el("div", { class: "stack" }, a, b, dr, reason, enter));
  }

  async function renderPending() {
    const list = (await api(`/tournaments/${enc}/results`)).pending.filter((r) => r.table !== undefined && r.a);
    list.sort((x, y) => (y.disputed ? 1 : 0) - (x.disputed ? 1 : 0));
    $("ov-results").replaceChildren(...(list.length ? list.map(pendingCard) : [el("p", { class: "muted" }, "No report is waiting.")]));
  }

  // The case file as sections of headed lists: on screen, and into #print to print.
  function caseSections(c) {
    const section = (title, items, empty) => [el("h3", {}, title), items.length ? el("ul", { class: "plain" }, ...items.map((x) => el("li", {}, ...[x].flat()))) : el("p", { class: "muted" }, empty)];
    const pen = c.penalties.map((p) => `Penalty ${p.penalty}, round ${p.round}: ${p.infraction_name || p.infraction || "penalty"} — ${p.issued}${p.upgraded ? " (upgraded)" : ""}${p.downgrade ? " (downgraded: " + p.downgrade + ")" : ""}, stands as ${p.standing || "overturned"}; ${p.judge}: ${p.reason}` +
      p.appeals.map((a) => `; appeal ${a.appeal} ${a.decision}${a.reason ? " (" + a.reason + ")" : ""}`).join(""));
    const games = c.game_rulings.map((g) => `${g.kind} in game ${g.game} by ${g.judge}${g.note ? ": " + g.note : ""}`);
    return [
      el("h2", {}, `Case file: ${c.player}`), el("p", { class: "muted" }, `${floor.name} (${c.tournament})`),
      ...section("Judge calls", c.calls.map((x) => `Call ${x.call}, round ${x.round} table ${x.table}: called by ${x.caller} at ${time(x.opened)}; ${x.status}${x.judge ? " (" + x.judge + ")" : ""}${x.outcome ? ", " + x.outcome : ""}${x.note ? ": " + x.note : ""}`), "None."),
      ...section("Penalties and rulings in games", pen.concat(games), "None."),
      ...section("Deck checks", c.deck_checks.map((d) => `Check ${d.check}, round ${d.round} by ${d.judge} at ${time(d.at)}: ${d.matches ? "matches the list" : d.cards + " card(s) differ"}`), "None."),
      ...section("Statements", (c.statements || []).map((s) => [el("strong", {}, `Statement ${s.statement}: ${s.by} ${s.author}, taken by ${s.judge} at ${time(s.at)}`), el("div", { class: "statement-text" }, s.text === null ? "(not on this server)" : s.text)]), "None."),
      ...section("Disqualification reports", c.reports.map((r) => [el("strong", {}, `Penalty ${r.penalty}, signed by ${r.head_judge}: `), el("span", { class: r.signature_verifies ? "ok" : "error", dataset: { signature: r.signature_verifies ? "verifies" : "fails" } }, r.signature_verifies ? "the signature verifies" : "the signature does NOT verify: " + r.signature_problem), el("div", {}, "Facts found: " + r.facts), el("div", {}, "Reasons: " + r.reasons)]), "None."),
    ];
  }

  async function showCase() {
    const who = $("case-player").value;
    if (!who) return null;
    try {
      const c = await api(`/tournaments/${enc}/case/${encodeURIComponent(who)}`);
      $("case-view").replaceChildren(...caseSections(c));
      $("case-view").dataset.player = who;
      return c;
    } catch (e) {
      $("case-view").replaceChildren(el("p", { class: "error" }, e.message));
      return null;
    }
  }

  async function load() {
    floor = await api(`/tournaments/${enc}/floor`);
    const h = await api(`/tournaments/${enc}/penalties`);
    histories = h.players;
    $("t-name").textContent = `${floor.name} — judges' floor`;
    $("floor-info").textContent = `${floor.me} · round ${floor.round ?? "—"} · head judge ${floor.head_judge || "not named"}${floor.judges && floor.judges.length ? " · judges " + floor.judges.join(", ") : ""} · ${floor.calls.filter((c) => !c.closed).length} call(s) in progress · ${kifu.zoneLabel(floor.time_zone)}`;
    // A finalized (or archived) event is read, not run: no floor action is offered.
    $("floor").classList.toggle("closed", !!floor.closed);
    $("floor-closed").hidden = !floor.closed;
    const tables = (floor.tables || []).map((t) => el("option", { value: t.table }, `table ${t.table}: ${t.players.join(" v ")}`));
    for (const s of ["mv-from", "mv-to"]) {
      const cur = $(s).value;
      $(s).replaceChildren(...tables.map((o) => o.cloneNode(true)));
      if (cur) $(s).value = cur;
    }
    $("names").replaceChildren(...floor.players.map((p) => el("option", { value: p.name })));
    for (const s of ["pen-player", "st-player", "case-player", "ov-a", "ov-b"]) players($(s), (p) => !p.dropped || s === "st-player" || s === "case-player");
    renderCalls();
    renderHistory();
    renderAppeals();
    renderDecks();
    renderOverrides();
    await renderPending();
    await renderStatements();
  }

  async function start() {
    $("denied").hidden = true;
    $("floor").hidden = true;
    if (!official()) {
      $("denied").textContent = "This page is for the event's judges: use a judge's or organizer's token for this tournament. Players and spectators follow the event on its tournament page.";
      $("denied").append(" ", el("a", { href: `/tournament/${enc}` }, "Tournament page"));
      $("denied").hidden = false;
      return;
    }
    try {
      if (!infractions.length) {
        infractions = (await api(`/tournaments/${enc}/infractions`)).infractions;
        $("pen-infraction").replaceChildren(...infractions.map((i) => el("option", { value: i.code }, `${i.name} (${i.default})`)));
      }
      await load();
      $("floor").hidden = false;
      $("error").textContent = "";
    } catch (e) {
      $("error").textContent = e.message;
    }
  }

  $("call-table").addEventListener("change", fillCaller);
  $("call-open").addEventListener("submit", (e) => {
    e.preventDefault();
    const caller = $("call-caller").value || undefined;
    act((r) => `call ${r.call} opened`, () => post("calls", { round: floor.round, table: Number($("call-table").value), caller }));
  });
  $("penalty").addEventListener("submit", (e) => {
    e.preventDefault();
    const body = { player: $("pen-player").value, infraction: $("pen-infraction").value, reason: $("pen-reason").value };
    if ($("pen-downgrade").value.trim()) body.downgrade = $("pen-downgrade").value.trim();
    if ($("pen-call").value) body.call = Number($("pen-call").value);
    act(() => `penalty recorded for ${body.player}`, () => post("penalties", body)).then((r) => r && ($("pen-reason").value = "", $("pen-downgrade").value = ""));
  });
  $("search").addEventListener("input", renderHistory);
  $("deck-check").addEventListener("submit", async (e) => {
    e.preventDefault();
    const player = $("dc-player").value;
    const r = await act((x) => `deck check ${x.check}: ${x.matches ? "matches" : "differs"}`, () => post("deck-checks", { player, list: $("dc-list").value }));
    if (!r) return;
    $("dc-result").replaceChildren(el("div", { class: "item", dataset: { deckResult: r.check } },
      el("div", { class: "item-head" }, `Check ${r.check}: ${player} — ${r.matches ? "the deck matches the registered list" : "the deck differs"}`),
      r.differences.length ? el("ul", { class: "plain" }, ...r.differences.map((d) => el("li", {}, `${d.card}: registered ${d.registered}, presented ${d.presented}`))) : null));
  });
  $("st-player").addEventListener("change", renderStatements);
  $("statement").addEventListener("submit", (e) => {
    e.preventDefault();
    const body = { player: $("st-player").value, by: $("st-by").value, author: $("st-author").value, text: $("st-text").value };
    act((r) => `statement ${r.statement} recorded`, () => post("statements", body)).then((r) => r && ($("st-text").value = ""));
  });
  $("case-form").addEventListener("submit", (e) => {
    e.preventDefault();
    showCase();
  });
  $("case-print").addEventListener("click", async () => {
    const c = await showCase();
    if (!c) return;
    $("print").replaceChildren(el("div", { class: "case-print" }, ...caseSections(c)));
    window.print();
  });
  // The bundle for conduct reviewers, saved as a file (it holds the statements' text).
  $("case-export").addEventListener("click", async () => {
    const who = $("case-player").value;
    if (!who) return;
    try {
      const b = await api(`/tournaments/${enc}/case/${encodeURIComponent(who)}/export`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(b, null, 2)], { type: "application/json" }));
      const a = el("a", { href: url, download: `${id}-case-${who}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      say(`${who}'s case exported (${b.statements.length} statement(s)); check it with kifu tournament case-check`);
    } catch (e) {
      say(e.message, true);
    }
  });
  $("override").addEventListener("submit", (e) => {
    e.preventDefault();
    act(() => "pairings changed", () => post("overrides", { swap: [$("ov-a").value, $("ov-b").value], reason: $("ov-reason").value }));
  });
  $("late").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("late-name").value.trim();
    act(() => `${name} entered late`, () => post("players", { players: [name], reason: $("late-reason").value })).then((r) => r && ($("late-name").value = "", $("late-reason").value = ""));
  });
  for (const b of document.querySelectorAll("nav.floor-tabs button")) b.addEventListener("click", () => tab(b.dataset.tab));
  // An accessibility move: the whole match goes to the chosen table, opponents unchanged.
  $("move").addEventListener("submit", (e) => {
    e.preventDefault();
    const from = Number($("mv-from").value);
    const to = Number($("mv-to").value);
    act(() => `the match at table ${from} moved to table ${to}`, () => post("overrides", { move_table: from, to, reason: $("mv-reason").value }));
  });
  window.addEventListener("hashchange", () => tab(location.hash.slice(1)));
  tab(location.hash.slice(1));
  kifu.tokenBox($("auth"), start).then(start);
})();
