// Nutty Noodles: the tables with their monsters, the dice, the bowls (a grid, or scattered
// for Panic in the Kitchen; Scrambled bowls are harder to read), your tokens.
// Place a token with two clicks (a table or token, then a bowl — either order) or two key
// presses: 1–4 for a table, 0 for a takeaway (face down), A–T for a bowl. Space throws.
import { h, svg, seatColor } from "../client.js";

const FEEDBACK_MS = 1600;

// ---- art: ingredient icons as one SVG sprite, monsters drawn from their id ------------------

function sprite() {
  const sym = (id, ...parts) => svg("symbol", { id: `nn-${id}`, viewBox: "0 0 40 40" }, ...parts);
  return svg("svg", { class: "nn-sprite", width: 0, height: 0, "aria-hidden": "true" },
    svg("defs", {},
      svg("clipPath", { id: "nn-broth", clipPathUnits: "userSpaceOnUse" }, svg("circle", { cx: 50, cy: 50, r: 37 })),
      sym("chilli",
        svg("path", { d: "M9 13 C6 24 14 35 30 33 C34 32.5 35 30 31 29 C20 27 15 22 16 13 Z", fill: "#d62c1a", stroke: "#8e1b10", "stroke-width": 1.5 }),
        svg("path", { d: "M11 13 C11 8 15 6 18 7 M11 13 C13 10 17 11 17 13", fill: "none", stroke: "#2f8a2f", "stroke-width": 3, "stroke-linecap": "round" })),
      sym("fish",
        svg("path", { d: "M5 20 C11 10 25 10 31 20 C25 30 11 30 5 20 Z", fill: "#3d8fd6", stroke: "#1d4f80", "stroke-width": 1.5 }),
        svg("path", { d: "M30 20 L38 12 L38 28 Z", fill: "#3d8fd6", stroke: "#1d4f80", "stroke-width": 1.5, "stroke-linejoin": "round" }),
        svg("circle", { cx: 12, cy: 18, r: 2.2, fill: "#10263d" }),
        svg("path", { d: "M18 14 C21 18 21 22 18 26", fill: "none", stroke: "#1d4f80", "stroke-width": 1.4 })),
      sym("egg",
        svg("path", { d: "M6 21 C4 12 13 6 21 8 C30 5 37 13 34 21 C37 30 28 36 20 33 C11 37 3 30 6 21 Z", fill: "#fffdf5", stroke: "#b9ab8c", "stroke-width": 1.5 }),
        svg("circle", { cx: 20, cy: 20, r: 7, fill: "#f7b500", stroke: "#c98a00", "stroke-width": 1.2 }),
        svg("circle", { cx: 18, cy: 18, r: 2, fill: "#ffe07a" })),
      sym("mushroom",
        svg("rect", { x: 15, y: 20, width: 10, height: 15, rx: 4, fill: "#efe2c6", stroke: "#9b8660", "stroke-width": 1.5 }),
        svg("path", { d: "M4 22 C4 9 36 9 36 22 Z", fill: "#a0522d", stroke: "#5e2f18", "stroke-width": 1.5 }),
        svg("circle", { cx: 13, cy: 16, r: 2.4, fill: "#f3e3c3" }),
        svg("circle", { cx: 24, cy: 13.5, r: 2, fill: "#f3e3c3" })),
      sym("broccoli",
        svg("path", { d: "M17 22 L15 36 L25 36 L23 22 Z", fill: "#9ccc65", stroke: "#4d7a25", "stroke-width": 1.5 }),
        svg("circle", { cx: 13, cy: 17, r: 7, fill: "#3b8f2a", stroke: "#22561a", "stroke-width": 1.5 }),
        svg("circle", { cx: 27, cy: 17, r: 7, fill: "#3b8f2a", stroke: "#22561a", "stroke-width": 1.5 }),
        svg("circle", { cx: 20, cy: 11, r: 8, fill: "#47a335", stroke: "#22561a", "stroke-width": 1.5 })),
      sym("miso",
        svg("path", { d: "M5 18 H35 C35 28 28 34 20 34 C12 34 5 28 5 18 Z", fill: "#c0392b", stroke: "#7b241c", "stroke-width": 1.5 }),
        svg("ellipse", { cx: 20, cy: 18, rx: 15, ry: 5, fill: "#d9a55b", stroke: "#7b241c", "stroke-width": 1.5 }),
        svg("rect", { x: 12, y: 15, width: 5, height: 5, fill: "#fffaf0", stroke: "#b9ab8c" }),
        svg("rect", { x: 21, y: 16, width: 5, height: 5, fill: "#fffaf0", stroke: "#b9ab8c" }),
        svg("path", { d: "M27 14 l4 -2", stroke: "#2f8a2f", "stroke-width": 2, "stroke-linecap": "round" })),
      sym("takeaway",
        svg("path", { d: "M9 14 L31 14 L28 35 L12 35 Z", fill: "#f4ead5", stroke: "#8a6d3b", "stroke-width": 1.5, "stroke-linejoin": "round" }),
        svg("path", { d: "M14 14 C14 6 26 6 26 14", fill: "none", stroke: "#8a6d3b", "stroke-width": 2 }),
        svg("path", { d: "M14 22 C18 26 22 26 26 22", fill: "none", stroke: "#d9412b", "stroke-width": 2 })),
    ));
}

