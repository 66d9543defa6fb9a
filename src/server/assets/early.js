// The first requests of a table page, sent from the page's head before its other scripts have
// arrived: on a slow link a player's options, the game's summary and their own board are on their
// way while the rest of the page still downloads (replay.js and record.js take the answers, once,
// under the same token). Without a token the page itself brings what a visitor sees.
"use strict";

window.kifuEarly = (() => {
  const path = location.pathname.split("/").filter(Boolean);
  let token = "";
  try {
    token = localStorage.getItem("kifu-token") || "";
  } catch (_) {
    return null;
  }
  if (path[0] !== "replay" || path.length !== 2 || !token) return null;
  const gid = encodeURIComponent(decodeURIComponent(path[1]));
  const q = new URLSearchParams(location.search);
  const ask = (p) =>
    fetch("/api/v1" + p, { headers: { Accept: "application/json", Authorization: "Bearer " + token } }).then(async (r) => {
      const data = await r.json().catch(() => null);
      if (!r.ok) throw Object.assign(new Error((data && data.error) || r.status + " " + r.statusText), { status: r.status, data });
      return data;
    });
  const seq = q.has("seq") ? `&seq=${encodeURIComponent(q.get("seq"))}` : "";
  const board = ask(`/games/${gid}/board?as=${encodeURIComponent(q.get("as") || "own")}${seq}`);
  const summary = ask(`/games/${gid}`);
  const options = ask(`/games/${gid}/options`);
  // Nobody may take an answer (a token changed meanwhile): no unhandled rejection in the console.
  for (const p of [board, summary, options]) p.catch(() => {});
  return { gid, token, board, summary, options };
})();
