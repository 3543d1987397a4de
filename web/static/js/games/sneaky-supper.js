// Sneaky Supper: the Floorplan mat (the sneak from the bedroom to the kitchen and back, one
// room per card drawn this turn), the noise meter (per-card Noise, Careful cancellations,
// red toward 4), the decks, the bust pick in turn order, your hand and secret Craving with
// composers for Recipes and Cravings (Secret Stash tokens included), the recipe board with
// what your hand can complete, the other players, and the end-of-game tally.
// Keys: D draw, U Utensil deck, R Retreat, B accept the bust, E end the turn, Esc closes a composer.
import { h, svg, seatColor } from "../client.js";

// ---- what the cards look like -----------------------------------------------------------

const GROUP_LABEL = { snack: "Snack", drink: "Drink", raw: "Raw", staple: "Staple", utensil: "Utensil", accident: "Accident" };
const ROOMS = ["Hallway", "Stairs", "Living room", "Kitchen", "Pantry", "Laundry", "Landing"];
const SOURCES = [["recipes", "Recipes"], ["cravings", "Cravings"], ["consumed", "Eaten"], ["careful", "Careful"]];

function art(group, size = 24) {
  const parts = {
    snack: [
      svg("path", { d: "M5 4 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 V21 H5 Z", fill: "#f6b25a", stroke: "#8a5314", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("circle", { cx: 12, cy: 13.5, r: 3.4, fill: "#fff3dc", stroke: "#8a5314", "stroke-width": 1 }),
    ],
    drink: [
      svg("path", { d: "M6 8 H18 L16.4 21 H7.6 Z", fill: "#7cc4f0", stroke: "#1d5f8a", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M12.5 8 L15.5 2.5 H18", fill: "none", stroke: "#d9412b", "stroke-width": 1.6, "stroke-linecap": "round" }),
      svg("circle", { cx: 10, cy: 17.5, r: 1.1, fill: "#1d5f8a" }), svg("circle", { cx: 13.5, cy: 18, r: 1.1, fill: "#1d5f8a" }),
    ],
    raw: [
      svg("ellipse", { cx: 12, cy: 14, rx: 6.5, ry: 7.5, fill: "#fffdf5", stroke: "#7a8f3a", "stroke-width": 1.4 }),
      svg("path", { d: "M12 6.5 C12 3 15 2 17.5 2.5 C17 5 15 6.5 12 6.5 Z", fill: "#6bbf59", stroke: "#2f6a22", "stroke-width": 1 }),
    ],
    staple: [
      svg("path", { d: "M4 11 C3 5 21 5 20 11 C20 12.5 18.5 13 18.5 13 V21 H5.5 V13 C5.5 13 4 12.5 4 11 Z", fill: "#f2d08a", stroke: "#8a6d3b", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M8 15 h8 M8 18 h8", stroke: "#c99a4a", "stroke-width": 1.2, "stroke-linecap": "round" }),
    ],
    utensil: [
      svg("ellipse", { cx: 9, cy: 7, rx: 3.6, ry: 4.6, fill: "#d5dbe2", stroke: "#4f5b68", "stroke-width": 1.4 }),
      svg("path", { d: "M9 11.5 V21.5", stroke: "#4f5b68", "stroke-width": 2.2, "stroke-linecap": "round" }),
      svg("path", { d: "M15 2.5 V9 M17.5 2.5 V9 M20 2.5 V9 M15 9 C15 11 20 11 20 9 M17.5 10.5 V21.5", fill: "none", stroke: "#4f5b68", "stroke-width": 1.4, "stroke-linecap": "round" }),
    ],
    accident: [
      svg("path", { d: "M12 2.5 L22 20.5 H2 Z", fill: "#ffd6cf", stroke: "#a92e1c", "stroke-width": 1.6, "stroke-linejoin": "round" }),
      svg("path", { d: "M12 8.5 V14.5", stroke: "#a92e1c", "stroke-width": 2.2, "stroke-linecap": "round" }),
      svg("circle", { cx: 12, cy: 17.6, r: 1.3, fill: "#a92e1c" }),
    ],
  }[group] || [];
  return svg("svg", { class: "ss-art", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" }, ...parts);
}

/** A loudspeaker with 0, 1 or 3 sound waves; struck through when a Careful token hushed it. */
function speaker(noise, hushed = false) {
  const waves = [];
  if (noise >= 1) waves.push(svg("path", { d: "M11.5 6 C13 7.2 13 10.8 11.5 12" }));
  if (noise >= 2) waves.push(svg("path", { d: "M13.8 4 C16.4 6 16.4 12 13.8 14" }));
  if (noise >= 3) waves.push(svg("path", { d: "M16.1 2 C19.8 5 19.8 13 16.1 16" }));
  return svg("svg", { class: "ss-speaker", viewBox: "0 0 20 18", width: 18, height: 16, "aria-hidden": "true" },
    svg("path", { d: "M1.5 6.5 H4.5 L8.5 3 V15 L4.5 11.5 H1.5 Z", fill: "currentColor" }),
    svg("g", { fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }, ...waves),
    hushed ? svg("path", { d: "M1 16.5 L19 1.5", stroke: "#1f9ea0", "stroke-width": 2.4, "stroke-linecap": "round" }) : null);
}

function star(size = 14) {
  return svg("svg", { class: "ss-star", viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true" },
    svg("path", { d: "M10 1.5 L12.6 7 L18.5 7.6 L14 11.6 L15.3 17.5 L10 14.5 L4.7 17.5 L6 11.6 L1.5 7.6 L7.4 7 Z", fill: "#f7c948", stroke: "#b07d00", "stroke-width": 1.2, "stroke-linejoin": "round" }));
}

/** A Careful token: a teal coin with a finger on the lips. */
function tokenArt(size = 18, empty = false) {
  return svg("svg", { class: `ss-token-art${empty ? " empty" : ""}`, viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true" },
    svg("circle", { cx: 10, cy: 10, r: 8.6, fill: empty ? "none" : "#1f9ea0", stroke: empty ? "#9fcfd0" : "#126466", "stroke-width": 1.4, "stroke-dasharray": empty ? "2.5 2" : null }),
    empty ? null : svg("path", { d: "M5.5 12 Q10 14.5 14.5 12", fill: "none", stroke: "#fff", "stroke-width": 1.5, "stroke-linecap": "round" }),
    empty ? null : svg("rect", { x: 8.9, y: 4.2, width: 2.4, height: 10, rx: 1.2, fill: "#fde2c4", stroke: "#fff", "stroke-width": 0.6 }));
}

function lockArt() {
  return svg("svg", { class: "ss-lock", viewBox: "0 0 16 16", width: 13, height: 13, "aria-hidden": "true" },
    svg("rect", { x: 2.5, y: 7, width: 11, height: 8, rx: 1.6, fill: "currentColor" }),
    svg("path", { d: "M5 7 V5 C5 1.5 11 1.5 11 5 V7", fill: "none", stroke: "currentColor", "stroke-width": 1.8 }));
}

/** The sneaking player: pyjamas and a nightcap in the seat's colour. */
function sneaker(seat, mood) {
  const color = seatColor(seat);
  return svg("svg", { class: `ss-sneaker ${mood || ""}`, viewBox: "0 0 30 40", width: 30, height: 40, role: "img", "aria-label": "the sneaking player", dataset: { sneaker: String(seat) } },
    svg("rect", { x: 7, y: 19, width: 16, height: 17, rx: 6, fill: color, stroke: "#2b1f14", "stroke-width": 1.2 }),
    svg("path", { d: "M8 24 H22 M8 29 H22", stroke: "rgba(255,255,255,0.6)", "stroke-width": 1.6 }),
    svg("circle", { cx: 15, cy: 13, r: 6.5, fill: "#f3c89b", stroke: "#2b1f14", "stroke-width": 1.2 }),
    svg("path", { d: "M8 11 C9 3 19 1 24 9 L26 14", fill: color, stroke: "#2b1f14", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    svg("circle", { cx: 26, cy: 15, r: 2, fill: "#fff", stroke: "#2b1f14", "stroke-width": 0.8 }),
    mood === "busted"
      ? svg("ellipse", { cx: 15, cy: 16, rx: 1.8, ry: 2.2, fill: "#5a1a1a" })
      : svg("path", { d: "M12.5 16 Q15 17.5 17.5 16", fill: "none", stroke: "#2b1f14", "stroke-width": 1, "stroke-linecap": "round" }),
    svg("circle", { cx: 12.5, cy: 12.5, r: 0.9, fill: "#2b1f14" }), svg("circle", { cx: 17.5, cy: 12.5, r: 0.9, fill: "#2b1f14" }),
    svg("path", { d: "M9 36 L8 39 M21 36 L22 39", stroke: "#2b1f14", "stroke-width": 2, "stroke-linecap": "round" }));
}

function bedArt() {
  return svg("svg", { class: "ss-furniture", viewBox: "0 0 40 28", width: 40, height: 28, "aria-hidden": "true" },
    svg("rect", { x: 2, y: 4, width: 5, height: 22, rx: 1.5, fill: "#8a6d3b" }),
    svg("rect", { x: 6, y: 13, width: 32, height: 9, rx: 2, fill: "#c9d6f2" }),
    svg("rect", { x: 8, y: 9, width: 9, height: 5, rx: 2.5, fill: "#fff" }),
    svg("rect", { x: 17, y: 11, width: 21, height: 6, rx: 2, fill: "#7f9bd6" }),
    svg("path", { d: "M6 22 V26 M37 22 V26", stroke: "#8a6d3b", "stroke-width": 2.5 }));
}

function fridgeArt() {
  return svg("svg", { class: "ss-furniture", viewBox: "0 0 24 36", width: 20, height: 30, "aria-hidden": "true" },
    svg("rect", { x: 2, y: 1, width: 20, height: 34, rx: 3, fill: "#e9eef5", stroke: "#8a97ad", "stroke-width": 1.5 }),
    svg("path", { d: "M2 13 H22 M5 5 V10 M5 16 V23", stroke: "#8a97ad", "stroke-width": 1.5, "stroke-linecap": "round" }));
}

function noiseBadge(noise, hushed) {
  return h("span", { class: `ss-noise n${noise}${hushed ? " hushed" : ""}`, title: hushed ? "Hushed by a Careful token" : `${noise} Noise` },
    speaker(noise, hushed), String(noise));
}

function pointsBadge(points) {
  return h("span", { class: "ss-points", title: `${points} point${points === 1 ? "" : "s"} when eaten` }, star(), String(points));
}

/** A card face: kind colour band and picture, name, Noise, points, the extra-Careful icon. */
function cardFace(c, { hushed = false, compact = false } = {}) {
  return [
    h("span", { class: "ss-band" }, art(c.group, compact ? 18 : 24), h("span", { class: "ss-group" }, GROUP_LABEL[c.group])),
    h("span", { class: "ss-name" }, c.name),
    h("span", { class: "ss-stats" },
      noiseBadge(c.noise, hushed),
      c.kind === "accident" ? null : pointsBadge(c.points),
      c.icon ? h("span", { class: "ss-icon", title: "Extra-Careful icon: one more token when Busted" }, tokenArt(14), "+1") : null),
  ];
}

function cardTitle(c) {
  const bits = [`${c.name} (${GROUP_LABEL[c.group]}${c.deck === "utensil" ? ", from the Utensil deck" : ""}): ${c.noise} Noise`];
  if (c.kind !== "accident") bits.push(`${c.points} point${c.points === 1 ? "" : "s"}`);
  if (c.icon) bits.push("extra-Careful icon");
  return bits.join(", ") + (c.text ? `. ${c.text}` : "");
}

/** A card as a block (or a button, when it does something): data-card / data-type for tests. */
function cardTile(c, { tag = "div", extra = "", hushed = false, compact = false, attrs = {}, children = [] } = {}) {
  const { dataset = {}, ...rest } = attrs;
  return h(tag, {
    class: `ss-card g-${c.group}${compact ? " compact" : ""}${hushed ? " is-hushed" : ""} ${extra}`.trim(),
    title: cardTitle(c),
    type: tag === "button" ? "button" : null,
    dataset: { card: c.id, type: c.type, points: String(c.points), noise: String(c.noise), group: c.group, deck: c.deck, ...dataset },
    ...rest,
  }, ...cardFace(c, { hushed, compact }), ...children);
}

function miniCard(c, extra = "") {
  return h("span", { class: `ss-mini g-${c.group} ${extra}`.trim(), title: cardTitle(c), dataset: { card: c.id } }, h("span", { class: "ss-dot" }), c.name);
}

function tokens(count, max) {
  const items = [];
  for (let i = 0; i < max; i++) items.push(tokenArt(16, i >= count));
  return h("span", { class: "ss-tokens", title: `${count} Careful token${count === 1 ? "" : "s"} (at most ${max})`, dataset: { tokens: String(count) } }, items);
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// ---- what a hand holds toward a Recipe or a Craving (display only; the rules decide) ----------

const GROUPS = new Set(Object.keys(GROUP_LABEL));

function fits(c, what) {
  return c.type === what || c.group === what;
}

/** Which hand cards fill which need, greedily (named ingredients first), and how many gaps
 *  Careful tokens (the Secret Stash) would have to fill. */
function matchNeeds(needs, hand, tokenCount) {
  const left = [...hand];
  const order = needs.map((need, i) => ({ need, i })).sort((a, b) => GROUPS.has(a.need.what) - GROUPS.has(b.need.what));
  const got = needs.map(() => []);
  for (const { need, i } of order) {
    for (let k = 0; k < need.count; k++) {
      const at = left.findIndex((c) => fits(c, need.what) && !(need.different && got[i].some((g) => g.type === c.type)));
      if (at < 0) break;
      got[i].push(left.splice(at, 1)[0]);
    }
  }
  const gaps = needs.reduce((sum, need, i) => sum + need.count - got[i].length, 0);
  const used = got.reduce((sum, g) => sum + g.length, 0);
  return { got, gaps, stash: gaps > 0 && gaps <= tokenCount && used > 0 };
}

// ---- module state: only UI state lives here ---------------------------------------------------

let current = null; // {root, state, ctx, fresh}: fresh events not yet animated
let busy = null; // {seq}: an action sent, until its ack and the state after it arrived
let composer = null; // {kind: "recipe" | "craving", recipe, cards: [card id, …], tokens, error, turn}
let keysBound = false;

function legalOf(type) {
  return (current ? current.state.legal : []).filter((a) => a.type === type);
}

function can(type) {
  return legalOf(type).length > 0;
}

async function act(action, { quiet = false } = {}) {
  if (busy || !current) return false;
  busy = { seq: null };
  draw();
  let ok = false;
  try {
    const ack = await current.ctx.send(action, { quiet });
    ok = true;
    if (busy) busy.seq = ack.seq;
    if (busy && current.state.seq >= ack.seq) busy = null;
  } catch (err) {
    busy = null;
    if (quiet && composer) composer.error = err.message;
  }
  if (current.ctx.redraw) current.ctx.redraw(); // drawn with the change the action made, once
  else draw();
  return ok;
}

function ways(kind, recipe) {
  return current.state.legal.filter((a) => a.type === kind && (kind !== "recipe" || a.recipe === recipe));
}

function openComposer(kind, recipe = null) {
  const options = ways(kind, recipe);
  const first = options[0];
  composer = { kind, recipe, cards: first ? [...first.cards] : [], tokens: first ? first.tokens : 0, error: null, turn: current.state.view.turn };
  draw();
}

function closeComposer() {
  composer = null;
  draw();
}

async function confirmComposer() {
  const action = { type: composer.kind, cards: [...composer.cards], tokens: composer.tokens };
  if (composer.kind === "recipe") action.recipe = composer.recipe;
  composer.error = null;
  if (await act(action, { quiet: true })) composer = null;
  draw();
}

/** Copies of a card are alike (they share an id), so the composer holds ids, as many times as
 *  copies are chosen; a hand shows the first ``count`` copies of an id as chosen. */
function countOf(ids, id) {
  return ids.filter((x) => x === id).length;
}

function withoutOne(ids, id) {
  const at = ids.indexOf(id);
  return at < 0 ? ids : [...ids.slice(0, at), ...ids.slice(at + 1)];
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join("|") === [...b].sort().join("|");
}

/** Forget a composer the game has moved past (its phase ended, its Recipe was taken). */
function checkComposer(view) {
  if (!composer) return;
  const hand = view.hand || [];
  const kept = [];
  for (const id of composer.cards) if (countOf(kept, id) < countOf(hand.map((c) => c.id), id)) kept.push(id);
  composer.cards = kept;
  const mine = view.players[view.you] || { tokens: 0 };
  composer.tokens = Math.min(composer.tokens, mine.tokens);
  const stillLegal = composer.kind === "recipe" ? can("end_turn") && view.recipes.some((r) => r.id === composer.recipe && r.left > 0) : can("craving");
  if (!stillLegal || (composer.kind === "recipe" && composer.turn !== view.turn)) composer = null;
}

function onKey(event) {
  if (!current || busy) return false;
  const key = event.key.toLowerCase();
  if (key === "escape" && composer) {
    closeComposer();
    return true;
  }
  const map = { d: "draw", u: "draw_utensil", r: "retreat", b: "bust", e: "end_turn" };
  if (map[key] && can(map[key])) {
    act({ type: map[key] });
    return true;
  }
  return false;
}

// ---- the parts of the table ---------------------------------------------------------------------

function button(label, act, handler, { primary = false, extra = "", data = {}, disabled = false, title = null, kbd = null } = {}) {
  return h("button", {
    class: `btn ss-btn${primary ? " primary" : ""} ${extra}`.trim(),
    type: "button",
    disabled: disabled || !!busy,
    title,
    dataset: { act, ...data },
    onclick: handler,
  }, label, kbd ? h("kbd", {}, kbd) : null);
}

function decksRow(view) {
  const d = view.decks;
  const pile = (label, count, kind, title) => h("span", { class: `ss-pile ${kind}`, title, dataset: { pile: kind, count: String(count) } },
    h("span", { class: "ss-pile-back" }, String(count)), h("span", { class: "ss-pile-label" }, label));
  return h("div", { class: "ss-decks" },
    pile("Search", d.search, "search", `${plural(d.search, "card")} in the Search deck`),
    pile("Utensils", d.utensil, "utensil", `${plural(d.utensil, "card")} in the Utensil deck: you know you get a Utensil, not how loud it is`),
    pile("Discard", d.discard + d.utensil_discard, "discard", `${plural(d.discard, "card")} in the discard pile (${d.utensil_discard} Utensil-deck)`),
    pile("Cravings", d.cravings, "cravings", `${plural(d.cravings, "Craving")} left to draw`));
}

/** Noise of the cards drawn this turn: one block per noisy card, hushed ones after the line.
 *  A card's block has one cell per point of Noise, numbered by the Noise so far: the bar
 *  reads like the total beside it (a 3-Noise card fills 1, 2, 3 of 4). */
function noiseMeter(view) {
  const fp = view.floorplan;
  const limit = view.limits.bust_noise;
  const noisy = fp.path.filter((p) => p.card.noise > 0);
  const raw = noisy.reduce((sum, p) => sum + p.card.noise, 0);
  const units = Math.max(limit + 2, raw);
  const level = Math.min(fp.noise, limit);
  let counted = 0;
  const block = (p) => {
    const cells = Array.from({ length: p.card.noise }, () => (p.cancelled ? "" : String(++counted)));
    return h("span", {
      class: `ss-block${p.cancelled ? " hushed" : ""}`,
      style: `flex-basis:${(100 * p.card.noise) / units}%`,
      title: `${p.card.name}: ${p.card.noise} Noise${p.cancelled ? ", hushed by a Careful token" : ""}`,
      dataset: { step: String(p.step), noise: String(p.card.noise) },
    }, p.cancelled ? tokenArt(12) : cells.map((n) => h("span", { class: "ss-unit", dataset: { unit: n } }, n)));
  };
  const blocks = [...noisy.filter((p) => !p.cancelled).map(block), ...noisy.filter((p) => p.cancelled).map(block)];
  const hushedCount = noisy.filter((p) => p.cancelled).length;
  return h("div", { class: `ss-meter level-${level}`, dataset: { noise: String(fp.noise) }, role: "meter", "aria-valuemin": "0", "aria-valuemax": String(limit), "aria-valuenow": String(fp.noise), "aria-label": "Noise" },
    h("span", { class: "ss-meter-label" }, speaker(3), "Noise"),
    h("span", { class: "ss-meter-track" },
      h("span", { class: "ss-meter-blocks" }, blocks),
      h("span", { class: "ss-meter-line", style: `left:${(100 * limit) / units}%`, title: `${limit} Noise: Busted` }, h("span", {}, "Busted"))),
    h("span", { class: "ss-meter-value" }, h("b", { dataset: { noiseValue: String(fp.noise) } }, String(fp.noise)), ` / ${limit}`),
    hushedCount ? h("span", { class: "ss-meter-hushed small" }, `${hushedCount} hushed`) : null);
}

function turnHeader(view) {
  const fp = view.floorplan;
  const active = view.players[view.active];
  const you = view.active === view.you;
  const who = you ? "You" : active.name;
  let line;
  if (view.phase === "last_call") line = "Last call for Cravings before the tally.";
  else if (!fp.path.length) line = `${who} ${you ? "are" : "is"} getting out of bed${active.final_turn_pending || (view.end.triggered_by !== null && view.end.triggered_by !== view.active) ? " for a final turn" : ""}.`;
  else line = `${who} ${you ? "have" : "has"} drawn ${plural(fp.path.length, "card")} of ${view.limits.max_cards}.`;
  return h("div", { class: "ss-head" },
    h("span", { class: "ss-who" }, h("span", { class: "chip", "data-seat": view.active, style: `background:${seatColor(view.active)}` }), h("span", { class: "ss-who-text" }, line)),
    h("span", { class: "ss-active-tokens" }, h("span", { class: "small muted" }, you ? "Your tokens" : `${active.name}'s tokens`), tokens(active.tokens, view.limits.tokens)),
    decksRow(view));
}

function controls(view) {
  const rows = [];
  if (can("draw") || can("retreat") || can("draw_utensil")) {
    const first = !view.floorplan.path.length;
    rows.push(
      can("draw") ? button(first ? "Draw your first card" : "Draw again", "draw", () => act({ type: "draw" }), { primary: true, kbd: "D", title: "Draw the top Search card" }) : null,
      view.floorplan.path.length ? button("Utensil deck", "draw_utensil", () => act({ type: "draw_utensil" }), {
        disabled: !can("draw_utensil"), kbd: "U",
        title: view.floorplan.utensil_drawn ? "Only once a turn" : "Draw a Utensil instead (once a turn, from your 2nd card): 0, 1 or 3 Noise",
      }) : null,
      can("retreat") ? button("Retreat to bed", "retreat", () => act({ type: "retreat" }), { kbd: "R", extra: "ss-retreat", title: "Stop: keep the food, cook, eat one card" }) : null,
    );
  }
  if (can("bust")) {
    rows.push(h("span", { class: "ss-hint" }, "Too loud! Hush cards with Careful tokens below, or"),
      button("Accept being Busted", "bust", () => act({ type: "bust" }), { extra: "ss-danger", kbd: "B" }));
  }
  if (can("end_turn")) {
    const ate = !can("consume");
    const hint = view.phase === "after_bust" ? "Busted! Satisfy your Craving now if you can, or"
      : ate ? "Cook what you can, then" : "Cook Recipes and eat one card from your hand, then";
    rows.push(h("span", { class: "ss-hint" }, hint),
      button("End my turn", "end_turn", () => act({ type: "end_turn" }), { primary: true, kbd: "E" }));
  }
  if (can("discard")) {
    const me = view.players[view.you];
    const extra = me.hand_size - view.limits.hand;
    rows.push(h("span", { class: "ss-hint strong" }, `Hand limit ${view.limits.hand}: choose ${plural(extra, "card")} to discard face down.`));
  }
  if (can("pass")) {
    rows.push(h("span", { class: "ss-hint strong" }, "Last call: satisfy your Craving now, or"),
      button("Pass", "pass", () => act({ type: "pass" })));
  }
  if (!rows.length) return null;
  return h("div", { class: "ss-controls" }, rows);
}

/** The Floorplan: the bedroom, seven rooms to the kitchen and back, a card in each room
 *  reached this turn; the lit route and the sneaker show how far the sneak got. */
function floorplan(view, fresh) {
  const fp = view.floorplan;
  const steps = fp.path.length;
  const outcome = fp.outcome;
  const home = outcome === "retreated" || outcome === "overwhelming";
  const drewNow = new Set(fresh.filter((e) => e.type === "draw").map((e) => e.data.step));
  const hushedNow = new Set(fresh.filter((e) => e.type === "careful").map((e) => e.data.step));
  // copies are alike: a token hushes the first copy of a card still making Noise
  const hushable = new Set(legalOf("careful").map((a) => (fp.path.find((p) => p.card.id === a.card && !p.cancelled && p.card.noise > 0) || {}).step));
  const rooms = ROOMS.map((name, i) => {
    const p = fp.path[i];
    const here = !home && outcome !== "skipped" && steps === i + 1 && view.phase !== "over";
    const children = [h("span", { class: "ss-room-name" }, h("b", {}, String(i + 1)), name)];
    if (i === 3) children.push(fridgeArt());
    if (p) {
      const hushButton = hushable.has(p.step)
        ? button(h("span", { class: "ss-hush-label" }, tokenArt(14), "Hush"), "careful", () => act({ type: "careful", card: p.card.id }), { extra: "ss-hush", data: { card: p.card.id }, title: `Spend a Careful token: ${p.card.name} makes no Noise` })
        : null;
      children.push(cardTile(p.card, {
        extra: `${drewNow.has(p.step) ? "ss-fresh" : ""}${hushedNow.has(p.step) ? " ss-hushed-now" : ""}${p.on_mat ? "" : " gone"}${p.card.kind === "accident" && !p.on_mat ? " discarded" : ""}`,
        hushed: p.cancelled, compact: true, attrs: { dataset: { step: String(p.step) } }, children: [hushButton],
      }));
    }
    if (here) children.push(sneaker(view.active, outcome === "busted" ? "busted" : ""));
    return h("div", { class: `ss-room r${i + 1}${p ? " visited" : ""}${here ? " here" : ""}`, dataset: { room: String(i + 1) } }, children);
  });
  const bedroom = h("div", { class: `ss-room bedroom${home || !steps ? " here" : ""}`, dataset: { room: "0" } },
    h("span", { class: "ss-room-name" }, "Bedroom"), bedArt(),
    (home || !steps) && view.phase !== "over" ? sneaker(view.active, home ? "home" : "") : null);
  // The route through the middle of the rooms, in a 100×100 box over the grid; the
  // bedroom column is narrower on a phone (see the stylesheet), so its x differ there.
  const route = (bed, cols, size) => {
    const [a, b, c, d] = cols;
    const points = [[bed, 50], [a, 25], [b, 25], [c, 25], [d, 50], [c, 75], [b, 75], [a, 75], [bed, 50]];
    const walked = home ? points.slice(0, steps + 1).concat([points[8]]) : points.slice(0, steps + 1);
    const line = (pts) => pts.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join(" ");
    return svg("svg", { class: `ss-route ${size}`, viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true" },
      svg("path", { d: line(points), class: "ss-route-all" }),
      walked.length > 1 ? svg("path", { d: line(walked), class: "ss-route-walked", style: `stroke:${seatColor(view.active)}` }) : null);
  };
  const routes = [route(5.6, [22.2, 44.4, 66.7, 88.9], "wide"), route(4, [19.5, 42.5, 65.5, 88.5], "narrow")];
  const lights = outcome === "busted" ? " lights-on" : home ? " safe" : "";
  return h("div", { class: `ss-mat${lights}${fresh.some((e) => e.type === "busted") ? " ss-flash" : ""}`, dataset: { steps: String(steps), outcome: outcome || "" } },
    routes, bedroom, rooms);
}

function outcomeBanner(view) {
  const fp = view.floorplan;
  const name = view.active === view.you ? "You" : view.players[view.active].name;
  if (fp.outcome === "overwhelming") return h("div", { class: "ss-banner good", dataset: { banner: "overwhelming" } }, `OVERWHELMING SUCCESS! ${name} drew 7 cards without waking anyone: no hand limit this turn.`);
  if (fp.outcome === "retreated" && view.phase === "retreat") return h("div", { class: "ss-banner good", dataset: { banner: "retreat" } }, `Safe! ${name} sneaked back to bed with the food.`);
  if (fp.outcome === "skipped") return h("div", { class: "ss-banner", dataset: { banner: "skipped" } }, "Nothing left to draw: the turn passes.");
  if (view.phase === "noisy" && view.active !== view.you) return h("div", { class: "ss-banner bad", dataset: { banner: "noisy" } }, `Noise ${fp.noise}! ${name} must hush it with Careful tokens or be Busted.`);
  return null;
}

function endBanner(view) {
  const e = view.end;
  if (e.triggered_by === null || view.phase === "over") return null;
  const by = e.triggered_by === view.you ? "You have" : `${view.players[e.triggered_by].name} has`;
  const left = e.final_turns_left.map((q) => (q === view.you ? "you" : view.players[q].name));
  const waiting = view.phase === "last_call"
    ? `Last call for Cravings: ${e.last_call.map((q) => (q === view.you ? "you" : view.players[q].name)).join(" and ")} may complete one now, or pass.`
    : left.length ? `Final turns still to come: ${left.join(", ")}.` : "This is the last turn.";
  return h("div", { class: "ss-banner end", dataset: { banner: "end" } }, `${by} ${view.limits.goal}+ points! ${waiting}`);
}

/** Busted: who picks in which order, who took what, and the cards still to choose from. */
function bustPanel(view, fresh) {
  const b = view.bust;
  if (!b || view.phase === "over") return null; // the last turn's line tells it then
  const mine = legalOf("pick").length > 0;
  const active = view.players[view.active].name;
  const mineBust = view.active === view.you;
  const pickedNow = new Set(fresh.filter((e) => e.type === "pick").map((e) => e.data.seat));
  const order = b.order.map((seat, i) => {
    const pick = b.picks[i];
    const now = b.next === seat && !pick;
    return h("li", { class: `ss-picker${now ? " now" : ""}${pick ? " done" : ""}${pick && pickedNow.has(seat) ? " ss-pop" : ""}`, dataset: { seat: String(seat) } },
      h("span", { class: "ss-order" }, String(i + 1)),
      h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }),
      h("span", { class: "pname" }, seat === view.you ? "You" : view.players[seat].name),
      pick ? miniCard(pick.card) : h("span", { class: "small muted" }, now ? (seat === view.you ? "your pick!" : "choosing…") : "waits"));
  });
  const gone = view.floorplan.path.length - b.order.length;
  return h("section", { class: `ss-bust${mine ? " your-pick" : ""}`, dataset: { next: b.next === null ? "" : String(b.next) } },
    h("h3", {}, `Busted! ${mineBust ? "You" : active} woke the house.`),
    h("p", { class: "small" }, "Accidents are discarded. From the left, each player in turn order chooses one drawn card",
      gone > 0 && b.order.length < view.players.length ? `; only ${plural(b.order.length, "card")} to share` : "", ". ",
      `${mineBust ? "You gain" : `${active} gains`} a Careful token${b.icon ? " (+1 for the icon)" : ""}.`),
    h("ol", { class: "ss-pick-order" }, order),
    b.pool.length
      ? h("div", { class: "ss-pool" }, b.pool.map((c) => mine
        ? cardTile(c, { tag: "button", extra: "pickable", attrs: { disabled: !!busy, onclick: () => act({ type: "pick", card: c.id }), dataset: { act: "pick" } } })
        : cardTile(c)))
      : h("p", { class: "small muted" }, b.picks.length ? "Every card is taken." : "No card to share: they were all Accidents."));
}

function needChips(needs, match) {
  return h("span", { class: "ss-needs" }, needs.map((need, i) => {
    const have = match.got[i].length;
    const state = have >= need.count ? "have" : match.stash ? "stash" : have ? "part" : "missing";
    return h("span", { class: `ss-need ${state}`, title: state === "stash" ? "a Careful token from the Secret Stash can stand in" : state, dataset: { need: need.what } },
      state === "stash" ? tokenArt(12) : h("span", { class: "ss-check" }), need.label, need.count > 1 ? ` ${have}/${need.count}` : "");
  }));
}

function wayText(way, hand) {
  const names = way.cards.map((id) => (hand.find((c) => c.id === id) || { name: id }).name);
  if (way.tokens) names.push(`${plural(way.tokens, "Careful token")} (Secret Stash)`);
  return names.join(", ");
}

/** Choose the cards and Secret Stash tokens for a Recipe or the Craving. */
function composerPanel(view) {
  if (!composer) return null;
  const hand = view.hand || [];
  const me = view.players[view.you];
  const target = composer.kind === "recipe" ? view.recipes.find((r) => r.id === composer.recipe) : view.craving;
  if (!target) return null;
  const options = ways(composer.kind, composer.recipe);
  const pick = (way) => {
    composer.cards = [...way.cards];
    composer.tokens = way.tokens;
    composer.error = null;
    draw();
  };
  return h("div", { class: "ss-composer", role: "group", "aria-label": `Ingredients for ${target.name}`, dataset: { composer: composer.kind, recipe: composer.recipe || "" } },
    h("div", { class: "ss-composer-head" },
      h("b", {}, composer.kind === "recipe" ? `Cook ${target.name}` : `Satisfy your Craving: ${target.name}`),
      h("span", { class: "ss-points" }, star(), `${target.points}`)),
    h("p", { class: "small" }, "Needs ", target.label, ". Tap cards in your hand to choose them; Careful tokens stand for any ingredient (at least one real card)", view.options.mish_mash ? "; Mish-Mash: any 2 ingredients for 1 (not Utensils)." : "."),
    options.length > 1 ? h("div", { class: "ss-ways" }, h("span", { class: "small muted" }, "Ways:"),
      options.map((way, i) => h("button", {
        class: `btn ss-way${sameCards(way.cards, composer.cards) && way.tokens === composer.tokens ? " chosen" : ""}`,
        type: "button", dataset: { act: "way", way: String(i) }, onclick: () => pick(way),
      }, wayText(way, hand)))) : null,
    h("div", { class: "ss-composer-row" },
      h("span", { class: "small" }, "Secret Stash:"),
      button("−", "tokens-minus", () => { composer.tokens = Math.max(0, composer.tokens - 1); draw(); }, { disabled: composer.tokens <= 0, extra: "ss-step", title: "One token fewer" }),
      h("span", { class: "ss-stash", dataset: { stash: String(composer.tokens) } }, tokenArt(16), ` ${composer.tokens} of ${me.tokens}`),
      button("+", "tokens-plus", () => { composer.tokens = Math.min(me.tokens, composer.tokens + 1); draw(); }, { disabled: composer.tokens >= me.tokens, extra: "ss-step", title: "One token more" })),
    h("p", { class: "small ss-chosen" }, composer.cards.length || composer.tokens ? `Using: ${wayText({ cards: composer.cards, tokens: composer.tokens }, hand)}` : "Nothing chosen yet."),
    composer.error ? h("p", { class: "ss-error", role: "alert", dataset: { error: "composer" } }, composer.error) : null,
    h("div", { class: "ss-composer-row" },
      button(composer.kind === "recipe" ? "Cook it" : "Satisfy it", "confirm", confirmComposer, { primary: true }),
      button("Cancel", "cancel", closeComposer, { title: "Esc" })));
}

/** Your secret Craving, and the button to score it (at any moment, also on others' turns). */
function cravingCard(view, fresh) {
  const c = view.craving;
  if (!c) return h("div", { class: "ss-craving none" }, h("span", { class: "small muted" }, "No Craving left to draw."));
  const me = view.players[view.you];
  const match = matchNeeds(c.needs, view.hand || [], me.tokens);
  const ready = can("craving");
  const open = composer && composer.kind === "craving";
  const scoredNow = fresh.some((e) => e.type === "craving" && e.data.seat === view.you);
  return h("div", { class: `ss-craving${ready ? " ready" : ""}${scoredNow ? " ss-pop" : ""}`, dataset: { craving: c.id, ready: ready ? "1" : "0" } },
    h("span", { class: "ss-craving-title" }, h("span", { class: "ss-secret" }, lockArt(), "Secret Craving"), h("b", {}, c.name), h("span", { class: "ss-points" }, star(), String(c.points))),
    needChips(c.needs, match),
    ready && !open ? button("Satisfy my Craving", "craving-open", () => openComposer("craving"), { primary: true, extra: "ss-craving-btn", title: "Score it now: allowed at any moment, even on other players' turns" }) : null,
    !ready ? h("span", { class: "small muted" }, "Two Snacks and any Drink; score it the moment your hand holds them.") : null);
}

function handPanel(view, fresh) {
  if (view.you === null || view.you === undefined || !view.hand) {
    return h("section", { class: "ss-you watching" }, h("p", { class: "small muted" }, lockArt(), " You are watching: hands and Cravings are secret."));
  }
  const me = view.players[view.you];
  const consumable = new Set(legalOf("consume").map((a) => a.card));
  const discardable = new Set(legalOf("discard").map((a) => a.card));
  const choosing = !!composer;
  const inRecipes = new Set();
  if (!choosing) for (const a of [...legalOf("recipe"), ...legalOf("craving")]) a.cards.forEach((id) => inRecipes.add(id));
  const arrived = new Set(fresh.filter((e) => (e.type === "pick" && e.data.seat === view.you) || e.type === "retreat" || e.type === "overwhelming")
    .flatMap((e) => (e.type === "pick" ? [e.data.card.id] : (e.data.kept || []).map((c) => c.id))));
  const cards = view.hand.map((c, i) => {
    const copy = countOf(view.hand.slice(0, i).map((d) => d.id), c.id); // copies of it before this one
    const selected = choosing && copy < countOf(composer.cards, c.id);
    const controlsFor = [];
    if (!choosing && consumable.has(c.id)) {
      controlsFor.push(button(h("span", {}, "Eat ", star(12), `+${c.points}`), "consume", () => act({ type: "consume", card: c.id }), { data: { card: c.id }, extra: "ss-eat", title: `Eat ${c.name} for ${plural(c.points, "point")} (one card a turn)` }));
    }
    if (!choosing && discardable.has(c.id)) {
      controlsFor.push(button("Discard", "discard", () => act({ type: "discard", card: c.id }), { data: { card: c.id }, extra: "ss-discard", title: "Discard it face down" }));
    }
    if (choosing) {
      return cardTile(c, {
        tag: "button", extra: `selectable${selected ? " selected" : ""}${arrived.has(c.id) ? " ss-fresh" : ""}`,
        attrs: { "aria-pressed": String(selected), onclick: () => { composer.cards = selected ? withoutOne(composer.cards, c.id) : [...composer.cards, c.id]; composer.error = null; draw(); }, dataset: { select: c.id } },
      });
    }
    return cardTile(c, { extra: `${inRecipes.has(c.id) ? "useful" : ""}${arrived.has(c.id) ? " ss-fresh" : ""}`, children: controlsFor.length ? [h("span", { class: "ss-card-actions" }, controlsFor)] : [] });
  });
  const over = me.hand_size > view.limits.hand;
  return h("section", { class: `ss-you${discardable.size ? " discarding" : ""}`, dataset: { hand: String(view.hand.length) } },
    h("div", { class: "ss-you-head" },
      h("h3", {}, "Your hand ", h("span", { class: `small ${over ? "ss-over" : "muted"}` }, plural(view.hand.length, "card"), view.phase === "over" ? "" : `, limit ${view.limits.hand} at the end of your turn`)),
      h("span", { class: "ss-secret small" }, lockArt(), "only you see this"),
      h("span", { class: "ss-my-tokens" }, h("span", { class: "small muted" }, "Careful tokens"), tokens(me.tokens, view.limits.tokens))),
    cravingCard(view, fresh),
    composerPanel(view),
    cards.length ? h("div", { class: "ss-hand" }, cards) : h("p", { class: "small muted" }, "Your hand is empty: go and find some snacks."));
}

function recipeBoard(view, fresh) {
  const me = view.you === null || view.you === undefined ? null : view.players[view.you];
  const hand = view.hand || [];
  const cookedNow = new Set(fresh.filter((e) => e.type === "recipe").map((e) => e.data.recipe));
  const tiles = view.recipes.map((r) => {
    const match = me ? matchNeeds(r.needs, hand, me.tokens) : { got: r.needs.map(() => []), gaps: 1, stash: false };
    const cookable = r.you_can_complete;
    const legalWays = ways("recipe", r.id);
    const stash = cookable && (legalWays.length ? legalWays.every((w) => w.tokens > 0) : match.stash);
    const mishMash = cookable && !legalWays.length && match.gaps > 0 && !match.stash;
    const open = composer && composer.kind === "recipe" && composer.recipe === r.id;
    return h("div", {
      class: `ss-recipe${cookable ? " can" : ""}${r.left === 0 ? " gone" : ""}${open ? " open" : ""}${cookedNow.has(r.id) ? " ss-pop" : ""}`,
      dataset: { recipe: r.id, can: cookable ? "1" : "0", left: String(r.left) },
    },
    h("span", { class: "ss-recipe-head" }, h("b", {}, r.name), h("span", { class: "ss-points" }, star(), String(r.points))),
    needChips(r.needs, match),
    h("span", { class: "ss-recipe-foot" },
      h("span", { class: "ss-copies", title: `${r.left} of ${r.copies} left` }, Array.from({ length: r.copies }, (_, i) => h("span", { class: `ss-copy${i < r.left ? "" : " taken"}` }))),
      r.claimed_by.map((seat) => h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}`, title: `cooked by ${view.players[seat].name}` })),
      cookable ? h("span", { class: "ss-can-tag" }, stash ? "with the Secret Stash" : mishMash ? "with Mish-Mash" : "you can cook this") : null,
      legalWays.length && !open ? button("Cook", "recipe-open", () => openComposer("recipe", r.id), { primary: true, data: { recipe: r.id }, extra: "ss-cook" }) : null));
  });
  const cookable = view.recipes.filter((r) => r.you_can_complete).length;
  return h("section", { class: "ss-recipes" },
    h("h3", {}, "Recipes ", h("span", { class: "small muted" }, me ? (cookable ? `your hand can complete ${plural(cookable, "Recipe")} (cook on a Retreat)` : "cooked on a Retreat, 2 cards of each") : "2 cards of each")),
    h("div", { class: "ss-recipe-grid" }, tiles));
}

function playersPanel(view) {
  const recipeName = (id) => (view.recipes.find((r) => r.id === id) || { name: id }).name;
  return h("section", { class: "ss-players" }, view.players.map((p, seat) => {
    const cards = p.hand_known.length
      ? h("span", { class: "ss-known" }, p.hand_known.map((c) => miniCard(c)))
      : p.hand_maybe.length
        ? h("span", { class: "ss-known maybe", title: "Some cards were discarded face down: the hand is made of these" }, h("span", { class: "small muted" }, `${p.hand_size} of:`), p.hand_maybe.map((c) => miniCard(c, "maybe")))
        : p.hand_size ? h("span", { class: "small muted" }, "cards nobody has seen") : null;
    return h("div", { class: `ss-player${p.active ? " active" : ""}${seat === view.you ? " you" : ""}`, dataset: { seat: String(seat), score: String(p.score), tokens: String(p.tokens) } },
      h("div", { class: "ss-player-head" },
        h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }),
        h("b", { class: "pname" }, p.name), seat === view.you ? h("span", { class: "tag" }, "you") : null,
        p.active ? h("span", { class: "tag ss-tag-active" }, "sneaking") : null,
        view.end.triggered_by === seat ? h("span", { class: "tag ss-tag-end" }, `${view.limits.goal}+`) : null,
        p.final_turn_pending ? h("span", { class: "tag" }, "final turn to come") : null,
        h("span", { class: "ss-score", title: SOURCES.map(([k, label]) => `${label}: ${p.points[k]}`).join(", ") }, star(), String(p.score))),
      h("div", { class: "ss-player-body small" },
        tokens(p.tokens, view.limits.tokens),
        h("span", { class: "ss-hand-size", dataset: { handSize: String(p.hand_size) } }, plural(p.hand_size, "card")),
        cards,
        p.recipes.length ? h("span", { class: "ss-cooked" }, p.recipes.map((id) => h("span", { class: "ss-mini recipe" }, recipeName(id)))) : null,
        p.cravings.length ? h("span", { class: "ss-cooked" }, p.cravings.map((c) => h("span", { class: "ss-mini craving" }, c.name))) : null,
        p.has_craving ? null : h("span", { class: "small muted" }, "no Craving")));
  }));
}

function lastTurnLine(view) {
  const t = view.last_turn;
  if (!t || (view.floorplan.path.length && view.phase !== "over")) return null;
  const name = t.seat === view.you ? "You" : view.players[t.seat].name;
  const what = {
    busted: `${name} got Busted at Noise ${t.noise}`,
    retreated: `${name} retreated at Noise ${t.noise}`,
    overwhelming: `${name} made it round the whole house`,
    skipped: `${name} found nothing to draw`,
  }[t.outcome] || name;
  const bits = [what];
  if (t.picks.length) bits.push(t.picks.map((p) => `${p.seat === view.you ? "you" : view.players[p.seat].name} took ${p.card.name}`).join(", "));
  if (t.recipes.length) bits.push(`cooked ${t.recipes.map((id) => (view.recipes.find((r) => r.id === id) || { name: id }).name).join(" and ")}`);
  if (t.consumed) bits.push(`ate ${t.consumed.name}`);
  return h("p", { class: "ss-last small", dataset: { lastTurn: String(t.seat) } }, h("b", {}, "Last turn: "), bits.join("; "), ".");
}

function tally(view) {
  if (!view.tally) return null;
  const best = Math.max(...view.tally.map((t) => t.total));
  const rows = [...view.tally].sort((a, b) => b.total - a.total);
  const winners = rows.filter((t) => t.total === best).map((t) => (t.seat === view.you ? "You" : t.name));
  const headline = `${winners.join(" and ")} ${winners.length > 1 ? "share the victory" : winners[0] === "You" ? "win" : "wins"} with ${plural(best, "point")}!`;
  return h("section", { class: "ss-tally", dataset: { tally: "1" } },
    h("h3", {}, star(20), headline),
    h("p", { class: "small muted" }, `The tally: points from Recipes, Cravings, eating, and 1 for each Careful token left${view.end.reason ? `. The game ended: ${view.end.reason}.` : "."}`),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), SOURCES.map(([, label]) => h("th", {}, label)), h("th", {}, "Total"))),
      h("tbody", {}, rows.map((t) => h("tr", { class: t.total === best ? "winner" : "", dataset: { tallySeat: String(t.seat), total: String(t.total) } },
        h("td", { class: "who" }, h("span", { class: "chip", "data-seat": t.seat, style: `background:${seatColor(t.seat)}` }), " ", t.name, t.total === best ? star(14) : null),
        SOURCES.map(([key]) => h("td", { dataset: { source: key } }, String(t[key]))),
        h("td", { class: "total" }, String(t.total)))))));
}

// ---- putting it together -------------------------------------------------------------------

function draw() {
  if (!current) return;
  const { root, state } = current;
  const view = state.view;
  const fresh = current.fresh; // animate a state's events once, not on every redraw of it
  current.fresh = [];
  checkComposer(view);
  const board = h("div", {
    class: "ss",
    dataset: { phase: view.phase, active: String(view.active), seq: String(state.seq), busy: busy ? "1" : "0", turn: String(view.turn), mine: state.legal.length ? "1" : "0" },
  },
  endBanner(view),
  view.phase === "over"
    ? [tally(view), lastTurnLine(view)]
    : h("section", { class: "ss-table" },
      turnHeader(view),
      noiseMeter(view),
      outcomeBanner(view),
      controls(view),
      floorplan(view, fresh),
      lastTurnLine(view)),
  bustPanel(view, fresh),
  handPanel(view, fresh),
  recipeBoard(view, fresh),
  playersPanel(view),
  view.options.mish_mash ? h("p", { class: "small muted ss-rule" }, "Mish-Mash rule on: any 2 ingredients (not Utensils) may stand for 1.") : null);
  const focused = root.contains(document.activeElement) ? focusKey(document.activeElement) : null;
  root.replaceChildren(board);
  if (focused) {
    const again = [...board.querySelectorAll("button")].find((b) => focusKey(b) === focused);
    if (again) again.focus({ preventScroll: true }); // a keyboard player keeps their place through a redraw
  }
}

function focusKey(node) {
  const d = node.dataset || {};
  return [d.act, d.card, d.recipe, d.select, d.way].join("|");
}

/** The renderer interface (docs/CONTRIBUTING-games.md): called with every new state. */
export function render(root, state, ctx) {
  if (!keysBound) {
    ctx.onKey(onKey);
    keysBound = true;
  }
  if (busy && busy.seq !== null && state.seq >= busy.seq) busy = null;
  current = { root, state, ctx, fresh: state.fresh || [] };
  draw();
}