function icon(name, attrs = {}) {
  return svg("use", { href: `#nn-${name}`, width: 40, height: 40, ...attrs });
}

function hash(text) {
  let x = 2166136261;
  for (const ch of text) x = Math.imul(x ^ ch.charCodeAt(0), 16777619);
  return x >>> 0;
}

const BODIES = [
  "M50 14 C78 14 90 38 88 62 C86 84 70 94 50 94 C30 94 14 84 12 62 C10 38 22 14 50 14Z",
  "M22 92 L22 42 C22 20 36 10 50 10 C64 10 78 20 78 42 L78 92 L68 84 L59 92 L50 84 L41 92 L32 84 Z",
  "M36 22 H64 C80 22 90 32 90 48 V74 C90 86 82 94 70 94 H30 C18 94 10 86 10 74 V48 C10 32 20 22 36 22 Z",
  "M50 12 C66 12 72 28 70 40 C86 50 92 70 84 84 C76 96 24 96 16 84 C8 70 14 50 30 40 C28 28 34 12 50 12Z",
];

/** A monster drawn from its id: the same monster looks the same everywhere. */
function monsterArt(id, size = 64) {
  const n = hash(id);
  const hue = n % 360;
  const body = `hsl(${hue} 62% 58%)`;
  const dark = `hsl(${hue} 55% 28%)`;
  const eyes = 1 + ((n >>> 9) % 3);
  const parts = [];
  if ((n >>> 3) & 1) {
    parts.push(svg("path", { d: "M30 26 L24 4 L42 20 Z M70 26 L76 4 L58 20 Z", fill: `hsl(${(hue + 40) % 360} 70% 85%)`, stroke: dark, "stroke-width": 2, "stroke-linejoin": "round" }));
  } else if ((n >>> 4) & 1) {
    parts.push(svg("path", { d: "M40 18 L34 4 M60 18 L66 4", stroke: dark, "stroke-width": 3, "stroke-linecap": "round" }),
      svg("circle", { cx: 34, cy: 4, r: 4, fill: `hsl(${(hue + 180) % 360} 70% 60%)` }),
      svg("circle", { cx: 66, cy: 4, r: 4, fill: `hsl(${(hue + 180) % 360} 70% 60%)` }));
  }
  parts.push(svg("path", { d: BODIES[(n >>> 5) % BODIES.length], fill: body, stroke: dark, "stroke-width": 3, "stroke-linejoin": "round" }));
  parts.push(svg("ellipse", { cx: 50, cy: 72, rx: 22, ry: 14, fill: `hsl(${hue} 70% 76%)` }));
  const xs = { 1: [50], 2: [38, 62], 3: [32, 50, 68] }[eyes];
  xs.forEach((x, i) => {
    const r = eyes === 1 ? 12 : 8;
    const y = eyes === 3 && i === 1 ? 36 : 44;
    parts.push(svg("circle", { cx: x, cy: y, r, fill: "#fff", stroke: dark, "stroke-width": 2 }),
      svg("circle", { cx: x + ((n >>> (11 + i)) & 1 ? 2 : -2), cy: y + 2, r: r / 2.3, fill: "#1b1b1b" }));
  });
  if ((n >>> 14) & 1) {
    parts.push(svg("path", { d: "M34 62 Q50 76 66 62 Z", fill: "#5a1a1a", stroke: dark, "stroke-width": 2, "stroke-linejoin": "round" }),
      svg("path", { d: "M38 63 L41 68 L44 64 M56 64 L59 68 L62 63", fill: "#fff" }));
  } else {
    parts.push(svg("path", { d: "M36 62 Q50 70 64 62", fill: "none", stroke: dark, "stroke-width": 3, "stroke-linecap": "round" }),
      svg("path", { d: "M46 65 Q50 74 54 65", fill: "#e8556d" }));
  }
  return svg("svg", { class: "monster-art", viewBox: "0 -2 100 100", width: size, height: size, "aria-hidden": "true" }, ...parts);
}

