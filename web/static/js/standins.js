// Stand-ins: an absent friend's seat played by a bot. The table must see it — on the seat,
// and on every move the bot makes in their name — and the friend, back, is told what was
// played for them.
//
// Which seats a stand-in plays comes with the match summary (`seats[].standin`). Which
// log lines a stand-in made: an event marked `standin: true` by the server, else a line
// whose sentence begins with the name of a seat a stand-in plays right now (the games write
// "Priya steals 1 Fuel from Maria" with the actor first).
import { h } from "./client.js";

const seenKey = (matchId) => `potluck:seen:${matchId}`;

/** Seats a stand-in plays now, from a summary. */
export function standinSeats(summary) {
  return new Set(((summary && summary.seats) || []).filter((s) => s.standin).map((s) => s.seat));
}

/** The seat whose stand-in made ``event``, or null. */
export function standinOf(event, standins, nameOf) {
  if (event.standin === true && typeof event.by === "number") return event.by;
  const text = event.text || "";
  for (const seat of standins) {
    const name = nameOf(seat);
    if (name && (text.startsWith(`${name} `) || text.startsWith(`${name}'s `) || text.startsWith(`${name}:`))) return seat;
  }
  return null;
}

/** The mark a stand-in's log line carries. */
export function standinTag(seat, nameOf) {
  return h("span", { class: "tag standin-tag", title: `${nameOf(seat)} is away: a bot plays for them` }, `bot for ${nameOf(seat)}`);
}

/** The seat's badge in the players list: away, and whether a bot plays for them. */
export function presenceTag(seat) {
  if (!seat || seat.bot) return null;
  if (seat.standin) return h("span", { class: "tag standin", title: "Away: a stand-in bot plays until they are back" }, "away · a bot plays for them");
  if (!seat.connected) return h("span", { class: "tag away", title: "Not at the table right now" }, "away");
  return null;
}

/** Remember the last change this browser showed of a match (the greeting lists what came after). */
export function rememberSeen(matchId, seq) {
  localStorage.setItem(seenKey(matchId), String(seq));
}

/** The last change this browser showed of a match (-1: none). */
export function lastSeen(matchId) {
  const seq = Number(localStorage.getItem(seenKey(matchId)));
  return Number.isFinite(seq) ? seq : -1;
}

/** Back at a seat a stand-in played: what happened since this browser last looked, the
 *  stand-in's own moves first. ``events``: those the state brought (the recent ones). */
export function greeting(matchId, you, events, nameOf, onClose) {
  const since = lastSeen(matchId);
  const missed = events.filter((e) => (e.seq ?? 0) > since);
  const mine = missed.filter((e) => standinOf(e, new Set([you]), nameOf) === you);
  const close = h("button", { class: "btn primary", type: "button", onclick: () => onClose() }, "Back to the table");
  return h("div", { class: "greeting card", role: "dialog", "aria-labelledby": "greeting-title" },
    h("h2", { id: "greeting-title" }, `Welcome back, ${nameOf(you)}!`),
    h("p", {}, mine.length
      ? `While you were away a stand-in bot played for you: ${mine.length} move${mine.length === 1 ? "" : "s"}. Your seat is yours again.`
      : "While you were away a stand-in bot kept your seat. It is yours again."),
    mine.length ? h("ul", { class: "greeting-moves" }, mine.map((e) => h("li", { class: "by-standin" }, e.text))) : null,
    missed.length > mine.length
      ? h("details", {}, h("summary", {}, `Everything that happened (${missed.length})`),
        h("ol", { class: "greeting-all small" }, missed.map((e) => h("li", {}, e.text))))
      : null,
    h("div", { class: "row" }, close));
}
