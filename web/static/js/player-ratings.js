// /players/{name}, for a name an account claims: its rating per game and the chart of its
// rating over time (GET /api/players/{name}/ratings).
import { api, h } from "./client.js";
import { chartLegend, ratingChart } from "./rating-chart.js";

const root = document.getElementById("player-ratings");
const games = JSON.parse(document.getElementById("games-data").textContent);
const gameName = (id) => (games[id] ? games[id].name : id);

async function show() {
  const data = await api(`/api/players/${encodeURIComponent(root.dataset.name)}/ratings`);
  if (!data.account) return;
  root.hidden = false;
  document.getElementById("ratings-table").tBodies[0].replaceChildren(...(data.ratings.length
    ? data.ratings.map((r) => h("tr", { dataset: { game: r.game } },
      h("th", { scope: "row" }, h("a", { href: `/games/${r.game}/leaderboard` }, gameName(r.game))),
      h("td", { class: "rating" }, String(r.rating)), h("td", {}, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`), h("td", {}, String(r.matches))))
    : [h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No rated match yet."))]));
  const chart = document.getElementById("rating-chart");
  chart.replaceChildren(...(data.chart.length ? [ratingChart(data.chart, gameName), chartLegend(data.chart, gameName)]
    : [h("p", { class: "muted" }, "The chart starts with the first rated match.")]));
}

show().catch((err) => { root.hidden = false; root.replaceChildren(h("p", {}, err.message)); });