function allergy(name) {
  return svg("svg", { class: "allergy", viewBox: "0 0 40 40", width: 22, height: 22, role: "img", "aria-label": `allergic to ${name}`, dataset: { allergy: name } },
    svg("title", {}, `Allergic to ${name === "miso" ? "Miso Soup" : name}`),
    svg("circle", { cx: 20, cy: 20, r: 18, fill: "#fff" }),
    icon(name, { x: 6, y: 6, width: 28, height: 28 }),
    svg("circle", { cx: 20, cy: 20, r: 17, fill: "none", stroke: "#d0021b", "stroke-width": 3.5 }),
    svg("path", { d: "M8 8 L32 32", stroke: "#d0021b", "stroke-width": 3.5 }));
}

// Where the ingredients sit on a bowl (in a 100×100 box), by how many there are.
const SPOTS = {
  1: [[50, 50]],
  2: [[34, 50], [66, 50]],
  3: [[50, 32], [32, 64], [68, 64]],
};

function noodles(rng, count, color) {
  return Array.from({ length: count }, () => {
    const x = 22 + rng() * 40;
    const y = 24 + rng() * 50;
    const w = 6 + rng() * 8;
    return svg("path", { d: `M${x} ${y} q${w / 2} -${w} ${w} 0 t${w} 0 t${w} 0`, fill: "none", stroke: color, "stroke-width": 3.2, "stroke-linecap": "round" });
  });
}

function seeded(text) {
  let s = hash(text) || 1;
  return () => {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    return ((s >>> 0) % 10000) / 10000;
  };
}

function bowlArt(bowl, scrambled) {
  const rng = seeded(bowl.id);
  const parts = [
    svg("circle", { cx: 50, cy: 50, r: 46, fill: "#fffaf0", stroke: "#6d4c2f", "stroke-width": 3 }),
    svg("circle", { cx: 50, cy: 50, r: 38, fill: scrambled ? "#e6a04e" : "#f2cf7d" }),
  ];
  const ingredients = bowl.ingredients.length ? bowl.ingredients : ["miso"];
  const spots = SPOTS[ingredients.length] || SPOTS[3];
  if (!scrambled) parts.push(svg("g", { "clip-path": "url(#nn-broth)" }, noodles(rng, 5, "#e9b949")));
  ingredients.forEach((name, i) => {
    let [x, y] = spots[i];
    let size = ingredients.length === 1 ? 44 : 30;
    let rot = 0;
    if (scrambled) {
      x += (rng() - 0.5) * 22;
      y += (rng() - 0.5) * 22;
      size *= 0.8;
      rot = Math.round((rng() - 0.5) * 300);
    }
    parts.push(svg("g", { transform: `rotate(${rot} ${x} ${y})`, opacity: scrambled ? 0.9 : 1 },
      icon(name, { x: x - size / 2, y: y - size / 2, width: size, height: size })));
  });
  if (scrambled) parts.push(svg("g", { "clip-path": "url(#nn-broth)" }, noodles(rng, 9, "#f7d774")));
  return svg("svg", { class: "bowl-art", viewBox: "0 0 100 100", "aria-hidden": "true" }, ...parts);
}

function die(face, rolling) {
  return h("div", { class: `die${rolling ? " rolling" : ""}`, dataset: { face } },
    face === "blank"
      ? svg("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": "blank" }, svg("circle", { cx: 20, cy: 20, r: 12, fill: "none", stroke: "#d8c8aa", "stroke-width": 2.5, "stroke-dasharray": "4 3" }))
      : svg("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": face }, icon(face, { x: 4, y: 4, width: 32, height: 32 })));
}

// ---- the renderer -----------------------------------------------------------------------------

const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let selection = { table: undefined, bowl: undefined, throws: -1 };
let current = null; // {state, ctx, root}
let sending = false;
let keysBound = false;
let feedback = null; // {node, until}: the right/wrong/too-late message on show

function canPlace(legal) {
  return legal.some((a) => a.type === "place" || a.type === "takeaway");
}

function choose(part, value) {
  const { state, ctx } = current;
  if (!canPlace(state.legal) || sending) return;
  selection = { ...selection, [part]: selection[part] === value ? undefined : value };
  if (selection.table !== undefined && selection.bowl !== undefined) place(selection.table, selection.bowl, ctx);
  else draw();
}

