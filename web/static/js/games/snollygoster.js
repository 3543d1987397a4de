// Snollygoster: the crew and their stashes (face-down Food under cloches, the tags on them
// and who tagged them, what this seat privately knows), Fuel, Quarantine and deaths, the
// escape pod and its fuel table, your hand and Hidden Agenda, the response window with its
// countdown, the Event choice, trades, Sleuth guesses, and the end screen that reveals
// every agenda and the scoring.
//
// Every control that sends an action carries data-act (the action's type) and data-action
// (its JSON); controls that open a chooser carry data-mode. Keys: Space lets a card go,
// D plays Denied, E ends the Action stage, Esc cancels a half-made choice.
import { h, svg, seatColor } from "../client.js";

let STASH_SIZE; // the stash and tank sizes: view.limits, read at every render
let FUEL_CAP;
const NEWS_MS = 4500;
const NEWS_TYPES = new Set(["reveal", "you_lied", "quarantine", "starved", "launched", "antidote_works",
  "cancelled", "stolen", "trade", "ransom", "unquarantined", "round_limit", "locked", "void"]);

let current = null; // {root, state, ctx}
let ui = { mode: null, seedKind: "safe", trade: null, turn: -1 };
let busy = false;
let errors = 0;
let news = null; // {lines, until}
let started = false;
let renders = 0; // states drawn (data-renders: tests wait for the next one)

// ---- art --------------------------------------------------------------------------------------

const P = (d, fill, stroke = "#3b2a1e", extra = {}) => svg("path", { d, fill, stroke, "stroke-width": 2, "stroke-linejoin": "round", "stroke-linecap": "round", ...extra });

function cloche(body, knob, mark) {
  return [
    P("M4 31 H36", "none", "#6b5a4a", { "stroke-width": 3 }),
    P("M7 30 C7 16 33 16 33 30 Z", body, "#5b6470"),
    svg("circle", { cx: 20, cy: 15, r: 2.6, fill: knob, stroke: "#5b6470", "stroke-width": 1.5 }),
    P("M12 25 C13 21 16 19 19 19", "none", "rgba(255,255,255,0.8)", { "stroke-width": 2 }),
    mark,
  ];
}

const ART = {
  // Action cards
  inspect: () => [svg("circle", { cx: 17, cy: 17, r: 10, fill: "#e8f4fb", stroke: "#2b5d7b", "stroke-width": 3 }),
    P("M24.5 24.5 L34 34", "none", "#6d4c2f", { "stroke-width": 5 }),
    P("M12 15 C13 12 15 11 18 11", "none", "#fff", { "stroke-width": 2 })],
  launch: () => [P("M20 3 C28 10 29 21 26 29 H14 C11 21 12 10 20 3 Z", "#f4f1ea", "#5b6470"),
    svg("circle", { cx: 20, cy: 14, r: 4, fill: "#8fd0ff", stroke: "#5b6470", "stroke-width": 2 }),
    P("M14 22 L8 31 L14 29 Z M26 22 L32 31 L26 29 Z", "#d9412b", "#8e1b10"),
    P("M16 30 Q20 40 24 30 Z", "#f7b500", "#c98a00")],
  antidote: () => [P("M15 4 H25 M16 4 V13 L9 30 C8 34 10 36 14 36 H26 C30 36 32 34 31 30 L24 13 V4", "#e3f4e5", "#2e6b3d"),
    P("M11 26 H29 L31 31 C31 34 29 35 26 35 H14 C11 35 9 34 10 31 Z", "#5cc46f", "none"),
    P("M20 19 V31 M14 25 H26", "none", "#fff", { "stroke-width": 3 })],
  denied: () => [svg("circle", { cx: 20, cy: 20, r: 15, fill: "#fff", stroke: "#c62828", "stroke-width": 4 }),
    P("M9.5 30.5 L30.5 9.5", "none", "#c62828", { "stroke-width": 4 })],
  lockout: () => [P("M13 18 V12 C13 4 27 4 27 12 V18", "none", "#5b6470", { "stroke-width": 4 }),
    P("M9 18 H31 V35 H9 Z", "#e0a100", "#8a6d00"),
    svg("circle", { cx: 20, cy: 25, r: 2.8, fill: "#3b2a1e" }), P("M20 26 V31", "none", "#3b2a1e", { "stroke-width": 2.5 })],
  steal: () => [P("M3 17 C8 11 32 11 37 17 C37 24 30 27 24 24 L20 22 L16 24 C10 27 3 24 3 17 Z", "#2d2d2d", "#111"),
    svg("ellipse", { cx: 12, cy: 18, rx: 4, ry: 3, fill: "#fff" }), svg("ellipse", { cx: 28, cy: 18, rx: 4, ry: 3, fill: "#fff" }),
    svg("circle", { cx: 13, cy: 18, r: 1.5, fill: "#111" }), svg("circle", { cx: 27, cy: 18, r: 1.5, fill: "#111" })],
  butt_in: () => [P("M6 30 H24 V36 H6 Z M8 24 H26 V30 H8 Z", "#f3e3c3", "#8a6d3b"),
    P("M30 34 C34 22 30 10 18 8", "none", "#d9412b", { "stroke-width": 3.5 }),
    P("M22 3 L16 8 L23 12", "none", "#d9412b", { "stroke-width": 3.5 })],
  // Event cards
  fuel: () => [P("M10 9 H28 L32 13 V35 H10 Z", "#d9412b", "#8e1b10"),
    P("M14 5 H22 V9 H14 Z", "#5b6470", "#3a3f46"),
    P("M21 17 C25 22 26 25 24 28 C22 31 18 31 16 28 C14 25 16 22 21 17 Z", "#f7d774", "#c98a00", { "stroke-width": 1.5 })],
  safe: () => cloche("#bfe3c4", "#2e8b3d", P("M15 26 L19 29 L26 22", "none", "#1f6b2a", { "stroke-width": 3 })),
  unsafe: () => cloche("#dcc3ea", "#7b2fa0", [P("M15 22 L25 30 M25 22 L15 30", "none", "#7b2fa0", { "stroke-width": 3 }),
    P("M9 30 C9 33 11 34 11 36 M30 30 C30 33 29 34 29 37", "none", "#7b2fa0", { "stroke-width": 2 })]),
  hungry: () => [P("M12 5 V35 M8 5 V13 C8 16 16 16 16 13 V5", "none", "#5b6470", { "stroke-width": 2.6 }),
    P("M27 35 V5 C32 8 33 16 28 20", "#dfe3e8", "#5b6470", { "stroke-width": 2.6 })],
  starving: () => [svg("circle", { cx: 20, cy: 20, r: 15, fill: "#fff", stroke: "#8a7462", "stroke-width": 2.5 }),
    svg("circle", { cx: 20, cy: 20, r: 9, fill: "none", stroke: "#d8c8aa", "stroke-width": 2 }),
    svg("text", { x: 20, y: 25, "text-anchor": "middle", "font-size": 14, "font-weight": 800, fill: "#c62828", "font-family": "system-ui, sans-serif" }, "2")],
  ransom: () => [P("M14 10 C10 16 6 20 7 27 C8 34 32 34 33 27 C34 20 30 16 26 10 Z", "#c9a45c", "#6d4c2f"),
    P("M14 10 L18 5 H22 L26 10 Z", "#b08b45", "#6d4c2f"),
    svg("text", { x: 20, y: 28, "text-anchor": "middle", "font-size": 12, "font-weight": 800, fill: "#3b2a1e", "font-family": "system-ui, sans-serif" }, "1")],
  // a face-down Food
  unknown: () => cloche("#dfe3e8", "#8a939e", svg("text", { x: 20, y: 29, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: "#5b6470", "font-family": "system-ui, sans-serif" }, "?")),
};

