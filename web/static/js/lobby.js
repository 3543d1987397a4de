// The lobby: the catalogue's create forms (built from each game's option JSON schema), "play
// now against bots", open tables to join, running ones to watch, finished ones to replay,
// the remembered name.
import { signedIn } from "./account.js";
import { api, createAndJoin, h, joinMatch, memory, toast } from "./client.js";

const catalogue = JSON.parse(document.getElementById("catalogue-data").textContent);
const games = Object.fromEntries(catalogue.map((g) => [g.id, g]));
const nameInput = document.getElementById("player-name");
const REFRESH_MS = 4000;
const FINISHED_SHOWN = 8;

nameInput.value = memory.name();
nameInput.addEventListener("change", () => memory.setName(nameInput.value));

function playerName() {
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.focus();
    nameInput.classList.add("needed");
    toast("Type your name first (top right).", "info");
    return null;
  }
  nameInput.classList.remove("needed");
  memory.setName(name);
  return name;
}

// ---- pace: every timer of a game at once ---------------------------------------------------

// An integer option named `…_ms` is a length of time; a pace scales every one of them from
// its default (within its bounds). Relaxed is for learners, and for tables with bots.
const PACES = { relaxed: { label: "Relaxed (twice the time)", factor: 2 }, normal: { label: "Normal", factor: 1 }, fast: { label: "Fast (half the time)", factor: 0.5 } };

function isTimer(key, s) {
  return key.endsWith("_ms") && s.type === "integer";
}

function paced(s, pace) {
  const ms = Math.round((s.default ?? 0) * PACES[pace].factor);
  return Math.min(s.maximum ?? Infinity, Math.max(s.minimum ?? 0, ms));
}

/** What the lobby proposes to people: a field's `lobby_default` (e.g. Nutty Noodles' ready
 *  check, off for programs), else its default; every timer at ``pace``. */
function lobbyOptions(game, pace) {
  const schema = game.options || {};
  const options = {};
  for (const [key, raw] of Object.entries(schema.properties || {})) {
    const s = resolve(raw, schema);
    if (isTimer(key, s)) options[key] = paced(s, pace);
    else if (s.lobby_default !== undefined) options[key] = s.lobby_default;
  }
  return options;
}

function seconds(ms) {
  return String(Math.round(ms / 10) / 100);
}

// ---- forms from JSON schema ----------------------------------------------------------