async function place(table, bowl, ctx) {
  const action = table === "takeaway" ? { type: "takeaway", bowl } : { type: "place", table, bowl };
  sending = true;
  draw();
  try {
    await ctx.send(action, { quiet: true });
  } catch (err) {
    const late = /too late|wait for the dice|already been served/i.test(err.message);
    showFeedback(late ? "late" : "error", late ? "Too late!" : err.message);
    selection = { ...selection, table: undefined, bowl: undefined };
  } finally {
    sending = false;
    if (ctx.redraw) ctx.redraw(); // drawn with the change the action made, once
    else draw();
  }
}

function roll() {
  const { state, ctx } = current;
  if (!state.legal.some((a) => a.type === "roll")) return;
  ctx.send({ type: "roll" }).catch(() => {});
}

function ready() {
  const { state, ctx } = current;
  if (!state.legal.some((a) => a.type === "ready")) return;
  ctx.send({ type: "ready" }).catch(() => {});
}

function showFeedback(kind, text) {
  const node = h("div", { class: `nn-feedback ${kind}`, role: "status", dataset: { feedback: kind } }, text);
  feedback = { node, until: performance.now() + FEEDBACK_MS };
  setTimeout(() => {
    if (feedback && performance.now() >= feedback.until) {
      feedback = null;
      if (current) draw();
    }
  }, FEEDBACK_MS + 20);
}

function onKey(event) {
  if (!current) return false;
  const { view, legal } = current.state;
  const key = event.key;
  if ((key === " " || key === "Enter") && legal.some((a) => a.type === "roll")) {
    roll();
    return true;
  }
  if ((key === " " || key === "Enter") && legal.some((a) => a.type === "ready")) {
    ready();
    return true;
  }
  if (key === "Escape") {
    selection = { ...selection, table: undefined, bowl: undefined };
    draw();
    return true;
  }
  if (key === "0") {
    choose("table", "takeaway");
    return true;
  }
  if (/^[1-9]$/.test(key)) {
    const t = Number(key) - 1;
    if (view.tables[t]) choose("table", t);
    return true;
  }
  const i = letters.indexOf(key.toUpperCase());
  if (key.length === 1 && i >= 0 && i < view.bowls.length) {
    choose("bowl", view.bowls[i].id);
    return true;
  }
  return false;
}

/** Whether the race of the last throw is on (the dice and placements stay in the view until
 *  the next throw). */
function racing(view) {
  return view.phase === "race" || view.phase === "closing";
}

/** Your token in the race on, if you have put one down. */
function mine(view) {
  if (view.you === null || view.you === undefined || !racing(view)) return null;
  return view.throw.placements.find((p) => p.seat === view.you) || null;
}

const WRONG = " — wrong: ";

/** Why a serve was wrong: the end of its log line ("Ann serves … — wrong: the dice asked
 *  for Fish noodles."), which the rules write and the event's data does not repeat. */
function mistake(text) {
  const at = text.lastIndexOf(WRONG);
  return at < 0 ? "not the right serve." : text.slice(at + WRONG.length);
}

function reactToEvents(state, ctx) {
  const you = ctx.you;
  if (you === null || you === undefined) return;
  const fresh = state.fresh || [];
  if (fresh.some((e) => e.type === "roll")) feedback = null; // a new throw: last round's news is stale
  for (const event of fresh) {
    const served = event.type === "place" && event.data && event.data.seat === you
      ? state.view.throw.placements.find((p) => p.seat === you) : null; // the event's own placement
    if (served) {
      showFeedback(served.correct ? "right" : "wrong", served.correct ? "Right!" : `Wrong — ${mistake(event.text)} You're out this round.`);
    }
  }
  // The round was won before you served: too late.
  const won = fresh.some((e) => e.type === "win");
  if (won && !state.view.throw.placements.some((p) => p.seat === you)) showFeedback("late", "Too late!");
}

