// handfoot game night: the phone page. Plain JavaScript, no build step, nothing fetched from outside;
// it uses only the JSON API under /api/ (documented in the README), so scripts can do what it does.
"use strict";

const params = new URLSearchParams(location.search);
const TOKEN = params.get("token") || "";
const CLASSES = ["A", "2", "3R", "3B", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER",
  "1", "11", "12", "WILD20", "WILD50", "SOCK", "SHOE", "BACK"];
const COLOURS = ["#0b57d0", "#b3261e", "#1b7f3b", "#8a5a00", "#7b1fa2", "#00838f", "#c2185b", "#455a64"];
const PLACE_COLOUR = { meld: "#2ecc40", red3: "#ff00ff", back: "#ff851b", unplaced: "#ff2222", leftover: "#1e90ff" };

const view = () => document.getElementById("view");

function el(tag, attrs = {}, ...children) {
  const svg = ["svg", "rect", "g", "text", "polyline", "line", "circle"].includes(tag);
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c.nodeType ? c : String(c));
  return node;
}

function withToken(url) {
  return TOKEN ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(TOKEN) : url;
}

async function api(method, path, body, type) {
  const headers = {};
  if (TOKEN) headers["X-Handfoot-Token"] = TOKEN;
  let data = body;
  if (body !== undefined && !(body instanceof Blob)) { data = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
  if (body instanceof Blob) headers["Content-Type"] = type || body.type || "application/octet-stream";
  let res;
  try {
    res = await fetch(path, { method, headers, body: data });
  } catch (e) {
    throw new Error("the server cannot be reached (is `handfoot serve` still running?)");
  }
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error((json && json.error) || `${res.status} ${res.statusText}`);
  return json;
}

function say(message, info = false) {
  const box = document.getElementById("msg");
  box.textContent = message;
  box.className = info ? "info" : "";
  box.hidden = !message;
  if (message) box.scrollIntoView({ block: "nearest" });
}

async function guarded(fn) {
  try { say(""); await fn(); } catch (e) { say(e.message); }
}

function signed(n) { return n > 0 ? "+" + n : String(n); }

// ------------------------------------------------------------------ routes

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  say("");
  try {
    if (parts[0] === "g" && parts[2] === "r") await showRound(+parts[1], +parts[3]);
    else if (parts[0] === "g" && parts[2] === "audit") await showAudit(+parts[1]);
    else if (parts[0] === "g") await showSheet(+parts[1]);
    else await showHome();
  } catch (e) {
    view().replaceChildren(el("p", {}, el("a", { href: "#/" }, "Back to the games")));
    say(e.message);
  }
}

function go(hash) {
  if (location.hash === hash) route(); else location.hash = hash;
}

// ------------------------------------------------------------------ home: games and a new game

async function showHome() {
  document.getElementById("where").textContent = "game night";
  const [games, rules] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/rules")]);
  const select = el("select", { id: "new-rules" }, rules.map(r => el("option", { value: r.name }, `${r.name} (${r.rounds} rounds)`)));
  const sides = el("input", { type: "text", id: "new-sides", placeholder: "Ann, Bob   or   Reds=Ann+Cy, Blues=Bob+Di" });
  const form = el("form", {
    id: "new-game",
    onsubmit: ev => {
      ev.preventDefault();
      guarded(async () => {
        const list = sides.value.split(",").map(s => s.trim()).filter(Boolean).map(s => {
          const [name, members] = s.split("=");
          return { name: name.trim(), members: members ? members.split("+").map(m => m.trim()).filter(Boolean) : [] };
        });
        const sheet = await api("POST", "/api/games", { rules: select.value, sides: list });
        go(`#/g/${sheet.id}`);
      });
    },
  },
  el("h1", {}, "New game"),
  el("label", {}, "Rules ", select),
  el("label", {}, "Players or teams (comma between sides)", sides),
  el("button", { type: "submit", id: "start-game" }, "Start the game"));
  const list = el("section", {}, el("h2", {}, "Games"),
    games.length ? el("table", {}, el("tbody", {}, games.slice().reverse().map(g => el("tr", {},
      el("td", {}, el("a", { href: `#/g/${g.id}` }, `Game ${g.id}`)),
      el("td", {}, g.rules),
      el("td", {}, g.sides.map((s, k) => `${s.name} ${g.totals[k]}`).join(", ")),
      el("td", {}, g.finished ? "finished" : `${g.rounds.length}/${g.rounds_in_game}`)))))
      : el("p", { class: "muted" }, "No games yet."));
  view().replaceChildren(el("section", {}, form), list);
}

