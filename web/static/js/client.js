// Potluck's shared browser client: DOM helpers, the REST wrapper, what the browser
// remembers (your name, your seat token per match), the live match connection (WebSocket
// with reconnection and backoff, the view and the legal actions kept up to date by patches
// and resynced by seq, actions sent with ids and answered by ack/error), and the match page
// around a game's renderer: prompt, countdown, players, game log, table chat, errors and the
// result screen. The page draws the table once per change: a change your own action made
// is drawn when its ack has come too, so the renderer's own after-the-ack redraw
// (ctx.redraw()) is part of the same drawing.
//
import { inviteBox } from "./invite.js";
import { showRefusal, watchControls } from "./refusals.js";
import { clauseOf, quoted, renderTeach } from "./teach.js";
import { greeting, lastSeen, presenceTag, rememberSeen, standinOf, standinSeats, standinTag } from "./standins.js";

// A game's renderer is web/static/js/games/<game-id>.js; see docs/CONTRIBUTING-games.md,
// "The browser renderer", for its interface. Games without one use games/generic.js.

// ---- DOM helpers ---------------------------------------------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "btn", onclick: f}, "Label"). Text is never parsed as HTML. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

const SEAT_COLORS = ["#d9412b", "#2b7bd9", "#e0a100", "#3a9a4a", "#8e44ad", "#e07a1f", "#1f9ea0", "#c2337a"];

/** The colour of a seat, the same everywhere on the page. */
export function seatColor(seat) {
  return seat === null || seat === undefined ? "#777" : SEAT_COLORS[seat % SEAT_COLORS.length];
}

/** A short message at the bottom of the screen; kind: "error" | "info" | "good". */
export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.append(item);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => item.remove(), kind === "error" ? 5000 : 3500);
}

// ---- keyboard focus through redraws -----------------------------------------------------

function focusKeys(el) {
  const data = [...el.attributes].filter((a) => a.name.startsWith("data-") || a.name === "aria-label")
    .map((a) => `${a.name}=${a.value}`).sort().join("&");
  const loose = `${el.tagName}|${data}`;
  return [`${loose}|${el.textContent.trim()}`, loose];
}

/** Renderers redraw their table from scratch; a keyboard player must keep their place.
 *  When the focused control inside ``board`` is replaced, focus the new control that
 *  looks the same (same tag, data- attributes and text; else the same tag and data-). */
export function keepFocus(board) {
  let keys = null;
  board.addEventListener("focusin", (event) => { keys = focusKeys(event.target); });
  board.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !board.contains(event.relatedTarget)) keys = null; // tabbed away
  });
  new MutationObserver(() => {
    const active = document.activeElement;
    if (!keys || (active && active !== document.body)) return;
    const controls = [...board.querySelectorAll("button, a[href], input, select, textarea, [tabindex]")]
      .filter((el) => !el.disabled);
    for (const [i, key] of keys.entries()) {
      const again = controls.find((el) => focusKeys(el)[i] === key);
      if (again) {
        again.focus({ preventScroll: true });
        return;
      }
    }
  }).observe(board, { childList: true, subtree: true });
}

// ---- what the browser remembers ------------------------------------------------------

const NAME_KEY = "potluck:name";
const seatKey = (matchId) => `potluck:seat:${matchId}`;

function readJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

export const memory = {
  name() {
    return (localStorage.getItem(NAME_KEY) || "").trim();
  },
  setName(name) {
    localStorage.setItem(NAME_KEY, name.trim());
  },
  /** {token, seat, name} for a match this browser sits at, or null. */
  seat(matchId) {
    return readJSON(seatKey(matchId));
  },
  setSeat(matchId, seat) {
    localStorage.setItem(seatKey(matchId), JSON.stringify(seat));
  },
  forgetSeat(matchId) {
    localStorage.removeItem(seatKey(matchId));
  },
};

// ---- REST ------------------------------------------------------------------------------

export class ApiError extends Error {
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function errorMessage(body, status) {
  const detail = body && (body.message || body.detail || body.error);
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) return detail.map((d) => d.msg || String(d)).join("; ");
  if (detail && typeof detail === "object" && detail.message) return detail.message;
  return `The server said ${status}.`;
}

/** Call the REST API; resolves with the JSON body, rejects with an ApiError whose message
 *  a player can read. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("Cannot reach the server.", 0, "offline");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const code = (data && (data.code || (data.detail && data.detail.code))) || String(response.status);
    throw new ApiError(errorMessage(data, response.status), response.status, code);
  }
  return data;
}

/** The seat the signed-in account took at this match ({seat, name, token: null}), or null:
 *  without a token, the server opens the account's seat (REST and the WebSocket alike). */
