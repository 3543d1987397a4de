// The replay page, /matches/{id}/replay?step=N&seat=S: a finished match move by move,
// drawn by the game's own renderer (the one the live table uses) from the view of any
// seat or of the spectators, with the game log and the table talk up to that move.
//
// The page loads the outline once per seat (GET /api/matches/{id}/replay?seat=S: steps,
// their times, every event that seat saw, the chat) and each move's table on demand
// (GET /api/matches/{id}/replay/{step}?seat=S), keeping recent ones. The address always
// names the move and the seat shown, so it can be shared as it is.
import { api, h, svg, seatColor, toast } from "./client.js";

const $ = (id) => document.getElementById(id);
const KEPT_STEPS = 400;

function isTyping(event) {
  const t = event.target;
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class ReplayPage {
  constructor(root) {
    this.root = root;
    this.matchId = root.dataset.match;
    this.renderers = (root.dataset.renderers || "").split(",").filter(Boolean);
    this.games = JSON.parse($("games-data").textContent);
    const query = new URLSearchParams(location.search);
    this.step = Math.max(0, Number.parseInt(query.get("step") || "0", 10) || 0);
    const seat = Number.parseInt(query.get("seat") ?? "", 10);
    this.seat = Number.isInteger(seat) && seat >= 0 ? seat : null;
    this.outline = null;
    this.shown = null; // the step message on the board
    this.kept = new Map(); // "seat:step" -> step message
    this.wanted = null;
    this.loading = false;
    this.playing = false;
    this.ctx = this.makeContext();
  }

  get base() {
    return `/api/matches/${encodeURIComponent(this.matchId)}/replay`;
  }

  seatQuery(seat = this.seat) {
    return seat === null ? "" : `?seat=${seat}`;
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
        return page.seat;
      },
      get spectator() {
        return page.seat === null;
      },
      legal: [],
      send: () => Promise.reject(new Error("This is a replay: nothing can be played here.")),
      redraw: () => { if (this.drawn) this.renderer.render($("board"), { ...this.drawn, fresh: [], first: false }, this.ctx); },
      onKey: () => {}, // the table is only looked at: the keys step through the replay
      remaining: () => {
        const s = page.shown;
        return s && s.deadline !== null && s.deadline !== undefined ? Math.max(0, s.deadline - s.at) : null;
      },
      playerName: (seat) => page.playerName(seat),
    };
  }

  // -- starting --
  async start() {
    try {
      this.outline = await api(this.base + this.seatQuery());
    } catch (err) {
      this.refuse(err);
      return;
    }
    const game = this.games[this.outline.game] || { name: this.outline.game, rules: null };
    $("game-name").textContent = game.name;
    document.title = `${game.name} replay · Potluck`;
    if (game.rules) {
      $("rules-link").href = game.rules;
      $("rules-link").hidden = false;
    }
    const module = this.renderers.includes(this.outline.game) ? this.outline.game : "generic";
    this.renderer = await import(`./games/${module}.js`);
    this.root.dataset.game = this.outline.game;
    this.root.dataset.steps = this.outline.steps;
    this.step = Math.min(this.step, this.outline.steps);
    this.bindControls();
    this.fillSeats();
    this.buildLog();
    this.buildChat();
    await this.go(this.step);
  }

  refuse(err) {
    const box = $("refused");
    const live = `/matches/${encodeURIComponent(this.matchId)}`;
    const running = err.code === "not_finished";
    box.replaceChildren(
      h("h2", {}, running ? "This match is still being played" : "No replay here"),
      h("p", {}, err.status === 404 ? "There is no such match. It may have been a mistyped link." : err.message),
      h("p", { class: "row" },
        running ? h("a", { class: "btn primary", href: live }, "Watch it live") : null,
        h("a", { class: "btn", href: "/" }, "Back to the lobby")),
    );
    box.hidden = false;
    this.root.dataset.refused = err.code || String(err.status);
    for (const part of this.root.querySelectorAll(".table-area, .side")) part.hidden = true;
  }

  bindControls() {
    const steps = this.outline.steps;
    const slider = $("replay-slider");
    slider.max = String(steps);
    slider.addEventListener("input", () => this.jump(Number(slider.value)));
    const moves = {
      first: () => 0,
      back: () => this.step - 1,
      forward: () => this.step + 1,
      last: () => steps,
    };
    for (const button of this.root.querySelectorAll("[data-replay-step]")) {
      button.addEventListener("click", () => this.jump(moves[button.dataset.replayStep](), button.dataset.replayStep === "forward"));
    }
    $("replay-play").addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    $("replay-seat").addEventListener("change", (event) => this.watchFrom(event.target.value === "" ? null : Number(event.target.value)));
    $("replay-share").addEventListener("click", () => this.share());
    document.addEventListener("keydown", (event) => {
      if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey) return;
      const key = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
      if (key) {
        event.preventDefault();
        this.jump(moves[key](), key === "forward");
      } else if (event.key === "p" || event.key === "P") {
        event.preventDefault();
        $("replay-play").click();
      }
    });
  }

  fillSeats() {
    const select = $("replay-seat");
    for (const s of this.outline.seats) {
      select.append(h("option", { value: String(s.seat) }, `${s.name}${s.bot ? " (bot)" : ""} — seat ${s.seat + 1}`));
    }
    select.value = this.seat === null ? "" : String(this.seat);
  }

  // -- moving --
  /** A move asked for by a person: stop playing, go there. */
  jump(step, fresh = false) {
    this.pause();
    return this.go(step, fresh);
  }

  /** Show ``step`` (clamped); requests made meanwhile are folded into the last one. */
  async go(step, fresh = false) {
    this.wanted = { step: Math.max(0, Math.min(this.outline.steps, step)), seat: this.seat, fresh };
    if (this.loading) return;
    this.loading = true;
    try {
      while (this.wanted) {
        const { step: n, seat, fresh: animate } = this.wanted;
        this.wanted = null;
        let msg;
        try {
          msg = await this.fetchStep(n, seat);
        } catch (err) {
          toast(err.message);
          continue;
        }
        if (!this.wanted && seat === this.seat) this.show(msg, animate && this.shown && n === this.shown.step + 1);
      }
    } finally {
      this.loading = false;
    }
  }

  async fetchStep(step, seat) {
    const key = `${seat}:${step}`;
    let msg = this.kept.get(key);
    if (!msg) {
      msg = await api(`${this.base}/${step}${this.seatQuery(seat)}`);
      this.kept.set(key, msg);
      if (this.kept.size > KEPT_STEPS) this.kept.delete(this.kept.keys().next().value);
    }
    return msg;
  }

  async play() {
    if (this.playing) return;
    this.playing = true;
    $("replay-play").textContent = "Pause";
    $("replay-play").setAttribute("aria-pressed", "true");
    if (this.step >= this.outline.steps) await this.go(0);
    while (this.playing && this.step < this.outline.steps) {
      this.fetchStep(this.step + 1, this.seat).catch(() => {}); // fetched while we wait
      await sleep(1000 / Number($("replay-speed").value || 1));
      if (!this.playing) break;
      await this.go(this.step + 1, true);
    }
    this.pause();
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    $("replay-play").textContent = "Play";
    $("replay-play").setAttribute("aria-pressed", "false");
  }

  async watchFrom(seat) {
    if (seat === this.seat) return;
    try {
      this.outline = await api(this.base + this.seatQuery(seat));
    } catch (err) {
      toast(err.message);
      $("replay-seat").value = this.seat === null ? "" : String(this.seat);
      return;
    }
    this.seat = seat;
    this.shown = null;
    this.buildLog();
    await this.go(this.step);
  }

  async share() {
    try {
      await navigator.clipboard.writeText(location.href);
      toast("Link to this move copied.", "good");
    } catch {
      toast(`Share this address: ${location.href}`, "info");
    }
  }

  // -- drawing --
  show(msg, fresh) {
    const first = this.shown === null;
    this.shown = msg;
    this.step = msg.step;
    const steps = this.outline.steps;
    this.root.dataset.step = msg.step;
    this.root.dataset.seat = this.seat === null ? "" : String(this.seat);
    $("replay-slider").value = String(msg.step);
    $("replay-slider").setAttribute("aria-valuetext", `Move ${msg.step} of ${steps}`);
    $("replay-where").textContent = msg.step === 0 ? `The start (${steps} moves)` : `Move ${msg.step} of ${steps}`;
    for (const button of this.root.querySelectorAll("[data-replay-step]")) {
      const atStart = ["first", "back"].includes(button.dataset.replayStep);
      button.disabled = atStart ? msg.step === 0 : msg.step === steps;
    }
    const query = new URLSearchParams({ step: String(msg.step) });
    if (this.seat !== null) query.set("seat", String(this.seat));
    history.replaceState(null, "", `${location.pathname}?${query}`);
    $("prompt-text").textContent = msg.view.prompt || "";
    const state = {
      seq: msg.step, status: msg.step === steps ? "finished" : "running", view: msg.view, legal: [],
      events: msg.events, fresh: fresh ? msg.events : [], first, deadline: msg.deadline, now: msg.at, result: msg.result,
    };
    const board = $("board");
    this.drawn = state;
    try {
      this.renderer.render(board, state, this.ctx);
    } catch (err) {
      console.warn("renderer failed", err);
      board.replaceChildren(h("p", { class: "muted" }, "This table cannot be drawn; the log still works."));
    }
    this.renderPlayers();
    this.showLogTo(msg.step);
    this.showChatTo(this.outline.times[msg.step]);
    this.showResult(msg.result);
  }

  playerName(seat) {
    const players = (this.shown && this.shown.view.players) || [];
    if (players[seat] && players[seat].name) return players[seat].name;
    const s = this.outline.seats.find((x) => x.seat === seat);
    return s ? s.name : `Seat ${seat + 1}`;
  }

  renderPlayers() {
    const players = this.shown.view.players || [];
    $("players").replaceChildren(...this.outline.seats.map((s) => {
      const p = players[s.seat] || {};
      const watched = s.seat === this.seat;
      return h("li", { class: `player${watched ? " you" : ""}`, dataset: { seat: s.seat } },
        h("span", { class: "chip", dataset: { seat: s.seat }, style: `background:${seatColor(s.seat)}` }),
        h("a", { class: "pname", href: `/players/${encodeURIComponent(s.name)}` }, s.name),
        watched ? h("span", { class: "tag you-tag" }, "watching") : null,
        s.bot ? h("span", { class: "tag" }, "bot") : null,
        p.score !== undefined && p.score !== null ? h("span", { class: "score", title: "score" }, String(p.score)) : null);
    }));
  }

  buildLog() {
    $("log").replaceChildren(...this.outline.events.map((event) => h("li", {
      class: `log-entry${event.private ? " private" : ""}`, dataset: { type: event.type, seq: event.seq },
    },
    event.private ? h("span", { class: "tag private-tag", title: `Only ${this.playerName(this.seat)} saw this` }, "only this seat") : null,
    event.text)));
  }

  showLogTo(step) {
    const log = $("log");
    let last = null;
    for (const entry of log.children) {
      const seq = Number(entry.dataset.seq);
      entry.hidden = seq > step;
      entry.classList.toggle("current", seq === step && step > 0);
      if (seq <= step) last = entry;
    }
    if (last) log.scrollTop = last.offsetTop + last.offsetHeight - log.clientHeight;
  }

  buildChat() {
    $("chat").replaceChildren(...this.outline.chat.map((line) => h("li", { dataset: { at: line.at } },
      h("span", { class: "chat-name", dataset: { seat: line.seat } }, line.name), " ",
      h("span", { class: "chat-text" }, line.text))));
  }

  showChatTo(at) {
    let said = 0;
    for (const line of $("chat").children) {
      line.hidden = Number(line.dataset.at) > at;
      if (!line.hidden) said += 1;
    }
    $("chat-empty").hidden = said > 0;
  }

  showResult(result) {
    const box = $("replay-result");
    box.hidden = !result;
    if (!result) return;
    const names = (result.winners || []).map((seat) => this.playerName(seat));
    box.replaceChildren(
      h("h2", { id: "replay-result-title" }, names.length ? `${names.join(" and ")} win${names.length === 1 ? "s" : ""}` : "Game over"),
      result.reason ? h("p", { class: "muted" }, result.reason) : null,
      h("p", {}, h("a", { href: `/matches/${encodeURIComponent(this.matchId)}` }, "The match page")),
    );
  }
}

new ReplayPage($("replay")).start();
