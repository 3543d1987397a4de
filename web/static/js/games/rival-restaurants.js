// Rival Restaurants: the day's phase banner and market clock; the board (the Island in the
// centre, six markets around it, four on the corners) with standees, counters and shelves;
// the secret location pick; claims, auctions and buying at your market; the Island shop; a
// barter composer with the offers in and out; the cook declaration; your restaurant and,
// compactly, the other chefs'. Everything clickable comes from ctx.legal (or, for the
// barter composer, any bundle the rules would accept). Keys: D done at the market, S serve,
// Esc closes a half-made choice. With SPORKS Out: the Snackle Box and its secret Action
// Auction bid, the SPORK chefs' powers and parts, the Luau, shakers, Scraps and Joe's Dumpster,
// and Hot Sauce cards shown by their backs only.
import { h, svg, seatColor } from "../client.js";

const STEPS = [["action_auction", "Action Auction"], ["money_move", "MONEY and MOVE"], ["buy_barter", "BUY and BARTER"], ["cook_counter", "COOK and COUNTER"]];
const OPTION_STEPS = { choose_restaurant: "Choose restaurants", kitchen_squad: "Kitchen Squad" }; // phases match options add
const CATEGORY_ICON = { meat: "meat", dairy: "dairy", vegetables: "veg", carbs: "carbs", fruit: "fruit", specials: "special" };
const MAX_OFFERS = 4; // open offers a chef may have out at once (the rules page)
const LEVEL_MARKS = [3, 7, 12];

// ---- art: one SVG sprite of icons, standees drawn in the seat's colour --------------------

function sprite() {
  const sym = (id, ...parts) => svg("symbol", { id: `rr-${id}`, viewBox: "0 0 24 24" }, ...parts);
  return svg("svg", { class: "rr-sprite", width: 0, height: 0, "aria-hidden": "true" },
    svg("defs", {},
      sym("meat",
        svg("path", { d: "M8.5 15.5 L4.5 19.5", stroke: "#f3e9d6", "stroke-width": 3, "stroke-linecap": "round" }),
        svg("circle", { cx: 3.6, cy: 18.6, r: 1.7, fill: "#f3e9d6", stroke: "#9b8660", "stroke-width": 0.7 }),
        svg("circle", { cx: 5.4, cy: 20.4, r: 1.7, fill: "#f3e9d6", stroke: "#9b8660", "stroke-width": 0.7 }),
        svg("ellipse", { cx: 14, cy: 10, rx: 7.5, ry: 5.8, transform: "rotate(-45 14 10)", fill: "#c0563b", stroke: "#7b2a18", "stroke-width": 1.2 }),
        svg("path", { d: "M11 8 C12.5 6 15 5.5 16.5 6.5", fill: "none", stroke: "#e98b6d", "stroke-width": 1.2, "stroke-linecap": "round" })),
      sym("dairy",
        svg("path", { d: "M2 18 L22 18 L22 11 L9 6 Z", fill: "#f5c542", stroke: "#a87a06", "stroke-width": 1.2, "stroke-linejoin": "round" }),
        svg("path", { d: "M2 18 L9 6 L22 11", fill: "none", stroke: "#fbe08a", "stroke-width": 1 }),
        svg("circle", { cx: 9, cy: 14.5, r: 1.6, fill: "#d9a418" }),
        svg("circle", { cx: 15.5, cy: 13.5, r: 1.2, fill: "#d9a418" }),
        svg("circle", { cx: 19, cy: 16, r: 0.9, fill: "#d9a418" })),
      sym("veg",
        svg("path", { d: "M4 20 C4 10 10 4 20 4 C20 14 14 20 4 20 Z", fill: "#3a9a4a", stroke: "#1f5f29", "stroke-width": 1.2 }),
        svg("path", { d: "M4 20 L15 9 M9 15 L9 11 M12 12 L15 12", fill: "none", stroke: "#bfe6b0", "stroke-width": 1.1, "stroke-linecap": "round" })),
      sym("carbs",
        svg("path", { d: "M3 13 C2 7 22 7 21 13 L20 19 L4 19 Z", fill: "#d9a05b", stroke: "#8a5a2b", "stroke-width": 1.2, "stroke-linejoin": "round" }),
        svg("path", { d: "M7 11 l2 -2.5 M11 11 l2 -2.5 M15 11 l2 -2.5", fill: "none", stroke: "#f6dcb0", "stroke-width": 1.3, "stroke-linecap": "round" })),
      sym("fruit",
        svg("circle", { cx: 12, cy: 14, r: 7.5, fill: "#e2533a", stroke: "#9b2b1a", "stroke-width": 1.2 }),
        svg("path", { d: "M12 6.5 C12 4 14.5 2.5 17.5 3.5 C16.5 6 14.5 7 12 6.5 Z", fill: "#3a9a4a" }),
        svg("circle", { cx: 9, cy: 11.5, r: 1.5, fill: "#f4a08f" })),
      sym("special",
        svg("path", { d: "M12 2 L14.4 9.6 L22 12 L14.4 14.4 L12 22 L9.6 14.4 L2 12 L9.6 9.6 Z", fill: "#8e44ad", stroke: "#5b2370", "stroke-width": 1 }),
        svg("circle", { cx: 12, cy: 12, r: 2, fill: "#e8d4f2" })),
      sym("island",
        svg("ellipse", { cx: 12, cy: 20, rx: 10, ry: 3, fill: "#f1d79a", stroke: "#c2a15a", "stroke-width": 1 }),
        svg("path", { d: "M12 20 C12 15 12.5 11 14 8", fill: "none", stroke: "#8a5a2b", "stroke-width": 1.8, "stroke-linecap": "round" }),
        svg("path", { d: "M14 8 C10 5 6 6 4 9 C8 7.5 11 8 14 8 C13 4 15 2 19 2 C17 4 16 6 14 8 C18 6 21 8 22 11 C19 9 16 8.5 14 8 Z", fill: "#3a9a4a", stroke: "#1f5f29", "stroke-width": 0.8, "stroke-linejoin": "round" })),
      sym("coin",
        svg("circle", { cx: 12, cy: 12, r: 9, fill: "#f2c230", stroke: "#a87a06", "stroke-width": 1.5 }),
        svg("circle", { cx: 12, cy: 12, r: 5.5, fill: "none", stroke: "#c99a10", "stroke-width": 1.2 })),
      sym("bin",
        svg("path", { d: "M6 8 L18 8 L16.5 21 L7.5 21 Z", fill: "#7d8b7a", stroke: "#3f4a3d", "stroke-width": 1.2, "stroke-linejoin": "round" }),
        svg("rect", { x: 4, y: 5, width: 16, height: 3, rx: 1, fill: "#96a592", stroke: "#3f4a3d", "stroke-width": 1.2 }),
        svg("path", { d: "M10 3.5 h4", stroke: "#3f4a3d", "stroke-width": 1.6, "stroke-linecap": "round" }),
        svg("path", { d: "M10 11 v7 M14 11 v7", stroke: "#c9d3c6", "stroke-width": 1.1, "stroke-linecap": "round" })),
      sym("star",
        svg("path", { d: "M12 2.5 L14.8 8.8 L21.5 9.4 L16.4 13.9 L18 20.6 L12 17 L6 20.6 L7.6 13.9 L2.5 9.4 L9.2 8.8 Z", fill: "#f2b81f", stroke: "#a8740a", "stroke-width": 1.1, "stroke-linejoin": "round" })),
      sym("gavel",
        svg("rect", { x: 9, y: 3, width: 11, height: 6, rx: 1.5, transform: "rotate(40 14.5 6)", fill: "#a0522d", stroke: "#5e2f18", "stroke-width": 1 }),
        svg("path", { d: "M11 11 L4 18", stroke: "#8a5a2b", "stroke-width": 2.4, "stroke-linecap": "round" }),
        svg("rect", { x: 12, y: 19, width: 10, height: 3, rx: 1, fill: "#8a5a2b" })),
      sym("check",
        svg("path", { d: "M4 12.5 L9.5 18 L20 6", fill: "none", stroke: "currentColor", "stroke-width": 3, "stroke-linecap": "round", "stroke-linejoin": "round" })),
      sym("pan",
        svg("ellipse", { cx: 10, cy: 14, rx: 8, ry: 4.5, fill: "#4a4a4a", stroke: "#222", "stroke-width": 1 }),
        svg("path", { d: "M17.5 13 L23 10", stroke: "#5e2f18", "stroke-width": 2.4, "stroke-linecap": "round" }),
        svg("path", { d: "M7 9 C6 7 8 6 7 4 M11 9 C10 7 12 6 11 4", fill: "none", stroke: "#c9b99a", "stroke-width": 1.2, "stroke-linecap": "round" })),
      ...sporkSymbols(sym),
    ));
}