async function accountSeat(matchId) {
  try {
    const seen = await api(`/api/matches/${encodeURIComponent(matchId)}/view`);
    const mine = seen.seat === null || seen.seat === undefined ? null : seen.seat;
    return mine === null ? null : { seat: mine, name: null, token: null };
  } catch {
    return null;
  }
}

/** Take a seat: POST /join, remember the token for this match. In a rematch, the token of
 *  our seat in the match played again (`previousToken`) proves who we are. */
export async function joinMatch(matchId, name, previousToken) {
  const joined = await api(`/api/matches/${encodeURIComponent(matchId)}/join`, { method: "POST", body: { name }, token: previousToken });
  memory.setName(name);
  memory.setSeat(matchId, { token: joined.token, seat: joined.seat, name });
  return joined;
}

/** Create a match and sit down in its first seat; resolves with the new id. ``bots``: how
 *  many, or the level of each. */
export async function createAndJoin({ game, players, options, bots, rated = true }, name) {
  const created = await api("/api/matches", { method: "POST", body: { game, players, options, bots, rated } });
  if (players > (Array.isArray(bots) ? bots.length : bots)) await joinMatch(created.id, name);
  return created.id;
}

// ---- the live connection ----------------------------------------------------------------

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

function pointer(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`bad JSON Pointer ${path}`);
  return path.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** A JSON Patch (RFC 6902: add, remove, replace — what the server sends) applied to `doc`,
 *  as a new document: what the patch touches is copied on the way down, everything else
 *  is shared, so whoever holds `doc` (a renderer comparing with the last view) keeps it
 *  unchanged. Throws when the patch does not fit the document. */
export function applyPatch(doc, ops) {
  const box = [doc];
  const mine = new Set([box]); // containers this call made: safe to change
  for (const op of ops) {
    const tokens = pointer(op.path);
    let parent = box;
    let key = 0;
    for (const token of tokens) {
      let child = parent[key];
      if (child === null || typeof child !== "object") throw new Error(`no container at ${op.path}`);
      if (!mine.has(child)) {
        child = Array.isArray(child) ? child.slice() : { ...child };
        mine.add(child);
        parent[key] = child;
      }
      parent = child;
      if (Array.isArray(parent)) {
        key = token === "-" ? parent.length : /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : NaN;
        if (Number.isNaN(key)) throw new Error(`bad array index in ${op.path}`);
      } else {
        key = token;
      }
    }
    if (!tokens.length) {
      if (op.op !== "replace" && op.op !== "add") throw new Error("only a replace can change the whole document");
      box[0] = op.value;
    } else if (Array.isArray(parent)) {
      const size = parent.length;
      if (op.op === "add" && key <= size) parent.splice(key, 0, op.value);
      else if (op.op === "remove" && key < size) parent.splice(key, 1);
      else if (op.op === "replace" && key < size) parent[key] = op.value;
      else throw new Error(`cannot ${op.op} ${op.path}`);
    } else if (op.op === "add" || (op.op === "replace" && Object.hasOwn(parent, key))) {
      parent[key] = op.value;
    } else if (op.op === "remove" && Object.hasOwn(parent, key)) {
      delete parent[key];
    } else {
      throw new Error(`cannot ${op.op} ${op.path}`);
    }
  }
  return box[0];
}

const KINDS = { "+": "add", "-": "remove", "=": "replace" };
const RECALLED = 4; // distinct legal lists kept, by the seq each was last taken at (as the server keeps them)

/** Compact operations (`[sign, path, value?]`) as JSON Patch objects; objects pass as they are. */
function expand(ops) {
  return ops.map((op) => (Array.isArray(op) ? { op: KINDS[op[0]], path: op[1], value: op[2] } : op));
}

/** A match's WebSocket that stays connected: reconnects with backoff (plus jitter), keeps
 *  the seat's view and legal actions (a whole `state` on connect, then `patch`es applied to
 *  them: it opens the socket with updates=compact, so a patch carries only what changed —
 *  compact operations, the legal list as `legal_ops` or `legal_at` (a list it held a few
 *  changes ago), the deadline, status and result when they moved), asks for the whole state again (`resync`) when a patch does not start
 *  from the seq it holds, drops states older than the last one seen, and pairs each action
 *  with its ack or error. */
