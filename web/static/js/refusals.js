// Why a move was refused, shown where the player looked: beside the control they used (a
// bubble at the place it was, even if a redraw has replaced it since) and under the prompt,
// which stays in view. Both go at the next refusal, or after a while.
import { h } from "./client.js";

const SHOWN_MS = 8000;
const CONTROLS = "button, a[href], input, select, textarea, [tabindex], [role=button]";

let looked = null; // {rect} of the control last used on the board
let timer = null;

/** Remember the control each click or key press on ``board`` used. */
export function watchControls(board) {
  const note = (event) => {
    const control = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
    looked = control && board.contains(control) ? { rect: control.getBoundingClientRect(), at: window.scrollY } : null;
  };
  board.addEventListener("click", note, true);
  board.addEventListener("keydown", note, true);
}

/** Show ``message``, the rules' reason for refusing the move just made (and, under the
 *  prompt, ``rule``: in teach mode the clause that says so). */
export function showRefusal(message, rule = null) {
  clearRefusal();
  const line = document.getElementById("refusal");
  if (line) {
    line.replaceChildren(message, rule ? " " : "", rule || "");
    line.hidden = false;
  }
  if (looked) {
    const { rect, at } = looked;
    const bubble = h("div", { class: "refusal-bubble", role: "alert" }, message);
    bubble.style.left = `${Math.max(8, Math.min(rect.left + window.scrollX, document.documentElement.clientWidth - 288))}px`;
    bubble.style.top = `${rect.bottom + at + 6}px`;
    document.body.append(bubble);
  }
  timer = setTimeout(clearRefusal, SHOWN_MS);
}

export function clearRefusal() {
  clearTimeout(timer);
  for (const bubble of document.querySelectorAll(".refusal-bubble")) bubble.remove();
  const line = document.getElementById("refusal");
  if (line) line.hidden = true;
}
