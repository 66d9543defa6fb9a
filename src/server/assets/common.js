// Shared helpers for kifu's pages: API calls with the viewer's token, safe DOM building, the
// token box and the light/dark theme switch.
"use strict";

const kifu = (() => {
  const TOKEN_KEY = "kifu-token";

  function token() {
    return localStorage.getItem(TOKEN_KEY) || "";
  }

  function setToken(t) {
    if (t) localStorage.setItem(TOKEN_KEY, t.trim());
    else localStorage.removeItem(TOKEN_KEY);
  }

  // The server answered from its cache because it cannot reach its store (a cluster it lost):
  // say so until a fresh answer arrives.
  function staleBanner(on) {
    const old = document.getElementById("kifu-stale");
    if (!on) {
      if (old) old.remove();
      return;
    }
    if (old || !document.body) return;
    document.body.append(
      el("div", { id: "kifu-stale", class: "stale-banner", role: "status" },
        "The server cannot reach its store: showing what it had cached; changes are refused until it is back."),
    );
  }

  async function api(path, opts = {}) {
    const headers = Object.assign({ Accept: "application/json" }, opts.headers || {});
    const t = token();
    if (t) headers.Authorization = "Bearer " + t;
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    const resp = await fetch("/api/v1" + path, {
      method: opts.method || "GET",
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
    staleBanner(resp.headers.get("Kifu-Stale") === "true");
    if (opts.raw) {
      if (!resp.ok) {
        const err = new Error(resp.status + " " + resp.statusText);
        err.status = resp.status;
        throw err;
      }
      return resp;
    }
    let data = null;
    try {
      data = await resp.json();
    } catch (e) {
      // A body cut off (a newer request aborted this one, the connection dropped) is no answer:
      // throw, so it is never rendered or cached as one. Only a body that is not JSON at all
      // (an error page from a proxy) reads as null, and then only on an error status.
      if (e.name === "AbortError" || (opts.signal && opts.signal.aborted)) throw e;
      if (resp.ok && (resp.headers.get("Content-Type") || "").includes("json")) {
        const err = new Error("the server's answer could not be read; try again");
        err.status = resp.status;
        throw err;
      }
      data = null;
    }
    if (!resp.ok) {
      const err = new Error((data && data.error) || resp.status + " " + resp.statusText);
      err.status = resp.status;
      // The answer's body too: a 409 from the options API carries the fresh options.
      err.data = data;
      throw err;
    }
    return data;
  }

  // el("div", {class: "x", dataset: {seq: 1}}, child, "text", ...): never sets innerHTML.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function short(hash) {
    return hash ? hash.slice(0, 12) + "…" : "";
  }

  // The theme: the system's setting unless the reader chose one (kept in localStorage).
  const THEME_KEY = "kifu-theme";
  function applyTheme() {
    const t = localStorage.getItem(THEME_KEY);
    if (t === "dark" || t === "light") document.documentElement.dataset.theme = t;
    else delete document.documentElement.dataset.theme;
  }
  function isDark() {
    const t = document.documentElement.dataset.theme;
    return t ? t === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function themeSwitch() {
    const b = el("button", { id: "theme", type: "button", "aria-pressed": String(isDark()) }, isDark() ? "☀ light" : "☾ dark");
    b.addEventListener("click", () => {
      localStorage.setItem(THEME_KEY, isDark() ? "light" : "dark");
      applyTheme();
      b.textContent = isDark() ? "☀ light" : "☾ dark";
      b.setAttribute("aria-pressed", String(isDark()));
    });
    return b;
  }
  applyTheme();

  // Who the token says the reader is ({role, scope, name}; role "public" without one), as the
  // token box last learned it: pages show officials' controls only to officials.
  let current = { role: "public", scope: null, name: null };
  const who = () => current;

  // The token box in the header: paste a token, see the role it gives; the theme switch.
  async function tokenBox(container, onChange) {
    const input = el("input", { id: "token-input", type: "password", placeholder: "access token (optional)", "aria-label": "access token", autocomplete: "off", size: 22 });
    input.value = token();
    const role = el("span", { id: "role", class: "role" }, "…");
    const apply = el("button", { id: "token-apply", type: "button" }, "Use token");
    const show = async () => {
      try {
        const w = await api("/whoami");
        current = w;
        role.textContent = w.role === "public" ? "spectator (public)" : `${w.role} ${w.name} · ${w.scope}`;
        role.className = "role " + w.role;
      } catch (e) {
        current = { role: "public", scope: null, name: null };
        role.textContent = "invalid token";
        role.className = "role bad";
      }
    };
    apply.addEventListener("click", async () => {
      setToken(input.value);
      await show();
      if (onChange) onChange();
    });
    container.append(role, input, apply, themeSwitch());
    await show();
  }

  // A game's result in words, naming the players: "ana won", "ana, rui share the win",
  // "draw: ana, rui", "everyone lost".
  function outcomeText(o, players) {
    const name = (s) => players[s] || "seat " + s;
    const first = (o.placements[0] || []).filter((s) => !(o.eliminated || []).includes(s));
    if (!first.length) return "everyone lost";
    if (o.placements.length === 1) return "draw: " + first.map(name).join(", ");
    return first.map(name).join(", ") + (first.length > 1 ? " share the win" : " won");
  }

  // A recorded time (RFC 3339) as the event's clock shows it: "14:05" in `zone` (an IANA name
  // the event set; the browser's own zone otherwise), with the date when `withDate`. The zone is
  // named once beside the times (`zoneLabel`), so no reader takes UTC for local time.
  function zonedTime(iso, zone, withDate) {
    if (!iso) return "";
    const opts = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    if (withDate) Object.assign(opts, { year: "numeric", month: "2-digit", day: "2-digit" });
    try {
      return new Intl.DateTimeFormat("en-CA", { ...opts, timeZone: zone || undefined }).format(new Date(iso));
    } catch (_) {
      return new Intl.DateTimeFormat("en-CA", opts).format(new Date(iso));
    }
  }
  const zoneLabel = (zone) => "times in " + (zone || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");

  return { api, el, outcomeText, short, token, setToken, tokenBox, who, zonedTime, zoneLabel };
})();