export class MatchSocket {
  constructor(matchId, token, handlers) {
    this.matchId = matchId;
    this.token = token;
    this.handlers = handlers; // {state(msg), match(summary), chat(line), status(name), answered()}
    this.seq = -1;
    this.view = null; // the view after `seq`, which patches apply to
    this.legal = []; // the legal actions after `seq`, which legal_ops apply to
    this.recent = []; // [seq, legal list] of the last RECALLED distinct lists, oldest first (legal_at names one)
    this.told = {}; // the status, result, deadline and clock last sent (a compact patch sends them when they change)
    this.resyncing = false; // a resync was asked and its state has not come yet
    this.resyncs = 0;
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.nextId = 1;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    window.addEventListener("pagehide", () => this.close());
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const token = this.token ? `&token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/matches/${encodeURIComponent(this.matchId)}?legal=delta&updates=compact${token}`;
  }

  connect() {
    if (this.closed) return;
    this.handlers.status(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.resyncing = false;
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.status("online");
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.failPending("The connection dropped before the server answered; try again.");
      if (this.closed) return;
      if (event.code === 4404 || event.code === 4401 || event.code === 4403) {
        this.handlers.status("refused", event.reason);
        return;
      }
      this.handlers.status("offline");
      const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), base + Math.random() * base * 0.5);
    };
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "state") {
      if (typeof msg.seq === "number" && msg.seq < this.seq) return; // an older state: ignore
      this.resyncing = false;
      this.take(msg);
    } else if (msg.type === "patch") {
      this.patch(msg);
    } else if (msg.type === "match") {
      this.handlers.match(msg.match);
    } else if (msg.type === "chat") {
      this.handlers.chat(msg);
      // A chat line is answered by its broadcast, not an ack.
      for (const [id, waiting] of this.pending) {
        if (waiting.chat === msg.text) this.settle(id, msg);
      }
    } else if (msg.type === "ack" || msg.type === "error") {
      if (!this.settle(msg.id, msg) && msg.type === "error") toast(msg.message || "The server refused a message.");
    }
  }

  /** Hold the state's view and legal actions (patches apply to them) and hand the page
   *  copies, so that nothing a renderer does to them can change the ones held. */
  take(msg, patched = false) {
    this.seq = msg.seq;
    this.view = msg.view ?? null;
    if (!patched) this.recent = [];
    if (!patched || msg.legal !== this.legal) this.recent = [...this.recent, [msg.seq, msg.legal ?? []]].slice(-RECALLED);
    this.legal = msg.legal ?? [];
    const receivedAt = msg.receivedAt ?? performance.now();
    this.told = { status: msg.status, result: msg.result, deadline: msg.deadline, now: msg.now, receivedAt };
    const shown = { ...msg, view: this.view === null ? msg.view : structuredClone(this.view), legal: structuredClone(this.legal) };
    shown.receivedAt = receivedAt;
    this.handlers.state(shown);
  }

  /** Apply a patch to the view and legal actions held, or ask for the whole state when it
   *  does not start from the seq held (a message was missed) or does not fit. */
  patch(msg) {
    if (msg.seq <= this.seq || this.resyncing) return; // old news, or the whole state is on its way
    let view = null;
    let legal = this.legal;
    if (this.view !== null && (msg.prev_seq ?? msg.seq - 1) === this.seq) {
      try {
        view = applyPatch(this.view, expand(msg.ops));
        if (msg.legal_at !== undefined) {
          const kept = this.recent.find(([seq]) => seq === msg.legal_at);
          if (!kept) throw new Error(`no legal list kept from seq ${msg.legal_at}`);
          legal = kept[1];
          this.recent = this.recent.filter((entry) => entry !== kept);
        } else if (msg.legal_ops) {
          legal = applyPatch(this.legal, expand(msg.legal_ops));
        } else if (msg.legal) {
          legal = msg.legal; // a server that sends the list whole
        }
      } catch (err) {
        view = null;
        console.warn("a patch did not fit the view; asking for the whole state", err);
      }
    }
    if (view === null) {
      this.resync();
      return;
    }
    const { ops, prev_seq, legal_ops, legal_at, ...rest } = msg;
    const clock = msg.deadline !== undefined ? {} : { deadline: this.told.deadline, now: this.told.now, receivedAt: this.told.receivedAt };
    this.take({ status: this.told.status, result: this.told.result, events: [], ...clock, ...rest, type: "state", view, legal }, true);
  }

  /** An action of ours waits for its ack or error. */
  awaitingAction() {
    for (const waiting of this.pending.values()) if (waiting.action) return true;
    return false;
  }

  resync() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return; // a reconnect brings the state
    this.resyncing = true;
    this.resyncs += 1;
    this.ws.send(JSON.stringify({ type: "resync" }));
  }

  /** Answer a pending request; returns whether one was waiting for this id. */
  settle(id, msg) {
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (msg.type === "error") waiting.reject(new ApiError(msg.message || "Refused.", 0, msg.code));
    else waiting.resolve(msg);
    if (waiting.action && this.handlers.answered) this.handlers.answered();
    return true;
  }

  request(payload) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ApiError("Not connected — reconnecting…", 0, "offline"));
        return;
      }
      const id = `c${this.nextId++}`;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError("The server did not answer in time.", 0, "timeout"));
        if (this.handlers.answered) this.handlers.answered();
      }, 10000);
      this.pending.set(id, { resolve, reject, timer, chat: payload.type === "chat" ? payload.text : undefined, action: payload.type === "action" });
      this.ws.send(JSON.stringify({ ...payload, id }));
    });
  }

  /** Send an action; resolves with the ack {seq}, rejects with an ApiError (.code, .message). */
  act(action) {
    return this.request({ type: "action", action });
  }

  chat(text) {
    return this.request({ type: "chat", text });
  }

  failPending(message) {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new ApiError(message, 0, "offline"));
      this.pending.delete(id);
    }
    if (this.handlers.answered) this.handlers.answered();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000, "bye");
  }
}