function icon(name, size = 16, extra = "") {
  return svg("svg", { class: `rr-icon ${extra}`.trim(), width: size, height: size, viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("use", { href: `#rr-${name}` }));
}

/** A chef's standee: a little figure with a toque, in the seat's colour. */
function standee(seat, name, { ghost = false, size = 22 } = {}) {
  const color = seatColor(seat);
  return svg("svg", {
    class: `rr-standee${ghost ? " ghost" : ""}`, width: size, height: Math.round(size * 1.35), viewBox: "0 0 20 27",
    role: "img", "aria-label": ghost ? `${name} (your secret pick)` : name, dataset: { seat },
  },
  svg("title", {}, ghost ? `${name} — your secret pick` : name),
  svg("ellipse", { cx: 10, cy: 25, rx: 7, ry: 1.8, fill: "rgba(59,42,30,0.25)" }),
  svg("path", { d: "M4 25 L4 17 C4 13.5 6.5 12 10 12 C13.5 12 16 13.5 16 17 L16 25 Z", fill: ghost ? "none" : color, stroke: ghost ? color : "rgba(0,0,0,0.35)", "stroke-width": ghost ? 1.6 : 1, "stroke-dasharray": ghost ? "2 1.5" : null }),
  svg("circle", { cx: 10, cy: 9, r: 3.6, fill: ghost ? "none" : "#f6d7b8", stroke: ghost ? color : "#b98d66", "stroke-width": 1, "stroke-dasharray": ghost ? "2 1.5" : null }),
  svg("path", { d: "M6.3 5.6 C4.5 5.6 4.2 2.6 6.3 2.4 C6.8 0.6 9 0.2 10 1.4 C11 0.2 13.2 0.6 13.7 2.4 C15.8 2.6 15.5 5.6 13.7 5.6 Z", fill: ghost ? "none" : "#fff", stroke: ghost ? color : "#9b8f80", "stroke-width": 0.9, "stroke-dasharray": ghost ? "2 1.5" : null }));
}

// ---- small helpers ------------------------------------------------------------------------

const money = (n) => `$${n}`;
/** A price as this player pays it (powers and cards change it), with the list price beside it when different. */
const priced = (list, yours) => (yours == null || yours === list ? money(list) : `${money(yours)} (list ${money(list)})`);
const cap = (s) => String(s || "").replace(/(^|[\s-])\w/g, (m) => m.toUpperCase());
const recipeNames = new Map(); // every recipe id seen held, with its name

/** A recipe's name: the view describes it (an object with a name) or gives its id. */
function recipeName(id) {
  if (id && typeof id === "object") return id.name;
  return recipeNames.get(id) || cap(String(id).replaceAll("_", " "));
}

const cardNames = new Map(); // action card kind ("flash_sale") -> name, from every card seen held

/** An action card's name from its id ("flash_sale-2": "Flash Sale"). */
function cardName(id) {
  if (id && typeof id === "object") return id.name;
  const kind = String(id).replace(/-\d+$/, "");
  return cardNames.get(kind) || cap(kind.replaceAll("_", " "));
}

function upgradeName(view, id) {
  return (view.island.upgrades.find((u) => u.id === id) || { name: id }).name;
}

function ingredientInfo(view, id) {
  return (view.ingredients && view.ingredients[id]) || { name: cap(String(id).replaceAll("_", " ")), market: "", price: 0, text: "" };
}

function categoryOf(view, id) {
  const market = ingredientInfo(view, id).market;
  const loc = view.board.find((l) => l.id === market);
  return CATEGORY_ICON[loc && loc.category] || "special";
}

/** An ingredient as a small chip: icon, name, and a count when more than one. */
function chip(view, id, { count = 1, cls = "", title } = {}) {
  const info = ingredientInfo(view, id);
  return h("span", { class: `rr-ing cat-${categoryOf(view, id)} ${cls}`.trim(), title: title || info.text || info.name, dataset: { ingredient: id } },
    icon(categoryOf(view, id), 14), h("span", { class: "rr-ing-name" }, info.name), count > 1 ? h("b", { class: "rr-count" }, `×${count}`) : null);
}

function seatDot(seat, ctx) {
  return h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}`, title: ctx.playerName(seat) });
}

function countTotal(map) {
  return Object.values(map || {}).reduce((a, b) => a + b, 0);
}

/** For each of a chef's recipes: which of its ingredients they hold (greedy, recipe by recipe). */
function recipeHoldings(player) {
  return player.recipes.map((r) => {
    const pool = { ...player.ingredients };
    return r.ingredients.map((need) => {
      if ((pool[need] || 0) > 0) {
        pool[need] -= 1;
        return true;
      }
      return false;
    });
  });
}

function wantedIngredients(player) {
  const wanted = new Set();
  if (!player) return wanted;
  recipeHoldings(player).forEach((held, i) => player.recipes[i].ingredients.forEach((need, j) => { if (!held[j]) wanted.add(need); }));
  return wanted;
}

// ---- module state: what this page is in the middle of ---------------------------------------

let current = null; // {root, state, ctx}
let keysBound = false;
let clockTimer = null;
let ui = freshUi("");

function emptyBundle() {
  return { money: 0, garbage: 0, ingredients: {}, recipes: [], actions: [], upgrades: [], face_down: {} };
}

function freshUi(key) {
  return {
    key, // day:phase — half-made choices do not outlive their phase
    foresee: null,
    runner: null, // Kitchen Squad: where the runner goes with the pick (null: stays home)
    play: null, // {kind: "play"|"power", card, target, needs}
    bids: {}, // auction id -> amount typed
    dump: 1,
    extras: {}, // recipe id -> [specials]
    barter: { open: false, to: null, give: emptyBundle(), get: emptyBundle() },
    boxBid: null, // the Action Auction bid typed, until sent
  };
}

/** data- attributes without the empty ones (the DOM would write "null"). */
function ds(values) {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}

const legalOf = (type) => (current ? current.state.legal.filter((a) => a.type === type) : []);

function send(action, after) {
  if (!current) return Promise.resolve();
  const { ctx } = current;
  return ctx.send(action).then(() => {
    if (after) {
      after();
      if (ctx.redraw) ctx.redraw(); // drawn with the change the action made, once
      else draw();
    }
  }).catch(() => {}); // the page shows the rules' reason as a toast
}

/** A button for one action; highlighted as legal, disabled when not. */
function actButton(label, action, { cls = "", data = {}, title, enabled = true, after } = {}) {
  const usable = !!action && enabled;
  return h("button", {
    type: "button", class: `btn rr-btn${usable ? " legal" : ""} ${cls}`.trim(), title, disabled: !usable,
    dataset: ds({ act: action ? action.type : data.act, focus: `${action ? action.type : data.act}:${JSON.stringify(data)}`, ...data }),
    onclick: () => send(action, after),
  }, label);
}

function plainButton(label, onclick, { cls = "", data = {}, title, disabled = false, pressed } = {}) {
  return h("button", {
    type: "button", class: `btn rr-btn ${cls}`.trim(), title, disabled,
    "aria-pressed": pressed === undefined ? null : String(!!pressed),
    dataset: { focus: `ui:${JSON.stringify(data)}:${typeof label === "string" ? label : ""}`, ...data }, onclick,
  }, label);
}

function stepper(value, { min = 0, max, step = 1, onchange, data = {}, format = String, label }) {
  const set = (v) => { onchange(Math.max(min, max === undefined ? v : Math.min(max, v))); draw(); };
  return h("span", { class: "rr-stepper", dataset: data },
    label ? h("span", { class: "rr-stepper-label" }, label) : null,
    plainButton("−", () => set(value - step), { cls: "small", data: { ...data, step: -step }, disabled: value <= min, title: "less" }),
    h("b", { class: "rr-stepper-value" }, format(value)),
    plainButton("+", () => set(value + step), { cls: "small", data: { ...data, step }, disabled: max !== undefined && value >= max, title: "more" }));
}

// ---- the clock ----------------------------------------------------------------------------

function nowEstimate(state, ctx) {
  if (typeof state.receivedAt === "number" && typeof state.now === "number") return state.now + (performance.now() - state.receivedAt);
  const left = ctx.remaining();
  return left !== null && state.deadline !== null && state.deadline !== undefined ? state.deadline - left : state.now || 0;
}

function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A countdown to `until`; its bar runs from `since` (the phase's start), so it is right after a reload too. */
function clock(until, label, kind, since) {
  return h("div", { class: `rr-clock ${kind}`, dataset: { clock: kind, until, since } },
    h("span", { class: "rr-clock-label" }, label), h("b", { class: "rr-clock-time" }, ""), h("span", { class: "rr-clock-bar" }, h("span", {})));
}

function tickClocks() {
  if (!current) return;
  const { root, state, ctx } = current;
  const now = nowEstimate(state, ctx);
  for (const el of root.querySelectorAll("[data-clock]")) {
    const until = Number(el.dataset.until);
    const left = Math.max(0, until - now);
    const total = Math.max(1, until - Number(el.dataset.since));
    el.querySelector(".rr-clock-time").textContent = formatClock(left);
    el.style.setProperty("--left", String(Math.min(1, left / total)));
    el.classList.toggle("urgent", left < 10000);
  }
}

// ---- the phase banner ----------------------------------------------------------------------

function banner(state, ctx) {
  const { view } = state;
  const pv = view.phase_view || {};
  const players = view.players;
  let status = null;
  if (view.phase === "money_move") status = `${players.filter((p) => p.picked).length} of ${players.length} chefs have picked`;
  if (view.phase === "buy_barter") status = `${players.filter((p) => p.done).length} of ${players.length} chefs done`;
  if (view.phase === "cook_counter") status = `${players.filter((p) => p.ready).length} of ${players.length} chefs served`;
  if (view.phase === "action_auction") status = `${(pv.bids || []).filter(Boolean).length} of ${players.length} chefs have bid`;
  const clocks = [];
  if (view.phase === "buy_barter" && pv.ends) {
    clocks.push(clock(pv.ends, "Market closes in", "market", view.phase_started));
    if (pv.claim_deadline) clocks.push(clock(pv.claim_deadline, "Claims settle in", "claims", view.phase_started));
  } else if (pv.ends && view.phase !== "over") {
    const label = { money_move: "Picks revealed in", action_auction: "Bids revealed in" }[view.phase] || "Kitchen closes in";
    clocks.push(clock(pv.ends, label, "phase", view.phase_started));
  }
  const plan = view.day_plan && view.day_plan.length ? view.day_plan : STEPS.map(([id]) => id);
  const names = { ...Object.fromEntries(STEPS), ...OPTION_STEPS, [view.phase]: view.phase_name || view.phase };
  return h("section", { class: "rr-banner", dataset: { phase: view.phase, day: view.day, flash: "banner" } },
    h("div", { class: "rr-day" },
      h("span", { class: "rr-day-no" }, view.phase === "over" ? "Game over" : `Day ${view.day}`),
      h("span", { class: "small muted" }, `first to ${view.goal} popularity · closing day ${view.closing_day}`)),
    view.phase === "over" ? null : h("ol", { class: "rr-steps" }, plan.map((id) => h("li", { class: id === view.phase ? "now" : "", dataset: { step: id } }, names[id] || id.replaceAll("_", " ")))),
    status ? h("span", { class: "rr-status small" }, status) : null,
    clocks.length ? h("div", { class: "rr-clocks" }, clocks) : null);
}

// ---- the board ---------------------------------------------------------------------------------

function marketPriceLabel(view, loc) {
  const prices = Object.values(view.ingredients || {}).filter((i) => i.market === loc.id).map((i) => i.price);
  if (!prices.length) return "";
  const lo = Math.min(...prices), hi = Math.max(...prices);
  return lo === hi ? money(lo) : `${money(lo)}–${money(hi)}`;
}

function counterCard(state, ctx, loc, card, slot, me) {
  const { view } = state;
  if (!card) return h("div", { class: "rr-card empty", dataset: { market: loc.id, slot } }, h("span", { class: "small muted" }, "empty"));
  const auction = (view.phase_view.auctions || []).find((a) => a.market === loc.id && a.slot === slot);
  const claimers = loc.claims_resolved ? [] : view.players.map((p, seat) => ({ p, seat })).filter(({ p }) => p.location === loc.id && p.claim === slot);
  const wanted = me && wantedIngredients(me).has(card.ingredient);
  let action = null;
  let label = null;
  if (ui.play && ui.play.needs.slot) {
    action = ui.play.choice === "shaker_slot" && !ui.play.shaker ? null : { ...playBase(ui.play), market: loc.id, slot };
    label = ui.play.choice === "shaker_slot" ? "Shake" : "Deliver";
  } else {
    action = legalOf("claim").find((a) => a.slot === slot && me && me.location === loc.id)
      || legalOf("buy").find((a) => a.slot === slot && me && me.location === loc.id) || null;
    label = action ? (action.type === "claim" ? "Claim" : "Buy") : null;
  }
  const info = ingredientInfo(view, card.ingredient);
  const body = [
    h("span", { class: "rr-card-top" }, icon(categoryOf(view, card.ingredient), 18), wanted ? h("span", { class: "rr-wanted", title: "One of your recipes needs it" }, "need") : null),
    h("span", { class: "rr-card-name" }, card.name),
    h("span", { class: "rr-card-price" }, priced(card.price, card.your_price)),
    shakerBadge(card),
    claimers.length ? h("span", { class: "rr-claimers", title: "claimed by" }, claimers.map(({ seat }) => seatDot(seat, ctx))) : null,
    auction ? h("span", { class: "rr-card-auction" }, icon("gavel", 12), auction.leader === null ? "auction" : money(auction.high)) : null,
    label ? h("span", { class: "rr-card-act" }, label) : null,
  ];
  const attrs = {
    class: `rr-card cat-${categoryOf(view, card.ingredient)}${wanted ? " wanted" : ""}${auction ? " in-auction" : ""}${action ? " legal" : ""}${card.shaker ? " shaken" : ""}`,
    title: `${info.name} — ${priced(card.price, card.your_price)}${info.text ? `: ${info.text}` : ""}`,
    dataset: ds({ market: loc.id, slot, ingredient: card.ingredient, act: action ? action.type : null, shaker: card.shaker, focus: `card:${loc.id}:${slot}` }),
  };
  if (!action) return h("div", attrs, body);
  return h("button", { ...attrs, type: "button", onclick: () => send(action, () => { ui.play = null; }) }, body);
}

function standees(state, ctx, loc) {
  const { view } = state;
  const seats = loc.chefs || [];
  const mine = view.mine;
  const ghost = mine && mine.pick === loc.id && !seats.includes(view.you);
  const revealed = (state.fresh || []).some((e) => e.type === "reveal");
  return h("div", { class: `rr-standees${revealed ? " drop" : ""}` },
    seats.map((seat) => h("span", { class: `rr-standee-wrap${view.players[seat].done || view.players[seat].ready ? " resting" : ""}`, dataset: { seat } },
      standee(seat, view.players[seat].name), h("span", { class: "rr-standee-name" }, view.players[seat].name))),
    ghost ? h("span", { class: "rr-standee-wrap ghost", dataset: { seat: view.you } }, standee(view.you, ctx.playerName(view.you), { ghost: true }), h("span", { class: "rr-standee-name" }, "your pick")) : null,
    runnerStandees(view, ctx, loc));
}

function moveButton(state, loc) {
  const { view } = state;
  if (view.phase !== "money_move" || !view.mine) return null;
  const picked = view.mine.pick === loc.id;
  const action = legalOf("move").find((a) => a.location === loc.id && (ui.foresee === null ? a.foresee === undefined : a.foresee === ui.foresee)
    && (a.runner ?? null) === ui.runner);
  return h("button", {
    type: "button", class: `btn rr-btn rr-go${action ? " legal" : ""}${picked ? " picked" : ""}`, disabled: !action,
    dataset: { act: "move", location: loc.id, focus: `go:${loc.id}` }, onclick: () => send(action),
  }, picked ? [icon("check", 14), "Your pick"] : "Go here");
}

function marketTile(state, ctx, loc, me) {
  const { view } = state;
  const here = me && me.location === loc.id;
  const claiming = view.phase === "buy_barter" && !loc.claims_resolved && loc.chefs.length > 0;
  return h("section", {
    class: `rr-loc rr-market cat-${CATEGORY_ICON[loc.category] || "special"}${loc.corner ? " corner" : ""}${here ? " here" : ""}${view.mine && view.mine.pick === loc.id ? " picked" : ""}${loc.luau ? " luau" : ""}`,
    style: `grid-column:${loc.position[0] + 1};grid-row:${loc.position[1] + 1}`,
    dataset: ds({ location: loc.id, shelf: loc.shelf, flash: `loc:${loc.id}`, luau: loc.luau ? "true" : null, scraps: loc.scraps ? "true" : null }),
    "aria-label": loc.name,
  },
  h("header", { class: "rr-loc-head" }, icon(CATEGORY_ICON[loc.category] || "special", 20),
    h("span", { class: "rr-loc-name" }, loc.name), h("span", { class: "rr-loc-price" }, marketPriceLabel(view, loc))),
  marketSporks(view, loc),
  standees(state, ctx, loc),
  claiming ? h("span", { class: "rr-claiming small" }, "claiming…") : null,
  h("div", { class: "rr-counter" }, loc.counter.map((card, slot) => counterCard(state, ctx, loc, card, slot, me))),
  h("div", { class: "rr-shelf", title: `${loc.shelf} cards on the shelf (face down), ${loc.discard} in the discard pile` },
    h("span", { class: "rr-shelf-stack", "aria-hidden": "true" }), h("span", { class: "small" }, `shelf ${loc.shelf}`),
    here ? shelfBuyButton(view, loc) : null),
  moveButton(state, loc));
}

/** Buy the top face-down shelf card, blind, at the market's price (when the rules allow). */
function shelfBuyButton(view, loc) {
  const action = legalOf("buy_shelf")[0];
  if (!action) return null;
  return actButton(`Buy face down (${marketPriceLabel(view, loc)})`, action, { cls: "small", data: { shelf: loc.id }, title: "The top card of the shelf, sight unseen" });
}

function islandShop(state, me) {
  const { view } = state;
  const island = view.island;
  const upgrades = island.upgrades.map((u) => {
    const owned = me && me.upgrades.includes(u.id);
    const action = legalOf("buy_upgrade").find((a) => a.upgrade === u.id);
    return h("div", { class: `rr-upgrade${owned ? " owned" : ""}`, dataset: { upgrade: u.id }, title: u.text },
      h("span", { class: "rr-upgrade-name" }, u.name), h("span", { class: "small muted rr-upgrade-text" }, u.text),
      owned ? h("span", { class: "tag" }, "yours")
        : actButton(`Buy ${priced(u.price, u.your_price)}`, action, { data: { upgrade: u.id }, cls: "small" }));
  });
  const dumps = legalOf("dump");
  const most = dumps.reduce((m, a) => Math.max(m, a.count), 0);
  if (ui.dump > most) ui.dump = Math.max(1, most);
  const dumpAction = most ? { type: "dump", count: ui.dump } : null;
  return h("div", { class: "rr-shop" },
    h("div", { class: "rr-upgrades" }, upgrades),
    h("div", { class: "rr-shop-row" },
      actButton(`Buy an action card ${priced(island.action_price, island.your_action_price)}`, legalOf("buy_action")[0], { cls: "small" }),
      h("span", { class: "small muted" }, `deck ${island.action_deck}`)),
    h("div", { class: "rr-shop-row" },
      most ? stepper(ui.dump, { min: 1, max: most, onchange: (v) => { ui.dump = v; }, data: { field: "dump" }, label: "Garbage" }) : null,
      actButton(most ? `Dump ${ui.dump} for ${money(ui.dump * (island.your_dump_price ?? island.dump_price))}` : `Dump garbage ${priced(island.dump_price, island.your_dump_price)} each`, dumpAction, { data: { count: ui.dump }, cls: "small", after: () => { ui.dump = 1; } })));
}

function islandTile(state, ctx, loc, me) {
  const { view } = state;
  const here = me && me.location === loc.id;
  const shopping = here && view.phase === "buy_barter" && !me.done;
  return h("section", {
    class: `rr-loc rr-island${here ? " here" : ""}${view.mine && view.mine.pick === loc.id ? " picked" : ""}`,
    dataset: { location: loc.id, flash: `loc:${loc.id}` }, "aria-label": loc.name,
  },
  h("header", { class: "rr-loc-head" }, icon("island", 22), h("span", { class: "rr-loc-name" }, loc.name),
    h("span", { class: "rr-loc-price small" }, `upgrades · action cards ${priced(view.island.action_price, view.island.your_action_price)} · dump ${priced(view.island.dump_price, view.island.your_dump_price)}/garbage`)),
  standees(state, ctx, loc),
  shopping ? islandShop(state, me)
    : h("ul", { class: "rr-upgrade-list small" }, view.island.upgrades.map((u) => h("li", { title: u.text }, `${u.name} ${priced(u.price, u.your_price)}`))),
  moveButton(state, loc));
}

function board(state, ctx, me) {
  const { view } = state;
  const revealed = view.players.some((p) => p.location);
  return h("div", { class: `rr-board${revealed ? " revealed" : ""}${ui.play && ui.play.needs.slot ? " picking-slot" : ""}` },
    view.board.map((loc) => (loc.market ? marketTile(state, ctx, loc, me) : islandTile(state, ctx, loc, me))));
}

// ---- what this seat can do now -------------------------------------------------------------

function playSamples(kind, card, use) {
  return legalOf(kind).filter((a) => (kind === "power" ? a.use === use : a.card === card));
}

/** How a card or power is played (``play_view``): its target and its choice. */
function playOf(kind, card, use) {
  const me = current.state.view.players[current.state.view.you];
  if (kind === "play") return (me.actions.find((a) => a.id === card) || {}).play || {};
  return (me.chef.uses.find((u) => u.id === use) || me.chef.uses[0] || {}).play || {};
}

/** The action a half-made play sends, before its target and choices. */
function playBase(p) {
  return { type: p.kind, ...(p.kind === "play" ? { card: p.card } : {}), ...(p.use !== undefined ? { use: p.use } : {}), ...(p.shaker ? { shaker: p.shaker } : {}) };
}

function openPlay(kind, card, use) {
  const samples = playSamples(kind, card, use);
  const play = playOf(kind, card, use);
  const choice = play.choice || null;
  const needs = {
    target: samples.some((a) => "target" in a),
    ingredient: choice === "ingredient",
    slot: choice === "slot" || choice === "shaker_slot",
    kind: choice === "kind",
  };
  if (!needs.target && !choice) {
    send(samples[0]);
    return;
  }
  const free = ["salt", "pepper"].filter((k) => !((current.state.view.sporks || {}).shakers || {})[k]);
  ui.play = { kind, card, use, choice, needs, samples, target: null, shaker: choice === "shaker_slot" ? free[0] : undefined,
    targets: [...new Set(samples.map((a) => a.target).filter((t) => t !== undefined))] };
  draw();
}

function playComposer(state, ctx) {
  const p = ui.play;
  if (!p) return null;
  const { view } = state;
  const base = playBase({ ...p, shaker: undefined });
  const me = view.players[view.you];
  const use = me.chef.uses.find((u) => u.id === p.use);
  const name = p.kind === "play" ? (me.actions.find((a) => a.id === p.card) || { name: p.card }).name : use ? use.name : me.chef.power;
  const parts = [h("b", {}, name)];
  if (p.needs.target) {
    parts.push(h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "On:"),
      p.targets.map((t) => {
        const pick = { ...base, target: t };
        const ready = !p.needs.ingredient;
        return plainButton(view.players[t].name, () => {
          if (ready) send(pick, () => { ui.play = null; });
          else { p.target = t; draw(); }
        }, { cls: `small${p.target === t ? " selected" : ""}${ready ? " legal" : ""}`, data: { target: t }, pressed: p.target === t });
      })));
  }
  if (p.needs.ingredient && p.target !== null) {
    const theirs = view.players[p.target].ingredients;
    parts.push(h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "Take:"),
      Object.entries(theirs).map(([id]) => h("button", {
        type: "button", class: "btn rr-btn small legal", dataset: { act: base.type, ingredient: id },
        onclick: () => send({ ...base, target: p.target, ingredient: id }, () => { ui.play = null; }),
      }, chip(view, id)))));
  }
  if (p.needs.kind) {
    parts.push(h("div", { class: "rr-row" }, ["basic", "gourmet"].map((k) => {
      const recipe = me.recipes.find((r) => r.kind === k);
      return actButton(`Swap the ${k} recipe${recipe ? ` (${recipe.name})` : ""}`, { ...base, kind: k }, { cls: "small", data: { kind: k }, after: () => { ui.play = null; } });
    })));
  }
  parts.push(...sporkChoices(state, p, base));
  if (p.needs.slot) parts.push(h("p", { class: "small" }, p.choice === "shaker_slot" ? `Click the counter card to put the ${p.shaker || ""} shaker on.` : "Click any counter card on the board."));
  parts.push(plainButton("Cancel", () => { ui.play = null; draw(); }, { cls: "small", data: { act: "cancel-play" } }));
  return h("div", { class: "rr-composer rr-play-composer", dataset: { playing: p.card || p.use || "power" } }, parts);
}

/** Why an action card in hand cannot be played now, in the rules' words where the table
 *  shows the cause (one card a day, its phase, done at the market). */
function unplayable(view, me, a) {
  const step = (id) => (STEPS.find(([s]) => s === id) || [id, OPTION_STEPS[id] || id])[1];
  if (me.played_today) return `One action card a day: you have played ${me.played_today.name} today.`;
  if (view.phase !== a.phase) return `It is played in ${step(a.phase)} (now: ${step(view.phase)}).`;
  if (me.done && a.phase === "buy_barter") return "You are done at the market today.";
  return "Nothing it could be played on right now.";
}

function playsRow(state) {
  const { view } = state;
  const me = view.players[view.you];
  if (!me) return null;
  const playable = (a) => legalOf("play").some((x) => x.card === a.id);
  const uses = powerUses(me);
  if (!me.actions.length && !uses.length) return null;
  return h("div", { class: "rr-plays" },
    h("span", { class: "small muted" }, me.actions.some(playable) || uses.length ? "Play now:" : "Your action cards:"),
    me.actions.map((a) => (playable(a)
      ? h("button", {
        type: "button", class: `btn rr-btn small legal${ui.play && ui.play.card === a.id ? " selected" : ""}`, title: a.text,
        dataset: { act: "play", card: a.id, focus: `play:${a.id}` }, onclick: () => openPlay("play", a.id),
      }, h("b", {}, a.name), h("span", { class: "rr-play-text" }, a.text))
      : h("button", {
        type: "button", class: "btn rr-btn small rr-unplayable", disabled: true, title: a.text,
        dataset: { card: a.id, unplayable: "" },
      }, h("b", {}, a.name), h("span", { class: "rr-play-text" }, a.text),
      h("span", { class: "rr-why-not" }, unplayable(view, me, a))))),
    uses.map((u) => h("button", {
      type: "button", class: `btn rr-btn small legal${ui.play && ui.play.kind === "power" && ui.play.use === u.use ? " selected" : ""}`, title: u.text,
      dataset: ds({ act: "power", use: u.use, focus: `power:${u.use || ""}` }), onclick: () => openPlay("power", null, u.use),
    }, h("b", {}, u.name, h("span", { class: `tag${me.chef.spork ? " rr-spork-tag" : ""}` }, me.chef.spork ? "SPORK" : "chef power")), h("span", { class: "rr-play-text" }, u.text))),
    playComposer(state));
}

/** The chef's powers usable now: one button each (``use`` names it when the chef has several). */
function powerUses(me) {
  const legal = legalOf("power");
  if (!legal.length) return [];
  if (!legal.some((a) => a.use !== undefined)) {
    const only = me.chef.spork && me.chef.uses[0]; // a SPORK's own short text, not the whole chef card
    return [{ use: undefined, name: only ? only.name : me.chef.power, text: only ? only.text : me.chef.text }];
  }
  return me.chef.uses.filter((u) => legal.some((a) => a.use === u.id)).map((u) => ({ use: u.id, name: u.name, text: u.text }));
}

function auctionsPanel(state, ctx) {
  const { view } = state;
  const auctions = view.phase_view.auctions || [];
  if (!auctions.length) return null;
  const you = view.you;
  const sorted = [...auctions].sort((a, b) => Number(b.bidders.includes(you)) - Number(a.bidders.includes(you)));
  return h("div", { class: "rr-auctions" }, h("h3", {}, icon("gavel", 18), "Auctions"),
    sorted.map((a) => {
      const loc = view.board.find((l) => l.id === a.market);
      const mine = a.bidders.includes(you) && a.leader !== you;
      const available = you !== null && you !== undefined ? view.players[you].money - view.players[you].reserved : 0;
      const typed = Math.max(ui.bids[a.id] || a.min_bid, a.min_bid);
      const bid = mine && legalOf("bid").some((x) => x.auction === a.id) && typed <= available ? { type: "bid", auction: a.id, amount: typed } : null;
      return h("div", { class: `rr-auction${mine ? " yours" : ""}${a.leader === you ? " leading" : ""}`, dataset: { auction: a.id, flash: `auction:${a.id}` } },
        h("div", { class: "rr-auction-what" }, chip(view, a.ingredient), h("span", { class: "small muted" }, `at ${loc ? loc.name : a.market}`)),
        h("div", { class: "rr-auction-state" },
          a.leader === null ? h("span", {}, `No bid yet — opens at ${money(a.min_bid)}`)
            : h("span", { dataset: { leader: a.leader } }, seatDot(a.leader, ctx), ` ${ctx.playerName(a.leader)} leads with `, h("b", {}, money(a.high))),
          h("span", { class: "rr-bidders small" }, "in: ", a.bidders.map((s) => seatDot(s, ctx)))),
        mine ? h("div", { class: "rr-row" },
          stepper(typed, { min: a.min_bid, max: Math.max(a.min_bid, available), step: view.bid_step || 100, format: money, onchange: (v) => { ui.bids[a.id] = v; }, data: { field: `bid-${a.id}` } }),
          actButton(`Bid ${money(typed)}`, bid, { data: { auction: a.id, amount: typed } }),
          actButton("Pass", legalOf("pass").find((x) => x.auction === a.id), { data: { auction: a.id } })) : null,
        a.leader === you ? h("p", { class: "small rr-note" }, `You lead: ${money(a.high)} is promised until someone bids more.`) : null);
    }));
}

function cookPanel(state, ctx) {
  const { view } = state;
  const me = view.players[view.you];
  const mine = view.mine;
  const cooks = legalOf("cook");
  const extrasHeld = [...new Set(cooks.flatMap((a) => a.extras))];
  const declared = mine.dishes || [];
  const dishes = me.recipes.map((r) => {
    const chosen = (ui.extras[r.id] || []).filter((e) => extrasHeld.includes(e));
    const canCook = cooks.some((a) => a.recipe === r.id);
    const isDeclared = declared.some((d) => d.recipe === r.id);
    const own = r.cuisine === me.restaurant.cuisine ? 1 : 0;
    const guess = r.points + own - me.garbage;
    return h("div", { class: `rr-dish${canCook ? " legal" : ""}${isDeclared ? " declared" : ""}`, dataset: { recipe: r.id } },
      h("span", { class: "rr-dish-name" }, r.name, h("span", { class: `tag kind-${r.kind}` }, r.kind)),
      h("span", { class: "small rr-guess", title: "before specials, powers and cards" },
        h("b", { class: guess >= 0 ? "rr-plus" : "rr-minus" }, `${guess >= 0 ? "+" : "−"}${Math.abs(guess)}`),
        ` (${r.points}${own ? " +1 cuisine" : ""}${me.garbage ? ` − ${me.garbage} garbage` : ""}), then ${r.garbage} garbage`),
      isDeclared ? h("span", { class: "rr-declared" }, icon("check", 14), "declared")
        : canCook ? h("span", { class: "rr-row" },
          extrasHeld.length ? h("span", { class: "small muted" }, "add:") : null,
          extrasHeld.map((e) => plainButton(chip(view, e), () => {
            ui.extras[r.id] = chosen.includes(e) ? chosen.filter((x) => x !== e) : [...chosen, e];
            draw();
          }, { cls: `small rr-extra${chosen.includes(e) ? " selected" : ""}`, data: { extra: e, recipe: r.id }, pressed: chosen.includes(e), title: ingredientInfo(view, e).text })),
          actButton("Cook it", { type: "cook", recipe: r.id, extras: chosen }, { data: { recipe: r.id } }))
          : h("span", { class: "small muted" }, mine.cookable && mine.cookable[r.id] ? "cannot cook another today" : "missing ingredients"));
  });
  const serve = legalOf("serve")[0];
  return h("div", { class: "rr-cook" },
    h("h3", {}, icon("pan", 18), "Cook"),
    h("p", { class: "small muted" }, `Declare up to ${mine.cook_limit} recipe${mine.cook_limit > 1 ? "s" : ""}, then serve. Dishes stay secret until everyone has served.`),
    dishes,
    serve ? actButton(declared.length ? "Serve" : "Serve nothing today", serve, { cls: declared.length || !cooks.length ? "primary" : "", data: { act: "serve" }, title: "key S" })
      : h("p", { class: "rr-note" }, icon("check", 14), "Served — waiting for the other kitchens."));
}

function kitchenReport(state, ctx) {
  const { view } = state;
  if (!view.last_cook || !view.last_cook.length || !["money_move", "over"].includes(view.phase)) return null;
  return h("div", { class: "rr-report" },
    h("h3", {}, icon("pan", 18), view.phase === "over" ? "The last service" : "Yesterday's service"),
    h("ul", {}, view.last_cook.map((r) => h("li", { dataset: { seat: r.seat, recipe: r.recipe } },
      seatDot(r.seat, ctx), h("b", {}, ctx.playerName(r.seat)), ` cooked ${r.name}: `,
      h("span", { class: r.score >= 0 ? "rr-plus" : "rr-minus" }, `${r.score >= 0 ? "+" : "−"}${Math.abs(r.score)}`),
      h("span", { class: "small muted" }, ` (${r.points} − ${r.penalty} for garbage; took ${r.garbage} garbage)`)))));
}

function standings(state, ctx) {
  const { view } = state;
  if (view.phase !== "over") return null;
  const result = view.result || state.result;
  const winners = new Set(result ? result.winners : []);
  const order = view.players.map((p, seat) => ({ p, seat }))
    .sort((a, b) => b.p.popularity - a.p.popularity || b.p.gourmet_cooked - a.p.gourmet_cooked || b.p.money - a.p.money);
  return h("div", { class: "rr-standings" },
    h("h3", {}, icon("star", 18), "Final standings"),
    result && result.reason ? h("p", { class: "small muted" }, result.reason) : null,
    h("ol", {}, order.map(({ p, seat }) => h("li", { class: winners.has(seat) ? "winner" : "", dataset: { seat } },
      seatDot(seat, ctx), h("b", {}, p.name), h("span", { class: "rr-final-pop" }, icon("star", 14), String(p.popularity)),
      h("span", { class: "small muted" }, ` ${p.gourmet_cooked} gourmet · ${money(p.money)}`)))));
}

const KNOWN = new Set(["move", "claim", "no_claim", "bid", "pass", "buy", "buy_shelf", "choose_restaurant", "squad_chef", "runner_buy", "buy_upgrade", "buy_action", "dump", "offer",
  "accept", "decline", "withdraw", "done", "play", "power", "cook", "serve", "box_bid"]);

/** A plain button for every legal action this table has no control for (a phase or card
 *  an expansion adds), so that it is always playable. */
function otherActions(state) {
  const others = state.legal.filter((a) => !KNOWN.has(a.type));
  if (!others.length) return null;
  const label = (a) => {
    const rest = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${a.type.replaceAll("_", " ")}${rest.length ? ` (${rest.join(", ")})` : ""}`;
  };
  return h("div", { class: "rr-row rr-other-actions" }, others.slice(0, 60).map((a) => actButton(label(a), a, { cls: "small", data: { other: JSON.stringify(a) } })));
}

