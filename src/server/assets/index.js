// The start page: every tournament (players, dates, winner) and game in the store, linked to its
// page, with a search box and filters by game, in-progress and date.
"use strict";

(async () => {
  const { api, el, short } = kifu;
  const $ = (id) => document.getElementById(id);
  kifu.tokenBox($("auth"));
  const rows = []; // {kind, row: <tr>, text, game, live, date}

  function applyFilters() {
    const q = $("search").value.trim().toLowerCase();
    const game = $("f-game").value;
    const live = $("f-live").checked;
    const from = $("f-from").value;
    const to = $("f-to").value;
    let shown = 0;
    for (const r of rows) {
      const ok =
        (!q || r.text.includes(q)) &&
        (!game || r.game === game) &&
        (!live || r.live === true) &&
        (!from || r.date >= from) &&
        (!to || r.date <= to);
      r.row.hidden = !ok;
      if (ok) shown++;
    }
    $("f-count").textContent = `${shown} of ${rows.length} shown`;
  }

  async function tournamentInfo(s) {
    // Players, the winner and whether it is still running, from the tournament's own API.
    try {
      const [sum, standings, bracket] = await Promise.all([
        api(`/tournaments/${encodeURIComponent(s.id)}`),
        api(`/tournaments/${encodeURIComponent(s.id)}/standings`),
        api(`/tournaments/${encodeURIComponent(s.id)}/bracket`),
      ]);
      const players = standings.rows.map((r) => r.player);
      let winner = "";
      if (sum.finalized) {
        const last = bracket.rounds[bracket.rounds.length - 1];
        winner = (last && last.tables.length === 1 && last.tables[0].winner) || (players[0] || "");
      }
      return { name: sum.name, game: sum.game, live: !sum.finalized, players, winner, rounds: `${sum.swiss_played}/${sum.swiss_rounds}` };
    } catch (_) {
      return { name: s.id, game: s.ruleset, live: null, players: s.players, winner: "", rounds: "" };
    }
  }

  try {
    const streams = await api("/streams");
    const date = (s) => (s.created_at || "").slice(0, 10);
    const tours = streams.filter((s) => s.kind === "tournament");
    const infos = await Promise.all(tours.map(tournamentInfo));
    const thead = (cols) => el("thead", {}, el("tr", {}, cols.map((h) => el("th", { scope: "col" }, h))));
    const tbody = el("tbody");
    tours.forEach((s, i) => {
      const t = infos[i];
      const shownPlayers = t.players.length > 8 ? t.players.slice(0, 8).join(", ") + ` … (${t.players.length})` : t.players.join(", ");
      const row = el(
        "tr",
        { dataset: { id: s.id } },
        el("td", {}, el("a", { href: `/tournament/${encodeURIComponent(s.id)}` }, t.name || s.id)),
        el("td", {}, t.game),
        el("td", { title: t.players.join(", ") }, shownPlayers),
        el("td", {}, date(s)),
        el("td", {}, t.live === null ? "?" : t.live ? el("span", { class: "badge live" }, "in progress") : "finished"),
        el("td", { class: "winner" }, t.winner ? "🏆 " + t.winner : "—")
      );
      tbody.append(row);
      rows.push({ kind: "tournament", row, text: [s.id, t.name, ...t.players].join(" ").toLowerCase(), game: t.game, live: t.live, date: date(s) });
    });
    $("tournaments").replaceChildren(thead(["tournament", "game", "players", "date", "state", "winner"]), tbody);

    const gbody = el("tbody");
    const gameRows = [];
    for (const s of streams.filter((x) => x.kind === "game")) {
      const state = el("td", { class: "state" }, "…");
      const row = el(
        "tr",
        { dataset: { id: s.id } },
        el("td", {}, el("a", { href: `/replay/${encodeURIComponent(s.id)}` }, s.id)),
        el("td", {}, s.ruleset),
        el("td", {}, s.players.join(" vs ")),
        el("td", {}, date(s)),
        el("td", {}, s.events),
        state,
        el("td", {}, el("code", { title: s.head }, short(s.head)))
      );
      gbody.append(row);
      const r = { kind: "game", row, text: [s.id, ...s.players].join(" ").toLowerCase(), game: s.ruleset, live: null, date: date(s) };
      rows.push(r);
      gameRows.push({ s, r, state });
    }
    $("games").replaceChildren(thead(["game", "ruleset", "players", "date", "events", "state", "head"]), gbody);
    // Whether each game is still being played (no outcome yet), from its summary: a few at a
    // time, the filter applied again as they arrive.
    (async () => {
      const queue = gameRows.slice();
      const worker = async () => {
        for (let g = queue.shift(); g; g = queue.shift()) {
          try {
            const sum = await api(`/games/${encodeURIComponent(g.s.id)}`);
            g.r.live = !!sum.live;
            g.state.replaceChildren(sum.live ? el("span", { class: "badge live" }, "in progress") : "finished");
          } catch (_) {
            g.state.textContent = "?";
          }
          g.r.row.dataset.live = String(g.r.live);
        }
      };
      await Promise.all([1, 2, 3, 4].map(worker));
      applyFilters();
      $("games").dataset.states = "done";
    })();

    const games = [...new Set(rows.map((r) => r.game).filter(Boolean))].sort();
    $("f-game").append(...games.map((g) => el("option", { value: g }, g)));
    for (const x of ["search", "f-game", "f-live", "f-from", "f-to"]) $(x).addEventListener("input", applyFilters);
    $("filters").addEventListener("submit", (e) => e.preventDefault());
    applyFilters();
  } catch (e) {
    $("error").textContent = e.message;
  }
})();