function art(kind, size = 36, cls = "sg-art") {
  const draw = ART[kind] || ART.unknown;
  return svg("svg", { class: cls, viewBox: "0 0 40 40", width: size, height: size, "aria-hidden": "true", dataset: { art: kind } }, ...draw());
}

const GLYPHS = {
  nacho: (c) => [P("M20 10 L31 29 H9 Z", c, "#8a5a12"), svg("circle", { cx: 18, cy: 22, r: 1.6, fill: "#d9412b" }), svg("circle", { cx: 23, cy: 25, r: 1.4, fill: "#3a9a4a" })],
  kimchi: (c) => [P("M11 28 C9 18 17 10 29 11 C30 21 24 29 11 28 Z", c, "#7b241c"), P("M12 27 C17 22 21 18 27 13", "none", "#fff", { "stroke-width": 1.5 })],
  dumpling: (c) => [P("M8 26 C8 15 32 15 32 26 Z", c, "#9b8660"), P("M14 18 L15 22 M20 16 V21 M26 18 L25 22", "none", "#9b8660", { "stroke-width": 1.5 })],
  lox: (c) => [P("M8 20 C13 13 24 13 28 20 C24 27 13 27 8 20 Z", c, "#9e4a3a"), P("M27 20 L33 15 V25 Z", c, "#9e4a3a"), svg("circle", { cx: 13, cy: 19, r: 1.4, fill: "#3b2a1e" })],
  pickle: (c) => [P("M13 11 C18 7 27 12 27 20 C27 29 18 33 13 29 C9 25 9 15 13 11 Z", c, "#2f5e22"), svg("circle", { cx: 17, cy: 17, r: 1.2, fill: "#2f5e22" }), svg("circle", { cx: 22, cy: 23, r: 1.2, fill: "#2f5e22" })],
  saffron: (c) => [P("M20 9 L23 17 L31 17 L25 22 L27 30 L20 25 L13 30 L15 22 L9 17 L17 17 Z", c, "#a87500")],
};

/** The character's helmet with its food inside. */
function avatar(character) {
  const glyph = GLYPHS[character.id] || GLYPHS.saffron;
  return svg("svg", { class: "sg-avatar", viewBox: "0 0 40 40", width: 40, height: 40, "aria-hidden": "true", dataset: { character: character.id } },
    svg("circle", { cx: 20, cy: 20, r: 18, fill: "#f4f1ea", stroke: "#7b8794", "stroke-width": 2.5 }),
    svg("circle", { cx: 20, cy: 20, r: 14, fill: "#1d2b3a" }),
    ...glyph(character.color),
    P("M10 13 C12 9 16 7 20 7", "none", "rgba(255,255,255,0.55)", { "stroke-width": 2 }));
}

function rocket(lifting) {
  return svg("svg", { class: `sg-rocket${lifting ? " lifting" : ""}`, viewBox: "0 0 60 80", width: 54, height: 72, "aria-hidden": "true" },
    P("M30 4 C44 18 46 44 41 60 H19 C14 44 16 18 30 4 Z", "#f4f1ea", "#5b6470", { "stroke-width": 2.5 }),
    svg("circle", { cx: 30, cy: 28, r: 7, fill: "#8fd0ff", stroke: "#5b6470", "stroke-width": 2.5 }),
    P("M19 46 L9 64 L19 59 Z M41 46 L51 64 L41 59 Z", "#d9412b", "#8e1b10"),
    P("M23 60 Q30 80 37 60 Z", "#f7b500", "#c98a00", { class: "sg-flame" }));
}

// ---- reading the view and the legal actions -----------------------------------------------------

const legal = () => (current ? current.state.legal || [] : []);
const legalOf = (type) => legal().filter((a) => a.type === type);
const canon = (a) => JSON.stringify(Object.keys(a).sort().reduce((o, k) => ({ ...o, [k]: a[k] }), {}));

/** The legal action matching ``want`` exactly (same keys and values), or undefined. */
function findLegal(want) {
  const key = canon(want);
  return legal().find((a) => canon(a) === key);
}

function nameOf(view, seat) {
  if (seat === view.you) return "you";
  const p = view.players[seat];
  return p ? p.name : `Seat ${seat + 1}`;
}

const possessive = (view, seat) => (seat === view.you ? "your" : `${nameOf(view, seat)}'s`);

function allFoods(view) {
  return view.players.flatMap((p) => p.stash.map((f) => ({ ...f, owner: p.seat })));
}

function foodById(view, id) {
  return allFoods(view).find((f) => f.id === id) || null;
}

const VERBS = { placed: "you placed", inspected: "you inspected", seen: "you saw", revealed: "revealed" };

/** What this seat knows of a Food and how: "you placed: unsafe". */
function knowText(f) {
  if (!f || !f.you_know) return null;
  return `${VERBS[f.how] || "you know"}: ${f.you_know}`;
}

/** The same, as a badge: the how above, the kind below. */
function knowEl(f, extra = "") {
  return h("span", { class: `sg-know ${f.you_know}${extra}`, dataset: { knowledge: knowText(f) } },
    h("span", {}, VERBS[f.how] || "you know"), " ", h("b", {}, f.you_know.toUpperCase()));
}

function describePlay(view, card, args) {
  const food = (id) => `Food #${id}`;
  switch (card) {
    case "launch": {
      const pod = (args.passengers || []).map((p) => nameOf(view, p));
      return `Launch${pod.length ? `, taking ${pod.join(", ")}` : " alone"}`;
    }
    case "inspect": return `Inspect on ${food(args.food)}`;
    case "antidote": return `Antidote on ${food(args.food)}`;
    case "lockout": return `Lockout on ${nameOf(view, args.target)}`;
    case "steal": return `Steal: ${args.what === "fuel" ? "1 Fuel" : food(args.food)} from ${nameOf(view, args.target)}`;
    case "butt_in": return "Butt In (an extra Event stage)";
    default: return card;
  }
}

function offerWords(view, o) {
  const side = (fuel, food, whose) => [fuel ? `${fuel} Fuel` : null, food !== null && food !== undefined ? `${whose}Food #${food}` : null]
    .filter(Boolean).join(" and ") || "nothing";
  const mine = o.by === view.you ? "my " : "";
  const yours = o.to === view.you ? "your " : "";
  return `${side(o.give_fuel, o.give_food, mine)} for ${side(o.want_fuel, o.want_food, yours)}`;
}