function nowPanel(state, ctx) {
  const { view } = state;
  if (ctx.spectator || view.you === null || view.you === undefined) {
    return h("section", { class: "rr-now card" }, standings(state, ctx), kitchenReport(state, ctx), auctionsPanel(state, ctx),
      view.phase === "over" ? null : h("p", { class: "muted small" }, "You are watching: picks, dishes and barter offers stay secret."));
  }
  const me = view.players[view.you];
  const parts = [];
  if (view.phase === "money_move") {
    parts.push(kitchenReport(state, ctx));
    parts.push(h("p", {}, view.mine.pick ? "Your pick is secret until everyone has picked; you may still change it."
      : "Where will you shop today? Pick a place on the board — it stays secret until everyone has picked."));
    const foresee = [...new Set(legalOf("move").map((a) => a.foresee).filter((f) => f !== undefined))];
    if (foresee.length) {
      parts.push(h("div", { class: "rr-row rr-foresee" }, h("span", { class: "small" }, "Foresee a chef (stops their first card or power today):"),
        plainButton("Nobody", () => { ui.foresee = null; draw(); }, { cls: `small${ui.foresee === null ? " selected" : ""}`, data: { foresee: "none" }, pressed: ui.foresee === null }),
        foresee.map((f) => plainButton(view.players[f].name, () => { ui.foresee = f; draw(); }, { cls: `small${ui.foresee === f ? " selected" : ""}`, data: { foresee: f }, pressed: ui.foresee === f }))));
    }
    parts.push(runnerPicker(state));
  } else if (view.phase === "buy_barter") {
    const loc = view.board.find((l) => l.id === me.location);
    const noClaim = legalOf("no_claim")[0];
    let where = loc ? `You are at ${loc.name}.` : "";
    if (me.done) where += " You are done for today.";
    else if (noClaim) where += " First claim one counter card there (click it), or make no claim.";
    else if (loc && loc.market && !loc.claims_resolved) where += " Your claim is in; waiting for the others at your market.";
    else if (loc && loc.market) where += " Buy any free card there; barter with anyone.";
    else if (loc) where += " Shop at the Island; barter with anyone.";
    parts.push(h("p", { class: "rr-where" }, where));
    parts.push(h("div", { class: "rr-row" },
      noClaim ? actButton("Make no claim", noClaim) : null,
      legalOf("done").length ? actButton("Done for today", legalOf("done")[0], { cls: "primary", title: "Waive your claim, pass in auctions you do not lead, close your offers (key D)" }) : null));
    parts.push(runnerShop(state), auctionsPanel(state, ctx));
  } else if (view.phase === "action_auction") {
    parts.push(boxBidPanel(state, ctx));
  } else if (view.phase === "kitchen_squad") {
    parts.push(squadChoice(state));
  } else if (view.phase === "choose_restaurant") {
    parts.push(restaurantChoice(state, ctx));
  } else if (view.phase === "cook_counter") {
    parts.push(cookPanel(state, ctx));
  } else if (view.phase === "over") {
    parts.push(standings(state, ctx), kitchenReport(state, ctx));
  }
  parts.push(playsRow(state), otherActions(state));
  return h("section", { class: "rr-now card", dataset: { phase: view.phase } }, parts);
}

