// Teach mode (a match set up with `teach: true`): under the prompt, a panel says what you
// may do now and why — the seat's own `view.hints`, made by the server from what the seat
// may know — with each rule quoted and linked to its clause on the rules page; "What would
// you do?" asks the server for the normal bot's move (GET /api/matches/{id}/suggestion);
// a refused move names its clause. "Play it" plays the suggested move, as a click would. The player may hide the hints at any moment (remembered
// for this match on this device) and show them again.
import { api, h } from "./client.js";

const offKey = (matchId) => `potluck.teach.off.${matchId}`;
let rules = null; // the clause of every kind of action, from the last hints

function hidden(matchId) {
  try {
    return localStorage.getItem(offKey(matchId)) === "1";
  } catch {
    return false;
  }
}

function setHidden(matchId, off) {
  try {
    if (off) localStorage.setItem(offKey(matchId), "1");
    else localStorage.removeItem(offKey(matchId));
  } catch {
    // private browsing: the choice lasts for this page only
  }
}

/** A rule quoted, with the link to its clause. */
export function quoted(clause) {
  return h("span", { class: "teach-rule" },
    h("q", {}, clause.quote), " ",
    h("a", { href: clause.href, target: "_blank", rel: "noopener", class: "teach-link" }, "Rules §"));
}

function choice(m) {
  const risk = m.stake || m.gain;
  return h("li", { class: "teach-choice", dataset: { kind: m.kind } },
    h("strong", {}, m.label), m.ways > 1 ? h("span", { class: "muted" }, ` (${m.ways} ways)`) : null,
    risk ? h("span", { class: "teach-risk" }, ` — ${risk}`) : null,
    h("div", { class: "teach-why small" }, "Why: ", quoted(m.clause)));
}

/** Draw the panel (``node``) for the state held: nothing without hints (a spectator, or a
 *  match not in teach mode); a "Show hints" button while the player has hidden them. */
export function renderTeach(node, state, { matchId, token, send }, again = false) {
  const hints = state && state.view && state.view.hints;
  if (!again && hints && node.dataset.seq === String(state.seq)) return; // drawn for this change already
  node.dataset.seq = hints ? String(state.seq) : "";
  if (!hints) {
    node.hidden = true;
    node.replaceChildren();
    return;
  }
  rules = hints.rules;
  node.hidden = false;
  if (hidden(matchId)) {
    node.replaceChildren(h("button", { class: "btn small teach-on", type: "button", onclick: () => {
      setHidden(matchId, false);
      renderTeach(node, state, { matchId, token, send }, true);
    } }, "Show hints"));
    return;
  }
  const tip = h("p", { class: "teach-suggestion", role: "status" });
  const ask = h("button", { class: "btn small teach-ask", type: "button", onclick: () => suggest(matchId, token, tip, send) },
    "What would you do?");
  node.replaceChildren(
    h("div", { class: "teach-head" },
      h("strong", { class: "teach-title" }, "Teacher"),
      h("span", { class: "teach-summary" }, hints.summary),
      h("span", { class: "teach-buttons" }, hints.may.length ? ask : null,
        h("button", { class: "btn small teach-off", type: "button", onclick: () => {
          setHidden(matchId, true);
          renderTeach(node, state, { matchId, token, send }, true);
        } }, "Hide hints"))),
    hints.may.length ? h("ul", { class: "teach-may" }, hints.may.map(choice)) : null,
    tip);
}

async function suggest(matchId, token, tip, send) {
  tip.replaceChildren("Thinking…");
  try {
    const s = await api(`/api/matches/${encodeURIComponent(matchId)}/suggestion`, { token });
    const play = s.action && h("button", { class: "btn small primary teach-play", type: "button",
      onclick: () => send(s.action).catch(() => {}) }, "Play it");
    tip.replaceChildren(h("strong", {}, "I would: "), s.reason, ...(s.clause ? [" ", quoted(s.clause)] : []), ...(play ? [" ", play] : []));
  } catch (err) {
    tip.replaceChildren(err.message);
  }
}

/** The clause that explains why ``action`` was refused (its kind's, else the game's
 *  general one), while hints are shown; else null. */
export function clauseOf(action, matchId) {
  if (!rules || hidden(matchId)) return null;
  const kind = action && typeof action === "object" ? action.type : undefined;
  return rules[kind] || rules[""] || null;
}