// ---- sending ------------------------------------------------------------------------------------

function send(action) {
  if (!current || busy) return;
  const { ctx } = current;
  busy = true;
  draw();
  ctx.send(action)
    .then(() => {
      if (["offer"].includes(action.type)) ui.trade = null;
      ui.mode = null;
    })
    .catch(() => {
      errors += 1; // the page shows the rules' reason as a toast
    })
    .finally(() => {
      busy = false;
      if (ctx.redraw) ctx.redraw(); // drawn with the change the action made, once
      else if (current) draw();
    });
}

/** A button that sends ``action`` (which must be legal, or the server says why not). */
function act(label, action, { cls = "", title, data } = {}) {
  return h("button", {
    class: `btn sg-act ${cls}`, type: "button", disabled: busy, title,
    dataset: { act: action.type, action: JSON.stringify(action), ...(data || {}) },
    onclick: () => send(action),
  }, label);
}

/** A button that opens (or closes) a chooser: pick targets on the table, or compose. */
function modeButton(label, mode, cls = "") {
  const on = ui.mode && ui.mode.type === mode.type;
  return h("button", {
    class: `btn sg-mode ${cls}${on ? " on" : ""}`, type: "button", "aria-pressed": String(!!on),
    dataset: { mode: mode.type },
    onclick: () => {
      ui.mode = on ? null : mode;
      if (!on && mode.type === "launch") ui.mode.pod = smallestPod();
      if (!on && mode.type === "offer" && !ui.trade) ui.trade = { to: firstTradePartner(), give_fuel: 0, want_fuel: 0, give_food: null, want_food: null };
      draw();
    },
  }, label);
}

const MODE_TYPES = { inspect: ["inspect"], antidote: ["antidote"], lockout: ["lockout"], steal: ["steal"],
  feed: ["feed"], launch: ["launch"], place: ["keep", "seed"], offer: ["offer"] };

const MODE_HINTS = {
  inspect: "Inspect: choose an untagged Food in any stash.",
  antidote: "Antidote: choose the Food to protect this turn.",
  lockout: "Lockout: choose the player to bar from the stashes.",
  steal: "Steal (a pair): take 1 Fuel from a player, or a Food from their stash.",
  feed: "Give 1 Fuel to a player and choose the Food from their stash they must eat now.",
  launch: "Launch: choose who comes along; together you need the fuel in the table.",
  place: "Put the Food face down into any stash with room: only you will know what it is.",
  offer: "Propose a trade: Fuel and/or a Food either way. They accept or decline.",
};

function modeAlive() {
  if (!ui.mode) return;
  const types = MODE_TYPES[ui.mode.type] || [];
  const ok = legal().some((a) => types.includes(a.type) && (ui.mode.type !== "place" || a.card === ui.mode.card || a.type === "seed"));
  if (!ok) ui.mode = null;
}

// ---- pieces of the table -----------------------------------------------------------------------------

function tagEl(view, tag) {
  return h("span", { class: `sg-tag ${tag.claim}`, style: `--who:${seatColor(tag.by)}`, dataset: { claim: tag.claim, by: tag.by },
    title: `${tag.by_name} tagged it ${tag.claim} — a claim, maybe a lie` },
  h("b", {}, tag.claim === "safe" ? "SAFE" : "UNSAFE"), " ", h("span", { class: "by" }, `by ${tag.by === view.you ? "you" : tag.by_name}`));
}

function foodActions(view, f, owner) {
  const mode = ui.mode && ui.mode.type;
  const out = [];
  const eat = findLegal({ type: "eat", food: f.id });
  if (eat) out.push(act("Eat this", eat, { cls: "primary small" }));
  if (mode === "inspect") {
    const a = findLegal({ type: "inspect", food: f.id });
    if (a) out.push(act("Inspect", a, { cls: "primary small" }));
  }
  if (mode === "antidote") {
    const a = findLegal({ type: "antidote", food: f.id });
    if (a) out.push(act("Protect", a, { cls: "primary small" }));
  }
  if (mode === "feed") {
    const a = findLegal({ type: "feed", target: owner, food: f.id });
    if (a) out.push(act("Make them eat", a, { cls: "primary small" }));
  }
  if (mode === "steal") {
    const a = findLegal({ type: "steal", target: owner, what: "food", food: f.id });
    if (a) out.push(act("Steal", a, { cls: "primary small" }));
  }
  return out;
}

function foodEl(view, f, owner, marks) {
  const kind = f.you_know;
  const lie = kind && f.tag && f.tag.claim !== kind;
  const actions = foodActions(view, f, owner);
  const revealed = f.how === "revealed";
  return h("div", {
    class: `sg-food${kind ? ` know-${kind}` : ""}${actions.length ? " targetable" : ""}${marks.foods.get(f.id) ? ` ${marks.foods.get(f.id)}` : ""}`,
    dataset: { food: f.id, owner, tag: f.tag ? f.tag.claim : "", know: kind || "", how: f.how || "" },
  },
  h("div", { class: "sg-food-top" }, art(revealed || kind ? kind : "unknown", 34), h("span", { class: "sg-food-id" }, `#${f.id}`),
    f.antidote ? h("span", { class: "sg-badge antidote", title: "Protected by an Antidote this turn" }, "antidote") : null),
  f.tag ? tagEl(view, f.tag) : h("span", { class: "sg-untagged" }, "untagged"),
  kind ? knowEl(f, revealed ? " public" : "") : null,
  lie ? h("span", { class: "sg-lie", title: "The tag on it is false" }, revealed ? "the tag lied" : "the tag lies") : null,
  f.placed_by !== null && f.placed_by !== undefined ? h("span", { class: "sg-from" }, `from ${nameOf(view, f.placed_by)}`) : null,
  actions.length ? h("div", { class: "sg-food-actions" }, actions) : null);
}

/** An empty place in a stash; the first one of a stash takes the Food being placed. */
function slotEl(view, owner, first) {
  let button = null;
  if (first && view.phase === "seed") {
    const a = findLegal({ type: "seed", kind: ui.seedKind, stash: owner });
    if (a) button = act(`Hide ${ui.seedKind} here`, a, { cls: "small place" });
  } else if (first && ui.mode && ui.mode.type === "place") {
    const a = findLegal({ type: "keep", card: ui.mode.card, stash: owner });
    if (a) button = act("Put it here", a, { cls: "small place" });
  }
  return h("div", { class: `sg-slot${button ? " targetable" : ""}`, dataset: { slot: owner } }, button || h("span", { class: "muted small" }, "empty"));
}

function fuelGauge(n, seat) {
  const cells = Array.from({ length: FUEL_CAP }, (_, i) => h("span", { class: `cell${i < n ? " full" : ""}` }));
  return h("span", { class: "sg-fuel", dataset: { fuel: n, seat }, title: `${n} Fuel (at most ${FUEL_CAP})` },
    h("span", { class: "label" }, "Fuel"), h("span", { class: "cells" }, cells), h("b", {}, String(n)));
}