// ---- choosing restaurants (match option) ---------------------------------------------------

const UNCHOSEN = { id: "", name: "Restaurant not chosen yet", cuisine: "", cuisine_name: "", levels: [] };

/** Players whose restaurant is still being chosen get a stand-in, so every panel can draw. */
function standInRestaurants(view) {
  for (const p of view.players) if (!p.restaurant) p.restaurant = UNCHOSEN;
}

/** The free restaurants, each with its cuisine and levels and a Choose button; your secret
 *  choice is marked; who has chosen (never what) is shown. */
function restaurantChoice(state, ctx) {
  const { view } = state;
  const pv = view.phase_view || {};
  const chosen = pv.chosen || [];
  const mine = legalOf("choose_restaurant");
  return h("div", { class: "rr-choose", dataset: { choosing: (pv.choosing || []).join(",") } },
    h("p", {}, mine.length ? (pv.your_choice ? "Your choice is secret until everyone has chosen; you may still change it."
      : "Choose your restaurant in secret. If several choose the same one, one of them gets it at random and the others choose again.")
      : "Your restaurant is settled; the others are choosing."),
    h("p", { class: "small muted" }, `${chosen.filter(Boolean).length} of ${(pv.choosing || []).length} chefs have chosen: `,
      (pv.choosing || []).map((s) => h("span", { class: chosen[s] ? "tag" : "tag muted", dataset: { seat: s } }, ctx.playerName(s)))),
    h("ul", { class: "rr-choose-list" }, (pv.free || []).map((r) => {
      const action = mine.find((a) => a.restaurant === r.id);
      return h("li", { class: pv.your_choice === r.id ? "selected" : "", dataset: { restaurant: r.id } },
        h("b", {}, r.name), h("span", { class: "small muted" }, ` · ${r.cuisine_name || cap(r.cuisine)}`),
        h("ul", { class: "small" }, r.levels.map((lv) => h("li", {}, `${lv.threshold} · ${lv.name}: ${lv.text}`))),
        action ? actButton(pv.your_choice === r.id ? "Chosen" : "Choose", action, { cls: pv.your_choice === r.id ? "small selected" : "small", data: { choose: r.id } }) : null);
    })));
}