// ------------------------------------------------------------------ the score sheet

function chart(sheet) {
  const rounds = sheet.rounds.filter(r => r.confirmed);
  const W = 320, H = 170, L = 42, B = 22, T = 10, R = 10;
  const values = [0, ...rounds.flatMap(r => r.running)];
  const lo = Math.min(...values), hi = Math.max(...values, lo + 1);
  const n = Math.max(rounds.length, 1);
  const x = i => L + (W - L - R) * i / n;
  const y = v => T + (H - T - B) * (hi - v) / (hi - lo);
  const svg = el("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "running totals by round" });
  svg.append(el("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#999", "stroke-width": 1 }));
  svg.append(el("text", { x: 2, y: y(hi) + 4, "font-size": 10, text: String(hi) }));
  svg.append(el("text", { x: 2, y: y(lo) + 4, "font-size": 10, text: String(lo) }));
  for (let i = 0; i <= rounds.length; i++) svg.append(el("text", { x: x(i) - 3, y: H - 6, "font-size": 10, text: String(i) }));
  sheet.sides.forEach((side, k) => {
    const pts = [[x(0), y(0)], ...rounds.map((r, i) => [x(i + 1), y(r.running[k])])];
    svg.append(el("polyline", { points: pts.map(p => p.join(",")).join(" "), fill: "none", stroke: COLOURS[k % COLOURS.length], "stroke-width": 2.5 }));
    pts.slice(1).forEach(p => svg.append(el("circle", { cx: p[0], cy: p[1], r: 3, fill: COLOURS[k % COLOURS.length] })));
  });
  return el("div", {}, svg, el("div", { class: "legend" }, sheet.sides.map((s, k) => el("span", {},
    el("svg", { width: 14, height: 10 }, el("rect", { width: 14, height: 10, fill: COLOURS[k % COLOURS.length] })), " ", s.name))));
}

async function showSheet(id) {
  const sheet = await api("GET", `/api/games/${id}`);
  document.getElementById("where").textContent = `game ${id} · ${sheet.rules}`;
  const head = el("tr", {}, el("th", {}, "Round"), sheet.sides.map(s => el("th", { class: "num" }, s.name)), el("th", {}));
  const rows = sheet.rounds.map(r => el("tr", { class: r.confirmed ? "" : "open", "data-round": r.number },
    el("td", {}, el("a", { href: `#/g/${id}/r/${r.number}` }, `${r.number}${r.confirmed ? "" : " (open)"}${r.has_error ? " !" : ""}`)),
    r.totals.map((t, k) => el("td", { class: "num" + (t < 0 ? " neg" : "") }, signed(t),
      r.confirmed ? el("div", { class: "muted" }, `= ${r.running[k]}`) : null)),
    el("td", {}, r.confirmed ? el("button", { class: "plain", onclick: () => guarded(async () => {
      await api("POST", `/api/games/${id}/rounds/${r.number}/reopen`); go(`#/g/${id}/r/${r.number}`);
    }) }, "Edit") : null)));
  const foot = el("tr", {}, el("td", {}, "Total"), sheet.totals.map(t => el("td", { class: "num total-cell" }, String(t))), el("td", {}));
  const table = el("table", { id: "sheet" }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, foot));
  const next = sheet.open_round || (sheet.finished ? null : (sheet.rounds.length + 1));
  const actions = el("div", { class: "row" },
    next ? el("button", { id: "next-round", onclick: () => guarded(async () => {
      const r = await api("POST", `/api/games/${id}/rounds`); go(`#/g/${id}/r/${r.number}`);
    }) }, sheet.open_round ? `Continue round ${next}` : `Start round ${next}`) : null,
    sheet.rounds.length ? el("button", { class: "danger", id: "undo-round", onclick: () => guarded(async () => {
      const last = sheet.rounds[sheet.rounds.length - 1].number;
      if (!confirm(`Remove round ${last} and its photos?`)) return;
      await api("POST", `/api/games/${id}/undo`); say(`Round ${last} removed.`, true); showSheet(id);
    }) }, "Undo last round") : null,
    el("a", { class: "button plain", href: `#/g/${id}/audit` }, "Audit"),
    el("a", { class: "button plain", href: withToken(`/api/games/${id}/export.csv`) }, "CSV"),
    el("a", { class: "button plain", href: withToken(`/api/games/${id}/export.json`) }, "JSON"));
  const winner = sheet.winner ? el("p", { class: "winner" }, `Winner: ${sheet.winner.join(" and ")}`) : null;
  view().replaceChildren(
    el("section", {}, el("h1", {}, `Game ${id}: score sheet`),
      el("p", { class: "muted" }, `${sheet.rules} · ${sheet.rounds.filter(r => r.confirmed).length} of ${sheet.rounds_in_game} rounds confirmed`),
      table, winner, actions),
    el("section", {}, el("h2", {}, "Totals by round"), chart(sheet)));
}

