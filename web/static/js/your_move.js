// "Your move" in an open page of a match played by turns (its state says whose move it is:
// `waiting`): the tab's title and a badge on its icon, a short sound (switch it off here;
// the choice is remembered), and the browser's notification while the tab is in the
// background (once you allow it).
const SOUND_KEY = "potluck.yourMoveSound";
const ICON = "/static/img/favicon.svg";
const BADGE = '<circle cx="50" cy="14" r="13" fill="#1a7f37" stroke="#fff" stroke-width="3"/>';

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // no audio here (or not allowed before a click): the title and the badge still say it
  }
}

export class YourMoveNotice {
  constructor(gameName, h) {
    this.gameName = gameName;
    this.h = h;
    this.mine = false;
    this.title = document.title;
    this.icon = document.querySelector("link[rel=icon]");
    this.badged = null;
    fetch(ICON).then((r) => r.text()).then((svg) => {
      this.badged = `data:image/svg+xml,${encodeURIComponent(svg.replace("</svg>", `${BADGE}</svg>`))}`;
      if (this.mine) this.icon.href = this.badged;
    }).catch(() => {});
  }

  /** The sound switch and, where the browser asks first, "tell me in the background". */
  controls() {
    const h = this.h;
    const box = h("input", { type: "checkbox", id: "your-move-sound", checked: soundOn() });
    box.addEventListener("change", () => localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off"));
    const parts = [h("label", { class: "field-boolean", for: box.id }, box, " A sound when it is my move")];
    if ("Notification" in window && Notification.permission === "default") {
      const ask = h("button", { class: "btn small", type: "button", id: "your-move-notify" }, "Tell me when this tab is in the background");
      ask.addEventListener("click", async () => {
        await Notification.requestPermission();
        ask.remove();
      });
      parts.push(ask);
    }
    return h("div", { class: "your-move-controls small" }, ...parts);
  }

  /** The state now says whether it is our move. */
  update(mine) {
    if (mine === this.mine) return;
    this.mine = mine;
    document.documentElement.dataset.yourMove = String(mine);
    if (!mine) {
      document.title = this.title;
      this.icon.href = ICON;
      return;
    }
    this.title = document.title.replace(/^● Your move · /, "");
    document.title = `● Your move · ${this.title}`;
    if (this.badged) this.icon.href = this.badged;
    if (soundOn()) beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      const note = new Notification(`Your move in ${this.gameName}`, { body: "Your friends are waiting for you.", tag: location.pathname });
      note.onclick = () => window.focus();
    }
  }
}