// ---- Kitchen Squad (two players) -------------------------------------------------------------

/** Choose today's chef from your squad (secret until both have chosen). */
function squadChoice(state) {
  const { view } = state;
  const pv = view.phase_view || {};
  const me = view.players[view.you];
  const mine = legalOf("squad_chef");
  return h("div", { class: "rr-squad-choice" },
    h("p", {}, pv.your_choice ? "Today's chef is secret until both have chosen; you may still change it."
      : "Kitchen Squad: choose which of your three chefs plays today. Only their power works today."),
    h("p", { class: "small muted" }, `${(pv.chosen || []).filter(Boolean).length} of ${view.players.length} have chosen`),
    h("ul", { class: "rr-choose-list" }, (me.squad || []).map((c) => {
      const action = mine.find((a) => a.chef === c.id);
      const chosen = pv.your_choice === c.id;
      return h("li", { class: chosen ? "selected" : "", dataset: { chef: c.id } },
        h("b", {}, c.name), h("span", { class: "small muted" }, ` · ${c.title}`),
        h("p", { class: "small" }, h("i", {}, c.power), `: ${c.text}`),
        action ? actButton(chosen ? "Chosen" : "Play today", action, { cls: chosen ? "small selected" : "small", data: { squad: c.id } }) : null);
    })));
}

/** Where to send the runner with the pick (Kitchen Squad): nowhere, or any location. */
function runnerPicker(state) {
  const { view } = state;
  const spots = [...new Set(legalOf("move").map((a) => a.runner).filter((r) => r !== undefined))];
  if (!spots.length) return null;
  const name = (id) => (view.board.find((l) => l.id === id) || { name: id }).name;
  const choose = (r) => () => { ui.runner = r; draw(); };
  return h("div", { class: "rr-row rr-runner" }, h("span", { class: "small" }, "Send a resting chef (your runner) to shop at:"),
    plainButton("Nowhere", choose(null), { cls: `small${ui.runner === null ? " selected" : ""}`, data: { runner: "none" }, pressed: ui.runner === null }),
    spots.map((r) => plainButton(name(r), choose(r), { cls: `small${ui.runner === r ? " selected" : ""}`, data: { runner: r }, pressed: ui.runner === r })),
    view.mine && view.mine.runner ? h("span", { class: "small muted" }, ` (sent with your pick: ${name(view.mine.runner)})`) : null);
}

/** The counter cards you may buy through your runner now. */
function runnerShop(state) {
  const { view } = state;
  const buys = legalOf("runner_buy");
  const me = view.players[view.you];
  if (!me.runner) return null;
  const loc = view.board.find((l) => l.id === me.runner);
  return h("div", { class: "rr-runner-shop" }, h("p", { class: "small" }, `Your runner is at ${loc ? loc.name : me.runner}.`),
    loc && loc.counter && buys.length ? h("div", { class: "rr-row" }, buys.map((a) => {
      const card = loc.counter[a.slot];
      return actButton(`Buy ${card.name} (${money(card.your_price ?? card.price)})`, a, { cls: "small", data: { runnerSlot: a.slot } });
    })) : null);
}

/** Runners on the board, as ghost standees of their player's seat. */
function runnerStandees(view, ctx, loc) {
  return (loc.runners || []).map((seat) => h("span", { class: "rr-standee-wrap ghost runner", dataset: { seat, runner: seat } },
    standee(seat, ctx.playerName(seat), { ghost: true }), h("span", { class: "rr-standee-name" }, `${ctx.playerName(seat)}'s runner`)));
}

/** A player's squad, today's chef marked. */
function squadLine(p) {
  if (!p.squad || !p.squad.length) return null;
  return h("p", { class: "small rr-squad" }, "Squad: ", p.squad.map((c, i) => [i ? ", " : "", c.id === p.chef.id ? h("b", {}, `${c.name} (today)`) : c.name]));
}

// ---- barter --------------------------------------------------------------------------------

function bundleLine(view, bundle) {
  const items = [];
  for (const [id, n] of Object.entries(bundle.ingredients || {})) items.push(chip(view, id, { count: n }));
  for (const r of bundle.recipes || []) items.push(h("span", { class: "rr-thing" }, recipeName(r)));
  for (const a of bundle.actions || []) items.push(h("span", { class: "rr-thing" }, cardName(a)));
  for (const u of bundle.upgrades || []) items.push(h("span", { class: "rr-thing" }, upgradeName(view, u)));
  for (const [m, n] of Object.entries(bundle.face_down || {})) for (let i = 0; i < n; i++) items.push(ingredientBack(view, m));
  if (bundle.money) items.push(h("span", { class: "rr-thing money" }, icon("coin", 12), money(bundle.money)));
  if (bundle.garbage) items.push(h("span", { class: "rr-thing garbage" }, icon("bin", 12), `${bundle.garbage} garbage`));
  return items.length ? items : [h("span", { class: "muted small" }, "nothing")];
}

function offerRow(state, ctx, o, dir) {
  const { view } = state;
  const other = dir === "in" ? o.from : o.to;
  const youGive = dir === "in" ? o.get : o.give;
  const youGet = dir === "in" ? o.give : o.get;
  const accept = legalOf("accept").find((a) => a.offer === o.id);
  const decline = legalOf("decline").find((a) => a.offer === o.id);
  const withdraw = legalOf("withdraw").find((a) => a.offer === o.id);
  return h("div", { class: `rr-offer ${dir}${o.possible ? "" : " impossible"}`, dataset: { offer: o.id, dir, possible: String(!!o.possible), flash: `offer:${o.id}` } },
    h("div", { class: "rr-offer-who small" }, seatDot(other, ctx), dir === "in" ? ` ${ctx.playerName(other)} offers you` : ` To ${ctx.playerName(other)}:`),
    h("div", { class: "rr-offer-sides" },
      h("div", {}, h("span", { class: "small muted" }, "You give "), bundleLine(view, youGive)),
      h("div", {}, h("span", { class: "small muted" }, "You get "), bundleLine(view, youGet))),
    o.possible ? null : h("p", { class: "small rr-warn" }, "Not possible as things stand: it would fall through."),
    h("div", { class: "rr-row" },
      dir === "in" ? [actButton("Accept", accept, { data: { offer: o.id }, cls: "primary small" }), actButton("Decline", decline, { data: { offer: o.id }, cls: "small" })]
        : actButton("Withdraw", withdraw, { data: { offer: o.id }, cls: "small" })));
}

function bundleEditor(state, side, owner) {
  const { view } = state;
  const b = ui.barter[side];
  const p = view.players[owner];
  const available = p.money - (p.reserved || 0);
  const rows = [];
  for (const [id, held] of Object.entries(p.ingredients)) {
    const n = b.ingredients[id] || 0;
    rows.push(h("div", { class: `rr-item${n ? " chosen" : ""}` }, chip(view, id, { count: held }),
      stepper(n, { min: 0, max: held, onchange: (v) => { if (v) b.ingredients[id] = v; else delete b.ingredients[id]; }, data: { side, item: `ingredient:${id}` } })));
  }
  for (const r of p.recipes) {
    const on = b.recipes.includes(r.id);
    rows.push(h("div", { class: `rr-item${on ? " chosen" : ""}` },
      plainButton(`${on ? "Selected: " : ""}${r.name} (${r.kind})`, () => { b.recipes = on ? b.recipes.filter((x) => x !== r.id) : [...b.recipes, r.id]; draw(); },
        { cls: `small rr-toggle${on ? " selected" : ""}`, data: { side, item: `recipe:${r.id}` }, pressed: on })));
  }
  for (const a of p.actions) {
    const on = b.actions.includes(a.id);
    rows.push(h("div", { class: `rr-item${on ? " chosen" : ""}` },
      plainButton(`${on ? "Selected: " : ""}${a.name}`, () => { b.actions = on ? b.actions.filter((x) => x !== a.id) : [...b.actions, a.id]; draw(); },
        { cls: `small rr-toggle${on ? " selected" : ""}`, data: { side, item: `action:${a.id}` }, pressed: on, title: a.text })));
  }
  rows.push(...sporkBundleRows(view, b, side, p));
  if (p.garbage) {
    rows.push(h("div", { class: `rr-item${b.garbage ? " chosen" : ""}` }, h("span", { class: "rr-thing garbage" }, icon("bin", 12), "garbage"),
      stepper(b.garbage, { min: 0, max: p.garbage, onchange: (v) => { b.garbage = v; }, data: { side, item: "garbage" } })));
  }
  const moneyInput = h("input", {
    type: "number", min: 0, step: 50, max: available, value: String(b.money), inputmode: "numeric", class: "rr-money-input",
    "aria-label": side === "give" ? "Money you give" : "Money you ask for",
    dataset: { side, field: "money", focus: `money:${side}` },
    oninput: (e) => { b.money = Math.max(0, Math.floor(Number(e.target.value) || 0)); },
  });
  rows.push(h("div", { class: `rr-item${b.money ? " chosen" : ""}` }, h("span", { class: "rr-thing money" }, icon("coin", 12), `money (has ${money(available)})`), moneyInput));
  return h("div", { class: `rr-bundle ${side}`, dataset: { side } },
    h("h4", {}, side === "give" ? "You give" : `You get from ${p.name}`), rows);
}

function bundleEmpty(b) {
  return !b.money && !b.garbage && !countTotal(b.ingredients) && !b.recipes.length && !b.actions.length && !b.upgrades.length && !countTotal(b.face_down);
}