function badges(view, p) {
  const out = [];
  if (p.active) out.push(h("span", { class: "sg-badge turn" }, p.seat === view.you ? "your turn" : "their turn"));
  if (view.phase === "seed" && p.seat === view.turn) out.push(h("span", { class: "sg-badge turn" }, "seeding"));
  if (p.seat === view.dealer) out.push(h("span", { class: "sg-badge dealer", title: "The dealer" }, "dealer"));
  if (p.dead) out.push(h("span", { class: "sg-badge dead" }, "dead"));
  if (p.quarantined) out.push(h("span", { class: "sg-badge quarantine" }, "quarantine"));
  if (p.locked_by !== null && p.locked_by !== undefined) out.push(h("span", { class: "sg-badge locked", title: `Locked out by ${nameOf(view, p.locked_by)}` }, `locked by ${nameOf(view, p.locked_by)}`));
  if (p.waiting_on) out.push(h("span", { class: "sg-badge waiting" }, "answering"));
  if (view.launch_pod && view.launch_pod.includes(p.seat)) out.push(h("span", { class: "sg-badge escaped" }, "escaped"));
  return out;
}

function playerTargets(view, p) {
  const mode = ui.mode && ui.mode.type;
  const out = [];
  if (mode === "lockout") {
    const a = findLegal({ type: "lockout", target: p.seat });
    if (a) out.push(act(`Lock out ${p.name}`, a, { cls: "primary small" }));
  }
  if (mode === "steal") {
    const a = findLegal({ type: "steal", target: p.seat, what: "fuel" });
    if (a) out.push(act("Steal 1 Fuel", a, { cls: "primary small" }));
  }
  return out;
}

function playerEl(view, p, marks) {
  const you = p.seat === view.you;
  const targets = playerTargets(view, p);
  const slots = [];
  const over = view.phase === "over";
  const stashShown = !p.dead || (over && p.stash.length > 0); // at the end every Food is turned over
  if (stashShown) {
    for (const f of p.stash) slots.push(foodEl(view, f, p.seat, marks));
    if (!p.dead) for (let i = p.stash.length; i < STASH_SIZE; i++) slots.push(slotEl(view, p.seat, i === p.stash.length));
  }
  const shownAgenda = p.agenda && !you && view.phase !== "over";
  return h("section", {
    class: `sg-player${you ? " you" : ""}${p.active ? " active" : ""}${p.dead ? " dead" : ""}${p.quarantined ? " quarantined" : ""}${targets.length ? " targetable" : ""}${marks.seats.get(p.seat) ? ` ${marks.seats.get(p.seat)}` : ""}`,
    style: `--seat:${seatColor(p.seat)}`,
    dataset: { seat: p.seat, fuel: p.fuel, hand: p.hand, dead: p.dead, quarantined: p.quarantined, active: p.active },
  },
  h("header", { class: "sg-player-head" }, avatar(p.character),
    h("div", { class: "sg-who" }, h("strong", { class: "sg-name" }, p.name, you ? h("span", { class: "tag you-tag" }, "you") : null),
      h("span", { class: "small muted" }, p.character.name)),
    h("div", { class: "sg-badges" }, badges(view, p))),
  h("div", { class: "sg-stats" }, fuelGauge(p.fuel, p.seat),
    h("span", { class: "sg-count", title: "Action cards in hand", dataset: { handCount: p.hand } }, `${p.hand} card${p.hand === 1 ? "" : "s"}`),
    h("span", { class: "sg-count", title: "Tag cards left", dataset: { tagsLeft: p.tags_left } }, `${p.tags_left} tag${p.tags_left === 1 ? "" : "s"} left`)),
  p.dead && !over ? h("p", { class: "sg-note muted small" }, "Died on the planet: no more turns, but the points still count.") : null,
  !stashShown ? null : h("div", { class: "sg-stash", dataset: { stash: p.seat }, "aria-label": `${possessive(view, p.seat)} stash` }, slots),
  p.quarantined ? h("p", { class: "sg-note quarantine small" }, "In Quarantine: adds no Food, cannot launch or fly. Two Fuel get them out.") : null,
  shownAgenda ? agendaEl(p.agenda, "revealed") : null,
  targets.length ? h("div", { class: "sg-targets" }, targets) : null);
}

function agendaEl(agenda, how) {
  return h("div", { class: `sg-agenda ${agenda.team.toLowerCase()}`, dataset: { agenda: agenda.id, team: agenda.team } },
    h("div", { class: "sg-agenda-head" },
      h("span", { class: "sg-agenda-kicker" }, how === "mine" ? "Your Hidden Agenda" : "Agenda revealed"),
      how === "mine" ? h("span", { class: "tag private-tag", title: "Never shown to the others" }, "only you") : null),
    h("strong", { class: "sg-agenda-name" }, agenda.name),
    h("span", { class: `sg-team ${agenda.team.toLowerCase()}` }, agenda.team),
    h("p", { class: "small" }, agenda.text));
}

// ---- the banners: a card waiting for answers, a Food about to be eaten, news ---------------------

function countdown(view) {
  return h("div", { class: "sg-countdown", dataset: { countdown: view.timers.window_ms } },
    h("span", { class: "bar" }), h("span", { class: "sg-secs" }, ""));
}

function windowEl(view) {
  const w = view.window;
  const denials = w.chain.slice(1);
  const denied = findLegal({ type: "denied" });
  const pass = findLegal({ type: "pass" });
  const waiting = w.waiting.map((s) => nameOf(view, s));
  return h("section", { class: `sg-window${w.stands ? " stands" : " cancelled"}${marks.window ? " sg-enter" : ""}`, dataset: { window: w.card, by: w.by, depth: denials.length, stands: w.stands } },
    h("div", { class: "sg-window-card" }, art(w.card, 44)),
    h("div", { class: "sg-window-body" },
      h("strong", {}, `${w.by === view.you ? "You" : nameOf(view, w.by)} played ${describePlay(view, w.card, w.args)}`),
      denials.length ? h("div", { class: "sg-chain" }, denials.map((d, i) => h("span", { class: "sg-denial", style: `--who:${seatColor(d.seat)}` }, `${i ? "then " : ""}${nameOf(view, d.seat)}: Denied`))) : null,
      h("span", { class: "small" }, w.stands ? "As it stands, the card takes effect." : "As it stands, the card is cancelled."),
      waiting.length ? h("span", { class: "small muted" }, `Waiting for: ${waiting.join(", ")}`) : null,
      countdown(view),
      denied || pass ? h("div", { class: "sg-row" },
        denied ? act("Denied!", denied, { cls: "danger", title: "Cancel the latest card (key D)" }) : null,
        pass ? act("Let it go", pass, { title: "Key: Space" }) : null) : null));
}

