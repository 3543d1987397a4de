"""Playing Snollygoster through the page as a simple human would: read the controls the
table offers (every button that sends an action carries ``data-act`` and ``data-action``;
choosers carry ``data-mode``), pick one, click it, and wait for the table to move on."""

from __future__ import annotations

from typing import Any, Callable

FINISHED = "#result:not([hidden]) .result"

READ = """() => {
    const sg = document.querySelector('.sg');
    if (!sg) return null;
    const me = sg.querySelector('.sg-player.you');
    return {
        renders: sg.dataset.renders, errors: sg.dataset.errors, phase: sg.dataset.phase, step: sg.dataset.step,
        mode: sg.dataset.mode, inspecting: sg.dataset.inspecting, window: !!sg.querySelector('.sg-window[data-window]'),
        fuel: me ? Number(me.dataset.fuel) : 0,
        room: me ? 3 - me.querySelectorAll('.sg-food').length : 0,
        actions: [...sg.querySelectorAll('[data-action]')].filter(b => !b.disabled)
            .map(b => ({ json: b.dataset.action, action: JSON.parse(b.dataset.action), label: b.textContent })),
        modes: [...sg.querySelectorAll('[data-mode]')].map(b => b.dataset.mode),
        drawn: [...sg.querySelectorAll('[data-drawn]')].map(c => c.dataset.card),
        foods: Object.fromEntries([...sg.querySelectorAll('.sg-food')].map(f => [f.dataset.food, f.dataset.know])),
    };
}"""

MOVED = """([renders, errors]) => {
    if (document.querySelector('#result:not([hidden]) .result')) return true;
    const sg = document.querySelector('.sg');
    return !sg || sg.dataset.renders !== renders || sg.dataset.errors !== errors;
}"""