function barterPanel(state, ctx) {
  const { view } = state;
  if (view.phase !== "buy_barter" || ctx.spectator) return null;
  const me = view.players[view.you];
  const offers = view.phase_view.offers || { incoming: [], outgoing: [] };
  const partners = view.players.map((p, seat) => ({ p, seat })).filter(({ p, seat }) => seat !== view.you && !p.done);
  const canOffer = !me.done && legalOf("done").length > 0 && offers.outgoing.length < MAX_OFFERS && partners.length > 0;
  const bt = ui.barter;
  if (bt.to !== null && !partners.some(({ seat }) => seat === bt.to)) bt.to = null;
  if (bt.open && bt.to === null && partners.length) bt.to = partners[0].seat;
  const parts = [h("h3", {}, "Barter")];
  if (offers.incoming.length) parts.push(h("div", { class: "rr-offers in" }, offers.incoming.map((o) => offerRow(state, ctx, o, "in"))));
  if (offers.outgoing.length) parts.push(h("div", { class: "rr-offers out" }, offers.outgoing.map((o) => offerRow(state, ctx, o, "out"))));
  if (!offers.incoming.length && !offers.outgoing.length) parts.push(h("p", { class: "small muted" }, "No open offers. Trade anything with anyone, wherever they are."));
  if (canOffer && !bt.open) {
    parts.push(plainButton("Propose a trade…", () => { bt.open = true; draw(); }, { cls: "legal", data: { act: "open-barter" } }));
  } else if (canOffer && bt.open && bt.to !== null) {
    parts.push(h("div", { class: "rr-composer rr-barter-composer" },
      h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "Trade with:"),
        partners.map(({ p, seat }) => plainButton([h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }), ` ${p.name}`], () => {
          if (bt.to !== seat) { bt.to = seat; bt.get = emptyBundle(); }
          draw();
        }, { cls: `small rr-partner${bt.to === seat ? " selected" : ""}`, data: { seat }, pressed: bt.to === seat }))),
      h("div", { class: "rr-bundles" }, bundleEditor(state, "give", view.you), bundleEditor(state, "get", bt.to)),
      h("div", { class: "rr-row" },
        plainButton("Send offer", () => sendOffer(), { cls: "primary legal", data: { act: "offer" } }),
        plainButton("Cancel", () => { ui.barter = { open: false, to: bt.to, give: emptyBundle(), get: emptyBundle() }; draw(); }, { cls: "small", data: { act: "close-barter" } }))));
  } else if (!canOffer && !me.done && offers.outgoing.length >= MAX_OFFERS) {
    parts.push(h("p", { class: "small muted" }, `You have ${MAX_OFFERS} open offers: withdraw one to make another.`));
  }
  return h("section", { class: "rr-barter card" }, parts);
}

/** Send the offer as composed now (typed money included, even before a redraw). */
function sendOffer() {
  const bt = ui.barter;
  if (bundleEmpty(bt.give) && bundleEmpty(bt.get)) {
    current.ctx.toast("Put something in the offer first.", "info");
    return;
  }
  send({ type: "offer", to: bt.to, give: clean(bt.give), get: clean(bt.get) }, () => {
    ui.barter = { open: false, to: bt.to, give: emptyBundle(), get: emptyBundle() };
  });
}

function clean(b) {
  const out = {};
  if (b.money) out.money = b.money;
  if (b.garbage) out.garbage = b.garbage;
  if (countTotal(b.ingredients)) out.ingredients = { ...b.ingredients };
  if (b.recipes.length) out.recipes = [...b.recipes];
  if (b.actions.length) out.actions = [...b.actions];
  if (b.upgrades.length) out.upgrades = [...b.upgrades];
  if (countTotal(b.face_down)) out.face_down = { ...b.face_down };
  return out;
}

// ---- restaurants ----------------------------------------------------------------------------

function track(player, goal, restaurant, { compact = false } = {}) {
  const length = Math.max(goal, 12, player.popularity);
  const levels = new Map((restaurant.levels || []).map((lv) => [lv.threshold, lv]));
  const cells = [];
  for (let i = 1; i <= length; i++) {
    const lv = levels.get(i);
    cells.push(h("span", {
      class: `rr-step${i <= player.popularity ? " filled" : ""}${lv ? " level" : ""}${lv && lv.reached ? " reached" : ""}${i === goal ? " goal" : ""}`,
      title: lv ? `${i}: ${lv.name} — ${lv.text}` : i === goal ? `${i}: the goal` : String(i),
    }, compact ? null : (lv || i === goal ? String(i) : null)));
  }
  return h("div", { class: `rr-track${compact ? " compact" : ""}`, style: `--cells:${length}`, role: "img", "aria-label": `${player.popularity} popularity of ${goal}`, dataset: { popularity: player.popularity } }, cells);
}

function levelsList(restaurant, seat) {
  return h("ul", { class: "rr-levels" }, restaurant.levels.map((lv) => h("li", { class: lv.reached ? "reached" : "", dataset: { threshold: lv.threshold, flash: `level:${seat}:${lv.threshold}` } },
    h("b", {}, `${lv.threshold} · ${lv.name}`), " ", h("span", { class: "small" }, lv.text), lv.reached ? h("span", { class: "tag" }, "reached") : null)));
}

function recipeCard(view, player, recipe, held, cookable) {
  const own = recipe.cuisine === player.restaurant.cuisine;
  return h("div", { class: `rr-recipe kind-${recipe.kind}${cookable ? " ready" : ""}`, dataset: { recipe: recipe.id } },
    h("div", { class: "rr-recipe-head" },
      h("b", {}, recipe.name), h("span", { class: `tag kind-${recipe.kind}` }, recipe.kind),
      h("span", { class: "small muted" }, recipe.cuisine_name || cap(recipe.cuisine), own ? " (+1 yours)" : ""),
      h("span", { class: "rr-recipe-points", title: "popularity" }, icon("star", 14), String(recipe.points)),
      h("span", { class: "rr-recipe-garbage", title: "garbage you take" }, icon("bin", 14), String(recipe.garbage))),
    h("div", { class: "rr-recipe-ings" }, recipe.ingredients.map((id, j) => chip(view, id, { cls: held[j] ? "have" : "missing", title: `${ingredientInfo(view, id).name}: ${held[j] ? "you have it" : "missing"}` }))),
    cookable ? h("span", { class: "rr-ready small" }, icon("check", 12), "ready to cook") : null);
}

function pantryLine(view, player) {
  const entries = Object.entries(player.ingredients);
  return entries.length ? entries.map(([id, n]) => chip(view, id, { count: n })) : [h("span", { class: "small muted" }, "no ingredients")];
}

function stat(iconName, value, label, data) {
  return h("span", { class: "rr-stat", title: label, dataset: data }, icon(iconName, 16), h("b", {}, value), h("span", { class: "small muted" }, label));
}

function myRestaurant(state, ctx) {
  const { view } = state;
  const me = view.players[view.you];
  const holdings = recipeHoldings(me);
  const cookable = (view.mine && view.mine.cookable) || {};
  return h("section", { class: "rr-me card", dataset: { seat: view.you, flash: `seat:${view.you}`, money: me.money, popularity: me.popularity, garbage: me.garbage } },
    h("header", { class: "rr-me-head" },
      h("span", { class: "chip", "data-seat": view.you, style: `background:${seatColor(view.you)}` }),
      h("div", {}, h("h3", {}, me.restaurant.name, h("span", { class: "small muted" }, ` · ${me.restaurant.cuisine_name || cap(me.restaurant.cuisine)} cuisine`)),
        h("p", { class: "small rr-chef-line" }, h("b", {}, me.chef.name), ` — ${me.chef.title}. `, h("i", {}, me.chef.power), `: ${me.chef.text}`),
        chefUses(me))),
    h("div", { class: "rr-stats" },
      stat("star", String(me.popularity), "popularity", { stat: "popularity" }),
      stat("coin", money(me.money), me.reserved ? `money (${money(me.reserved)} in bids)` : "money", { stat: "money" }),
      stat("bin", String(me.garbage), "garbage", { stat: "garbage" }),
      me.location ? h("span", { class: "rr-stat small" }, `at ${view.board.find((l) => l.id === me.location).name}`) : null),
    todayLine(ctx, me),
    squadLine(me),
    track(me, view.goal, me.restaurant),
    levelsList(me.restaurant, view.you),
    h("div", { class: "rr-recipes" }, me.recipes.map((r, i) => recipeCard(view, me, r, holdings[i], cookable[r.id]))),
    h("div", { class: "rr-pantry" }, h("span", { class: "small muted" }, "Pantry: "), pantryLine(view, me)),
    sporkBits(view, me),
    me.garbage ? h("div", { class: "rr-garbage", title: `${me.garbage} garbage: −1 popularity each per dish` }, Array.from({ length: Math.min(me.garbage, 12) }, () => icon("bin", 16)), me.garbage > 12 ? `+${me.garbage - 12}` : null) : null,
    me.actions.length ? h("div", { class: "rr-cards" }, h("span", { class: "small muted" }, "Action cards: "),
      me.actions.map((a) => h("span", { class: "rr-thing", title: `${a.text} (${(STEPS.find(([id]) => id === a.phase) || [0, a.phase])[1]})`, dataset: { card: a.id } }, a.name))) : null,
    me.upgrades.length ? h("div", { class: "rr-cards" }, h("span", { class: "small muted" }, "Upgrades: "),
      me.upgrades.map((u) => h("span", { class: "rr-thing" }, upgradeName(view, u)))) : null);
}

function chefStatus(view, p) {
  if (view.phase === "money_move") return p.picked ? "picked" : "choosing…";
  if (view.phase === "buy_barter") return p.done ? "done" : "shopping";
  if (view.phase === "cook_counter") return p.ready ? "served" : "cooking…";
  if (SPORK_STATUS[view.phase]) return SPORK_STATUS[view.phase](p, view.phase_view || {}, view.players.indexOf(p));
  return "";
}

/** What a chef did today that the table should remember, and what they have cooked. */
function todayLine(ctx, p) {
  const bits = [];
  if (p.played_today) bits.push(`played ${cardName(p.played_today)}`);
  const uses = Object.keys(p.uses_today || {});
  if (p.chef.uses && p.chef.uses.length > 1 && uses.length) bits.push(`used ${uses.map((id) => (p.chef.uses.find((u) => u.id === id) || { name: id }).name).join(", ")}`);
  else if (p.power_used || uses.length) bits.push(`used ${p.chef.power}`);
  if (p.foresee !== null && p.foresee !== undefined) bits.push(`foresaw ${ctx.playerName(p.foresee)}`);
  if (p.cooked && p.cooked.length) bits.push(`cooked ${p.cooked.length} (${p.gourmet_cooked} gourmet)`);
  return bits.length ? h("p", { class: "small muted rr-today" }, bits.join(" · ")) : null;
}

function otherChef(state, ctx, seat) {
  const { view } = state;
  const p = view.players[seat];
  const loc = p.location && view.board.find((l) => l.id === p.location);
  return h("article", { class: "rr-chef", dataset: { seat, flash: `seat:${seat}` }, style: `--seat:${seatColor(seat)}` },
    h("header", {}, h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }), h("b", { class: "rr-chef-name" }, p.name),
      h("span", { class: "rr-chef-pop", title: "popularity" }, icon("star", 14), String(p.popularity))),
    track(p, view.goal, p.restaurant, { compact: true }),
    h("p", { class: "small", title: `${p.chef.power}: ${p.chef.text}` }, h("b", {}, p.chef.name), ` · ${p.restaurant.name} (${p.restaurant.cuisine_name || cap(p.restaurant.cuisine)})`),
    h("p", { class: "small rr-chef-stats" }, icon("coin", 12), money(p.money), " ", icon("bin", 12), String(p.garbage),
      loc ? ` · at ${loc.name}` : "", h("span", { class: "muted" }, ` · ${chefStatus(view, p)}`)),
    todayLine(ctx, p),
    h("div", { class: "rr-chef-ings" }, pantryLine(view, p)),
    sporkBits(view, p),
    h("p", { class: "small rr-chef-recipes" }, p.recipes.map((r) => h("span", { class: `rr-thing kind-${r.kind}`, title: `${r.ingredients.map((i) => ingredientInfo(view, i).name).join(", ")} · ${r.points} popularity, ${r.garbage} garbage` }, r.name))),
    p.actions.length || p.upgrades.length ? h("p", { class: "small muted" },
      [...p.actions.map((a) => a.name), ...p.upgrades.map((u) => upgradeName(view, u))].join(" · ")) : null);
}

function othersPanel(state, ctx) {
  const { view } = state;
  const seats = view.players.map((_, i) => i).filter((i) => i !== view.you);
  return h("section", { class: "rr-others" }, seats.map((seat) => otherChef(state, ctx, seat)));
}

// ---- SPORKS Out: the Snackle Box and its Action Auction, the SPORKs, Hot Sauce -------------

const SPORK_STATUS = { action_auction: (p, pv, i) => (pv.bids && pv.bids[i] ? "has bid" : "bidding…") };