function eatingEl(view) {
  const e = view.eating;
  const f = foodById(view, e.food);
  const pass = findLegal({ type: "pass" });
  const antidote = findLegal({ type: "antidote", food: e.food });
  const who = e.eater === view.you ? "You" : nameOf(view, e.eater);
  return h("section", { class: `sg-window sg-eating${marks.window ? " sg-enter" : ""}`, dataset: { eating: e.food, eater: e.eater } },
    h("div", { class: "sg-window-card" }, art(f && f.you_know ? f.you_know : "unknown", 44)),
    h("div", { class: "sg-window-body" },
      h("strong", {}, `${who} will eat Food #${e.food}`),
      e.by !== null && e.by !== undefined ? h("span", { class: "small" }, `${nameOf(view, e.by)} paid 1 Fuel and chose it.`) : null,
      f && f.tag ? h("span", { class: "small" }, "Tag: ", tagEl(view, f.tag)) : h("span", { class: "small muted" }, "No tag on it."),
      f && f.you_know ? knowEl(f) : null,
      countdown(view),
      pass || antidote ? h("div", { class: "sg-row" },
        pass ? act("OK, reveal it", pass, { title: "Key: Space" }) : null,
        antidote ? act("Antidote on it", antidote, { cls: "good" }) : null) : null));
}

function newsEl() {
  if (!news || performance.now() > news.until) return null;
  return h("div", { class: `sg-news${news.fresh ? " sg-enter" : ""}`, role: "status" }, news.lines.map((t) => h("div", {}, t)));
}

// ---- what this seat does now ------------------------------------------------------------------------

function seedPanel(view) {
  const kinds = ["safe", "unsafe"].map((k) => h("button", {
    class: `btn sg-kind ${k}${ui.seedKind === k ? " on" : ""}`, type: "button", "aria-pressed": String(ui.seedKind === k),
    dataset: { seedKind: k }, onclick: () => { ui.seedKind = k; draw(); },
  }, art(k, 24), k === "safe" ? "Safe Food" : "Unsafe Food"));
  const stashes = legalOf("seed").filter((a) => a.kind === ui.seedKind)
    .map((a) => act(a.stash === view.you ? "Your stash" : `${view.players[a.stash].name}'s stash`, a, { cls: "small", data: { stash: a.stash } }));
  return [h("p", {}, "Seed a Food face down — only you will know what it is. First choose its kind, then the stash (or click an empty slot)."),
    h("div", { class: "sg-row" }, kinds), h("div", { class: "sg-row" }, stashes)];
}

function eventPanel(view) {
  const cards = (view.drawn.cards || []).map((c, i) => {
    const keeps = legalOf("keep").filter((a) => a.card === i);
    let controls;
    if (keeps.some((a) => a.stash !== undefined)) {
      const on = ui.mode && ui.mode.type === "place" && ui.mode.card === i;
      controls = [h("button", {
        class: `btn sg-mode primary${on ? " on" : ""}`, type: "button", dataset: { mode: "place", card: i },
        onclick: () => { ui.mode = on ? null : { type: "place", card: i }; draw(); },
      }, "Keep it, place it…"),
      on ? h("div", { class: "sg-row" }, keeps.map((a) => act(a.stash === view.you ? "Your stash" : `${view.players[a.stash].name}'s stash`, a, { cls: "small", data: { stash: a.stash } }))) : null];
    } else if (keeps.some((a) => a.target !== undefined)) {
      controls = keeps.map((a) => act(`Keep: take 1 Fuel from ${view.players[a.target].name}`, a, { cls: "primary small" }));
    } else {
      controls = keeps.map((a) => act("Keep it", a, { cls: "primary" }));
    }
    return h("div", { class: `sg-card event ${c.card}`, dataset: { drawn: i, card: c.card } },
      art(c.card, 40), h("strong", {}, c.name), h("p", { class: "small" }, c.text), h("div", { class: "sg-card-actions" }, controls));
  });
  return [h("p", {}, "Keep one Event card; the other goes to the bottom of the deck (only you know which)."),
    h("div", { class: "sg-drawn" }, cards)];
}

function tagPanel(view) {
  const f = foodById(view, view.inspecting);
  const kind = f && f.you_know;
  const buttons = legalOf("tag").map((a) => {
    const truth = kind ? (a.claim === kind ? " (the truth)" : " (a lie)") : "";
    return act(`Tag it ${a.claim.toUpperCase()}${truth}`, a, { cls: a.claim === "safe" ? "good" : "danger" });
  });
  return [h("p", {}, `You looked at Food #${view.inspecting}: `, kind ? h("span", { class: `sg-know ${kind}` }, `it is ${kind.toUpperCase()}`) : "",
    ". Tag it — everyone sees the tag, nobody sees the Food."), h("div", { class: "sg-row" }, buttons)];
}

function guessPanel(view) {
  const me = view.you;
  const mine = (view.guessing.guesses[String(me)]) || {};
  const rows = view.players.filter((p) => p.seat !== me).map((p) => {
    const guessed = mine[String(p.seat)];
    const options = legalOf("guess").filter((a) => a.seat === p.seat);
    return h("div", { class: "sg-guess", dataset: { guessSeat: p.seat } },
      h("strong", {}, p.name),
      guessed ? h("span", { class: "small" }, ` you guessed: ${guessed}`)
        : h("div", { class: "sg-row" }, options.map((a) => act(a.agenda, a, { cls: "small" }))));
  });
  const done = findLegal({ type: "done" });
  return [h("p", {}, "You are a Sleuth: name the other players' agendas (your agenda card says what a right and a wrong guess are worth), then say done."),
    rows, done ? h("div", { class: "sg-row" }, act("Done guessing", done, { cls: "primary" })) : null];
}

function launchComposer(view) {
  const me = view.players[view.you];
  const pod = ui.mode.pod || [];
  const options = view.players.filter((p) => p.seat !== view.you && !p.dead);
  const chips = options.map((p) => {
    const on = pod.includes(p.seat);
    const can = !p.quarantined;
    return h("button", {
      class: `btn small sg-chip${on ? " on" : ""}`, type: "button", disabled: !can, "aria-pressed": String(on),
      dataset: { passenger: p.seat }, style: `--who:${seatColor(p.seat)}`,
      onclick: () => { ui.mode.pod = on ? pod.filter((s) => s !== p.seat) : [...pod, p.seat].sort((a, b) => a - b); draw(); },
    }, `${p.name} (${p.fuel} Fuel)${can ? "" : " — quarantined"}`);
  });
  const aboard = pod.length + 1;
  const need = (view.escape_pod.fuel_table.find((r) => r.people === aboard) || {}).fuel;
  const have = me.fuel + pod.reduce((s, seat) => s + view.players[seat].fuel, 0);
  const action = findLegal({ type: "launch", passengers: pod });
  return h("div", { class: "sg-composer", dataset: { composer: "launch" } },
    h("p", { class: "small" }, "Passengers (they cannot refuse):"),
    h("div", { class: "sg-row" }, chips),
    h("p", { class: `small sg-sum${have >= need ? " enough" : ""}` }, `A pod of ${aboard} needs ${need} Fuel; together you hold ${have}.`),
    action ? act(`Launch with ${aboard} aboard`, action, { cls: "primary" })
      : h("button", { class: "btn", type: "button", disabled: true }, have < need ? "Not enough Fuel for this pod" : "This pod cannot leave now"));
}

function smallestPod() {
  const pods = legalOf("launch").map((a) => a.passengers);
  pods.sort((a, b) => a.length - b.length);
  return pods.length ? [...pods[0]] : [];
}