function humanize(value) {
  const text = String(value).replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The schema of one option with $ref and Optional (anyOf with null) resolved. */
function resolve(schema, root) {
  let s = schema;
  if (s.$ref) s = { ...root.$defs[s.$ref.split("/").pop()], ...s, $ref: undefined };
  if (s.allOf && s.allOf.length === 1) s = { ...resolve(s.allOf[0], root), ...s, allOf: undefined };
  if (s.anyOf) {
    const branch = s.anyOf.find((b) => b.type !== "null");
    if (branch) s = { ...resolve(branch, root), ...s, anyOf: undefined, nullable: true };
  }
  return s;
}

function labelled(key, s, control, hint = true) {
  return h("label", { class: `field field-${s.type || "enum"}`, for: control.id },
    h("span", { class: "field-title" }, s.title || key),
    control,
    hint && s.description ? h("small", { class: "hint" }, s.description) : null);
}

function optionField(game, key, schema, root) {
  const s = resolve(schema, root);
  const id = `opt-${game}-${key}`;
  const attrs = { id, name: key, dataset: { option: key, kind: s.type || "enum" } };
  if (s.enum) {
    const select = h("select", attrs, s.enum.map((v) => h("option", { value: JSON.stringify(v), selected: v === s.default }, humanize(v))));
    select.dataset.kind = "json";
    return { main: true, node: labelled(key, s, select) };
  }
  if (s.type === "boolean") {
    const box = h("input", { ...attrs, type: "checkbox", checked: !!(s.lobby_default ?? s.default) });
    return { main: true, node: h("label", { class: "field field-boolean", for: id }, box, h("span", { class: "field-title" }, s.title || key), s.description ? h("small", { class: "hint" }, s.description) : null) };
  }
  if (isTimer(key, s)) {  // shown and typed in seconds
    const input = h("input", { ...attrs, type: "number", value: seconds(s.default), min: s.minimum / 1000, max: s.maximum / 1000, step: "any", required: true, dataset: { option: key, kind: "seconds", timer: "" } });
    const title = (s.title || key).replace(/\s*\(ms\)$/, "");
    return { main: false, node: labelled(key, { ...s, title: `${title} (seconds)` }, input) };
  }
  if (s.type === "integer" || s.type === "number") {
    const input = h("input", { ...attrs, type: "number", value: s.default ?? "", min: s.minimum ?? s.exclusiveMinimum, max: s.maximum ?? s.exclusiveMaximum, step: s.type === "integer" ? 1 : "any", required: !s.nullable });
    return { main: false, node: labelled(key, s, input) };
  }
  if (s.type === "array" && s.items) {
    const items = resolve(s.items, root);
    if (items.enum) {
      const chosen = new Set(s.default || []);
      const group = h("fieldset", { class: "field field-set", id, dataset: { option: key, kind: "set" } },
        h("legend", {}, s.title || key),
        items.enum.map((v) => h("label", { class: "field-boolean" }, h("input", { type: "checkbox", value: JSON.stringify(v), checked: chosen.has(v) }), humanize(v))),
        s.description ? h("small", { class: "hint" }, s.description) : null);
      return { main: true, node: group };
    }
  }
  const input = h("input", { ...attrs, type: "text", value: s.default ?? "", dataset: { option: key, kind: "string" } });
  return { main: false, node: labelled(key, s, input) };
}

function readOptions(form) {
  const options = {};
  for (const el of form.querySelectorAll("[data-option]")) {
    const key = el.dataset.option;
    const kind = el.dataset.kind;
    if (kind === "set") options[key] = [...el.querySelectorAll("input:checked")].map((c) => JSON.parse(c.value));
    else if (kind === "json") options[key] = JSON.parse(el.value);
    else if (kind === "boolean") options[key] = el.checked;
    else if (kind === "integer") options[key] = el.value === "" ? null : parseInt(el.value, 10);
    else if (kind === "number") options[key] = el.value === "" ? null : Number(el.value);
    else if (kind === "seconds") options[key] = Math.round(Number(el.value) * 1000);
    else options[key] = el.value;
  }
  return options;
}

function range(from, to) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const LEVELS = ["easy", "normal", "hard"];

function levelSelect(id, label) {
  return h("select", { id, name: "level", "aria-label": label },
    LEVELS.map((l) => h("option", { value: l, selected: l === "normal" }, humanize(l))));
}

function buildForm(form, game) {
  const schema = game.options || {};
  const fields = Object.entries(schema.properties || {}).map(([key, s]) => optionField(game.id, key, s, schema));
  const players = h("select", { id: `players-${game.id}`, name: "players" },
    range(game.min_players, game.max_players).map((n) => h("option", { value: n }, String(n))));
  const bots = h("select", { id: `bots-${game.id}`, name: "bots" });
  const levels = h("div", { class: "bot-levels" });
  const fillLevels = () => {  // one level per bot seat, kept when the count changes
    const n = parseInt(bots.value || "0", 10);
    const kept = [...levels.querySelectorAll("select")].map((s) => s.value);
    levels.replaceChildren(...range(1, n).map((i) => {
      const select = levelSelect(`level-${game.id}-${i}`, `Level of Bot ${i}`);
      if (kept[i - 1]) select.value = kept[i - 1];
      return h("label", { class: "field", for: select.id }, h("span", { class: "field-title" }, `Bot ${i}`), select);
    }));
  };
  const fillBots = () => {
    const n = parseInt(players.value, 10);
    const keep = Math.min(parseInt(bots.value || "0", 10), n - 1);
    bots.replaceChildren(...range(0, n - 1).map((b) => h("option", { value: b, selected: b === keep }, String(b))));
    fillLevels();
  };
  players.addEventListener("change", fillBots);
  bots.addEventListener("change", fillLevels);
  fillBots();
  const main = fields.filter((f) => f.main).map((f) => f.node);
  const more = fields.filter((f) => !f.main).map((f) => f.node);
  const pace = paceSelect(game, form, () => parseInt(bots.value || "0", 10) > 0);
  bots.addEventListener("change", pace.follow);
  form.replaceChildren(
    h("div", { class: "form-grid" },
      h("label", { class: "field", for: players.id }, h("span", { class: "field-title" }, "Players"), players),
      h("label", { class: "field", for: bots.id }, h("span", { class: "field-title" }, "Bots"), bots, h("small", { class: "hint" }, "Bots take the last seats.")),
      pace.node,
      main,
      h("label", { class: "field field-boolean", for: `rated-${game.id}` },
        h("input", { type: "checkbox", id: `rated-${game.id}`, class: "rated", checked: true }),
        h("span", { class: "field-title" }, "Rated"),
        h("small", { class: "hint" }, "Its end changes the ratings of the players signed in."))),
    levels,
    more.length ? h("details", { class: "more-options" }, h("summary", {}, "Timers and fine-tuning"), h("div", { class: "form-grid" }, more)) : null,
    h("div", { class: "row" }, h("button", { class: "btn primary", type: "submit" }, "Create and sit down")),
  );
  pace.follow();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = playerName();
    if (!name) return;
    await start(form.querySelector("button[type=submit]"), {
      game: game.id,
      players: parseInt(players.value, 10),
      bots: [...levels.querySelectorAll("select")].map((s) => s.value),
      options: readOptions(form),
      rated: form.querySelector("input.rated").checked,
    }, name);
  });
}

