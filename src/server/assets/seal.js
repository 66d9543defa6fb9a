// Sealed choices, seeds and digital dice on the player's own page. An option whose parameter is
// a secret says what the secret is (`param.secret.form`, see SecretForm in src/game/options.rs);
// this page makes it from the browser's own randomness, keeps it in localStorage under the game
// and seat until it is revealed, and sends the values the form names. The player never sees a
// hash: the page says in plain words what is sealed and where it is kept.
//
// The hashes are the ones src/game/commit.rs specifies, from a compact BLAKE3 (one chunk, which
// every input here fits in): a sealed card is keyed_hash(salt, card), a seed's commitment
// derive_key(SEED_CONTEXT, seed), a hash chain c[i+1] = derive_key(SEED_CONTEXT, c[i]).
// The browser test compares this BLAKE3 with the Rust crate's on known inputs.
"use strict";

const kifuSeal = (() => {
  // --- BLAKE3, one chunk (inputs of at most 1024 bytes) ---
  const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const PERM = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
  const CHUNK_START = 1, CHUNK_END = 2, ROOT = 8, KEYED_HASH = 16, DERIVE_KEY_CONTEXT = 32, DERIVE_KEY_MATERIAL = 64;
  const SEED_CONTEXT = "kifu 2026-11-21 shuffle seed commitment v1";
  const CHOICE_CONTEXT = "kifu 2026-11-22 sealed choice v1";

  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  function g(s, a, b, c, d, x, y) {
    s[a] = (s[a] + s[b] + x) | 0;
    s[d] = rotr(s[d] ^ s[a], 16);
    s[c] = (s[c] + s[d]) | 0;
    s[b] = rotr(s[b] ^ s[c], 12);
    s[a] = (s[a] + s[b] + y) | 0;
    s[d] = rotr(s[d] ^ s[a], 8);
    s[c] = (s[c] + s[d]) | 0;
    s[b] = rotr(s[b] ^ s[c], 7);
  }

  // The compression function at chunk counter 0: the first 8 words of its output.
  function compress(cv, block, len, flags) {
    const s = [...cv, IV[0], IV[1], IV[2], IV[3], 0, 0, len, flags];
    let m = block.slice();
    for (let r = 0; r < 7; r++) {
      g(s, 0, 4, 8, 12, m[0], m[1]);
      g(s, 1, 5, 9, 13, m[2], m[3]);
      g(s, 2, 6, 10, 14, m[4], m[5]);
      g(s, 3, 7, 11, 15, m[6], m[7]);
      g(s, 0, 5, 10, 15, m[8], m[9]);
      g(s, 1, 6, 11, 12, m[10], m[11]);
      g(s, 2, 7, 8, 13, m[12], m[13]);
      g(s, 3, 4, 9, 14, m[14], m[15]);
      m = PERM.map((i) => m[i]);
    }
    return s.slice(0, 8).map((w, i) => (w ^ s[i + 8]) >>> 0);
  }

  const words = (bytes) => {
    const w = new Array(bytes.length >> 2);
    for (let i = 0; i < w.length; i++) w[i] = bytes[4 * i] | (bytes[4 * i + 1] << 8) | (bytes[4 * i + 2] << 16) | (bytes[4 * i + 3] << 24);
    return w;
  };
  const bytesOf = (ws) => {
    const out = new Uint8Array(4 * ws.length);
    ws.forEach((w, i) => {
      for (let j = 0; j < 4; j++) out[4 * i + j] = (w >>> (8 * j)) & 0xff;
    });
    return out;
  };

  // BLAKE3 of `input` (at most one chunk) under key words `key` and mode flags `mode`: 32 bytes.
  function hashChunk(input, key, mode) {
    if (input.length > 1024) throw new Error("seal.js hashes at most 1024 bytes");
    const blocks = Math.max(1, Math.ceil(input.length / 64));
    let cv = key;
    for (let b = 0; b < blocks; b++) {
      const part = input.subarray(64 * b, 64 * b + 64);
      const block = new Uint8Array(64);
      block.set(part);
      let flags = mode;
      if (b === 0) flags |= CHUNK_START;
      if (b === blocks - 1) flags |= CHUNK_END | ROOT;
      cv = compress(cv, words(block), part.length, flags);
    }
    return bytesOf(cv);
  }

  const utf8 = (s) => new TextEncoder().encode(s);
  const concat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const u32le = (n) => new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]);

  const hash = (input) => hashChunk(input, IV, 0);
  const keyedHash = (key, input) => hashChunk(input, words(key), KEYED_HASH);
  function deriveKey(context, material) {
    const ck = hashChunk(utf8(context), IV, DERIVE_KEY_CONTEXT);
    return hashChunk(material, words(ck), DERIVE_KEY_MATERIAL);
  }

  const hex = (b) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  const unhex = (h) => new Uint8Array((h.match(/../g) || []).map((x) => parseInt(x, 16)));

  // The hashes of src/game/commit.rs.
  const seal = (card, salt) => keyedHash(salt, utf8(card));
  const commitSeed = (seed) => deriveKey(SEED_CONTEXT, seed);
  const sealChoice = (key, choice, salt) => deriveKey(CHOICE_CONTEXT, concat(salt, u32le(utf8(key).length), utf8(key), utf8(choice)));
  function chainLink(secret, i) {
    let c = secret;
    for (let k = 0; k < i; k++) c = commitSeed(c);
    return c;
  }
  const fresh = () => crypto.getRandomValues(new Uint8Array(32));

  // --- what this browser keeps, per game and seat ---
  const storeKey = (gid, seat) => `kifu-seal:${gid}:${seat}`;
  function load(gid, seat) {
    try {
      const v = JSON.parse(localStorage.getItem(storeKey(gid, seat)) || "{}");
      return { seeds: v.seeds || {}, chains: v.chains || {}, seals: v.seals || {} };
    } catch (_) {
      return { seeds: {}, chains: {}, seals: {} };
    }
  }
  function save(gid, seat, kept) {
    localStorage.setItem(storeKey(gid, seat), JSON.stringify(kept));
  }

  const FORMS = ["seed_commitment", "seed_reveal", "chain_tip", "chain_link", "sealed_placement", "card_proof"];
  const elsewhere = "it was made in another browser (or this browser's data was cleared): record it where it was made";

  // Whether this page can make or reveal the parameter's secret by itself.
  const handles = (p) => !!(p && p.kind === "secret" && p.secret && FORMS.includes(p.secret.form));
  // Whether the player chooses something first (where each card goes): drawn by `controls`.
  const needsControls = (p) => handles(p) && p.secret.form === "sealed_placement";

  // In plain words: what the page does when the option is picked.
  function describe(p) {
    switch (p.secret.form) {
      case "seed_commitment":
        return "this page draws a secret random seed and keeps it sealed on this device until it is revealed";
      case "seed_reveal":
        return "this page reveals the seed it kept";
      case "chain_tip":
        return "this page makes your secret dice and keeps them sealed on this device; each roll is revealed when it is due";
      case "chain_link":
        return "this page reveals your next secret die";
      case "sealed_placement":
        return "face-down cards are sealed on this device until you reveal them";
      case "card_proof":
        return "this page opens the card it sealed";
      default:
        return "";
    }
  }

  // The values of a form that needs no choice, made (and kept before they are sent, so a lost
  // answer never loses a secret) or read from what this browser kept. Throws in plain words.
  function values(gid, seat, p) {
    const f = p.secret;
    const kept = load(gid, seat);
    switch (f.form) {
      case "seed_commitment": {
        // A seed made for a pick that did not land is committed again, never replaced.
        if (!kept.seeds[f.key]) kept.seeds[f.key] = hex(fresh());
        save(gid, seat, kept);
        return [hex(commitSeed(unhex(kept.seeds[f.key])))];
      }
      case "seed_reveal":
        if (!kept.seeds[f.key]) throw new Error(`this device holds no seed to reveal: ${elsewhere}`);
        return [kept.seeds[f.key]];
      case "chain_tip": {
        // A chain made for a pick that did not land is committed again, never replaced.
        if (!kept.chains[f.key]) kept.chains[f.key] = { secret: hex(fresh()), length: f.length };
        save(gid, seat, kept);
        const k = kept.chains[f.key];
        return [hex(chainLink(unhex(k.secret), k.length))];
      }
      case "chain_link": {
        const c = kept.chains[f.key];
        if (!c) throw new Error(`this device holds none of your secret dice: ${elsewhere}`);
        if (f.revealed >= c.length) throw new Error("your secret dice are used up");
        return [hex(chainLink(unhex(c.secret), c.length - 1 - f.revealed))];
      }
      case "card_proof": {
        const s = kept.seals[f.commitment];
        if (!s) throw new Error(`this device does not hold this sealed card: ${elsewhere}`);
        return [s[0], s[1]];
      }
      default:
        throw new Error("this page cannot make this sealed value");
    }
  }

  // After a pick is recorded: a revealed card's seal is no longer a secret to keep.
  function recorded(gid, seat, p) {
    if (!handles(p) || p.secret.form !== "card_proof") return;
    const kept = load(gid, seat);
    delete kept.seals[p.secret.commitment];
    save(gid, seat, kept);
  }

  // --- placing cards face up or sealed face down (sealed_placement) ---
  // The player's choices so far, by option label (kept across redraws and a re-offered option).
  const placing = new Map();

  function choicesFor(o) {
    const p = o.param;
    const cards = p.values;
    let c = placing.get(o.label);
    if (!c || c.length !== cards.length) {
      c = cards.map((v, i) => ({ card: v.value, label: v.label, place: p.secret.places[i] || p.secret.places[0], down: false }));
      placing.set(o.label, c);
    }
    return c;
  }

  // The controls of a placement: per card a place and face up / face down, then Record, which
  // seals the face-down cards (keeping card and salt) and calls `send(values)`.
  function controls(gid, o, send, busy, redraw) {
    const { el } = kifu;
    const p = o.param;
    const c = choicesFor(o);
    const counts = new Map();
    for (const x of c) counts.set(x.place, (counts.get(x.place) || 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([pl]) => pl);
    const rows = c.map((x, i) =>
      el(
        "div",
        { class: "place-row", dataset: { card: x.card } },
        el("label", { for: `place-${i}` }, x.label + " "),
        el(
          "select",
          { id: `place-${i}`, dataset: { param: p.name, card: x.card, place: "" }, onchange: (e) => ((x.place = e.target.value), redraw()) },
          p.secret.places.map((pl) => el("option", { value: pl, selected: pl === x.place }, pl))
        ),
        " ",
        el(
          "button",
          { type: "button", class: "value" + (x.down ? " on" : ""), "aria-pressed": String(x.down), dataset: { param: p.name, card: x.card, face: x.down ? "down" : "up" }, onclick: () => ((x.down = !x.down), redraw()) },
          x.down ? "face down (sealed)" : "face up"
        )
      )
    );
    const record = () => {
      const kept = load(gid, o.seat);
      // In the order of the places (a game may number its pieces by it: BRK's A1 is the first).
      const ordered = c.slice().sort((a, b) => p.secret.places.indexOf(a.place) - p.secret.places.indexOf(b.place));
      const vals = ordered.map((x) => {
        if (!x.down) return `${x.place}:open:${x.card}`;
        const salt = fresh();
        const s = hex(seal(x.card, salt));
        kept.seals[s] = [x.card, hex(salt)];
        return `${x.place}:sealed:${s}`;
      });
      // Kept before sending: a face-down card can always be revealed from this device.
      save(gid, o.seat, kept);
      placing.delete(o.label);
      send(vals);
    };
    return [
      el("div", { class: "placements", role: "group", "aria-label": p.label }, rows),
      twice.length ? el("p", { class: "muted" }, `Two cards on ${twice.join(", ")}: move one.`) : null,
      el("p", { class: "muted seal-note" }, "Face-down cards are sealed on this device until you reveal them: reveal them from this browser."),
      el("button", { type: "button", class: "opt primary", dataset: { option: o.id, seat: o.seat }, disabled: busy || twice.length > 0, onclick: record }, "Record"),
    ];
  }

  return { handles, needsControls, describe, values, recorded, controls, blake3: { hash, keyedHash, deriveKey, hex, unhex, utf8 }, seal, commitSeed, sealChoice, chainLink };
})();