class Driver:
    """One seat's page; ``moments`` gets a label the first time something worth a look
    is on the table (the test takes screenshots and checks the layout there)."""

    def __init__(self, page: Any, moment: Callable[[str], None] = lambda label: None) -> None:
        self.page, self.moment = page, moment
        self.seen: set[str] = set()
        self.done: set[str] = set()  # things this player does once, to use every control
        self.clicks: dict[str, int] = {}

    # ---- reading and clicking ----
    def read(self) -> dict[str, Any] | None:
        return self.page.evaluate(READ)

    def once(self, label: str) -> None:
        if label not in self.seen:
            self.seen.add(label)
            self.moment(label)

    def click(self, selector: str) -> bool:
        try:
            self.page.locator(selector).first.click(timeout=2_000)
            return True
        except Exception:  # the table moved on and the control went away: look again
            return False

    def send(self, t: dict[str, Any], action: dict[str, Any]) -> None:
        """Click the button that sends ``action`` and wait until the table answers."""
        match = next((a for a in t["actions"] if a["action"] == action), None)
        if match is None or not self.click(f".sg [data-action='{match['json']}']"):
            return
        self.clicks[action["type"]] = self.clicks.get(action["type"], 0) + 1
        self.wait_moved(t, 10_000)

    def wait_moved(self, t: dict[str, Any], timeout: int) -> None:
        try:
            self.page.wait_for_function(MOVED, arg=[t["renders"], t["errors"]], timeout=timeout)
        except Exception:
            pass  # nothing happened in time: the loop looks again

    def finished(self) -> bool:
        return self.page.locator(FINISHED).count() > 0

    # ---- playing ----
    def play_to_the_end(self, limit_s: float = 150) -> None:
        import time

        deadline = time.monotonic() + limit_s
        while not self.finished():
            assert time.monotonic() < deadline, f"the match did not end in {limit_s} s"
            t = self.read()
            if t is None:
                self.page.wait_for_selector(".sg")
                continue
            if not self.step(t):
                self.wait_moved(t, 15_000)  # nothing for us to do: wait for the others

    def of(self, t: dict[str, Any], kind: str) -> list[dict[str, Any]]:
        return [a["action"] for a in t["actions"] if a["action"]["type"] == kind]

    def step(self, t: dict[str, Any]) -> bool:
        """Do one thing if there is something to do; returns whether it did."""
        of = lambda kind: self.of(t, kind)  # noqa: E731
        if of("guess") or of("done"):
            self.once("guess")
            self.send(t, (of("guess") or of("done"))[0])
            return True
        if of("seed"):
            return self.seed(t)
        if t["window"] and (of("pass") or of("denied")):
            self.once("window")
            if of("denied") and "denied" not in self.done:
                self.done.add("denied")
                self.send(t, of("denied")[0])
            else:
                self.send(t, of("pass")[0])
            return True
        if of("tag"):
            self.once("tag")
            food = t["foods"].get(t["inspecting"], "")
            truth = [a for a in of("tag") if a["claim"] == food] or of("tag")
            self.send(t, truth[0])
            return True
        if of("keep"):
            return self.keep(t)
        if of("eat"):
            self.once("eat")
            safe = [a for a in of("eat") if t["foods"].get(str(a["food"])) == "safe"]
            self.send(t, (safe or of("eat"))[0])
            return True
        if of("pass"):  # acknowledge a Food about to be eaten
            self.once("eating")
            self.send(t, of("pass")[0])
            return True
        if of("accept") or of("decline"):
            self.once("offer-to-you")
            self.send(t, (of("accept") or of("decline"))[0])
            return True
        if "launch" in t["modes"]:
            return self.launch(t)
        if of("end_actions"):
            return self.action_stage(t)
        return False

    def seed(self, t: dict[str, Any]) -> bool:
        """First seed: a safe Food in our own stash; then an unsafe one in someone else's."""
        self.once("seed")
        kind = "safe" if "seeded" not in self.done else "unsafe"
        if not any(a["action"].get("kind") == kind for a in t["actions"]):
            self.click(f".sg [data-seed-kind='{kind}']")
            return True
        options = [a["action"] for a in t["actions"] if a["action"]["type"] == "seed" and a["action"]["kind"] == kind]
        if not options:
            return False
        you = int(self.page.get_attribute(".sg", "data-you"))
        mine = [a for a in options if (a["stash"] == you) == (kind == "safe")]
        self.done.add("seeded")
        self.send(t, (mine or options)[0])
        return True

    def keep(self, t: dict[str, Any]) -> bool:
        """Fuel while the tank has room, else a Food placed somewhere, else whatever."""
        self.once("event")
        keeps = self.of(t, "keep")
        drawn = t["drawn"]
        order = ["fuel", "safe", "unsafe", "ransom", "hungry", "starving"]
        if t["fuel"] >= 5:
            order.remove("fuel")
            order.append("fuel")
        best = min(range(len(drawn)), key=lambda i: order.index(drawn[i]) if drawn[i] in order else 99)
        mine = [a for a in keeps if a["card"] == best]
        if not mine:  # the chosen card waits for a stash: open its chooser
            if not self.click(f".sg [data-mode='place'][data-card='{best}']"):
                return False
            t = self.read() or t
            mine = [a for a in self.of(t, "keep") if a["card"] == best]
            if not mine:
                return True
            self.once("place")
        self.send(t, mine[-1])
        return True

    def launch(self, t: dict[str, Any]) -> bool:
        """Open the Launch chooser (it starts with the smallest pod the Fuel allows) and go."""
        if not self.of(t, "launch"):
            self.click(".sg .sg-card [data-mode='launch']")
            t = self.read() or t
        if not self.of(t, "launch"):
            return False
        self.once("launch")
        self.send(t, self.of(t, "launch")[0])
        return True

    def action_stage(self, t: dict[str, Any]) -> bool:
        """Inspect once, propose a trade once, then end the stage."""
        self.once("action")
        if "inspect" in t["modes"] and "inspect" not in self.done:
            self.done.add("inspect")
            if t["mode"] != "inspect":
                self.click(".sg [data-mode='inspect']")
                t = self.read() or t
            if self.of(t, "inspect"):
                self.once("inspect")
                self.send(t, self.of(t, "inspect")[0])
                return True
        if "offer" in t["modes"] and "offer" not in self.done and t["fuel"] > 0:
            self.done.add("offer")
            self.compose_offer(ask_food=t["room"] > 0)
            t = self.read() or t
            offers = self.of(t, "offer")
            if offers:
                self.once("trade")
                self.send(t, offers[0])
                return True
        self.send(t, {"type": "end_actions"})
        return True

    def compose_offer(self, ask_food: bool) -> None:
        """The trade composer: the first partner, give 1 Fuel, ask for a Food if they have one."""
        self.click(".sg [data-mode='offer']")
        self.click(".sg [data-trade-to]")
        self.click(".sg [data-step='give_fuel+']")
        if ask_food and self.page.locator(".sg [data-trade-food][data-side='want_food']").count():
            self.click(".sg [data-trade-food][data-side='want_food']")
