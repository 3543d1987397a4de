// The waiting room's invite: the link friends on the network can open (the server works it
// out: GET /api/matches/{id}/invite), what to know about it, and its QR code for phones,
// drawn here from the server's modules (no image service, no CDN).
import { api, h, svg, toast } from "./client.js";

const QUIET = 4; // modules of white around a QR code, as scanners expect

/** The QR code as an SVG: one path of dark squares on a white square. */
export function qrSvg(rows, label) {
  const size = rows.length + 2 * QUIET;
  let d = "";
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === "1") d += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
  });
  return svg("svg", { class: "qr", viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges" },
    svg("rect", { width: size, height: size, fill: "#fff" }),
    svg("path", { d, fill: "#000" }));
}

const boxes = new Map(); // match id -> its invite box (the waiting room is redrawn often: keep it)

async function copy(link, input) {
  try {
    await navigator.clipboard.writeText(link);
    toast("Invite link copied.", "good");
  } catch {
    input.select();
    toast("Select the link and copy it.", "info");
  }
}

/** The invite box: filled with the browser's own address at once, then with the server's
 *  answer (the network link, the note, the QR code). The same box every time it is asked. */
export function inviteBox(matchId) {
  if (!boxes.has(matchId)) boxes.set(matchId, newInviteBox(matchId));
  return boxes.get(matchId);
}

function newInviteBox(matchId) {
  const fallback = `${location.origin}/matches/${matchId}`;
  const input = h("input", { id: "invite-link", readonly: true, value: fallback, onfocus: (e) => e.target.select() });
  const note = h("p", { class: "invite-note small", id: "invite-note" });
  const code = h("div", { class: "invite-qr" });
  const others = h("ul", { class: "invite-others small" });
  const box = h("div", { class: "invite", dataset: { reach: "unknown" } },
    h("label", { for: "invite-link" }, "Invite link"),
    h("div", { class: "row" }, input, h("button", { class: "btn", type: "button", onclick: () => copy(input.value, input) }, "Copy")),
    note, others, code);
  api(`/api/matches/${encodeURIComponent(matchId)}/invite`).then((invite) => {
    input.value = invite.url;
    box.dataset.reach = invite.reach;
    note.textContent = invite.note;
    note.classList.toggle("warning", invite.reach !== "network");
    others.replaceChildren(...invite.urls.slice(1).map((url) => h("li", {}, "or ", h("code", {}, url))));
    code.replaceChildren(qrSvg(invite.qr, `QR code of the invite link ${invite.url}`));
  }).catch((err) => {
    note.textContent = `The server could not work out a link for the network (${err.message}); this is the address your browser used.`;
    note.classList.add("warning");
  });
  return box;
}
