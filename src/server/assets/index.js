// The start page: every tournament and game in the store, linked to its page.
"use strict";

(async () => {
  const { api, el, short } = kifu;
  const $ = (id) => document.getElementById(id);
  kifu.tokenBox($("auth"));
  try {
    const streams = await api("/streams");
    const link = (s) => (s.kind === "tournament" ? `/tournament/${encodeURIComponent(s.id)}` : `/replay/${encodeURIComponent(s.id)}`);
    const row = (s) =>
      el("tr", {}, el("td", {}, el("a", { href: link(s) }, s.id)), el("td", {}, s.ruleset), el("td", {}, s.players.join(" vs ")), el("td", {}, s.events), el("td", {}, el("code", { title: s.head }, short(s.head))));
    const head = el("tr", {}, ...["stream", "ruleset", "players", "events", "head"].map((h) => el("th", {}, h)));
    $("tournaments").replaceChildren(head.cloneNode(true), ...streams.filter((s) => s.kind === "tournament").map(row));
    $("games").replaceChildren(head, ...streams.filter((s) => s.kind === "game").map(row));
  } catch (e) {
    $("error").textContent = e.message;
  }
})();
