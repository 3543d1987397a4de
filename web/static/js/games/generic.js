// The fallback renderer: any game without its own renderer is still playable.
// It shows the seat's view as readable facts and a button for each legal action.
import { h } from "../client.js";

const MAX_BUTTONS = 120;

function label(action) {
  const rest = Object.entries(action)
    .filter(([key]) => key !== "type")
    .map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  const name = String(action.type).replaceAll("_", " ");
  return rest.length ? `${name} (${rest.join(", ")})` : name;
}

function facts(view) {
  const skip = new Set(["game", "you", "prompt", "players"]);
  return h("dl", { class: "facts" },
    Object.entries(view).filter(([key]) => !skip.has(key)).map(([key, value]) => [
      h("dt", {}, key.replaceAll("_", " ")),
      h("dd", {}, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)),
    ]));
}

export function render(root, state, ctx) {
  const legal = state.legal || [];
  const groups = new Map();
  for (const action of legal.slice(0, MAX_BUTTONS)) {
    if (!groups.has(action.type)) groups.set(action.type, []);
    groups.get(action.type).push(action);
  }
  root.replaceChildren(
    h("div", { class: "generic card" },
      legal.length
        ? h("div", { class: "actions" }, [...groups.values()].map((actions) => h("div", { class: "action-group" },
            actions.map((action) => h("button", {
              class: "btn action legal",
              type: "button",
              dataset: { action: JSON.stringify(action) },
              onclick: (e) => {
                e.currentTarget.disabled = true;
                ctx.send(action).catch(() => { e.currentTarget.disabled = false; });
              },
            }, label(action))))))
        : h("p", { class: "muted" }, ctx.spectator ? "You are watching." : "Nothing to do right now."),
      legal.length > MAX_BUTTONS ? h("p", { class: "muted small" }, `…and ${legal.length - MAX_BUTTONS} more.`) : null,
      h("details", { class: "view-details" }, h("summary", {}, "Everything you can see"), facts(state.view)),
    ),
  );
}