// ------------------------------------------------------------------ a round

let queueTimer = null;

async function uploadPhotos(game, number, side, role, files, status) {
  for (const file of files) {
    const q = await api("GET", "/api/queue").catch(() => ({ busy: 0, seconds_per_photo: 20 }));
    const guess = Math.round(q.seconds_per_photo * (q.busy + 1));
    const start = Date.now();
    const tick = () => {
      const s = Math.round((Date.now() - start) / 1000);
      status.textContent = `Reading ${file.name || "the photo"}… ${s} s (about ${guess} s${q.busy ? `, ${q.busy} ahead` : ""})`;
    };
    tick();
    clearInterval(queueTimer);
    queueTimer = setInterval(tick, 1000);
    try {
      await api("POST", `/api/games/${game}/rounds/${number}/sides/${side}/photos?role=${role}&name=${encodeURIComponent(file.name || "")}`, file);
    } finally {
      clearInterval(queueTimer);
      status.textContent = "";
    }
  }
}

function photoFigure(round, side, photo) {
  const img = el("img", { src: withToken(`/api/photos/${photo.id}/image`), alt: `${photo.role} photo ${photo.label}` });
  const svg = el("svg", { viewBox: `0 0 ${photo.width} ${photo.height}`, preserveAspectRatio: "none" });
  const fontSize = Math.max(photo.width, photo.height) / 24;
  for (const card of photo.cards) {
    const boxes = card.corners && card.corners.length ? card.corners : [card.box];
    const g = el("g", { class: "cardbox", "data-index": card.index, "data-class": card.class, "data-photo": photo.id,
      onclick: () => editCard(round, side, photo, card) });
    for (const [x1, y1, x2, y2] of boxes) {
      g.append(el("rect", { x: x1, y: y1, width: Math.max(x2 - x1, 4), height: Math.max(y2 - y1, 4),
        stroke: PLACE_COLOUR[card.place] || "#2ecc40" }));
    }
    const [x1, y1] = boxes[0];
    g.append(el("text", { x: x1, y: Math.max(y1 - fontSize * 0.2, fontSize), "font-size": fontSize, text: card.class + (card.fixed ? "*" : "") }));
    svg.append(g);
  }
  return el("figure", { class: "photo", "data-photo": photo.id },
    el("div", { class: "frame" }, img, svg),
    el("figcaption", { class: "cap" },
      el("span", {}, `${photo.role} · ${photo.cards.length} cards${photo.seconds ? ` · read in ${photo.seconds} s` : ""}`),
      el("a", { href: withToken(`/api/photos/${photo.id}/annotated`), target: "_blank" }, "annotated picture"),
      round.confirmed ? null : el("button", { class: "plain", onclick: () => guarded(async () => {
        if (!confirm("Remove this photo from the round?")) return;
        await api("DELETE", `/api/games/${round.game}/rounds/${round.number}/photos/${photo.id}`); showRound(round.game, round.number);
      }) }, "Remove")));
}

