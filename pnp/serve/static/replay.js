// pnp studio: the replay page. Plain JavaScript, no library, no build step.
//
// It lists the games of the report files the studio was started with (/api/replays), plays one
// (/api/replay, a page of steps at a time) and shows, after each step, what happened (the transcript's
// sentences), where the game stands, each seat's score, figures, hand and cards in front of it, the
// cards that belong to nobody, and, for a game with a hex map, the board with the kit's own pieces.
// Every text from the game's data goes into the page as text (textContent), never as markup.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const PAGE = 200;
const CARD_DPI = 60;

const state = {
  query: null,      // the URLSearchParams naming the game being replayed
  info: null,       // title, seats, total, map, pieces, cards
  steps: [],        // steps fetched so far, by index
  at: 0,
  fetching: null,
};

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function status(text) {
  $("status").textContent = text;
}

async function getJSON(url) {
  const response = await fetch(url);
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(data.error || `${response.status}`);
  return data;
}

// ---------------------------------------------------------------- the list of games

async function loadList() {
  try {
    const data = await getJSON("/api/replays");
    const list = $("game-list");
    list.replaceChildren();
    data.games.forEach((game, index) => {
      const bots = game.bots.join(", ");
      const variant = game.variant ? `, variant ${game.variant}` : "";
      const button = el("button", { type: "button", class: "linkish", onclick: () => openGame(new URLSearchParams({ game: index })) },
        game.label);
      list.append(el("li", {}, button, el("span", { class: "note", text: ` seed ${game.seed}, ${bots}${variant} (${game.report})` })));
    });
    $("no-games").hidden = data.games.length > 0;
    status(data.games.length ? `${data.games.length} reported games` : "No report given");
    const q = new URLSearchParams(location.search);
    if (q.has("game") || q.has("seed")) openGame(q, Number(q.get("step") || 0));
  } catch (err) {
    status(`Cannot list the games: ${err.message}`);
  }
}

$("seed-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const q = new URLSearchParams({ seed: $("seed").value });
  if ($("players").value) q.set("players", $("players").value);
  if ($("bots").value.trim()) q.set("bots", $("bots").value.trim());
  openGame(q);
});

// ---------------------------------------------------------------- playing one game

async function fetchPage(start) {
  const q = new URLSearchParams(state.query);
  q.set("from", String(start));
  q.set("count", String(PAGE));
  const data = await getJSON(`/api/replay?${q}`);
  data.steps.forEach((step, i) => { state.steps[start + i] = step; });
  return data;
}

async function openGame(query, step = 0) {
  state.query = query;
  state.steps = [];
  status("Playing the game…");
  try {
    const data = await fetchPage(0);
    state.info = data;
    $("stage").hidden = false;
    $("game-title").textContent = `${data.title}, seed ${data.seed}`;
    $("seats-line").textContent = "Seats: " + data.seats.map((s) => `${s.name} (${s.bot})`).join(", ") +
      (data.over ? "" : ". The replay stops here: the game goes on past the steps the page keeps.");
    $("slider").max = String(data.total - 1);
    // the pieces' pictures could not be drawn (stopped in the preview process): say why, draw discs
    $("pieces-note").hidden = !data.pieces_error;
    $("pieces-note").textContent = data.pieces_error ? `The pieces are shown as discs: ${data.pieces_error}` : "";
    drawBoardBase();
    await show(Math.min(step, data.total - 1));
    status(`${data.total} steps`);
    const shown = new URLSearchParams(query);
    history.replaceState(null, "", `/replay?${shown}`);
  } catch (err) {
    status(`Cannot replay it: ${err.message}`);
  }
}

async function show(index) {
  if (!state.info) return;
  index = Math.max(0, Math.min(index, state.info.total - 1));
  if (!state.steps[index]) {
    const start = Math.floor(index / PAGE) * PAGE;
    status("Loading steps…");
    await fetchPage(start);
    status(`${state.info.total} steps`);
  }
  state.at = index;
  const step = state.steps[index];
  $("slider").value = String(index);
  $("step-count").textContent = `step ${index + 1} of ${state.info.total}`;
  $("note").textContent = step.view.note || "";
  $("lines").replaceChildren(...step.lines.map((line) => el("li", { text: line })));
  drawSeats(step.view);
  drawMiddle(step.view.middle || {});
  drawPieces(step.view.board);
}

// ---------------------------------------------------------------- cards, seats, middle

function cardTile(entry) {
  const id = typeof entry === "string" ? entry : entry.card;
  const note = typeof entry === "string" ? null : entry.note;
  const name = (state.info.cards && state.info.cards[id]) || id;
  const tile = el("figure", { class: "replay-card" + (note ? " noted" : ""), title: name });
  const img = el("img", { src: `/api/cards/${encodeURIComponent(id)}.png?dpi=${CARD_DPI}`, alt: name, loading: "lazy" });
  img.addEventListener("error", () => { img.replaceWith(el("span", { class: "card-name", text: name })); });
  tile.append(img, el("figcaption", { text: note ? `${name} (${note})` : name }));
  return tile;
}