function firstTradePartner() {
  const a = legalOf("offer")[0];
  return a ? a.to : null;
}

function stepper(label, key, max) {
  const t = ui.trade;
  const set = (v) => { t[key] = Math.max(0, Math.min(max, v)); draw(); };
  return h("span", { class: "sg-stepper", dataset: { stepper: key } },
    h("span", { class: "small" }, label),
    h("button", { class: "btn small", type: "button", disabled: t[key] <= 0, dataset: { step: `${key}-` }, "aria-label": `less ${label}`, onclick: () => set(t[key] - 1) }, "−"),
    h("b", {}, String(t[key])),
    h("button", { class: "btn small", type: "button", disabled: t[key] >= max, dataset: { step: `${key}+` }, "aria-label": `more ${label}`, onclick: () => set(t[key] + 1) }, "+"));
}

function foodChips(view, foods, key) {
  const t = ui.trade;
  return foods.map((f) => {
    const on = t[key] === f.id;
    return h("button", {
      class: `btn small sg-chip${on ? " on" : ""}`, type: "button", "aria-pressed": String(on), dataset: { tradeFood: f.id, side: key },
      onclick: () => { t[key] = on ? null : f.id; draw(); },
    }, `#${f.id}${f.tag ? ` (${f.tag.claim})` : ""}${f.you_know ? ` — ${knowText(f)}` : ""}`);
  });
}

function tradeComposer(view) {
  const t = ui.trade;
  const me = view.players[view.you];
  const partners = view.players.filter((p) => p.seat !== view.you && !p.dead);
  const them = t.to !== null && t.to !== undefined ? view.players[t.to] : null;
  const action = { type: "offer", to: t.to, give_fuel: t.give_fuel, want_fuel: t.want_fuel };
  if (t.give_food !== null) action.give_food = t.give_food;
  if (t.want_food !== null) action.want_food = t.want_food;
  const something = t.give_fuel || t.want_fuel || t.give_food !== null || t.want_food !== null;
  return h("div", { class: "sg-composer", dataset: { composer: "offer" } },
    h("div", { class: "sg-row" }, h("span", { class: "small" }, "With:"), partners.map((p) => h("button", {
      class: `btn small sg-chip${t.to === p.seat ? " on" : ""}`, type: "button", style: `--who:${seatColor(p.seat)}`,
      dataset: { tradeTo: p.seat },
      onclick: () => { ui.trade = { to: p.seat, give_fuel: 0, want_fuel: 0, give_food: null, want_food: null }; draw(); },
    }, p.name))),
    them ? [
      h("div", { class: "sg-row" }, stepper("You give Fuel", "give_fuel", me.fuel), stepper("You ask for Fuel", "want_fuel", them.fuel)),
      me.stash.length ? h("div", { class: "sg-row" }, h("span", { class: "small" }, "Give a Food:"), foodChips(view, me.stash, "give_food")) : null,
      them.stash.length ? h("div", { class: "sg-row" }, h("span", { class: "small" }, `Ask for ${them.name}'s Food:`), foodChips(view, them.stash, "want_food")) : null,
      h("p", { class: "small" }, `You offer ${offerWords(view, { ...action, by: view.you, give_food: t.give_food, want_food: t.want_food })}.`),
      something ? act(`Offer it to ${them.name}`, action, { cls: "primary" }) : h("button", { class: "btn", type: "button", disabled: true }, "Offer or ask for something"),
    ] : null);
}

function movePanel(view) {
  const parts = [];
  let title = null;
  const mode = ui.mode && ui.mode.type;
  if (view.phase === "seed" && legalOf("seed").length) {
    title = "Seed a Food";
    parts.push(...seedPanel(view));
  } else if (view.phase === "guess" && (legalOf("guess").length || findLegal({ type: "done" }))) {
    title = "Sleuth: guess the agendas";
    parts.push(...guessPanel(view));
  } else if (legalOf("keep").length) {
    title = "Event stage";
    parts.push(...eventPanel(view));
  } else if (legalOf("tag").length) {
    title = "Tag the Food";
    parts.push(...tagPanel(view));
  } else if (legalOf("eat").length) {
    title = "Eat";
    parts.push(h("p", {}, `Choose a Food from your stash to eat (${view.eating.remaining} to go): everyone sees your choice, then it is revealed.`));
  } else if (findLegal({ type: "end_actions" })) {
    title = "Your Action stage";
    parts.push(h("p", { class: "small" }, "Play or discard cards from your hand, trade, then end the stage to draw two Event cards."));
  }
  const extras = [];
  if (findLegal({ type: "end_actions" })) extras.push(act("End Action stage", { type: "end_actions" }, { cls: "primary", title: "Key: E" }));
  if (legalOf("feed").length) extras.push(modeButton("Pay 1 Fuel: make a player eat…", { type: "feed" }));
  if (legalOf("offer").length) extras.push(modeButton("Propose a trade…", { type: "offer" }));
  const leave = findLegal({ type: "leave_quarantine" });
  if (leave) extras.push(act("Leave Quarantine (2 Fuel)", leave, { cls: "good" }));
  if (extras.length) parts.push(h("div", { class: "sg-row" }, extras));
  if (mode && MODE_HINTS[mode]) {
    parts.push(h("div", { class: "sg-hint", dataset: { modeHint: mode } }, h("span", {}, MODE_HINTS[mode]),
      h("button", { class: "btn small", type: "button", dataset: { cancel: mode }, onclick: () => { ui.mode = null; draw(); } }, "Cancel")));
  }
  if (mode === "launch") parts.push(launchComposer(view));
  if (mode === "offer" && ui.trade) parts.push(tradeComposer(view));
  if (!parts.length) return null;
  return h("section", { class: "sg-move card", dataset: { move: view.step || view.phase } }, title ? h("h3", {}, title) : null, parts);
}

// ---- your hand, agenda and the trades ------------------------------------------------------------------

function cardControls(view, c) {
  const out = [];
  const kind = c.card;
  const any = (type) => legalOf(type).length > 0;
  if (kind === "denied") {
    const a = findLegal({ type: "denied" });
    if (a) out.push(act("Denied!", a, { cls: "danger small" }));
  } else if (kind === "butt_in") {
    const a = findLegal({ type: "butt_in" });
    if (a) out.push(act("Butt in", a, { cls: "primary small" }));
  } else if (kind === "steal") {
    if (any("steal")) out.push(modeButton("Steal (pair)…", { type: "steal" }, "primary small"));
  } else if (any(kind)) {
    const labels = { inspect: "Inspect…", launch: "Launch…", antidote: "Antidote…", lockout: "Lock out…" };
    out.push(modeButton(labels[kind] || "Play…", { type: kind }, "primary small"));
  }
  const discard = findLegal({ type: "discard", card: kind });
  if (discard) out.push(act("Discard", discard, { cls: "small" }));
  return out;
}

