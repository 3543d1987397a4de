// /me: your tables on any device (in progress, those waiting for your move first, then
// finished), your passkeys and a way to add one.
import { api, h, seatColor, toast } from "./client.js";
import { signedIn } from "./account.js";
import { passkeysWork, registerPasskey } from "./passkeys.js";

const $ = (id) => document.getElementById(id);
const games = JSON.parse($("games-data").textContent);
const gameName = (id) => (games[id] ? games[id].name : id);

function row(t) {
  const m = t.match;
  const winners = new Set((m.result && m.result.winners) || []);
  const status = m.status === "finished" ? (winners.has(t.seat) ? "you won" : "finished")
    : t.your_move ? "your move" : m.status === "open" ? "waiting for players" : "in progress";
  const href = m.status === "finished" ? `/matches/${m.id}/replay` : `/matches/${m.id}`;
  return h("li", { class: "match-row", dataset: { match: m.id, yourMove: String(t.your_move) } },
    h("div", {},
      h("strong", {}, gameName(m.game)), " ",
      h("span", { class: `tag ${t.your_move || winners.has(t.seat) ? "win-tag" : ""}`.trim() }, status),
      byTurns(m, t),
      h("div", { class: "small seats-line" }, m.seats.map((s) => h("span", { class: "who" },
        h("span", { class: "chip", style: `background:${seatColor(s.seat)}` }), s.seat === t.seat ? h("strong", {}, s.name) : s.name, " ")))),
    h("a", { class: `btn ${t.your_move ? "primary" : ""}`.trim(), href }, m.status === "finished" ? "Replay" : "Open"));
}

/** By turns: the time per move and when the move waited for is made by time. */
function byTurns(m, t) {
  const o = m.options || {};
  if (o.pace !== "turns") return null;
  const by = t.deadline ? ` · next move by ${new Date(t.deadline).toLocaleString([], { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" })}` : "";
  return h("span", { class: "small muted by-turns" }, ` by turns, ${o.move_hours} h a move${by}`);
}

async function showTables() {
  try {
    const tables = await api("/api/me/tables");
    $("tables-waiting").replaceChildren(...(tables.waiting.length ? tables.waiting.map(row)
      : [h("li", { class: "muted" }, "No table in progress. Set one up in the lobby!")]));
    $("tables-finished").replaceChildren(...(tables.finished.length ? tables.finished.map(row)
      : [h("li", { class: "muted" }, "No finished match yet.")]));
  } catch (err) {
    $("tables-waiting").replaceChildren(h("li", {}, err.message));
  }
}

function mailState(s) {
  if (!s.email) return "No address yet.";
  if (s.off) return `${s.email}: unsubscribed (set it again to get the mails back).`;
  return s.confirmed ? `${s.email}: confirmed.` : `${s.email}: open the link we mailed you to confirm it.`;
}

async function showMail() {
  try {
    const s = await api("/api/me/email");
    $("mail-state").textContent = mailState(s);
    if (s.email) $("mail-address").value = s.email;
  } catch {
    $("mail-state").textContent = "";
  }
}

$("mail-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const s = await api("/api/me/email", { method: "PUT", body: { email: $("mail-address").value } });
    $("mail-state").textContent = mailState(s);
  } catch (err) {
    $("mail-state").textContent = err.message;
  }
});

async function showPasskeys() {
  try {
    const keys = await api("/api/me/passkeys");
    $("passkey-count").textContent = keys.length ? `${keys.length} passkey${keys.length > 1 ? "s" : ""} on this account.` : "No passkey yet.";
  } catch {
    $("passkey-count").textContent = "";
  }
}

const add = $("passkey-add");
add.hidden = !passkeysWork;
add.addEventListener("click", async () => {
  add.disabled = true;
  try {
    await registerPasskey();
    toast("Passkey added: you can sign in with it now.", "good");
    showPasskeys();
  } catch (err) {
    toast(err.name === "NotAllowedError" ? "No passkey was made." : err.message);
  } finally {
    add.disabled = false;
  }
});

signedIn.then((account) => {
  if (!account) {
    location.assign("/signin?next=/me");
    return;
  }
  showTables();
  showMail();
  showPasskeys();
});
