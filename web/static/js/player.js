// A player's page, /players/{name}: wins per game and the finished matches played under
// that name (GET /api/players/{name} and /api/players/{name}/matches), newest first, each
// with a link to its replay. A name an account claims is the account's history (under every
// name it had); any other name is not a person: the page says which.
import { api, h, seatColor } from "./client.js";

const $ = (id) => document.getElementById(id);
const PAGE = 20;
const root = $("player");
const name = root.dataset.name;
const games = JSON.parse($("games-data").textContent);
const gameName = (id) => (games[id] ? games[id].name : id);
const base = `/api/players/${encodeURIComponent(name)}`;
let offset = 0;

function when(ms) {
  return ms ? new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "";
}

async function showWins() {
  const body = $("wins").tBodies[0];
  try {
    const tally = await api(base);
    if (tally.account) {
      $("player-name-title").textContent = tally.name;
      $("names-note").textContent = `${tally.name} is an account: these are its matches, under this name or any it `
        + "had before, and its ratings, on every device it played on.";
    }
    body.replaceChildren(...(tally.games.length
      ? tally.games.map((g) => h("tr", { dataset: { game: g.game } },
        h("th", { scope: "row" }, gameName(g.game)), h("td", {}, String(g.played)), h("td", { class: "won" }, String(g.won))))
      : [h("tr", {}, h("td", { colspan: 3, class: "muted" }, "No finished match under this name yet."))]));
  } catch (err) {
    body.replaceChildren(h("tr", {}, h("td", { colspan: 3 }, err.message)));
  }
}

function seatsLine(m) {
  return m.seats.map((s) => h("span", { class: "who", dataset: { seat: s.seat } },
    h("span", { class: "chip", dataset: { seat: s.seat }, style: `background:${seatColor(s.seat)}` }),
    s.bot ? `${s.name} (bot)` : (s.seat === m.seat ? h("strong", {}, s.name) : h("a", { href: `/players/${encodeURIComponent(s.name)}` }, s.name)),
    m.result && (m.result.winners || []).includes(s.seat) ? h("span", { class: "tag win-tag" }, "won") : null));
}

function row(m) {
  return h("li", { class: "match-row", dataset: { match: m.id, won: String(m.won) } },
    h("div", {},
      h("strong", {}, gameName(m.game)),
      h("span", { class: `tag ${m.won ? "win-tag" : ""}`.trim() }, m.won ? "won" : "did not win"),
      h("div", { class: "small muted" }, when(m.finished_at)),
      h("div", { class: "small seats-line" }, seatsLine(m)),
      m.result && m.result.reason ? h("div", { class: "small muted" }, m.result.reason) : null),
    h("a", { class: "btn", href: m.replay }, "Replay"));
}

async function showMatches() {
  const list = $("history");
  try {
    const page = await api(`${base}/matches?limit=${PAGE}&offset=${offset}`);
    list.replaceChildren(...(page.items.length ? page.items.map(row) : [h("li", { class: "muted" }, "No finished match under this name yet.")]));
    $("history-newer").hidden = offset === 0;
    $("history-older").hidden = offset + PAGE >= page.total;
    $("history-where").textContent = page.total ? `${offset + 1}–${offset + page.items.length} of ${page.total}` : "";
  } catch (err) {
    list.replaceChildren(h("li", {}, err.message));
  }
}

$("history-newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); showMatches(); });
$("history-older").addEventListener("click", () => { offset += PAGE; showMatches(); });
document.title = `${name} · Potluck`;
showWins();
showMatches();