function drawSeats(view) {
  const box = $("seats");
  box.replaceChildren();
  view.seats.forEach((seat, i) => {
    const who = state.info.seats[i];
    const figures = Object.entries(seat.figures).map(([k, v]) => `${k} ${v}`).join(" · ");
    const part = el("section", { class: "seat" },
      el("h3", { text: `${seat.name ? `${seat.name}: ` : ""}${who.name} (${who.bot}), ${seat.score}` }),
      el("p", { class: "note", text: figures }));
    if (seat.hand.length) part.append(el("p", { class: "label", text: "Hand" }), el("div", { class: "cards" }, ...seat.hand.map(cardTile)));
    if (seat.table.length) part.append(el("p", { class: "label", text: "In front" }), el("div", { class: "cards" }, ...seat.table.map(cardTile)));
    box.append(part);
  });
}

function drawMiddle(middle) {
  const box = $("middle");
  box.replaceChildren();
  for (const [label, cards] of Object.entries(middle)) {
    if (!cards.length) continue;
    box.append(el("section", { class: "seat" }, el("h3", { text: label }), el("div", { class: "cards" }, ...cards.map(cardTile))));
  }
}

// ---------------------------------------------------------------- the board

function drawBoardBase() {
  const map = state.info.map;
  $("board-wrap").hidden = !map;
  const board = $("board");
  board.replaceChildren();
  if (!map) return;
  const [x, y, w, h] = map.box;
  board.setAttribute("viewBox", `${x - 2} ${y - 2} ${w + 4} ${h + 4}`);
  state.centres = {};
  const hexes = svg("g", { class: "hexes" });
  for (const hex of map.hexes) {
    state.centres[hex.id] = [hex.x, hex.y];
    hexes.append(svg("polygon", { points: hex.points, fill: hex.colour, stroke: "#555", "stroke-width": 0.3 }));
    hexes.append(svg("text", { x: hex.x, y: hex.y - map.size * 0.34, "font-size": map.size * 0.13, "text-anchor": "middle",
      fill: "#333" }, hex.id));
  }
  board.append(hexes, svg("g", { id: "holdings" }), svg("g", { id: "items" }), svg("g", { id: "pieces" }));
}

function drawPieces(boardView) {
  const map = state.info.map;
  if (!map || !boardView) return;
  const sides = map.sides;
  const size = map.size;
  const holdings = $("holdings");
  holdings.replaceChildren();
  for (const h of boardView.holdings) {
    const [cx, cy] = state.centres[h.at] || [0, 0];
    const colour = (sides[h.side] || {}).colour || "#000";
    holdings.append(svg("circle", { cx, cy, r: size * 0.46, fill: "none", stroke: colour, "stroke-width": 1.2 }));
    if (h.altar) holdings.append(svg("text", { x: cx, y: cy + size * 0.44, "font-size": size * 0.14, "text-anchor": "middle",
      fill: colour }, "altar"));
  }
  const items = $("items");
  items.replaceChildren();
  for (const item of boardView.items) {
    const ends = item.at.split("/").map((id) => state.centres[id]).filter(Boolean);
    if (!ends.length) continue;
    const cx = ends.reduce((s, c) => s + c[0], 0) / ends.length;
    const cy = ends.reduce((s, c) => s + c[1], 0) / ends.length;
    items.append(svg("rect", { x: cx - size * 0.2, y: cy - size * 0.06, width: size * 0.4, height: size * 0.12,
      fill: item.kind === "bridge" ? "#8a5a2b" : "#c9a66b", stroke: "#4a3010", "stroke-width": 0.2 }),
    svg("title", {}, item.kind));
  }
  const layer = $("pieces");
  layer.replaceChildren();
  const byHex = {};
  for (const p of boardView.pieces) (byHex[p.at] = byHex[p.at] || []).push(p);
  for (const [at, here] of Object.entries(byHex)) {
    const [cx, cy] = state.centres[at] || [0, 0];
    const n = here.length;
    const piece = n === 1 ? size * 0.62 : size * 0.36;
    here.forEach((p, i) => {
      const angle = (2 * Math.PI * i) / n;
      const r = n === 1 ? 0 : size * 0.24;
      const x = cx + r * Math.cos(angle) - piece / 2;
      const y = cy + r * Math.sin(angle) - piece / 2;
      const colour = (sides[p.side] || {}).colour || "#000";
      const g = svg("g", {});
      const picture = state.info.pieces && state.info.pieces[p.kind];
      if (picture) g.append(svg("image", { href: picture, x, y, width: piece, height: piece }));
      else g.append(svg("circle", { cx: x + piece / 2, cy: y + piece / 2, r: piece / 2, fill: colour }));
      g.append(svg("rect", { x, y, width: piece, height: piece, fill: "none", stroke: p.possessed ? "#7a1fa2" : colour,
        "stroke-width": p.possessed ? 0.9 : 0.4, "stroke-dasharray": p.possessed ? "1.2 0.6" : "none" }));
      const name = map.kinds[p.kind] || p.kind;
      g.append(svg("title", {}, `${name} (${(sides[p.side] || {}).name || p.side})${p.possessed ? ", possessed" : ""}`));
      layer.append(g);
    });
  }
}

// ---------------------------------------------------------------- controls

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(state.at - 1));
$("next").addEventListener("click", () => show(state.at + 1));
$("last").addEventListener("click", () => show(state.info ? state.info.total - 1 : 0));
$("slider").addEventListener("input", (event) => show(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
  if (event.key === "ArrowRight") show(state.at + 1);
  else if (event.key === "ArrowLeft") show(state.at - 1);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(state.info ? state.info.total - 1 : 0);
  else return;
  event.preventDefault();
});

loadList();
