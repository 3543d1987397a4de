// /games/{game}/leaderboard: the accounts rated in a game, best first, a page at a time.
import { api, h } from "./client.js";

const root = document.getElementById("leaderboard");
const game = root.dataset.game;
const PAGE = 25;
let offset = 0;

async function show() {
  const body = document.getElementById("standings").tBodies[0];
  try {
    const page = await api(`/api/games/${encodeURIComponent(game)}/leaderboard?limit=${PAGE}&offset=${offset}`);
    body.replaceChildren(...(page.items.length ? page.items.map((s) => h("tr", { dataset: { name: s.name } },
      h("td", {}, String(s.rank)),
      h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(s.name)}` }, s.name)),
      h("td", { class: "rating" }, String(s.rating)),
      h("td", {}, `${s.mu.toFixed(1)} ± ${s.sigma.toFixed(1)}`),
      h("td", {}, String(s.matches))))
      : [h("tr", {}, h("td", { colspan: 5, class: "muted" }, "Nobody is rated in this game yet: play a match signed in."))]));
    document.getElementById("board-newer").hidden = offset === 0;
    document.getElementById("board-older").hidden = offset + PAGE >= page.total;
    document.getElementById("board-where").textContent = page.total ? `${offset + 1}–${offset + page.items.length} of ${page.total}` : "";
  } catch (err) {
    body.replaceChildren(h("tr", {}, h("td", { colspan: 5 }, err.message)));
  }
}

document.getElementById("board-newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); show(); });
document.getElementById("board-older").addEventListener("click", () => { offset += PAGE; show(); });
show();