/** An action card drawn face up (its name and text) or by its back: nothing else is known of it. */
function actionCardFace(card, { data = {} } = {}) {
  return h("div", { class: "rr-action-card face-up", title: card.text, dataset: { card: card.id, ...data } },
    h("span", { class: "rr-action-kicker" }, "Action card"), h("b", { class: "rr-action-name" }, card.name),
    h("span", { class: "rr-action-text" }, card.text));
}

function actionCardBack(label = "A face-down action card: nobody may look at it") {
  return h("div", { class: "rr-action-card face-down", role: "img", "aria-label": label, title: label, dataset: { back: "action" } },
    icon("spork", 30, "rr-back-mark"), h("span", { class: "rr-back-text" }, "face down"));
}

/** The last reveal: every bid, who took the box and for how much (or the tie). */
function lastAuctionLine(view, ctx) {
  const last = view.sporks.last_auction;
  if (!last) return null;
  const bids = last.bids.map((b, seat) => h("span", { class: `rr-bid${seat === last.winner ? " won" : ""}`, dataset: { seat, bid: b } },
    seatDot(seat, ctx), ` ${ctx.playerName(seat)} ${money(b)}`));
  const outcome = last.winner === null ? "a tie at the top: the box kept its cards"
    : `${ctx.playerName(last.winner)} paid ${money(last.price)} and took the box`;
  return h("div", { class: "rr-last-auction small", dataset: { day: last.day } },
    h("span", { class: "muted" }, `Day ${last.day} bids revealed: `), h("span", { class: "rr-bids" }, bids), h("span", {}, ` — ${outcome}.`));
}

/** The Snackle Box: at most a face-up card and a face-down one (by its back only). */
function snackleBox(state, ctx) {
  const { view } = state;
  const box = view.sporks.snackle_box;
  const cards = [];
  if (box.face_up) cards.push(actionCardFace(box.face_up, { data: { box: "face-up" } }));
  if (box.face_down) cards.push(actionCardBack());
  return h("section", { class: "rr-snackle card", dataset: { flash: "snackle", faceDown: String(!!box.face_down) }, "aria-label": "The Snackle Box" },
    h("h3", {}, icon("spork", 18), "The Snackle Box"),
    cards.length ? h("div", { class: "rr-snackle-cards" }, cards)
      : h("p", { class: "small muted" }, view.phase === "over" ? "Empty." : "Empty: a card goes in when the next Action Auction begins."),
    box.face_down && box.face_up && view.phase !== "over" ? h("p", { class: "small muted" }, "The next auction is for both cards. Full: nothing is added until they are bought.") : null,
    lastAuctionLine(view, ctx),
    box.sold.length ? h("p", { class: "small muted" }, `Sold so far for ${box.sold.map(money).join(", ")}.`) : null);
}

/** The Action Auction: one secret bid for the whole box (changeable until the reveal). */
function boxBidPanel(state, ctx) {
  const { view } = state;
  const pv = view.phase_view || {};
  const me = view.players[view.you];
  const step = view.bid_step || 100;
  const most = me.money - (me.money % step);
  const mine = pv.your_bid;
  if (ui.boxBid === null) ui.boxBid = mine ?? 0;
  const typed = Math.max(0, Math.min(most, ui.boxBid));
  const can = legalOf("box_bid").length > 0;
  const input = h("input", {
    id: "rr-box-bid", type: "number", min: 0, max: most, step, value: String(typed), inputmode: "numeric", class: "rr-money-input",
    dataset: { field: "box-bid", focus: "box-bid" },
    oninput: (e) => { ui.boxBid = Math.max(0, Math.floor(Number(e.target.value) || 0)); },
    onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); sendBoxBid(); } },
  });
  const who = view.players.map((p, seat) => h("li", { class: pv.bids && pv.bids[seat] ? "bid" : "", dataset: { seat, bid: String(!!(pv.bids && pv.bids[seat])) } },
    seatDot(seat, ctx), ` ${p.name} `, pv.bids && pv.bids[seat] ? h("span", { class: "rr-note" }, icon("check", 12), "has bid") : h("span", { class: "muted" }, "thinking…")));
  return h("div", { class: "rr-box-bid", dataset: { yourBid: mine ?? "" } },
    h("h3", {}, icon("gavel", 18), "Action Auction"),
    h("p", {}, mine === null || mine === undefined
      ? "Bid in secret for everything in the Snackle Box, with the money left from yesterday. $0 passes."
      : ["Your secret bid: ", h("b", { class: "rr-your-bid" }, money(mine)), ". Only you see it; you may change it until the bids are revealed."]),
    h("div", { class: "rr-row" },
      h("label", { for: "rr-box-bid", class: "small" }, `Your bid (up to ${money(most)})`), input,
      h("button", { type: "button", class: `btn rr-btn primary${can ? " legal" : ""}`, disabled: !can, dataset: { act: "box_bid", focus: "box-bid-send" }, onclick: sendBoxBid },
        mine === null || mine === undefined ? "Place my bid" : "Change my bid"),
      plainButton("$0", () => { ui.boxBid = 0; draw(); }, { cls: "small", data: { preset: 0 } }),
      plainButton("All in", () => { ui.boxBid = most; draw(); }, { cls: "small", data: { preset: "all" } })),
    h("ul", { class: "rr-bidders-list small", "aria-label": "Who has bid (never how much)" }, who),
    h("p", { class: "small muted" }, "Highest bid pays the bank and takes the box; a tie for the top leaves it there."));
}

/** Send the bid as typed now (even before a redraw). */
function sendBoxBid() {
  const field = current && current.root.querySelector("#rr-box-bid");
  const amount = field ? Math.max(0, Math.floor(Number(field.value) || 0)) : ui.boxBid;
  send({ type: "box_bid", amount }, () => { ui.boxBid = null; });
}

/** A face-down ingredient by its back: its market, never its name. */
function ingredientBack(view, market) {
  const loc = view.board.find((l) => l.id === market);
  const name = loc ? loc.name : market;
  const label = `A face-down ${name} card: nobody may look at it, its holder included`;
  return h("span", { class: `rr-ing rr-ing-back cat-${CATEGORY_ICON[loc && loc.category] || "special"}`, role: "img", "aria-label": label, title: label, dataset: { back: market } },
    icon(CATEGORY_ICON[loc && loc.category] || "special", 14), h("span", { class: "rr-ing-name" }, "?"));
}

/** What SPORKS Out puts in front of a chef: Hot Sauce backs, the boxing ring and gloves, the missile. */
function sporkBits(view, p) {
  const bits = [];
  if (p.hot_sauce && p.hot_sauce.length) {
    bits.push(h("div", { class: "rr-hot-sauce", dataset: { count: p.hot_sauce.length } }, h("span", { class: "small muted" }, "Hot Sauce, face down: "),
      p.hot_sauce.map((c) => ingredientBack(view, c.market))));
  }
  if (p.chef.id === "pam_knee_you" || (p.gloves && p.gloves.length)) {
    const corners = view.board.filter((l) => l.corner);
    bits.push(h("div", { class: "rr-ring small", dataset: { ring: p.ring.length } }, icon("glove", 16), h("span", { class: "muted" }, `Boxing ring ${p.ring.length} of ${corners.length}: `),
      corners.map((l) => h("span", { class: `rr-corner${p.ring.includes(l.id) ? " marked" : ""}`, dataset: { corner: l.id }, title: p.ring.includes(l.id) ? `${l.name}: marked` : `${l.name}: not yet` }, l.name)),
      p.gloves.map((g) => h("span", { class: "rr-glove", dataset: { glove: g } }, icon("glove", 14), g === "rob" ? "Rob Glove" : "Knockout Glove"))));
  }
  if (p.chef.id === "papa_tio" || (p.missile && p.missile.length)) {
    const built = p.missile.length >= p.missile_parts;
    bits.push(h("div", { class: `rr-missile small${built ? " built" : ""}`, dataset: { parts: p.missile.length } }, icon("missile", 16),
      h("span", { class: "muted" }, `Nuclear Missile ${p.missile.length} of ${p.missile_parts}${built ? " — ready to launch" : ""}: `),
      p.missile.length ? p.missile.map((i) => chip(view, i)) : h("span", { class: "muted" }, "no parts yet")));
  }
  bits.push(shakersAndLuau(view, p));
  return bits;
}

/** The Sultan's shakers (out on a counter card, or in his hands) and Wahine's Luau today. */
function shakersAndLuau(view, p) {
  const table = view.sporks;
  if (!table) return null;
  const where = (m) => (view.board.find((l) => l.id === m) || { name: m }).name;
  if (p.chef.id === "sultan_pepper_shakrh") {
    return h("div", { class: "rr-shakers small" }, ["salt", "pepper"].map((k) => {
      const out = table.shakers[k];
      const card = out && out.slot !== null ? (view.board.find((l) => l.id === out.market).counter[out.slot] || {}).name : null;
      return h("span", { class: `rr-shaker ${k}`, dataset: { shaker: k, out: String(!!out) } }, icon("shaker", 12),
        out ? `${k} on ${card || "a card"} at ${where(out.market)}` : `${k} in hand`);
    }));
  }
  if (p.chef.id === "wahine") {
    return h("div", { class: "rr-luau-line small" }, icon("luau", 14), table.luau ? `Luau today at ${where(table.luau)}` : "No Luau thrown today");
  }
  return null;
}

/** A SPORKS Out chef's powers, each with its daily limit and today's uses. */
function chefUses(p) {
  if (!p.chef.spork || !p.chef.uses.length) return null;
  return h("ul", { class: "rr-uses small" }, p.chef.uses.map((u) => {
    const used = (p.uses_today || {})[u.id] || 0;
    return h("li", { dataset: { use: u.id } }, h("span", { class: "tag rr-spork-tag" }, "SPORK"), h("b", {}, u.name), `: ${u.text} `,
      h("span", { class: "muted" }, u.per_day === null ? "(no daily limit)" : `(${used} of ${u.per_day} today)`));
  }));
}

/** The Luau, Scraps the Raccoon and Joe's Dumpster at a market. */
function marketSporks(view, loc) {
  if (!view.sporks) return null;
  const marks = [];
  if (loc.luau) marks.push(h("span", { class: "rr-mark rr-luau", title: "Wahine's Luau: a shelf card is drawn for every other chef here at the reveal" }, icon("luau", 14), "Luau!"));
  if (loc.scraps) marks.push(h("span", { class: "rr-mark rr-scraps", title: "Scraps the Raccoon: what is discarded here goes to Joe's Dumpster" }, icon("raccoon", 14), "Scraps"));
  if (loc.dumpster) {
    const cards = view.sporks.dumpster[loc.id] || [];
    marks.push(h("span", { class: "rr-mark rr-dumpster", title: `Joe's Dumpster: ${cards.map((i) => ingredientInfo(view, i).name).join(", ")}` }, icon("bin", 14), `Dumpster ${loc.dumpster}`));
  }
  return marks.length ? h("div", { class: "rr-marks" }, marks) : null;
}

/** The Sultan's shaker on a counter card. */
function shakerBadge(card) {
  if (!card.shaker) return null;
  return h("span", { class: `rr-shaker ${card.shaker}`, title: `The ${card.shaker} shaker is on it: a surprise for its buyer` }, icon("shaker", 12), card.shaker);
}

/** The composer's SPORK choices: one of your own ingredients, a market, a Dumpster card, a shaker. */
function sporkChoices(state, p, base) {
  const { view } = state;
  const me = view.players[view.you];
  const done = () => { ui.play = null; };
  const parts = [];
  if (p.choice === "own_ingredient") {
    parts.push(h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "Build in:"),
      Object.keys(me.ingredients).map((id) => h("button", { type: "button", class: "btn rr-btn small legal", dataset: { act: base.type, ingredient: id },
        onclick: () => send({ ...base, ingredient: id }, done) }, chip(view, id)))));
  }
  if (p.choice === "market") {
    const markets = [...new Set(p.samples.map((a) => a.market))];
    parts.push(h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "Market:"),
      markets.map((m) => actButton(view.board.find((l) => l.id === m).name, { ...base, market: m }, { cls: "small", data: { market: m }, after: done }))));
  }
  if (p.choice === "dumpster") {
    const rows = Object.entries(view.sporks.dumpster).flatMap(([m, cards]) => [...new Set(cards)].map((i) => [m, i]));
    parts.push(h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "From the Dumpster:"),
      rows.map(([m, i]) => h("button", { type: "button", class: "btn rr-btn small legal", dataset: { act: base.type, market: m, ingredient: i },
        onclick: () => send({ ...base, market: m, ingredient: i }, done) }, chip(view, i)))));
  }
  if (p.choice === "shaker_slot") {
    const out = view.sporks.shakers || {};
    parts.push(h("div", { class: "rr-row" }, h("span", { class: "small muted" }, "Shaker:"),
      ["salt", "pepper"].filter((k) => !out[k]).map((k) => plainButton(cap(k), () => { p.shaker = k; draw(); },
        { cls: `small${p.shaker === k ? " selected" : ""}`, data: { shaker: k }, pressed: p.shaker === k }))));
  }
  return parts;
}

