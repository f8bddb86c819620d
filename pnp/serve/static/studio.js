// pnp studio: the page's script. Plain JavaScript, no library, no build step.
//
// The page asks /api/game for everything it shows and listens to /api/events (server-sent events):
// when the server says a new view is ready, it asks again and updates what changed. Pictures are
// named by content hash, so an unchanged card keeps its <img> and nothing is fetched again.
// Every text from the game's data goes into the page as text (textContent), never as markup.
"use strict";

const state = {
  data: null,
  options: { paper: "", lang: "", bleed: 0 },
  trim: false,
  safe: false,
  filter: "",
  openCard: null,       // id of the card shown large
  openSide: "a",        // which side of it: "a", or "b" for a double-sided card turned over
  loading: false,
  again: false,
  tiles: new Map(),     // card id -> tile element, reused between updates
};

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const copies = (n) => `${n} ${n === 1 ? "copy" : "copies"}`;

// ---------------------------------------------------------------- options in the address

function readAddress() {
  const q = new URLSearchParams(location.search);
  state.options.paper = q.get("paper") || "";
  state.options.lang = q.get("lang") || "";
  state.options.bleed = Number(q.get("bleed") || 0) || 0;
  state.trim = q.get("trim") === "1";
  state.safe = q.get("safe") === "1";
  state.filter = q.get("q") || "";
}

function writeAddress() {
  const q = new URLSearchParams();
  if (state.options.paper) q.set("paper", state.options.paper);
  if (state.options.lang) q.set("lang", state.options.lang);
  if (state.options.bleed) q.set("bleed", String(state.options.bleed));
  if (state.trim) q.set("trim", "1");
  if (state.safe) q.set("safe", "1");
  if (state.filter) q.set("q", state.filter);
  const search = q.toString();
  history.replaceState(null, "", search ? `?${search}${location.hash}` : location.pathname + location.hash);
}

