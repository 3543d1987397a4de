// A rating-over-time chart as inline SVG (no library, no CDN): one line per game, the
// rating (μ − 3σ) after each rated match against when it ended.
import { h, svg } from "./client.js";

const W = 640;
const H = 260;
const PAD = { left: 56, right: 14, top: 14, bottom: 34 };
const COLORS = ["#c9391f", "#2b7bd9", "#3a9a4a", "#8e44ad", "#e0a100", "#1f9ea0"];

function day(ms) {
  return new Date(ms).toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** An end of the time axis: the day, or the time of day when the chart spans one day. */
function when(ms, oneDay) {
  return oneDay ? new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }) : day(ms);
}

/** The chart of `points` ({game, at, rating}), oldest first; `gameName(id)` labels the lines. */
export function ratingChart(points, gameName = (id) => id) {
  const games = [...new Set(points.map((p) => p.game))];
  const times = points.map((p) => p.at);
  const values = [0, ...points.map((p) => p.rating)];
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.floor(Math.min(...values)), Math.ceil(Math.max(...values))];
  const x = (t) => PAD.left + (t1 === t0 ? 0.5 : (t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - (v1 === v0 ? 0.5 : (v - v0) / (v1 - v0)) * (H - PAD.top - PAD.bottom);
  const ticks = [v0, (v0 + v1) / 2, v1];
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-labelledby": "rating-chart-title" },
    svg("title", { id: "rating-chart-title" }, `Rating over time: ${games.map((g) => gameName(g)).join(", ")}`),
    ticks.map((v) => [
      svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: PAD.left - 8, y: y(v) + 6, "text-anchor": "end", class: "axis" }, v.toFixed(v % 1 ? 1 : 0)),
    ]),
    svg("text", { x: PAD.left, y: H - 8, class: "axis" }, when(t0, day(t0) === day(t1))),
    svg("text", { x: W - PAD.right, y: H - 8, "text-anchor": "end", class: "axis" }, when(t1, day(t0) === day(t1))),
    games.map((game, i) => {
      const mine = points.filter((p) => p.game === game);
      const color = COLORS[i % COLORS.length];
      return svg("g", { class: "series", dataset: { game } },
        svg("polyline", { points: mine.map((p) => `${x(p.at).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "), fill: "none", stroke: color, "stroke-width": 3.5 }),
        mine.map((p) => svg("circle", { cx: x(p.at), cy: y(p.rating), r: 5, fill: color },
          svg("title", {}, `${gameName(game)}: ${p.rating} after the match of ${day(p.at)}`))));
    }));
  return chart;
}

/** The legend of the chart's lines. */
export function chartLegend(points, gameName = (id) => id) {
  const games = [...new Set(points.map((p) => p.game))];
  return h("ul", { class: "chart-legend" }, games.map((g, i) =>
    h("li", {}, h("span", { class: "chip", style: `background:${COLORS[i % COLORS.length]}` }), gameName(g))));
}
