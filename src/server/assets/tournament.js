// The tournament page: pairings by table and by name, standings with tiebreakers, the top-cut
// bracket, the verification badge with the root hash, result reporting; every match links to
// its games' replays.
"use strict";

(() => {
  const { api, el, short } = kifu;
  const $ = (id) => document.getElementById(id);
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const enc = encodeURIComponent(id);
  let byName = false;
  let pairing = null;

  const showError = (e) => ($("error").textContent = e ? String(e.message || e) : "");

  function gameLinks(games) {
    return games.map((g, i) => el("a", { class: "replay-link", href: `/replay/${encodeURIComponent(g.stream)}`, title: g.head }, `game ${i + 1}`, " "));
  }

  function tab(name) {
    for (const b of document.querySelectorAll("nav.tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const s of document.querySelectorAll("section.tab")) s.classList.toggle("on", s.id === name || s.id === name + "-tab");
    const u = new URL(location.href);
    u.hash = name;
    history.replaceState(null, "", u);
  }

  function renderPairings() {
    const t = $("pairings-table");
    if (!pairing) return t.replaceChildren();
    if (byName) {
      t.replaceChildren(
        el("tr", {}, el("th", {}, "player"), el("th", {}, "table"), el("th", {}, "opponent")),
        ...pairing.by_name.map((r) => el("tr", {}, el("td", {}, r.player), el("td", {}, r.table === null ? "bye" : r.table), el("td", {}, r.opponent || "—")))
      );
    } else {
      t.replaceChildren(
        el("tr", {}, ...["table", "player", "pts", "opponent", "pts", "result", "games"].map((h) => el("th", {}, h))),
        ...pairing.tables.map((r) =>
          el(
            "tr",
            { dataset: { table: r.table } },
            el("td", {}, r.table),
            el("td", {}, r.a),
            el("td", {}, r.a_points),
            el("td", {}, r.b),
            el("td", {}, r.b_points),
            el("td", {}, r.result ? r.result + (r.corrections ? " (corrected)" : "") : "—"),
            el("td", {}, gameLinks(r.games))
          )
        ),
        ...pairing.byes.map((b) => el("tr", {}, el("td", {}, "bye"), el("td", {}, b), el("td", {}, ""), el("td", {}, "—"), el("td", {}), el("td", {}), el("td", {})))
      );
    }
    $("by-table").classList.toggle("on", !byName);
    $("by-name").classList.toggle("on", byName);
  }

  async function loadPairings(round) {
    try {
      pairing = await api(`/tournaments/${enc}/pairings` + (round ? `?round=${round}` : ""));
    } catch (e) {
      pairing = null;
    }
    renderPairings();
  }

  const pct = (x) => (x * 100).toFixed(2) + "%";

  async function loadStandings() {
    const s = await api(`/tournaments/${enc}/standings`);
    $("standings-caption").textContent = `after ${s.swiss_played} Swiss round(s), ${s.policy} policy`;
    const cols = s.columns;
    $("standings-table").replaceChildren(
      el("tr", {}, el("th", {}, "rank"), el("th", {}, "player"), el("th", {}, "points"), el("th", {}, "W-L-D"), ...cols.map((c) => el("th", {}, c.label))),
      ...s.rows.map((r) =>
        el(
          "tr",
          { dataset: { player: r.player } },
          el("td", {}, r.rank),
          el("td", {}, r.player + (r.dropped ? " (dropped)" : "")),
          el("td", {}, r.points),
          el("td", {}, `${r.wins}-${r.losses}-${r.draws}`),
          ...cols.map((c) => el("td", {}, c.key === "late" ? (r.late ? "late" : "") : pct(r[c.key])))
        )
      )
    );
  }

  async function loadBracket() {
    const b = await api(`/tournaments/${enc}/bracket`);
    if (!b.rounds.length) return $("bracket").replaceChildren(el("p", { class: "muted" }, "No top cut."));
    $("bracket").replaceChildren(
      ...b.rounds.map((r) =>
        el(
          "div",
          { class: "bround", dataset: { round: r.round } },
          el("strong", {}, `${r.stage} (round ${r.round})`),
          ...r.tables.map((t) =>
            el(
              "div",
              { class: "bmatch" },
              el("div", { class: t.winner === t.a ? "w" : "" }, t.a),
              el("div", { class: t.winner === t.b ? "w" : "" }, t.b),
              el("div", { class: "muted" }, t.result || "in progress", " ", gameLinks(t.games))
            )
          )
        )
      )
    );
  }

  async function loadVerify() {
    const badge = $("verify-badge");
    try {
      const v = await api(`/tournaments/${enc}/verify`);
      badge.className = "badge " + (v.ok ? "ok" : "bad");
      badge.textContent = v.ok ? "verified ✓" : "verification FAILED";
      $("root").replaceChildren("root hash ", el("code", { id: "root-hash", title: v.root }, v.root), ` · ${v.events} events, ${v.games} games`);
      $("checks").replaceChildren(...v.checks.map((c) => el("tr", {}, el("td", {}, c.check), el("td", {}, c.ok ? "ok" : "FAILED"), el("td", {}, c.detail))));
    } catch (e) {
      badge.className = "badge bad";
      badge.textContent = "cannot verify: " + e.message;
    }
  }

  async function loadPending() {
    const p = await api(`/tournaments/${enc}/results`);
    $("pending").replaceChildren(
      el("tr", {}, ...["round", "table", "score", "reported by", ""].map((h) => el("th", {}, h))),
      ...p.pending.map((r) =>
        el(
          "tr",
          {},
          el("td", {}, r.round),
          el("td", {}, r.table),
          el("td", {}, r.score + (r.disputed ? " (disputed: " + r.disputed + ")" : "")),
          el("td", {}, r.reported_by),
          el(
            "td",
            {},
            el("button", {
              type: "button",
              onclick: async () => {
                try {
                  await api(`/tournaments/${enc}/results/confirm`, { method: "POST", body: { round: r.round, table: r.table, score: r.score } });
                  await loadAll();
                } catch (e) {
                  showError(e);
                }
              },
            }, "Confirm")
          )
        )
      )
    );
  }

  async function report(e) {
    e.preventDefault();
    const body = {
      table: Number($("r-table").value),
      score: $("r-score").value,
      games: $("r-games").value.split(",").map((s) => s.trim()).filter(Boolean),
    };
    if ($("r-round").value) body.round = Number($("r-round").value);
    if ($("r-reason").value) body.reason = $("r-reason").value;
    try {
      const r = await api(`/tournaments/${enc}/results`, { method: "POST", body });
      $("r-status").textContent = r.recorded ? "recorded" : "waiting for your opponent's confirmation";
      await loadAll();
    } catch (err) {
      $("r-status").textContent = err.message;
    }
  }

  async function loadAll() {
    try {
      const s = await api(`/tournaments/${enc}`);
      $("t-name").textContent = s.name;
      document.title = s.name + " · kifu";
      $("t-info").textContent = `${s.game} · ${s.policy} · ${s.players} players · ${s.swiss_played}/${s.swiss_rounds ?? "?"} Swiss rounds` + (s.top_cut ? ` · top ${s.top_cut}` : "") + (s.finalized ? " · finalized" : "") + ` · head ${short(s.head)}`;
      const sel = $("round");
      const cur = sel.value;
      sel.replaceChildren(...s.rounds.map((r) => el("option", { value: r.round }, `${r.round}${r.top_cut ? " (top cut)" : ""}`)));
      if (cur) sel.value = cur;
      else if (s.rounds.length) sel.value = s.rounds[s.rounds.length - 1].round;
      await Promise.all([loadPairings(sel.value), loadStandings(), loadBracket(), loadPending()]);
      showError(null);
    } catch (e) {
      showError(e);
    }
    loadVerify();
  }

  for (const b of document.querySelectorAll("nav.tabs button")) b.addEventListener("click", () => tab(b.dataset.tab));
  $("round").addEventListener("change", (e) => loadPairings(e.target.value));
  $("by-table").addEventListener("click", () => ((byName = false), renderPairings()));
  $("by-name").addEventListener("click", () => ((byName = true), renderPairings()));
  $("report-form").addEventListener("submit", report);
  if (location.hash) tab(location.hash.slice(1));
  kifu.tokenBox($("auth"), loadAll).then(loadAll);
})();