// ---- the match page ---------------------------------------------------------------------

const LOG_LIMIT = 300;
const CHAT_LIMIT = 200;
const HOLD_FOR_ACK_MS = 100; // a change is drawn without waiting longer for our action's ack
const $ = (id) => document.getElementById(id);

function isTyping(event) {
  const t = event.target;
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

function formatSeconds(ms) {
  const s = Math.ceil(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s}s`;
}

/** Keep ``node`` (the prompt and its countdown) in view just below the sticky ``bar``,
 *  however tall the bar grows (it wraps on a phone). */
function stickBelow(node, bar) {
  if (!node || !bar) return;
  const place = () => node.style.setProperty("--stick-top", `${bar.getBoundingClientRect().height}px`);
  new ResizeObserver(place).observe(bar);
  place();
}

/** Drives /matches/{id}: everything around the game's renderer. */
class MatchPage {
  constructor(root) {
    this.root = root;
    this.matchId = root.dataset.match;
    this.renderers = (root.dataset.renderers || "").split(",").filter(Boolean);
    this.games = JSON.parse($("games-data").textContent);
    this.seat = memory.seat(this.matchId);
    this.summary = null;
    this.state = null;
    this.renderer = null;
    this.loggedSeq = -1;
    this.chatSeen = new Set();
    this.keyHandlers = [];
    this.countdownTimer = null;
    this.resultShown = false;
    this.dirty = false; // a change (or a renderer's redraw()) not drawn yet
    this.fresh = []; // the events new since the table was last drawn
    this.drawTimer = null;
    this.holding = null; // since when a change waits for our action's ack
    this.draws = 0;
    this.ctx = this.makeContext();
  }

  get you() {
    return this.state ? this.state.view.you ?? null : this.seat ? this.seat.seat : null;
  }

  makeContext() {
    const page = this;
    return {
      matchId: this.matchId,
      h,
      svg,
      seatColor,
      toast,
      get you() {
        return page.you;
      },
      get spectator() {
        return page.you === null || page.you === undefined;
      },
      get legal() {
        return page.state ? page.state.legal : [];
      },
      send: (action, options = {}) => this.send(action, options),
      /** Draw the table again (after a renderer changed its own state, e.g. on an ack): the
       *  drawing is shared with a change that arrives meanwhile. */
      redraw: () => this.requestDraw(),
      onKey: (handler) => this.keyHandlers.push(handler),
      remaining: () => this.remaining(),
      playerName: (seat) => this.playerName(seat),
    };
  }

  async start() {
    document.addEventListener("keydown", (event) => {
      if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey) return;
      for (const handler of this.keyHandlers) {
        if (handler(event)) {
          event.preventDefault();
          return;
        }
      }
    });
    keepFocus($("board"));
    watchControls($("board"));
    stickBelow($("prompt"), document.querySelector(".topbar"));
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.sendChat();
    });
    try {
      this.summary = await api(`/api/matches/${encodeURIComponent(this.matchId)}`);
    } catch (err) {
      this.fatal(err.status === 404 ? "There is no such match. It may have been a mistyped link." : err.message);
      return;
    }
    if (!this.seat) this.seat = await accountSeat(this.matchId); // signed in: your seat on any device
    this.loadRatings();
    // Back at a seat a stand-in bot played (the summary, asked without our token, still says so)
    const mine = this.seat && this.summary.seats.find((x) => x.seat === this.seat.seat);
    this.stoodIn = !!(mine && mine.standin);
    const game = this.games[this.summary.game] || { name: this.summary.game, rules: null };
    $("game-name").textContent = game.name;
    document.title = `${game.name} · Potluck`;
    if ((this.summary.options || {}).pace === "turns") this.startYourMove(game.name);
    if (game.rules) {
      $("rules-link").href = game.rules;
      $("rules-link").hidden = false;
    }
    const module = this.renderers.includes(this.summary.game) ? this.summary.game : "generic";
    this.renderer = await import(`./games/${module}.js`);
    this.root.dataset.game = this.summary.game;
    this.showSummary();
    // The socket brings every change of the summary (who is here, a rematch): no polling.
    this.connect();
  }

  connect() {
    if (this.socket) this.socket.close();
    this.socket = new MatchSocket(this.matchId, this.seat && this.seat.token, {
      state: (msg) => this.onState(msg),
      match: (summary) => {
        this.summary = summary;
        this.showSummary();
      },
      chat: (line) => this.addChat(line),
      status: (status, reason) => this.setConnection(status, reason),
      answered: () => { if (this.dirty) this.scheduleDraw(0); },
    });
    this.socket.connect();
  }

  fatal(message) {
    this.root.replaceChildren(
      h("section", { class: "card fatal" }, h("h2", {}, "Oops"), h("p", {}, message), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))),
    );
  }

  setConnection(status, reason) {
    const labels = { connecting: "connecting…", online: "live", reconnecting: "reconnecting…", offline: "offline — retrying", refused: "refused" };
    this.online = status === "online";
    $("conn").dataset.state = status;
    $("conn").textContent = labels[status] || status;
    if (status === "refused") {
      toast(reason || "The server refused this seat.");
      if (this.seat) {
        // A token the server does not know (an old database): watch instead.
        this.seat = null;
        memory.forgetSeat(this.matchId);
        this.connect();
      }
    }
  }

  // -- before the match starts: join, invite, waiting room --
  showSummary() {
    const s = this.summary;
    if (!s) return;
    this.root.dataset.status = s.status;
    if (s.rematch) this.offerRematch(s.rematch);
    const join = $("join");
    if (s.status !== "open") {
      join.hidden = true;
      join.replaceChildren();
      this.renderPlayers();
      if (s.status === "finished" && !this.state && s.result) this.showResult(s.result); // it never started
      return;
    }
    const seated = s.seats.filter((x) => !x.bot).length;
    const humans = s.players - s.bots;
    const parts = [
      h("h2", {}, this.seat ? "Waiting for players" : "Join this table"),
      h("p", { class: "muted" }, `${seated} of ${humans} human seats taken${s.bots ? `, plus ${s.bots} bot${s.bots > 1 ? "s" : ""}` : ""}. The game starts when every seat is taken.`),
      h("ul", { class: "seat-list" }, s.seats.map((x) => h("li", {}, h("span", { class: "dot", "data-seat": x.seat, style: `background:${seatColor(x.seat)}` }), x.name, x.bot ? h("span", { class: "tag" }, x.level ? `${x.level} bot` : "bot") : null))),
      inviteBox(this.matchId),
    ];
    if (!this.seat && s.open_seats > 0) {
      const typed = $("join-name");
      const input = h("input", { id: "join-name", maxlength: 32, required: true, value: typed ? typed.value : memory.name(), placeholder: "Your name", autocomplete: "nickname" });
      parts.splice(2, 0, h("form", { class: "row join-form", onsubmit: (e) => { e.preventDefault(); this.join(input.value); } },
        input, h("button", { class: "btn primary", type: "submit" }, "Take a seat")));
    }
    // The summary comes again whenever somebody connects: keep the name being typed in focus.
    const typing = document.activeElement && document.activeElement.id === "join-name" ? document.activeElement : null;
    join.replaceChildren(...parts);
    const input = typing && $("join-name");
    if (input) {
      input.focus();
      input.setSelectionRange(typing.selectionStart, typing.selectionEnd);
    }
    join.hidden = false;
    const missing = s.open_seats;
    $("prompt-text").textContent = this.seat
      ? `Waiting for ${missing} more player${missing === 1 ? "" : "s"} — share the invite link.`
      : "Take a seat, or stay and watch.";
    this.renderPlayers();
    this.updateChatForm();
  }

  async join(name) {
    name = name.trim();
    if (!name) {
      toast("Type a name first.");
      return;
    }
    try {
      const joined = await joinMatch(this.matchId, name);
      this.seat = memory.seat(this.matchId);
      if (joined.match) this.summary = joined.match;
      toast(`You sit at seat ${joined.seat + 1}.`, "good");
      this.connect();
    } catch (err) {
      toast(err.message);
    }
  }

  /** By turns: tell the player when it becomes their move (``your_move.js``). */
  async startYourMove(gameName) {
    const { YourMoveNotice } = await import("./your_move.js");
    this.yourMove = new YourMoveNotice(gameName, h);
    $("players").after(this.yourMove.controls());
    if (this.state) this.yourMove.update(this.isMyMove(this.state));
  }

  isMyMove(msg) {
    return msg.status === "running" && Array.isArray(msg.waiting) && this.you !== null && msg.waiting.includes(this.you);
  }

  // -- the game --
  onState(msg) {
    if (!msg.view) {
      // The match waits for players: nothing to draw yet.
      if (this.summary && msg.status) this.summary.status = msg.status;
      return;
    }
    const first = this.state === null;
    this.state = msg;
    if (this.yourMove) this.yourMove.update(this.isMyMove(msg));
    if (msg.status && this.summary && msg.status !== this.summary.status) {
      this.summary.status = msg.status;
      this.showSummary();
    }
    this.root.dataset.seq = msg.seq;
    this.root.dataset.resyncs = this.socket ? this.socket.resyncs : 0;
    this.root.dataset.you = this.you ?? "";
    this.root.classList.toggle("spectating", this.ctx.spectator);
    if (first && (this.stoodIn || msg.stood_in)) this.greet(msg.events || []);
    this.logEvents(msg.events || []);
    if (!this.ctx.spectator) rememberSeen(this.matchId, msg.seq);
    if (!first) this.fresh.push(...(msg.events || []).filter((e) => e.fresh));
    this.firstDraw = this.firstDraw ?? first;
    this.requestDraw();
  }

  /** Draw the table soon: once for every change and redraw asked meanwhile. */
  requestDraw() {
    this.dirty = true;
    this.scheduleDraw(0);
  }

  scheduleDraw(ms) {
    if (this.drawTimer !== null) {
      if (ms > 0) return;
      clearTimeout(this.drawTimer);
    }
    this.drawTimer = setTimeout(() => this.draw(), ms);
  }

  /** Draw the table for the state held; while an action of ours waits for its ack (which
   *  follows the change it made), wait for it, a little. */
  draw() {
    this.drawTimer = null;
    if (!this.dirty || !this.state) return;
    if (this.socket && this.socket.awaitingAction()) {
      this.holding = this.holding ?? performance.now();
      const left = HOLD_FOR_ACK_MS - (performance.now() - this.holding);
      if (left > 0) {
        this.scheduleDraw(left);
        return;
      }
    }
    const msg = this.state;
    const fresh = this.fresh;
    const first = !!this.firstDraw;
    this.dirty = false;
    this.holding = null;
    this.fresh = [];
    this.firstDraw = false;
    this.draws += 1;
    this.root.dataset.draws = this.draws;
    this.renderPlayers();
    this.renderPrompt();
    this.startCountdown();
    const board = $("board");
    const scrolled = window.scrollY; // a change of the table never scrolls the page
    try {
      this.renderer.render(board, { ...msg, fresh, first }, this.ctx);
    } catch (err) {
      console.warn("renderer failed", err);
      board.replaceChildren(h("p", { class: "muted" }, "This table cannot be drawn; the log and prompt still work."));
    }
    if (window.scrollY !== scrolled) window.scrollTo({ top: scrolled, behavior: "instant" });
    this.updateChatForm();
    if (msg.result || msg.status === "finished") this.showResult(msg.result);
  }

  playerName(seat) {
    const players = this.state ? this.state.view.players || [] : [];
    if (players[seat]) return players[seat].name;
    const s = this.summary && this.summary.seats.find((x) => x.seat === seat);
    return s ? s.name : `Seat ${seat + 1}`;
  }

  /** Each rated seat's rating in this game (accounts, and bots at their level's). */
  async loadRatings() {
    try {
      const list = await api(`/api/matches/${encodeURIComponent(this.matchId)}/ratings`);
      this.ratings = Object.fromEntries(list.map((r) => [r.seat, r.rating]));
      this.renderPlayers();
    } catch {
      // ratings are a nicety: the table works without them
    }
  }

  renderPlayers() {
    const list = $("players");
    const viewPlayers = this.state ? this.state.view.players || [] : [];
    const seats = this.summary ? this.summary.seats : [];
    const count = Math.max(viewPlayers.length, this.summary ? this.summary.players : 0);
    const items = [];
    for (let i = 0; i < count; i++) {
      const p = viewPlayers[i] || {};
      const seat = seats.find((x) => x.seat === i);
      const name = p.name || (seat && seat.name) || "(empty seat)";
      const connected = (seat && (seat.bot || seat.connected)) || (i === this.you && this.online);
      const presence = connected ? "on" : seat ? "off" : "empty";
      items.push(
        h("li", { class: `player${i === this.you ? " you" : ""}`, dataset: { seat: i } },
          h("span", { class: `presence ${presence}`, title: { on: "connected", off: "away", empty: "empty seat" }[presence] }),
          h("span", { class: "chip", "data-seat": i, style: `background:${seatColor(i)}` }),
          h("span", { class: "pname" }, name),
          i === this.you ? h("span", { class: "tag you-tag" }, "you") : null,
          this.ratings && this.ratings[i] !== undefined ? h("span", { class: "tag rating", title: "rating (μ − 3σ)" }, `★ ${this.ratings[i]}`) : null,
          seat && seat.bot ? h("span", { class: "tag" }, seat.level ? `${seat.level} bot` : "bot") : null,
          i === this.you ? null : presenceTag(seat),
          p.score !== undefined && p.score !== null ? h("span", { class: "score", title: "score" }, String(p.score)) : null,
        ),
      );
    }
    list.replaceChildren(...items);
  }

  renderPrompt() {
    const { view, legal } = this.state;
    const prompt = $("prompt");
    $("prompt-text").textContent = view.prompt || "";
    prompt.classList.toggle("your-turn", !!(legal && legal.length));
    renderTeach($("teach"), this.state, { matchId: this.matchId, token: this.seat && this.seat.token,
      send: (action) => this.send(action) });
  }

  remaining() {
    const msg = this.state;
    if (!msg || msg.deadline === null || msg.deadline === undefined || msg.now === undefined) return null;
    return msg.deadline - msg.now - (performance.now() - msg.receivedAt);
  }

  startCountdown() {
    clearInterval(this.countdownTimer);
    const box = $("countdown");
    const left = this.remaining();
    if (left === null || left < 1000 || this.state.status === "finished") {
      box.hidden = true;
      return;
    }
    const total = left;
    const tick = () => {
      const ms = Math.max(0, this.remaining() ?? 0);
      box.textContent = formatSeconds(ms);
      box.style.setProperty("--left", String(ms / total));
      box.classList.toggle("urgent", ms < 5000);
      if (ms <= 0) clearInterval(this.countdownTimer);
    };
    box.hidden = false;
    tick();
    this.countdownTimer = setInterval(tick, 250);
  }

  async send(action, { quiet = false } = {}) {
    try {
      return await this.socket.act(action);
    } catch (err) {
      const clause = clauseOf(action, this.matchId); // teach mode: the rule that refused it
      if (!quiet) showRefusal(err.message, clause && h("span", { class: "refusal-rule" }, "The rule: ", quoted(clause)));
      throw err;
    }
  }

  /** Back at a seat a stand-in played: say what it played (a dialog over the table). */
  greet(events) {
    const overlay = h("div", { class: "result-overlay greeting-overlay", id: "greeting" });
    const nameOf = (seat) => this.playerName(seat);
    overlay.append(greeting(this.matchId, this.you, events, nameOf, () => overlay.remove()));
    this.root.append(overlay);
    overlay.querySelector("button").focus({ preventScroll: true }); // Enter closes it
    this.greeted = { you: this.you, since: lastSeen(this.matchId) };
  }

  // -- the log --
  logEvents(events) {
    const log = $("log");
    const standins = standinSeats(this.summary);
    const away = this.greeted; // back from away: the moves made for us since we last looked
    const nameOf = (seat) => this.playerName(seat);
    let added = false;
    for (const event of events) {
      const seq = event.seq ?? this.state.seq;
      event.fresh = seq > this.loggedSeq;
      if (!event.fresh) continue;
      added = true;
      const by = standinOf(event, away && seq > away.since ? new Set([...standins, away.you]) : standins, nameOf);
      log.append(
        h("li", { class: `log-entry${event.private ? " private" : ""}${by === null ? "" : " by-standin"}`, dataset: { type: event.type, seq } },
          event.private ? h("span", { class: "tag private-tag", title: "Only you see this" }, "only you") : null,
          by === null ? null : standinTag(by, nameOf),
          event.text),
      );
    }
    this.greeted = null;
    const last = events.reduce((m, e) => Math.max(m, e.seq ?? this.state.seq), this.loggedSeq);
    this.loggedSeq = Math.max(this.loggedSeq, last, this.state.seq);
    while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
    if (added) log.scrollTop = log.scrollHeight;
  }

  // -- table talk --
  updateChatForm() {
    const seated = !this.ctx.spectator;
    $("chat-form").hidden = !seated;
    $("chat-readonly").hidden = seated;
  }

  async sendChat() {
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    try {
      await this.socket.chat(text);
      input.value = "";
    } catch (err) {
      toast(err.message);
    }
  }

  addChat(line) {
    const key = `${line.at}|${line.seat}|${line.text}`;
    if (this.chatSeen.has(key)) return;
    this.chatSeen.add(key);
    const chat = $("chat");
    chat.append(h("li", {},
      h("span", { class: "chat-name", style: `color:${seatColor(line.seat)}` }, line.name), " ",
      h("span", { class: "chat-text" }, line.text)));
    while (chat.children.length > CHAT_LIMIT) chat.firstElementChild.remove();
    chat.scrollTop = chat.scrollHeight;
  }

  // -- the end --
  showResult(result) {
    if (this.resultShown) return;
    this.resultShown = true;
    this.loadRatings(); // the ratings this match has just changed
    const overlay = $("result");
    const players = (this.state && this.state.view.players) || [];
    const scores = result ? result.scores : players.map((p) => p.score ?? 0);
    const winners = new Set(result ? result.winners : []);
    const order = scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
    const names = [...winners].map((w) => this.playerName(w));
    const title = names.length ? `${names.join(" and ")} win${names.length === 1 ? "s" : ""}!` : "Game over";
    overlay.replaceChildren(
      h("div", { class: "result card", role: "dialog", "aria-labelledby": "result-title" },
        h("h2", { id: "result-title" }, title),
        result && result.reason ? h("p", { class: "muted" }, result.reason) : null,
        h("ol", { class: "result-scores" },
          order.map(({ seat, score }) => h("li", { class: winners.has(seat) ? "winner" : "" },
            h("span", { class: "chip", "data-seat": seat, style: `background:${seatColor(seat)}` }), h("span", { class: "pname" }, this.playerName(seat)), h("span", { class: "score" }, String(score))))),
        h("div", { id: "rematch-offer" }),
        h("div", { class: "row result-actions" },
          this.ctx.spectator ? null : h("button", { class: "btn primary", id: "play-again", type: "button", onclick: () => this.playAgain() }, "Play again"),
          h("a", { class: "btn", href: "/" }, "Lobby"),
          h("a", { class: "btn replay-link", href: `/matches/${encodeURIComponent(this.matchId)}/replay` }, "Watch the replay"),
          h("button", { class: "btn", type: "button", onclick: () => { overlay.hidden = true; } }, "See the table"),
        ),
      ),
    );
    overlay.hidden = false;
    if (this.rematch) this.offerRematch(this.rematch);
  }

  /** "Play again": the server sets the rematch up (or names the one somebody set up
   *  already), then we sit down there. */
  async playAgain() {
    const button = $("play-again");
    if (button) button.disabled = true;
    try {
      const id = this.rematch || (await api(`/api/matches/${encodeURIComponent(this.matchId)}/rematch`,
        { method: "POST", token: this.seat && this.seat.token })).id;
      await this.joinRematch(id);
    } catch (err) {
      if (button) button.disabled = false;
      toast(err.message);
    }
  }

  /** Sit down at the rematch under the name of our seat here, with its token (the server
   *  gives the same seat back to the same token), unless this browser sits there already; then go. */
  async joinRematch(id) {
    if (!memory.seat(id)) {
      const old = this.summary && this.summary.seats.find((x) => x.seat === this.you);
      await joinMatch(id, (old && old.name) || (this.seat && this.seat.name) || memory.name(), this.seat && this.seat.token);
    }
    location.assign(`/matches/${id}`);
  }

  offerRematch(id) {
    const fresh = this.rematch !== id;
    this.rematch = id;
    const box = $("rematch-offer");
    if (!box) return;
    const go = this.ctx.spectator
      ? h("a", { class: "btn primary", href: `/matches/${id}` }, "Watch it")
      : h("button", { class: "btn primary join-rematch", type: "button", onclick: (e) => {
          e.target.disabled = true;
          this.joinRematch(id).catch((err) => {
            e.target.disabled = false;
            toast(err.message);
          });
        } }, memory.seat(id) ? "Back to the rematch" : "Join the rematch");
    box.replaceChildren(h("p", { class: "rematch" }, "A rematch is set up. ", go));
    const again = $("play-again");
    if (again) again.hidden = true; // the offer's button does the same
    if (fresh && this.resultShown && $("result").hidden) toast("A rematch is set up: see the result screen.", "info");
  }
}

/** Start the match page on its root element (#match). */
export function startMatchPage(root) {
  const page = new MatchPage(root);
  page.start();
  return page;
}