function optionQuery(extra = {}) {
  const q = new URLSearchParams();
  if (state.options.paper) q.set("paper", state.options.paper);
  q.set("lang", state.options.lang || "");
  q.set("bleed", String(state.options.bleed || 0));
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

// ---------------------------------------------------------------- status

function setStatus(text, kind) {
  const node = $("status");
  node.textContent = text;
  node.className = `status ${kind || ""}`;
}

function describeState(data) {
  const when = new Date().toLocaleTimeString();
  const changed = data.changed && data.changed.length ? ` after ${data.changed.slice(0, 3).join(", ")} changed` : "";
  if (!data.checked) return [`Updated${changed} at ${when}; checking the rest…`, "busy"];
  if (data.errors) return [`${data.errors} problem${data.errors === 1 ? "" : "s"}${changed} · ${when}`, "bad"];
  return [`Up to date${changed} · ${when}`, "ok"];
}

// ---------------------------------------------------------------- loading

// The session's token, which every POST sends (the server puts it in the page; another site's page
// cannot read it).
function postHeaders() {
  const meta = document.querySelector('meta[name="pnp-token"]');
  return { "X-Pnp-Token": meta ? meta.content : "" };
}

async function load() {
  if (state.loading) { state.again = true; return; }
  state.loading = true;
  try {
    const response = await fetch(`/api/game?${optionQuery()}`, { cache: "no-store" });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    state.data = data;
    render(data);
    const [text, kind] = describeState(data);
    setStatus(text, kind);
  } catch (error) {
    setStatus(`Could not load the game: ${error.message}`, "bad");
  } finally {
    state.loading = false;
    if (state.again) { state.again = false; load(); }
  }
}

function render(data) {
  document.title = `${data.title} · pnp studio`;
  $("title").textContent = data.title;
  document.body.dataset.version = String(data.version);
  document.body.dataset.checked = data.checked ? "1" : "0";
  fillChoices(data);
  renderProblems(data);
  renderDecks(data);
  renderComponents(data);
  renderEngine(data);
  renderDownloads(data);
  applyFilter();
  if (state.openCard) showCard(state.openCard, false);
}

function fillChoices(data) {
  const paper = $("paper");
  if (!paper.options.length) {
    for (const name of data.choices.papers) paper.append(el("option", { value: name, text: name }));
  }
  paper.value = data.options.paper;
  const lang = $("lang");
  const wanted = ["", ...data.choices.languages.filter((l) => l !== data.choices.language)];
  if (lang.options.length !== wanted.length) {
    lang.replaceChildren(...wanted.map((l) => el("option", { value: l, text: l || `${data.choices.language} (the game's)` })));
  }
  lang.value = data.options.lang || "";
  if (lang.value !== (data.options.lang || "")) {   // a language the game does not have: list it anyway
    lang.append(el("option", { value: data.options.lang, text: data.options.lang }));
    lang.value = data.options.lang;
  }
  $("show-bleed").checked = data.options.bleed > 0;
}

// ---------------------------------------------------------------- problems

function whereButton(where, label) {
  if (!where || !where.file) return null;
  const text = label || `${where.file}${where.line ? `:${where.line}` : ""}${where.column ? `:${where.column}` : ""}`;
  if (!where.viewable) return el("code", { text });
  return el("button", { type: "button", class: "link", text, title: "Show the file", onclick: (e) => {
    e.stopPropagation();
    showSource(where.file, where.line);
  } });
}

function problemItem(problem) {
  const item = el("li", { class: problem.warning ? "warning" : "" });
  if (problem.file) {
    item.append(whereButton(problem), ": ");
    item.append(problem.text.slice(problem.text.indexOf(": ") + 2));
  } else {
    item.append(problem.text);
  }
  return item;
}

function renderProblems(data) {
  const box = $("problems");
  if (!data.problems.length) { box.hidden = true; box.replaceChildren(); return; }
  const errors = data.errors;
  const warnings = data.problems.length - errors;
  const title = errors
    ? `${errors} problem${errors === 1 ? "" : "s"} to fix${warnings ? ` (and ${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`
    : `${warnings} warning${warnings === 1 ? "" : "s"}`;
  box.className = errors ? "problems" : "problems warnings-only";
  box.replaceChildren(el("h2", { text: title }), el("ul", {}, ...data.problems.map(problemItem)));
  box.hidden = false;
}

// ---------------------------------------------------------------- cards

// Whether a picture was shown (loaded): the one that takes its place is fetched at once instead of
// lazily, which waits for the page's next layout to find it in view.
const shown = (img) => Boolean(img && img.complete && img.naturalWidth > 0);

function faceBox(deck, image, alt, eager) {
  const face = el("div", { class: "face" });
  const bleed = deck.bleed || 0;
  const w = deck.width + 2 * bleed, h = deck.height + 2 * bleed;
  face.style.aspectRatio = `${w} / ${h}`;
  if (image) face.append(el("img", { src: image, alt: alt || "", loading: eager ? "eager" : "lazy", draggable: "false" }));
  const trim = el("div", { class: "trim" });
  place(trim, bleed, bleed, deck.width, deck.height, w, h);
  const safe = el("div", { class: "safe" });
  place(safe, bleed + deck.safe, bleed + deck.safe, deck.width - 2 * deck.safe, deck.height - 2 * deck.safe, w, h);
  face.append(trim, safe);
  return face;
}

function place(node, x, y, width, height, w, h) {
  node.style.left = `${(100 * x) / w}%`;
  node.style.top = `${(100 * y) / h}%`;
  node.style.width = `${(100 * width) / w}%`;
  node.style.height = `${(100 * height) / h}%`;
}

function brokenBox(deck, card) {
  const box = el("div", { class: "face broken" });
  box.style.aspectRatio = `${deck.width + 2 * (deck.bleed || 0)} / ${deck.height + 2 * (deck.bleed || 0)}`;
  const problems = card.problems.length ? card.problems : [{ text: card.error }];
  box.append(el("strong", { text: card.problems.length ? "Problem" + (problems.length > 1 ? "s" : "") : "Cannot be drawn" }));
  box.append(el("ul", {}, ...problems.map((p) => el("li", { text: p.message || p.text }))));
  return box;
}

function cardTile(deck, card) {
  let tile = state.tiles.get(card.id);
  const signature = JSON.stringify([card.image, card.name, card.copies, card.problems, card.error, deck.bleed,
    deck.width, deck.height, card.warnings.length, card.side_b && card.side_b.name]);
  if (tile && tile.dataset.signature === signature) {
    tile.dataset.search = card.search;
    return tile;
  }
  const face = card.image ? faceBox(deck, card.image, card.name, tile && shown(tile.querySelector("img"))) :
    brokenBox(deck, card);
  const fresh = el("figure", { class: `tile${card.warnings.length ? " warned" : ""}`, tabindex: "0",
    "data-id": card.id, "data-search": card.search, "data-signature": signature,
    onclick: () => showCard(card.id, true),
    onkeydown: (e) => { if (e.key === "Enter") showCard(card.id, true); } },
  face,
  el("figcaption", {}, el("span", { class: "name", text: card.name, title: card.name }),
    card.side_b ? el("span", { class: "sides", text: "2 sides", title: `Side B: ${card.side_b.name}` }) : null,
    el("span", { class: "copies", text: `×${card.copies}` })));
  if (tile) tile.replaceWith(fresh);
  state.tiles.set(card.id, fresh);
  return fresh;
}

// Each deck as last drawn: id -> [its data as JSON, its element]. A deck whose data did not change keeps
// its element; its tiles are brought up to date in place (cardTile).
const drawnDecks = new Map();

// ``node``'s children replaced by ``nodes``, unless they are those already (moving them is not free).
function replaceChildrenIfChanged(node, nodes) {
  const now = node.children;
  if (now.length === nodes.length && nodes.every((n, i) => now[i] === n)) return;
  node.replaceChildren(...nodes);
}

function renderDecks(data) {
  const byId = new Map(data.cards.map((c) => [c.id, c]));
  const decks = data.decks.map((deck) => {
    const signature = JSON.stringify(deck);
    const drawn = drawnDecks.get(deck.id);
    if (drawn && drawn[0] === signature) {
      for (const group of deck.groups) for (const id of group.cards) cardTile(deck, byId.get(id));
      return drawn[1];
    }
    const groups = deck.groups.map((group) => {
      const swatch = el("span", { class: "swatch" });
      if (group.colour) swatch.style.background = group.colour;
      // a deck whose cards have no faction or category: no heading repeating the deck's
      const heading = deck.groups.length === 1 && !group.id ? null :
        el("h4", {}, group.colour ? swatch : null, group.name,
          el("small", { text: ` ${plural(group.cards.length, "card")}, ${copies(group.copies)}` }));
      return el("section", { class: "group", "data-group": group.id }, heading,
        el("div", { class: "grid" }, ...group.cards.map((id) => cardTile(deck, byId.get(id)))));
    });
    const extras = el("div", { class: "grid extras" }, ...deck.extras.map((extra) => el("figure", { class: "tile" },
      extra.image ? faceBox(deck, extra.image, extra.name) : brokenBox(deck, { problems: [], error: extra.error || "not drawn" }),
      el("figcaption", {}, el("span", { class: "name", text: extra.name })))));
    const section = el("section", { class: "deck", id: `deck-${deck.id}`, "data-deck": deck.id },
      el("h3", {}, deck.name, el("small", { text: ` ${plural(deck.distinct, "card")}, ${copies(deck.copies)} · ${deck.width} × ${deck.height} mm` })),
      ...groups, extras);
    drawnDecks.set(deck.id, [signature, section]);
    return section;
  });
  const seen = new Set(data.cards.map((c) => c.id));
  for (const id of [...state.tiles.keys()]) if (!seen.has(id)) state.tiles.delete(id);
  for (const id of [...drawnDecks.keys()]) if (!data.decks.some((d) => d.id === id)) drawnDecks.delete(id);
  replaceChildrenIfChanged($("decks"), decks);
  $("no-cards").hidden = data.cards.length > 0;
}

function applyFilter() {
  const words = state.filter.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0, total = 0;
  for (const tile of state.tiles.values()) {
    const match = words.every((w) => tile.dataset.search.includes(w));
    tile.hidden = !match;
    total += 1;
    if (match) shown += 1;
  }
  for (const group of document.querySelectorAll(".group")) {
    group.hidden = !group.querySelector(".tile:not([hidden])");
  }
  for (const deck of document.querySelectorAll(".deck")) {
    const any = deck.querySelector(".group:not([hidden])");
    deck.hidden = words.length > 0 && !any;
  }
  $("count").textContent = words.length ? `${shown} of ${total} cards` : `${total} cards`;
}

// ---------------------------------------------------------------- the large view

function showCard(id, open, side) {
  const data = state.data;
  const card = data && data.cards.find((c) => c.id === id);
  const dialog = $("card-dialog");
  if (!card) { if (dialog.open) dialog.close(); state.openCard = null; return; }
  const deck = data.decks.find((d) => d.id === card.deck);
  if (id !== state.openCard) state.openSide = "a";     // another card opens on its side A
  if (side) state.openSide = side;
  if (!card.side_b) state.openSide = "a";
  state.openCard = id;
  // a double-sided card turned over shows its side B: its picture, its fields, where it is written
  const shown = state.openSide === "b" ? { ...card, ...card.side_b, problems: card.problems,
    warnings: card.warnings } : card;
  $("card-title").textContent = state.openSide === "b" ? `${card.name} · side B: ${card.side_b.name}` : card.name;
  $("card-large").replaceChildren(shown.large ? faceBox(deck, shown.large, shown.name) : brokenBox(deck, shown));
  $("card-source").replaceChildren("From ", whereButton(shown.source) || "an unknown place");
  $("card-problems").replaceChildren(...card.problems.map(problemItem), ...card.warnings.map(problemItem));
  $("card-fields").tBodies[0].replaceChildren(...shown.fields.map(([key, value]) =>
    el("tr", {}, el("th", { text: key }), el("td", { text: value }))));
  const flip = $("card-flip");
  flip.hidden = !card.side_b;
  flip.textContent = state.openSide === "b" ? "Turn to side A" : "Turn over";
  flip.setAttribute("aria-pressed", state.openSide === "b" ? "true" : "false");
  const link = $("card-png");
  const key = state.openSide === "b" ? `${card.id}@b` : card.id;
  link.href = `/api/cards/${encodeURIComponent(key)}.png?${optionQuery({ dpi: "250" })}`;
  link.hidden = !shown.large;
  if (open && !dialog.open) dialog.showModal();
}

function turnOver() {
  if (state.openCard) showCard(state.openCard, false, state.openSide === "b" ? "a" : "b");
}

function step(delta) {
  const visible = [...document.querySelectorAll("#decks .tile[data-id]:not([hidden])")].map((t) => t.dataset.id);
  const at = visible.indexOf(state.openCard);
  if (at < 0 || !visible.length) return;
  showCard(visible[(at + delta + visible.length) % visible.length], false);
}

async function showSource(file, line) {
  const dialog = $("source-dialog");
  $("source-title").textContent = line ? `${file}:${line}` : file;
  const pre = $("source-text");
  pre.replaceChildren("Loading…");
  if (!dialog.open) dialog.showModal();
  const path = file.split("/").map(encodeURIComponent).join("/");
  try {
    const response = await fetch(`/game/${path}`, { cache: "no-store" });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const text = await response.text();
    const lines = text.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    pre.replaceChildren(...lines.map((l, i) => el("span", { class: i + 1 === line ? "here" : "", text: l || " " })));
    const here = pre.querySelector(".here");
    if (here) here.scrollIntoView({ block: "center" });
  } catch (error) {
    pre.replaceChildren(`Cannot show ${file}: ${error.message}`);
  }
}

// A picture that did not come: its drawing was stopped in the preview process (past the studio's
// limits), or the data cannot give it. The server's answer says why (503 or 404 with the reason as
// text): the page shows that in the picture's place.
async function explainMissing(img) {
  if (img.dataset.missing) return;
  img.dataset.missing = "1";
  let reason = "The picture could not be loaded.";
  try {
    const response = await fetch(img.src, { cache: "no-store" });
    if (response.ok) { img.src = img.src; return; }       // it came this time
    reason = (await response.text()).trim() || `${response.status} ${response.statusText}`;
  } catch (error) {
    reason = `The picture could not be loaded: ${error.message}`;
  }
  const face = img.closest(".face");
  if (face) {
    face.classList.add("broken");
    face.replaceChildren(el("strong", { text: "Cannot be drawn" }), el("ul", {}, el("li", { text: reason })));
  } else if (img.id) {                       // the large page's picture, reused: its text says why
    img.alt = reason;
    img.title = reason;
  } else {
    img.replaceWith(el("div", { class: "broken-note missing", text: reason }));
  }
}

// ---------------------------------------------------------------- components

// The components as last drawn: name -> [its data as JSON, its element], and each page's figure by
// component, file and page: an update whose component did not change keeps its element (a card edit
// redrew every component's pages in the page, hundreds of pictures for a game with boards), and a
// page whose picture changed is fetched at once when the one it replaces was shown.
const drawnComponents = new Map();

function pageFigure(component, file, page, before) {
  const key = `${component.name}/${file.filename}/${page.page}`;
  const signature = JSON.stringify([page.image, page.large, page.width, page.height, file.pages.length]);
  const old = before.get(key);
  if (old && old.dataset.signature === signature) return [key, old];
  return [key, el("figure", { "data-signature": signature },
    el("img", { src: page.image, width: page.width, height: page.height,
      loading: old && shown(old.querySelector("img")) ? "eager" : "lazy",
      alt: `${file.filename} page ${page.page}`,
      onclick: () => showPage(`${file.filename}, page ${page.page} of ${file.pages.length}`, page.large) }),
    el("figcaption", { text: String(page.page) }))];
}

function renderComponents(data) {
  $("checking").hidden = data.checked;
  const list = data.components.map((component) => {
    const signature = JSON.stringify(component);
    const drawn = drawnComponents.get(component.name);
    if (drawn && drawn[0] === signature) return drawn[1];
    const before = drawn ? drawn[2] : new Map();
    const box = el("section", { class: "component", "data-component": component.name },
      el("h3", {}, component.name, component.kind !== component.name ? el("small", { text: ` ${component.kind}` }) : null));
    if (component.error || component.problems.length) {
      box.append(el("div", { class: "broken-note" }, component.error || "",
        component.problems.length ? el("ul", {}, ...component.problems.map(problemItem)) : null));
    }
    const pages = new Map();
    for (const file of component.files) {
      box.append(el("h4", {}, file.filename, el("small", { text: ` ${file.title} · ${file.pages.length} page${file.pages.length === 1 ? "" : "s"}${file.in_kit ? "" : " · not in kit.pdf"}` })));
      box.append(el("div", { class: "pages" }, ...file.pages.map((page) => {
        const [key, figure] = pageFigure(component, file, page, before);
        pages.set(key, figure);
        return figure;
      })));
    }
    drawnComponents.set(component.name, [signature, box, pages]);
    return box;
  });
  for (const name of [...drawnComponents.keys()]) {
    if (!data.components.some((c) => c.name === name)) drawnComponents.delete(name);
  }
  if (!data.checked && !data.components.length) list.push(el("p", { class: "empty", text: "Drawing the components…" }));
  else if (!data.components.length) list.push(el("p", { class: "empty", text: "No components to show." }));
  replaceChildrenIfChanged($("component-list"), list);
}

function showPage(title, src) {
  $("page-title").textContent = title;
  const large = $("page-large");
  delete large.dataset.missing;
  large.alt = "";
  large.title = "";
  large.src = src;
  const dialog = $("page-dialog");
  if (!dialog.open) dialog.showModal();
}

// ---------------------------------------------------------------- engine

function renderEngine(data) {
  const engine = data.engine;
  const body = $("engine-body");
  if (!engine.available) { body.replaceChildren(el("p", { class: "empty", text: engine.reason })); return; }
  const button = el("button", { type: "button", id: "run-engine",
    text: `Play ${engine.games.toLocaleString("en")} seeded games`, onclick: runEngine });
  const parts = [el("p", {}, button, " ", el("span", { id: "engine-status", class: "note",
    text: `seed ${engine.seed}, the engine's default bots and player count` }))];
  const figures = engine.figures;
  if (figures) {
    parts.push(el("p", { class: figures.stale ? "note stale" : "note",
      text: `${figures.games.toLocaleString("en")} games, seed ${figures.seed}, ${figures.players} players, bots ${figures.bots.join(", ")}, ${figures.seconds} s` +
        (figures.stale ? " · the data changed since: play again to update" : "") }));
    parts.push(el("pre", { class: "engine-figures", text: figures.lines.join("\n") }));
  }
  body.replaceChildren(...parts);
}

async function runEngine() {
  const button = $("run-engine");
  button.disabled = true;
  $("engine-status").textContent = "playing…";
  try {
    const response = await fetch("/api/engine", { method: "POST", headers: postHeaders() });
    const result = await response.json();
    if (!response.ok) throw new Error(result.error);
    await load();
  } catch (error) {
    const status = $("engine-status");
    if (status) status.textContent = error.message;
    button.disabled = false;
  }
}

// ---------------------------------------------------------------- downloads

function size(bytes) {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

function renderDownloads(data) {
  $("download-list").replaceChildren(...data.downloads.map((d) => el("li", { class: d.stale ? "stale" : "" },
    el("a", { href: d.url, download: d.name, text: d.name }), ` ${size(d.size)}`,
    d.stale ? " · built before the last change" : "")));
}

async function build(what, button) {
  const status = $("build-status");
  for (const b of document.querySelectorAll("[data-build]")) b.disabled = true;
  status.textContent = `building ${what}…`;
  try {
    const response = await fetch(`/api/build?${optionQuery({ what })}`, { method: "POST", headers: postHeaders() });
    const result = await response.json();
    if (!response.ok) throw new Error(result.error);
    status.textContent = `built ${result.files.length} file${result.files.length === 1 ? "" : "s"}`;
    await load();
  } catch (error) {
    status.textContent = error.message;
  } finally {
    for (const b of document.querySelectorAll("[data-build]")) b.disabled = false;
  }
}

// ---------------------------------------------------------------- wiring

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("hello", () => load());
  events.addEventListener("changed", (e) => {
    const info = JSON.parse(e.data);
    setStatus(`${info.files.slice(0, 3).join(", ") || "Files"} changed: updating…`, "busy");
  });
  // "stopped": a preview was stopped, or the preview process could not start: the next answer says why
  for (const name of ["update", "engine", "downloads", "stopped"]) events.addEventListener(name, () => load());
  events.onerror = () => setStatus("Not connected to the server (stopped?); retrying…", "bad");
}

function setup() {
  readAddress();
  document.body.classList.toggle("show-trim", state.trim);
  document.body.classList.toggle("show-safe", state.safe);
  $("show-trim").checked = state.trim;
  $("show-safe").checked = state.safe;
  $("filter").value = state.filter;

  $("filter").addEventListener("input", (e) => { state.filter = e.target.value; applyFilter(); writeAddress(); });
  $("show-trim").addEventListener("change", (e) => {
    state.trim = e.target.checked; document.body.classList.toggle("show-trim", state.trim); writeAddress();
  });
  $("show-safe").addEventListener("change", (e) => {
    state.safe = e.target.checked; document.body.classList.toggle("show-safe", state.safe); writeAddress();
  });
  $("show-bleed").addEventListener("change", (e) => {
    state.options.bleed = e.target.checked ? (state.data ? state.data.choices.bleed : 3) : 0;
    writeAddress(); setStatus("Drawing…", "busy"); load();
  });
  $("paper").addEventListener("change", (e) => { state.options.paper = e.target.value; writeAddress(); setStatus("Drawing…", "busy"); load(); });
  $("lang").addEventListener("change", (e) => { state.options.lang = e.target.value; writeAddress(); setStatus("Drawing…", "busy"); load(); });
  for (const button of document.querySelectorAll("[data-build]")) {
    button.addEventListener("click", () => build(button.dataset.build, button));
  }
  for (const button of document.querySelectorAll("[data-close]")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  }
  $("card-dialog").addEventListener("close", () => { state.openCard = null; });
  // (error events do not bubble: caught on the way down)
  document.addEventListener("error", (e) => { if (e.target.tagName === "IMG") explainMissing(e.target); }, true);
  $("card-dialog").addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") { step(1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { step(-1); e.preventDefault(); }
    if (e.key === "f" || e.key === "F") { turnOver(); e.preventDefault(); }
  });
  $("card-flip").addEventListener("click", turnOver);
  listen();
}

document.addEventListener("DOMContentLoaded", setup);