/** The pace of a create form: it sets every timer field; typing in one makes it "Custom".
 *  Until the player picks one, it follows the bots: relaxed with bots, normal without. */
function paceSelect(game, form, withBots) {
  const schema = game.options || {};
  const timers = Object.entries(schema.properties || {}).map(([key, raw]) => [key, resolve(raw, schema)]).filter(([key, s]) => isTimer(key, s));
  const select = h("select", { id: `pace-${game.id}`, name: "timer-pace" },  // not "pace": a game option (live or by turns) is called that
    Object.entries(PACES).map(([value, p]) => h("option", { value }, p.label)),
    h("option", { value: "custom" }, "Custom (the timers below)"));
  let chosen = false;
  const apply = () => {
    if (select.value === "custom") return;
    for (const [key, s] of timers) {
      const input = form.querySelector(`[data-option="${key}"]`);
      if (input) input.value = seconds(paced(s, select.value));
    }
  };
  select.addEventListener("change", () => {
    chosen = true;
    apply();
  });
  form.addEventListener("input", (event) => {
    if (event.target.dataset && event.target.dataset.timer !== undefined) {
      select.value = "custom";
      chosen = true;
    }
  });
  const follow = () => {
    if (chosen) return;
    select.value = withBots() ? "relaxed" : "normal";
    apply();
  };
  const node = timers.length
    ? h("label", { class: "field", for: select.id }, h("span", { class: "field-title" }, "Pace"), select,
      h("small", { class: "hint" }, "How long every timer runs (see \u201cTimers and fine-tuning\u201d)."))
    : null;
  return { node, follow };
}

async function start(button, spec, name) {
  button.disabled = true;
  try {
    const id = await createAndJoin(spec, name);
    location.assign(`/matches/${id}`);
  } catch (err) {
    toast(err.message);
    button.disabled = false;
  }
}

for (const card of document.querySelectorAll(".game-card")) {
  const game = games[card.dataset.game];
  const form = card.querySelector(".create-form");
  const setup = card.querySelector(".setup");
  setup.addEventListener("click", () => {
    if (!form.childElementCount) buildForm(form, game);
    form.hidden = !form.hidden;
    setup.setAttribute("aria-expanded", String(!form.hidden));
  });
  card.querySelector(".play-now").addEventListener("click", (event) => {
    const name = playerName();
    if (!name) return;
    const players = Math.min(game.max_players, Math.max(game.min_players, 3));
    const level = card.querySelector(".play-level").value;
    start(event.currentTarget, { game: game.id, players, bots: Array(players - 1).fill(level), options: lobbyOptions(game, "relaxed") }, name);
  });
  // Learn to play: you against easy bots at the smallest table, relaxed timers, hints on
  card.querySelector(".learn")?.addEventListener("click", (event) => {
    const name = playerName();
    if (!name) return;
    const players = Math.max(game.min_players, 2);
    start(event.currentTarget, { game: game.id, players, bots: Array(players - 1).fill("easy"), rated: false,
      options: { ...lobbyOptions(game, "relaxed"), teach: true } }, name);
  });
}