function handEl(view) {
  if (view.you === null || view.you === undefined) return null;
  const kinds = new Map(); // copies of a card are one card with a count
  for (const c of view.hand) kinds.set(c.card, { ...c, count: (kinds.get(c.card) || { count: 0 }).count + 1 });
  const cards = [...kinds.values()].map((c) => {
    const controls = cardControls(view, c);
    return h("div", { class: `sg-card action ${c.card}${controls.length ? " playable" : ""}`, dataset: { card: c.card, count: c.count } },
      h("div", { class: "sg-card-head" }, art(c.card, 32), h("strong", {}, c.name),
        c.count > 1 ? h("span", { class: "sg-count-badge", title: `${c.count} copies` }, `x${c.count}`) : null,
        c.any_time ? h("span", { class: "sg-badge anytime" }, "any time") : null),
      h("p", { class: "small", title: c.text }, c.text),
      controls.length ? h("div", { class: "sg-card-actions" }, controls) : null);
  });
  return h("section", { class: "sg-hand card", dataset: { handSize: view.hand.length } },
    h("h3", {}, `Your hand (${view.hand.length})`, h("span", { class: "tag private-tag" }, "only you")),
    cards.length ? h("div", { class: "sg-cards" }, cards) : h("p", { class: "muted small" }, "No Action cards."));
}

function offersEl(view) {
  if (!view.offers.length) return null;
  const rows = view.offers.map((o) => {
    const controls = [];
    if (o.to === view.you) {
      const accept = findLegal({ type: "accept", by: o.by });
      const decline = findLegal({ type: "decline", by: o.by });
      if (accept) controls.push(act("Accept", accept, { cls: "good small" }));
      if (decline) controls.push(act("Decline", decline, { cls: "small" }));
    }
    if (o.by === view.you) {
      const withdraw = findLegal({ type: "withdraw", to: o.to });
      if (withdraw) controls.push(act("Withdraw", withdraw, { cls: "small" }));
    }
    const who = o.by === view.you ? `You offer ${nameOf(view, o.to)}` : `${nameOf(view, o.by)} offers ${o.to === view.you ? "you" : nameOf(view, o.to)}`;
    const stuck = o.to === view.you && !findLegal({ type: "accept", by: o.by });
    return h("li", { class: `sg-offer${o.to === view.you ? " to-you" : ""}`, dataset: { offerBy: o.by, offerTo: o.to } },
      h("span", {}, `${who} ${offerWords(view, o)}.`, stuck ? h("span", { class: "muted small" }, " (you cannot accept it now)") : null),
      controls.length ? h("span", { class: "sg-row" }, controls) : null);
  });
  return h("section", { class: "sg-offers card" }, h("h3", {}, "Trades on the table"), h("ul", {}, rows));
}

// ---- the escape pod, the decks, what was eaten --------------------------------------------------------

function podEl(view, marks) {
  const pod = view.escape_pod;
  const flyers = view.players.filter((p) => !p.dead && !p.quarantined).map((p) => p.fuel).sort((a, b) => b - a);
  const launched = pod.launch;
  let reachable = false;
  const rows = pod.fuel_table.map((r) => {
    const fuelThere = view.phase !== "over" && flyers.length >= r.people && flyers.slice(0, r.people).reduce((s, x) => s + x, 0) >= r.fuel;
    reachable = reachable || fuelThere;
    const chosen = launched && launched.pod.length === r.people;
    return h("tr", { class: `${fuelThere ? "reachable" : ""}${chosen ? " chosen" : ""}`, dataset: { people: r.people, fuel: r.fuel } },
      h("td", {}, String(r.people)), h("td", {}, String(r.fuel)));
  });
  const me = view.you !== null && view.you !== undefined ? view.players[view.you] : null;
  const over = view.phase === "over";
  return h("section", { class: `sg-pod${launched ? " launched" : ""}`, dataset: { launched: !!launched } },
    rocket(marks.launch),
    h("div", { class: "sg-pod-body" },
      h("strong", {}, "Escape pod"),
      launched ? h("p", { class: "small", dataset: { pod: launched.pod.join(",") } }, `Lifted off with ${launched.pod.map((s) => nameOf(view, s)).join(", ")}, launched by ${nameOf(view, launched.by)}.`)
        : over ? h("p", { class: "small" }, "Nobody left the planet.")
          : h("p", { class: "small" }, "Everyone aboard must together hold the Fuel in the table.", me ? ` You hold ${me.fuel}.` : ""),
      h("table", { class: "sg-pod-table" }, h("thead", {}, h("tr", {}, h("th", {}, "aboard"), h("th", {}, "Fuel"))), h("tbody", {}, rows)),
      launched || over || !reachable ? null : h("p", { class: "small muted" }, "Highlighted: the Fuel for that pod is on the table now.")));
}

function decksEl(view) {
  const d = view.decks;
  return h("div", { class: "sg-decks small muted", dataset: { round: view.round } },
    h("span", {}, `Round ${Math.min(view.round, view.round_limit)} of ${view.round_limit}`),
    h("span", {}, `Action deck ${d.action} (discard ${d.action_discard})`),
    h("span", {}, `Event deck ${d.event} (discard ${d.event_discard})`),
    view.team_game ? h("span", { class: "sg-badge" }, "team game") : null);
}

function eatenEl(view) {
  if (!view.eaten.length) return null;
  const rows = view.eaten.slice(-8).reverse().map((e) => {
    const tag = e.tag ? { by: e.tag[0], claim: e.tag[1] } : null;
    const lie = tag && tag.claim !== e.kind;
    return h("li", { class: `sg-eaten ${e.kind}`, dataset: { food: e.food, kind: e.kind, eater: e.eater } },
      art(e.kind, 22),
      h("span", {}, `#${e.food} eaten by ${nameOf(view, e.eater)}: `, h("b", {}, e.kind.toUpperCase()),
        tag ? ` — tagged ${tag.claim} by ${nameOf(view, tag.by)}` : "",
        lie ? h("span", { class: "sg-lie" }, "a lie") : null,
        e.placed_by !== null && e.placed_by !== undefined ? h("span", { class: "muted" }, ` (from ${nameOf(view, e.placed_by)})`) : null));
  });
  return h("section", { class: "sg-history card" }, h("h3", {}, "Eaten so far"), h("ul", {}, rows));
}

// ---- the end ---------------------------------------------------------------------------------------------

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0");