function editCard(round, side, photo, card) {
  if (round.confirmed) { say("This round is confirmed: tap Edit round first."); return; }
  const dialog = document.getElementById("card-dialog");
  const select = document.getElementById("card-new");
  select.replaceChildren(...CLASSES.map(c => el("option", { value: c, selected: c === card.class }, c)));
  document.getElementById("card-what").textContent =
    `${side.name}: a ${card.class} (confidence ${card.conf}) on the ${photo.role} photo. What is it?`;
  dialog.onclose = () => {
    const what = dialog.returnValue;
    if (what !== "change" && what !== "remove") return;
    guarded(async () => {
      await api("POST", `/api/games/${round.game}/rounds/${round.number}/sides/${side.position}/corrections`,
        { photo: photo.id, card: card.index, to: what === "remove" ? null : select.value });
      await showRound(round.game, round.number);
    });
  };
  dialog.returnValue = "";
  dialog.showModal();
}

function sideSection(round, side) {
  const base = `/api/games/${round.game}/rounds/${round.number}/sides/${side.position}`;
  const refresh = () => showRound(round.game, round.number);
  const status = el("p", { class: "busy", "aria-live": "polite" });
  // the camera (capture) or, for photos already taken, the phone's files
  const picker = (role, label, multiple, camera) => el("label", { class: camera ? "upload" : "upload plain" }, label,
    el("input", { type: "file", accept: "image/*", capture: camera ? "environment" : null, multiple, "data-role": role,
      onchange: ev => {
        const files = [...ev.target.files];
        ev.target.value = "";
        guarded(async () => {
          try { await uploadPhotos(round.game, round.number, side.position, role, files, status); } finally { await refresh(); }
        });
      } }));
  const facts = el("div", { class: "row" }, ["went_out", "perfect_deal"].map(key => el("label", { class: "check" },
    el("input", { type: "checkbox", checked: side[key], disabled: round.confirmed, "data-fact": key,
      onchange: ev => guarded(async () => { await api("PATCH", base, { [key]: ev.target.checked }); await refresh(); }) }),
    key === "went_out" ? "went out" : "perfect deal (22 cards)")));
  const lines = el("table", { class: "lines" }, el("tbody", {}, side.lines.map(l => el("tr", {},
    el("td", {}, l.label), el("td", { class: "num" + (l.points < 0 ? " neg" : "") }, signed(l.points))))),
  el("tfoot", {}, el("tr", {}, el("td", {}, "total"), el("td", { class: "num side-total" }, String(side.total)))));
  const findings = side.findings.map(f => el("div", { class: `finding ${f.level}` }, `${f.level}: ${f.message}`));
  const ranks = [...new Set(side.photos.flatMap(p => p.cards.filter(c => c.place === "meld").map(c => c.class)))];
  const addClass = el("select", { "aria-label": "card to add" }, CLASSES.filter(c => c !== "BACK").map(c => el("option", { value: c }, c)));
  const addWhere = el("select", { "aria-label": "where" }, el("option", { value: "table" }, "on the table"),
    el("option", { value: "leftover" }, "left in hand/foot"), ranks.map(r => el("option", { value: r }, `in the meld of ${r}`)));
  const add = round.confirmed ? null : el("div", { class: "row" }, "Missed a card? ", addClass, addWhere,
    el("button", { class: "plain", onclick: () => guarded(async () => {
      await api("POST", `${base}/corrections`, { add: addClass.value, where: addWhere.value }); await refresh();
    }) }, "Add"));
  const corrections = side.corrections.map(c => el("div", { class: "corr" }, c.text, round.confirmed ? null :
    el("button", { class: "plain", onclick: () => guarded(async () => {
      await api("DELETE", `/api/games/${round.game}/rounds/${round.number}/corrections/${c.id}`); await refresh();
    }) }, "undo")));
  return el("section", { class: "side", "data-side": side.position },
    el("h2", {}, el("span", {}, side.name + (side.members.length ? ` (${side.members.join(", ")})` : "")),
      el("span", { class: "total" }, String(side.total))),
    round.confirmed ? null : el("div", { class: "row" }, picker("table", "Table photo", false, true),
      picker("leftover", side.members.length > 1 ? "Leftover photos (one per player)" : "Leftover photo(s)", true, true)),
    round.confirmed ? null : el("div", { class: "row muted" }, "or pick files: ", picker("table", "table", false, false),
      picker("leftover", "leftover", true, false)),
    status,
    side.photos.length ? null : el("p", { class: "muted" }, "No photos yet: photograph the melds, then the cards left in hand and foot."),
    side.photos.map(p => photoFigure(round, side, p)),
    side.photos.length ? el("p", { class: "muted" }, "Tap a card to change or remove it.") : null,
    add, corrections.length ? el("div", {}, el("b", {}, "Corrections"), corrections) : null,
    facts, findings, lines);
}