function tablesRow(view, legalPlace, myColor) {
  const cards = view.tables.map((t, i) => {
    if (!t) return h("div", { class: "nn-table empty", dataset: { table: i } }, h("span", { class: "table-no" }, String(i + 1)), h("p", { class: "muted small" }, "empty"));
    const selected = selection.table === i;
    return h("button", {
      class: `nn-table${legalPlace ? " legal" : ""}${selected ? " selected" : ""}`,
      type: "button",
      disabled: !legalPlace,
      style: selected ? `--mine:${myColor}` : null,
      "aria-pressed": String(selected),
      "aria-label": `Table ${i + 1}: ${t.name}, allergic to ${t.allergies.join(" and ")}`,
      dataset: { table: i, monster: t.id, allergies: t.allergies.join(" ") },
      onclick: () => choose("table", i),
    },
    h("span", { class: "table-no" }, String(i + 1)),
    monsterArt(t.id, 64),
    h("span", { class: "monster-name" }, t.name),
    h("span", { class: "allergies" }, t.allergies.map(allergy)));
  });
  const selected = selection.table === "takeaway";
  cards.push(h("button", {
    class: `nn-table takeaway${legalPlace ? " legal" : ""}${selected ? " selected" : ""}`,
    type: "button",
    disabled: !legalPlace,
    style: selected ? `--mine:${myColor}` : null,
    "aria-pressed": String(selected),
    "aria-label": "Takeaway: a token face down, when every monster is allergic",
    dataset: { table: "takeaway" },
    onclick: () => choose("table", "takeaway"),
  },
  h("span", { class: "table-no" }, "0"),
  svg("svg", { viewBox: "0 0 40 40", width: 48, height: 48, class: "takeaway-art" }, icon("takeaway")),
  h("span", { class: "monster-name" }, "Takeaway"),
  h("span", { class: "muted small" }, `deck: ${view.deck}`)));
  return h("div", { class: "nn-tables", style: `--tables:${cards.length}` }, cards);
}

/** Before the first throw (the ready check): who is ready, and the button to say so (the
 *  prompt says what it is for). */
function readyRow(state, ctx) {
  const { view, legal } = state;
  const canReady = legal.some((a) => a.type === "ready");
  return h("div", { class: "nn-ready" },
    canReady ? h("button", { class: "btn primary big ready", type: "button", onclick: ready }, "I'm ready", h("kbd", {}, "Space")) : null,
    h("ul", { class: "nn-ready-list" }, view.players.map((p, seat) => h("li", { class: p.ready ? "is-ready" : "", dataset: { seat } },
      h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }),
      `${ctx.playerName(seat)}: ${p.ready ? "ready" : "not yet"}`))));
}

function diceRow(state, ctx) {
  const { view, legal } = state;
  const canRoll = legal.some((a) => a.type === "roll");
  const live = racing(view) && view.throw.dice.length > 0;
  const rolled = (state.fresh || []).some((e) => e.type === "roll");
  const faces = live ? view.throw.dice : Array.from({ length: view.mode === "advanced" ? 3 : 2 }, () => null);
  return h("div", { class: "nn-dice-row" },
    h("div", { class: `nn-dice${live ? " live" : " idle"}`, role: "group", "aria-label": live ? `Dice: ${view.throw.dice.join(", ")}` : "Dice not thrown yet" },
      faces.map((f) => (f ? die(f, rolled) : h("div", { class: "die idle" })))),
    canRoll
      ? h("button", { class: "btn primary big roll", type: "button", onclick: roll }, "Throw the dice", h("kbd", {}, "Space"))
      : h("span", { class: "muted small thrower" }, view.phase === "roll" ? `${ctx.playerName(view.thrower)} throws` : `Round ${view.round}`));
}

function bowlsArea(view, legalPlace) {
  const scrambled = view.variants.scrambled;
  const scattered = Array.isArray(view.layout);
  const target = view.phase === "roll" && view.last_round ? view.last_round.target : null;
  const onBowl = new Map();
  for (const p of view.throw.placements) {
    if (!onBowl.has(p.bowl)) onBowl.set(p.bowl, []);
    onBowl.get(p.bowl).push(p);
  }
  const bowls = view.bowls.map((b, i) => {
    const spot = scattered ? view.layout[i] : null;
    const selected = selection.bowl === b.id;
    const tokens = (onBowl.get(b.id) || []).map((p) => h("span", {
      class: `token ${p.correct ? "correct" : "wrong"}`,
      style: `background:${seatColor(p.seat)}`,
      title: `${p.correct ? "right" : "wrong"}`,
      dataset: { seat: p.seat },
    }, p.table === null ? "" : String(p.table + 1)));
    return h("button", {
      class: `bowl${scrambled ? " scrambled" : ""}${legalPlace ? " legal" : ""}${selected ? " selected" : ""}${b.id === target ? " target" : ""}`,
      type: "button",
      disabled: !legalPlace,
      "aria-pressed": String(selected),
      "aria-label": `Bowl ${letters[i]}${scrambled ? "" : `: ${b.name}`}`,
      dataset: { bowl: b.id, key: letters[i], ingredients: b.ingredients.join(" ") },
      style: spot ? `--x:${spot.x};--y:${spot.y};--rot:${spot.rot}deg` : null,
      onclick: () => choose("bowl", b.id),
    }, bowlArt(b, scrambled), h("kbd", { class: "bowl-key" }, letters[i]), tokens.length ? h("span", { class: "tokens" }, tokens) : null);
  });
  return h("div", {
    class: `nn-bowls ${scattered ? "scattered" : "grid"}`,
    style: `--cols:${view.grid.cols};--rows:${view.grid.rows}`,
  }, bowls);
}

