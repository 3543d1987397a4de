"""Playing Sneaky Supper through the page, as a plain player would: read the controls the
table offers (every enabled ``[data-act]`` element of ``.ss``), choose one, click it, and
wait until the table has settled (``.ss[data-busy='0']``: the action's ack came back and
the state after it is drawn)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

OVER = "#result:not([hidden]) .result"

# The controls this seat has now, once the table has settled, or ``{over: true}``; null
# while there is nothing to do (the wait goes on).
NEXT_MOVE = """() => {
    if (document.querySelector('#result:not([hidden]) .result')) return {over: true};
    const root = document.querySelector('.ss[data-busy="0"][data-mine="1"]');
    if (!root || !root.querySelector('[data-act]:not([disabled])')) return null;
    const mat = root.querySelector('.ss-mat');
    const me = root.querySelector('.ss-player.you');
    const hand = [...root.querySelectorAll('.ss-hand .ss-card')].map(c => ({
        card: c.dataset.card, type: c.dataset.type, group: c.dataset.group, points: Number(c.dataset.points),
    }));
    const kind = (id) => hand.find(c => c.card === id) || {};
    return {
        over: false,
        scrollWidth: document.documentElement.scrollWidth,
        phase: root.dataset.phase,
        steps: mat ? Number(mat.dataset.steps) : 0,
        noise: Number((root.querySelector('.ss-meter') || {dataset: {noise: 0}}).dataset.noise),
        tokens: me ? Number(me.dataset.tokens) : 0,
        craving: [...root.querySelectorAll('.ss-craving .ss-need')].map(n => n.dataset.need),
        acts: [...root.querySelectorAll('[data-act]:not([disabled])')].map(b => ({
            act: b.dataset.act, card: b.dataset.card || null, recipe: b.dataset.recipe || null,
            points: Number(b.dataset.points || kind(b.dataset.card).points || 0), noise: Number(b.dataset.noise || 0),
            type: b.dataset.type || kind(b.dataset.card).type || null, group: b.dataset.group || kind(b.dataset.card).group || null,
        })),
        hand,
    };
}"""

# Wait for every animation that ends (the Craving's glow does not) before a screenshot.
SETTLE = """() => Promise.all(document.getAnimations()
    .filter(a => Number.isFinite(a.effect.getComputedTiming().endTime))
    .map(a => a.finished.catch(() => null)))"""


def selector(act: dict[str, Any]) -> str:
    sel = f".ss [data-act='{act['act']}']"
    if act.get("card"):
        sel += f"[data-card='{act['card']}']"
    if act.get("recipe"):
        sel += f"[data-recipe='{act['recipe']}']"
    return sel + ":not([disabled])"


@dataclass
class Player:
    """A push-your-luck policy over the controls on screen, keeping what its Craving asks
    for; counts what it did."""

    used_utensil_deck: bool = False
    done: dict[str, int] = field(default_factory=dict)

    def choose(self, seen: dict[str, Any]) -> dict[str, Any] | None:
        by: dict[str, list[dict[str, Any]]] = {}
        for a in seen["acts"]:
            by.setdefault(a["act"], []).append(a)

        def wanted(a: dict[str, Any]) -> bool:
            return a["type"] in seen["craving"] or a["group"] in seen["craving"]

        for first in ("confirm", "craving-open", "recipe-open"):
            if first in by:
                return by[first][0]
        if "pick" in by:
            return max(by["pick"], key=lambda a: (wanted(a), a["points"]))
        if "consume" in by:
            return max(by["consume"], key=lambda a: (not wanted(a), a["points"]))
        if "end_turn" in by:
            return by["end_turn"][0]
        if "discard" in by:
            return min(by["discard"], key=lambda a: (wanted(a), a["points"]))
        if "pass" in by:
            return by["pass"][0]
        if "bust" in by:  # too loud: hush the loudest card for a good haul, else take the bust
            careful = by.get("careful", [])
            worth_it = seen["steps"] >= 3 or not self.done.get("careful")
            return max(careful, key=lambda a: a["noise"]) if careful and worth_it else by["bust"][0]
        if "draw" in by or "retreat" in by:
            steps, noise = seen["steps"], seen["noise"]
            if steps == 0 and "draw" in by:
                return by["draw"][0]
            if "draw_utensil" in by and not self.used_utensil_deck and noise <= 1:
                self.used_utensil_deck = True
                return by["draw_utensil"][0]
            if "draw" in by and noise <= 1 and steps < 4:
                return by["draw"][0]
            return by["retreat"][0] if "retreat" in by else by["draw"][0]
        return None

    def did(self, act: str) -> None:
        self.done[act] = self.done.get(act, 0) + 1


def next_move(page: Any, timeout_ms: int = 30_000) -> dict[str, Any] | None:
    """Wait until this seat can do something (what it sees then) or the result is shown
    (None)."""
    seen = page.wait_for_function(NEXT_MOVE, timeout=timeout_ms, polling=50).json_value()
    return None if seen["over"] else seen


def click(page: Any, act: dict[str, Any]) -> bool:
    """Click a control; False if it went away first (the table moved on meanwhile)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator(selector(act)).first.click(timeout=5_000)
    except PlaywrightTimeout:
        return False
    page.wait_for_selector(".ss[data-busy='0']")
    return True


def shot(pages: Any, page: Any, label: str) -> None:
    """A full-page screenshot from the top, once the table has stopped moving."""
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(SETTLE)
    pages.shot(page, label)


# ---- the renderer alone, fed states made by the rules engine --------------------------------

def engine_situation(wanted: Callable[[Any, Any], bool], players: int = 3, seeds: range = range(1, 400),
                     **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Random legal play until ``wanted(game, state)``; returns seat 0's view and legal
    actions then."""
    import random

    from server.games.sneaky_supper import GAME

    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup([f"P{i}" for i in range(players)], GAME.options(options), seed)
        for _ in range(300):
            if wanted(GAME, state):
                return GAME.view(state, 0), GAME.legal(state, 0)
            movers = [q for q in range(players) if GAME.legal(state, q)]
            if not movers:
                break
            seat = rng.choice(movers)
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)), 0)
    raise AssertionError("no such situation in random play")


MOUNT = """async ([view, legal, fresh]) => {
    if (!document.querySelector('link[href$="sneaky-supper.css"]')) {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = '/static/css/games/sneaky-supper.css';
        document.head.append(link);
        await new Promise(done => link.addEventListener('load', done));
    }
    const mod = await import('/static/js/games/sneaky-supper.js');
    const root = document.createElement('div');
    root.className = 'board';
    document.querySelector('main').replaceChildren(root);
    window.__sent = [];
    const ctx = {
        you: view.you, spectator: false, legal,
        send: async (action) => { window.__sent.push(action); return {seq: 1}; },
        onKey() {}, toast() {}, playerName: (seat) => view.players[seat].name,
    };
    mod.render(root, {view, legal, seq: 1, events: fresh, fresh, first: !fresh.length}, ctx);
}"""


def mount(page: Any, view: dict[str, Any], legal: list[dict[str, Any]],
          fresh: list[dict[str, Any]] | None = None) -> None:
    """Draw ``view`` with the renderer on a page of the server (the rules page: no other
    script runs there), with ``fresh`` events to animate; what it sends is collected in
    ``window.__sent``."""
    page.evaluate(MOUNT, [view, legal, fresh or []])