// ---- open and running matches ---------------------------------------------------------

function matchRow(m, running) {
  const game = games[m.game];
  const names = m.seats.map((s) => s.name + (s.bot ? ` (${s.level || "normal"} bot)` : "") + rated(s)).join(", ") || "nobody yet";
  const mine = memory.seat(m.id) || (account && m.seats.some((s) => s.account && s.name === account.name));
  let action;
  if (mine) action = h("a", { class: "btn primary", href: `/matches/${m.id}` }, "Your seat");
  else if (running) action = h("a", { class: "btn", href: `/matches/${m.id}` }, "Watch");
  else {
    action = h("button", { class: "btn primary", type: "button", onclick: async (e) => {
      const name = playerName();
      if (!name) return;
      e.currentTarget.disabled = true;
      try {
        await joinMatch(m.id, name);
        location.assign(`/matches/${m.id}`);
      } catch (err) {
        toast(err.message);
        e.currentTarget.disabled = false;
      }
    } }, "Join");
  }
  return h("li", { class: "match-row", dataset: { match: m.id } },
    h("div", {},
      h("strong", {}, game ? game.name : m.game),
      h("span", { class: "muted" }, running ? ` · ${m.players} players` : ` · ${m.open_seats} of ${m.players} seats free`),
      byTurns(m),
      h("div", { class: "small muted" }, names)),
    action);
}

/** "by turns, 24 h a move" for a match played by turns (the lobby lists them among the open
 *  tables: friends join whenever they come by). */
function byTurns(m) {
  const o = m.options || {};
  return o.pace === "turns" ? h("span", { class: "badge by-turns" }, ` by turns, ${o.move_hours} h a move`) : null;
}

/** A seat's rating in its game (an account's, or a bot level's), as shown beside its name. */
function rated(seat) {
  return seat.rating === null || seat.rating === undefined ? "" : ` ★${seat.rating}`;
}

function listMatches(id, matches, running, empty) {
  const list = document.getElementById(id);
  list.replaceChildren(...(matches.length ? matches.map((m) => matchRow(m, running)) : [h("li", { class: "muted" }, empty)]));
}

/** A finished match: who played (each name links to what was played under it), who won,
 *  and its replay. */
function finishedRow(m) {
  const game = games[m.game];
  const winners = new Set((m.result && m.result.winners) || []);
  const who = m.seats.map((s) => [
    s.bot ? `${s.name} (bot)` : h("a", { href: `/players/${encodeURIComponent(s.name)}` }, s.name),
    rated(s),
    winners.has(s.seat) ? " (won)" : "",
  ]);
  return h("li", { class: "match-row", dataset: { match: m.id } },
    h("div", {},
      h("strong", {}, game ? game.name : m.game),
      h("div", { class: "small muted" }, who.flatMap((parts, i) => (i ? [", ", ...parts] : parts)))),
    h("a", { class: "btn", href: `/matches/${m.id}/replay` }, "Replay"));
}

async function refresh() {
  try {
    const [open, running, finished] = await Promise.all([
      api("/api/matches?status=open&limit=20"),
      api("/api/matches?status=running&limit=20"),
      api(`/api/matches?status=finished&limit=${FINISHED_SHOWN}`),
    ]);
    const items = (data) => (Array.isArray(data) ? data : data.matches || data.items || []);
    listMatches("open-matches", items(open).filter((m) => m.status === "open"), false, "No open table. Set one up above!");
    listMatches("running-matches", items(running).filter((m) => m.status === "running"), true, "Nobody is playing right now.");
    const done = items(finished).filter((m) => m.status === "finished");
    document.getElementById("finished-matches").replaceChildren(
      ...(done.length ? done.map(finishedRow) : [h("li", { class: "muted" }, "No match has finished yet.")]));
  } catch (err) {
    listMatches("open-matches", [], false, err.message);
  }
}

let account = null; // signed in: the seats of the account are yours on this device too
signedIn.then((a) => {
  account = a;
  if (a) refresh();
});
refresh();
setInterval(() => {
  if (!document.hidden) refresh();
}, REFRESH_MS);