function tokensRow(view, legalPlace, myColor) {
  if (view.you === null || view.you === undefined) return null;
  const placed = mine(view);
  const chips = view.tables.map((t, i) => h("button", {
    class: `my-token${selection.table === i ? " selected" : ""}${placed && placed.table === i ? " used" : ""}`,
    type: "button",
    disabled: !legalPlace || !t,
    style: `background:${myColor}`,
    "aria-label": `Token for table ${i + 1}`,
    onclick: () => choose("table", i),
  }, String(i + 1)));
  chips.push(h("button", {
    class: `my-token face-down${selection.table === "takeaway" ? " selected" : ""}`,
    type: "button",
    disabled: !legalPlace,
    style: `border-color:${myColor}`,
    "aria-label": "Token face down (takeaway)",
    onclick: () => choose("table", "takeaway"),
  }, "0"));
  let hint = `Pick a token (1–${view.tables.length}, 0 face down) and a bowl (A–${letters[view.bowls.length - 1]}), in either order.`;
  if (placed) hint = placed.correct ? "Your token is on the bowl." : "Out this round.";
  else if (!legalPlace) hint = "Your tokens, ready for the next throw.";
  return h("div", { class: "nn-tokens" }, h("span", { class: "small muted" }, "Your tokens"), h("div", { class: "chips" }, chips), h("span", { class: "small muted hint" }, hint));
}

function roundBanner(view, ctx) {
  const last = view.last_round;
  if (view.phase === "over" || view.phase !== "roll" || !last) return null;
  if (!last.winners.length) return h("div", { class: "nn-banner again" }, "Nobody served the right bowl — throw again!");
  return h("div", { class: "nn-banner win" },
    last.winners.map((w) => h("span", { class: "winner", dataset: { seat: w.seat } },
      monsterArt(w.monster, 36), `${ctx.playerName(w.seat)} wins the monster!`)));
}

function scoreboard(view) {
  const out = new Set(racing(view) ? view.throw.placements.filter((p) => !p.correct).map((p) => p.seat) : []);
  return h("div", { class: "nn-scores" },
    h("span", { class: "small muted" }, `First to ${view.goal} monsters`),
    view.players.map((p, seat) => h("div", { class: `nn-score${out.has(seat) ? " out" : ""}${seat === view.you ? " you" : ""}` },
      h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }),
      h("span", { class: "pname" }, p.name),
      h("span", { class: "herd" }, p.monsters.map((m) => monsterArt(m, 22))),
      h("span", { class: "count" }, `${p.score}/${view.goal}`))));
}

function draw() {
  const { state, ctx, root } = current;
  const { view, legal } = state;
  const legalPlace = canPlace(legal) && !sending;
  const myColor = seatColor(view.you);
  const board = h("div", { class: `nn${view.variants.scrambled ? " is-scrambled" : ""}`, dataset: { phase: view.phase, throws: view.throw.number } },
    roundBanner(view, ctx),
    view.phase === "ready" ? readyRow(state, ctx) : diceRow(state, ctx),
    tablesRow(view, legalPlace, myColor),
    bowlsArea(view, legalPlace),
    tokensRow(view, legalPlace, myColor),
    feedback ? feedback.node : null,
    scoreboard(view));
  const sprites = root.querySelector(".nn-sprite") || sprite();
  root.replaceChildren(sprites, board);
}

/** The renderer interface (docs/CONTRIBUTING-games.md): called with every new state. */
export function render(root, state, ctx) {
  if (!keysBound) {
    ctx.onKey(onKey);
    keysBound = true;
  }
  if (state.view.throw.number !== selection.throws) selection = { table: undefined, bowl: undefined, throws: state.view.throw.number };
  current = { state, ctx, root };
  reactToEvents(state, ctx);
  draw();
}