async function showRound(game, number) {
  const round = await api("GET", `/api/games/${game}/rounds/${number}`);
  document.getElementById("where").textContent = `game ${game} · round ${number}`;
  const confirmBtn = round.confirmed
    ? el("button", { class: "plain", id: "edit-round", onclick: () => guarded(async () => {
      await api("POST", `/api/games/${game}/rounds/${number}/reopen`); await showRound(game, number);
    }) }, "Edit round")
    : el("button", { id: "confirm-round", onclick: () => guarded(async () => {
      if (round.has_error && !confirm("The cards break the rules (see the errors). Confirm these totals anyway?")) return;
      await api("POST", `/api/games/${game}/rounds/${number}/confirm`); go(`#/g/${game}`);
    }) }, `Confirm round ${number}`);
  view().replaceChildren(
    el("p", {}, el("a", { href: `#/g/${game}` }, "← score sheet")),
    el("h1", {}, `Round ${number}${round.confirmed ? " (confirmed)" : ""}`),
    ...round.sides.map(s => sideSection(round, s)),
    el("div", { class: "row" }, confirmBtn));
}

// ------------------------------------------------------------------ audit: the totals players wrote down

async function showAudit(game) {
  const sheet = await api("GET", `/api/games/${game}`);
  document.getElementById("where").textContent = `game ${game} · audit`;
  const pick = el("select", { id: "audit-round" }, sheet.rounds.map(r => el("option", { value: r.number }, `round ${r.number}`)));
  const inputs = sheet.sides.map(s => el("input", { type: "number", inputmode: "numeric", "data-side": s.name, placeholder: s.name }));
  const out = el("div", { id: "audit-out" });
  const run = () => guarded(async () => {
    const claimed = {};
    inputs.forEach(i => { if (i.value !== "") claimed[i.dataset.side] = parseInt(i.value, 10); });
    const audit = await api("POST", `/api/games/${game}/rounds/${pick.value}/audit`, { claimed });
    out.replaceChildren(el("div", {},
      el("table", {}, el("thead", {}, el("tr", {}, ["side", "claimed", "found", "difference"].map(h => el("th", {}, h)))),
        el("tbody", {}, audit.sides.map(s => el("tr", {}, el("td", {}, s.name), el("td", { class: "num" }, s.claimed),
          el("td", { class: "num" }, s.found), el("td", { class: "num" + (s.difference ? " neg" : "") }, s.difference ? signed(s.difference) : "0"))))),
      audit.sides.map(s => s.difference === 0 ? el("p", {}, `${s.name}: the claim matches.`) : el("div", {},
        el("p", {}, el("b", {}, s.name), `: claimed ${s.claimed}, found ${s.found} (${signed(s.difference)}).`),
        s.explained_by.length ? s.explained_by.map(c => el("p", { class: "muted" }, "the claim leaves out: " +
          c.map(l => `${l.label} (${signed(l.points)})`).join(" + ")))
          : el("p", { class: "muted" }, "no set of breakdown lines accounts for the difference: check the cards below"))),
      audit.least_sure.length ? el("div", {}, el("h2", {}, "Cards the detector was least sure of"),
        el("table", {}, el("tbody", {}, audit.least_sure.map(u => el("tr", {}, el("td", {}, u.side), el("td", {}, u.class),
          el("td", { class: "num" }, u.conf.toFixed(2)), el("td", {}, u.meld ? `meld ${u.meld}` : (u.place || "-"))))))) : null));
  });
  view().replaceChildren(el("p", {}, el("a", { href: `#/g/${game}` }, "← score sheet")),
    el("section", {}, el("h1", {}, "Audit: the totals you wrote down"),
      sheet.rounds.length ? el("div", {}, el("label", {}, "Round ", pick),
        inputs.map(i => el("label", {}, i.dataset.side, " ", i)),
        el("button", { id: "audit-run", onclick: run }, "Check"), out)
        : el("p", {}, "No rounds yet.")));
}

window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);