/** Face-down Hot Sauce cards and upgrades in a barter bundle (a face-down card by its market only). */
function sporkBundleRows(view, b, side, p) {
  const rows = [];
  const backs = {};
  for (const c of p.hot_sauce || []) backs[c.market] = (backs[c.market] || 0) + 1;
  for (const [m, held] of Object.entries(backs)) {
    const n = b.face_down[m] || 0;
    rows.push(h("div", { class: `rr-item${n ? " chosen" : ""}` }, ingredientBack(view, m), h("span", { class: "small muted" }, `×${held}`),
      stepper(n, { min: 0, max: held, onchange: (v) => { if (v) b.face_down[m] = v; else delete b.face_down[m]; }, data: { side, item: `face_down:${m}` } })));
  }
  for (const u of p.upgrades) {
    const on = b.upgrades.includes(u);
    rows.push(h("div", { class: `rr-item${on ? " chosen" : ""}` },
      plainButton(`${on ? "Selected: " : ""}${upgradeName(view, u)} (upgrade)`, () => { b.upgrades = on ? b.upgrades.filter((x) => x !== u) : [...b.upgrades, u]; draw(); },
        { cls: `small rr-toggle${on ? " selected" : ""}`, data: { side, item: `upgrade:${u}` }, pressed: on })));
  }
  return rows;
}

/** The expansion's icons: a spork, a boxing glove, a missile, a raccoon, a shaker, a luau torch. */
function sporkSymbols(sym) {
  return [
    sym("spork",
      svg("path", { d: "M7 2 C7 6 8 9 12 9 C16 9 17 6 17 2 L15.5 2 L15.5 5.5 L13 5.5 L13 2 L11 2 L11 5.5 L8.5 5.5 L8.5 2 Z", fill: "#b8c2c9", stroke: "#5f6b73", "stroke-width": 1, "stroke-linejoin": "round" }),
      svg("path", { d: "M12 9 L12 22", stroke: "#5f6b73", "stroke-width": 2.6, "stroke-linecap": "round" })),
    sym("glove",
      svg("path", { d: "M6 11 C5 6 8 3 12 3 L15 3 C19 3 20 6 20 9 L20 14 C20 17 18 18 16 18 L9 18 C7 18 6 16 6 14 Z", fill: "#d63b2f", stroke: "#7d1a12", "stroke-width": 1.2 }),
      svg("path", { d: "M6 11 C3 11 3 15 6 15", fill: "#d63b2f", stroke: "#7d1a12", "stroke-width": 1.2 }),
      svg("rect", { x: 8, y: 18, width: 10, height: 4, rx: 1, fill: "#f3e9d6", stroke: "#7d1a12", "stroke-width": 1 })),
    sym("missile",
      svg("path", { d: "M12 1.5 C15 4 15.5 8 15.5 12 L15.5 18 L8.5 18 L8.5 12 C8.5 8 9 4 12 1.5 Z", fill: "#9aa5ad", stroke: "#3f4a52", "stroke-width": 1.1 }),
      svg("path", { d: "M8.5 14 L5 19 L8.5 18 M15.5 14 L19 19 L15.5 18", fill: "#d63b2f", stroke: "#7d1a12", "stroke-width": 1 }),
      svg("path", { d: "M10 19 C10 21 12 23 12 23 C12 23 14 21 14 19 Z", fill: "#f2a31f" })),
    sym("raccoon",
      svg("ellipse", { cx: 12, cy: 13, rx: 8, ry: 7, fill: "#8c8f94", stroke: "#3f4246", "stroke-width": 1.1 }),
      svg("path", { d: "M5 8 L6 3 L9 7 M19 8 L18 3 L15 7", fill: "#8c8f94", stroke: "#3f4246", "stroke-width": 1.1, "stroke-linejoin": "round" }),
      svg("path", { d: "M5.5 12 C8 10 10 11 11 13 L13 13 C14 11 16 10 18.5 12 C17 15 14 14 12 15 C10 14 7 15 5.5 12 Z", fill: "#2b2d30" }),
      svg("circle", { cx: 12, cy: 17, r: 1.3, fill: "#2b2d30" })),
    sym("shaker",
      svg("path", { d: "M8 8 L16 8 L17 21 L7 21 Z", fill: "#f4f1ea", stroke: "#6b5d4f", "stroke-width": 1.2, "stroke-linejoin": "round" }),
      svg("path", { d: "M8 8 C8 4 16 4 16 8 Z", fill: "#b8c2c9", stroke: "#6b5d4f", "stroke-width": 1.1 }),
      svg("circle", { cx: 10.5, cy: 5.8, r: 0.6, fill: "#3f4a52" }), svg("circle", { cx: 13.5, cy: 5.8, r: 0.6, fill: "#3f4a52" })),
    sym("luau",
      svg("path", { d: "M12 10 L12 23", stroke: "#8a5a2b", "stroke-width": 2.2, "stroke-linecap": "round" }),
      svg("path", { d: "M12 1.5 C15.5 4.5 15 8 12 10 C9 8 8.5 4.5 12 1.5 Z", fill: "#f2a31f", stroke: "#c2521b", "stroke-width": 1 }),
      svg("circle", { cx: 7, cy: 14, r: 2.2, fill: "#e75b8d" }), svg("circle", { cx: 17, cy: 14, r: 2.2, fill: "#e75b8d" }),
      svg("circle", { cx: 7, cy: 14, r: 0.8, fill: "#f7d774" }), svg("circle", { cx: 17, cy: 14, r: 0.8, fill: "#f7d774" })),
  ];
}

// ---- animation from fresh events ----------------------------------------------------------------

function flashKeys(state) {
  const keys = new Set();
  for (const e of state.fresh || []) {
    const d = e.data || {};
    if (e.type === "phase") keys.add("banner");
    if (["buy", "claim_won", "auction_won", "income", "dump", "upgrade", "cook", "level_up", "power", "play"].includes(e.type) && d.seat !== undefined) keys.add(`seat:${d.seat}`);
    if (["buy", "claim", "claim_won"].includes(e.type) && d.market) keys.add(`loc:${d.market}`);
    if (e.type === "bid" || e.type === "pass") keys.add(`auction:${d.auction}`);
    if (e.type === "offer") keys.add(`offer:${d.offer}`);
    if (e.type === "trade") { keys.add(`seat:${d.frm}`); keys.add(`seat:${d.to}`); }
    if (e.type === "level_up") keys.add(`level:${d.seat}:${d.threshold}`);
    if (["box_fill", "box_won", "box_tie", "box_full"].includes(e.type)) keys.add("snackle");
    if (["box_won", "gloves", "ring", "rob", "knockout", "missile", "dive", "surprise", "shaker_unbought", "face_up", "hot_sauce"].includes(e.type) && d.seat !== undefined) keys.add(`seat:${d.seat}`);
    if (["rob", "knockout"].includes(e.type)) keys.add(`seat:${d.target}`);
    if (["luau", "luau_held", "launch", "scraps", "shake", "dumpster_return"].includes(e.type) && d.market) keys.add(`loc:${d.market}`);
  }
  return keys;
}

let burst = null; // {node, until}: "+3 popularity" after your dish is scored

function cookBurst(state) {
  const you = state.view.you;
  const mine = (state.fresh || []).filter((e) => e.type === "cook" && e.data && e.data.seat === you);
  if (mine.length) {
    const total = mine.reduce((s, e) => s + e.data.score, 0);
    burst = { until: performance.now() + 1800,
      node: h("div", { class: `rr-burst${total >= 0 ? " plus" : " minus"}`, role: "status", dataset: { burst: total } }, `${total >= 0 ? "+" : "−"}${Math.abs(total)} popularity`) };
  }
  if (burst && performance.now() > burst.until) burst = null;
  return burst ? burst.node : null;
}

// ---- drawing --------------------------------------------------------------------------------------

function draw() {
  if (!current) return;
  const { root, state, ctx } = current;
  const { view } = state;
  standInRestaurants(view);
  for (const p of view.players) {
    for (const r of p.recipes) recipeNames.set(r.id, r.name);
    for (const a of p.actions) cardNames.set(a.id.replace(/-\d+$/, ""), a.name);
  }
  const me = ctx.spectator || view.you === null || view.you === undefined ? null : view.players[view.you];
  const active = document.activeElement;
  const focusKey = active && root.contains(active) ? active.dataset.focus : null;
  const caret = focusKey && active.tagName === "INPUT" ? [active.value, active.selectionStart] : null;

  // An open barter composer takes the whole width under the board (both sides side by side).
  const barter = barterPanel(state, ctx);
  const wide = barter && ui.barter.open;
  const table = h("div", { class: `rr${me ? "" : " watching"}`, dataset: { phase: view.phase, day: view.day, you: view.you ?? "", legal: String(state.legal.length) } },
    banner(state, ctx),
    h("div", { class: "rr-top" },
      board(state, ctx, me),
      h("div", { class: "rr-side" }, nowPanel(state, ctx), view.sporks ? snackleBox(state, ctx) : null, wide ? null : barter)),
    wide ? barter : null,
    h("div", { class: "rr-bottom" }, me ? myRestaurant(state, ctx) : null, othersPanel(state, ctx)));
  const keys = flashKeys(state);
  if (keys.size) for (const el of table.querySelectorAll("[data-flash]")) if (keys.has(el.dataset.flash)) el.classList.add("rr-flash");
  const sprites = root.querySelector(".rr-sprite") || sprite();
  root.replaceChildren(sprites, table, cookBurst(state) || "");

  if (focusKey) {
    const again = [...root.querySelectorAll("[data-focus]")].find((el) => el.dataset.focus === focusKey);
    if (again && !again.disabled) {
      again.focus({ preventScroll: true });
      if (caret && again.tagName === "INPUT" && again.value === caret[0]) {
        try { again.setSelectionRange(caret[1], caret[1]); } catch { /* number inputs have no caret */ }
      }
    }
  }
  tickClocks();
}

function onKey(event) {
  if (!current) return false;
  const key = event.key.toLowerCase();
  if (key === "escape" && (ui.play || ui.barter.open)) {
    ui.play = null;
    ui.barter.open = false;
    draw();
    return true;
  }
  const type = { d: "done", s: "serve" }[key];
  const action = type && legalOf(type)[0];
  if (action) {
    send(action);
    return true;
  }
  return false;
}

// A state that arrives between a press and its release waits for the release, so that
// redrawing the table never swallows a click.
let pressed = false;
let waiting = false;
let pressTimer = null;

function release() {
  clearTimeout(pressTimer);
  setTimeout(() => { // after the click event that follows the release
    pressed = false;
    if (waiting) {
      waiting = false;
      draw();
    }
  }, 0);
}

function holdPresses(root) {
  if (root.dataset.rrPresses) return;
  root.dataset.rrPresses = "1";
  root.addEventListener("pointerdown", () => {
    pressed = true;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(release, 1500); // a press never holds the table for long
  }, true);
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
}

/** The renderer interface (docs/CONTRIBUTING-games.md): called with every new state. */
export function render(root, state, ctx) {
  if (!keysBound) {
    ctx.onKey(onKey);
    keysBound = true;
  }
  holdPresses(root);
  const key = `${state.view.day}:${state.view.phase}`;
  if (ui.key !== key) ui = freshUi(key);
  current = { root, state, ctx };
  if (pressed) waiting = true;
  else draw();
  clearInterval(clockTimer);
  clockTimer = state.status === "finished" ? null : setInterval(tickClocks, 250);
}