function endEl(view, state) {
  const result = view.result || state.result;
  if (!result) return null;
  const details = result.details || {};
  const rows = details.breakdown || [];
  const winners = new Set(result.winners || []);
  const escaped = new Set(view.escape_pod.launch ? view.escape_pod.launch.pod : []);
  const totals = details.team_totals;
  const names = [...winners].map((w) => (w === view.you ? "You" : nameOf(view, w)));
  const teams = totals ? [...new Set(rows.filter((r) => winners.has(r.seat)).map((r) => r.team))] : [];
  const heading = teams.length ? `The ${teams.map((t) => `${t}s`).join(" and ")} win!`
    : names.length ? `${names.join(" and ")} win${names.length === 1 && names[0] !== "You" ? "s" : ""}!` : "Game over";
  const guessesOf = (r) => Object.entries(r.guesses || {}).map(([seat, agenda]) => {
    const right = rows[Number(seat)] && rows[Number(seat)].agenda_name === agenda;
    return h("span", { class: `sg-guessed ${right ? "right" : "wrong"}` }, `${nameOf(view, Number(seat))}: ${agenda} (${right ? "right" : "wrong"})`);
  });
  return h("section", { class: "sg-end card", dataset: { end: view.escape_pod.launch ? "launch" : "stranded" } },
    h("h2", {}, heading),
    h("p", {}, String(result.reason || "").replace(/\. ([a-z])/g, (_, c) => `. ${c.toUpperCase()}`)),
    totals ? h("div", { class: "sg-team-totals" }, Object.entries(totals).map(([team, total]) =>
      h("span", { class: `sg-team ${team.toLowerCase()}`, dataset: { teamTotal: team } }, `${team}s: ${total}`))) : null,
    h("div", { class: "sg-scores" }, rows.map((r) => {
      const p = view.players[r.seat];
      const agenda = p.agenda || { name: r.agenda_name, team: r.team, text: "" };
      return h("div", { class: `sg-score${winners.has(r.seat) ? " winner" : ""}`, style: `--seat:${seatColor(r.seat)}`,
        dataset: { seat: r.seat, agenda: r.agenda, total: r.total } },
      h("div", { class: "sg-score-head" }, avatar(p.character), h("strong", {}, p.name, r.seat === view.you ? " (you)" : ""),
        winners.has(r.seat) ? h("span", { class: "sg-badge winner" }, "winner") : null,
        h("span", { class: `sg-badge ${escaped.has(r.seat) ? "escaped" : "dead"}` }, escaped.has(r.seat) ? "escaped" : "left behind")),
      h("div", { class: "sg-score-agenda" }, h("b", {}, agenda.name), " ", h("span", { class: `sg-team ${r.team.toLowerCase()}` }, r.team),
        agenda.text ? h("p", { class: "small" }, agenda.text) : null),
      r.guesses && Object.keys(r.guesses).length ? h("div", { class: "sg-guesses small" }, "Guesses: ", guessesOf(r)) : null,
      h("div", { class: "sg-sum-line" },
        h("span", {}, `Fuel ${r.fuel}`), h("span", {}, `agenda ${signed(r.agenda_points)}`), h("b", {}, `= ${r.total}`)));
    })));
}

// ---- fresh events: light animation and the news line -----------------------------------------------------

function freshMarks(state) {
  const marks = { seats: new Map(), foods: new Map(), launch: false, window: false };
  const lines = [];
  for (const e of state.fresh || []) {
    const d = e.data || {};
    if (["you_lied", "quarantine", "starved"].includes(e.type) && d.seat !== undefined) marks.seats.set(d.seat, "sg-shake");
    else if (["fuel", "stolen", "ransom", "trade", "unquarantined"].includes(e.type) && d.seat !== undefined) marks.seats.set(d.seat, "sg-glow");
    if (["tag", "food", "seed", "inspected"].includes(e.type) && d.food !== undefined) marks.foods.set(d.food, "sg-pop");
    if (e.type === "launched") marks.launch = true;
    if (["play", "denied", "choose"].includes(e.type)) marks.window = true;
    if (NEWS_TYPES.has(e.type)) lines.push(e.text);
  }
  if (lines.length) {
    news = { lines: lines.slice(-3), until: performance.now() + NEWS_MS, fresh: true };
    setTimeout(() => { if (current && news && performance.now() > news.until) draw(); }, NEWS_MS + 50);
  }
  return marks;
}

function tick() {
  if (!current) return;
  const { root, ctx, state } = current;
  const bars = root.querySelectorAll("[data-countdown]");
  if (!bars.length) return;
  const left = Math.max(0, ctx.remaining() ?? 0);
  for (const bar of bars) {
    const total = Number(bar.dataset.countdown) || state.view.timers.window_ms;
    bar.style.setProperty("--left", String(Math.min(1, left / total)));
    bar.querySelector(".sg-secs").textContent = `${Math.ceil(left / 1000)}s`;
    bar.classList.toggle("urgent", left < 2500);
  }
}

function onKey(event) {
  if (!current || busy) return false;
  const key = event.key.toLowerCase();
  const pick = (want) => { const a = findLegal(want); if (a) send(a); return !!a; };
  if (key === "escape" && ui.mode) { ui.mode = null; draw(); return true; }
  if (key === " ") return pick({ type: "pass" });
  if (key === "d") return pick({ type: "denied" });
  if (key === "e") return pick({ type: "end_actions" });
  return false;
}

// ---- drawing ---------------------------------------------------------------------------------------------

const NO_MARKS = { seats: new Map(), foods: new Map(), launch: false, window: false };
let marks = NO_MARKS;

function draw() {
  const { root, state, ctx } = current;
  const view = state.view;
  modeAlive();
  const you = view.you;
  const launched = view.escape_pod.launch;
  view.launch_pod = launched ? launched.pod : null;
  const order = view.players.map((p) => p.seat);
  if (you !== null && you !== undefined) order.sort((a, b) => ((a - you + order.length) % order.length) - ((b - you + order.length) % order.length));
  const over = view.phase === "over";
  const toYou = view.offers.some((o) => o.to === you);
  const board = h("div", {
    class: `sg${over ? " over" : ""}${ctx.spectator ? " watching" : ""}`,
    dataset: { phase: view.phase, step: view.step || "", turn: view.turn, you: you ?? "", busy: busy ? "1" : "", errors, renders, seq: state.seq, mode: ui.mode ? ui.mode.type : "", inspecting: view.inspecting ?? "" },
  },
  newsEl(),
  over ? endEl(view, state) : null,
  view.window ? windowEl(view) : null,
  !view.window && view.eating && view.eating.food !== null ? eatingEl(view) : null,
  ctx.spectator ? h("p", { class: "sg-watching muted small" }, "You are watching: hands, agendas and unseen Food stay hidden.") : movePanel(view),
  toYou ? offersEl(view) : null,
  h("div", { class: "sg-crew" }, order.map((seat) => playerEl(view, view.players[seat], marks))),
  toYou ? null : offersEl(view),
  h("div", { class: "sg-mine" },
    view.agenda && !over ? agendaEl(view.agenda, "mine") : null,
    over ? null : handEl(view)),
  h("div", { class: "sg-table-info" }, podEl(view, marks), h("div", { class: "sg-side-info" }, decksEl(view), eatenEl(view))));
  root.replaceChildren(board);
  tick();
}

/** The renderer interface (docs/CONTRIBUTING-games.md): called with every new state. */
export function render(root, state, ctx) {
  if (!started) {
    started = true;
    ctx.onKey(onKey);
    setInterval(tick, 200);
  }
  const view = state.view;
  ({ stash: STASH_SIZE, fuel: FUEL_CAP } = view.limits);
  if (view.turn_no !== ui.turn) ui = { ...ui, mode: null, trade: null, turn: view.turn_no };
  current = { root, state, ctx };
  renders += 1;
  marks = freshMarks(state);
  draw();
  marks = NO_MARKS; // a redraw for a click does not replay the animations
  if (news) news.fresh = false;
}
