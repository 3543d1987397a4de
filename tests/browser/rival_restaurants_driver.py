"""Playing Rival Restaurants through the page: a chef who reads the table off the screen
and clicks what the renderer offers — picks a market that sells what a recipe needs (the
Island on day 2), claims, bids once and then passes, buys what is needed, sends one barter
offer built in the composer, answers incoming offers, shops at the Island, plays an action
card when one is offered, cooks what is ready and serves. It waits on the page, never on
the clock."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

# Hang guards, not speed checks: on a loaded machine (CI runs two browser tests on two
# cores) a page can take seconds to answer. A phase lasts at most its timer (the market's
# 150 s of real time in these tests, a claim window 30 s); a click waits for its control
# to be ready; an answer to a click usually comes within a second.
PHASE_MS = 240_000
CLICK_MS = 15_000
ANSWER_MS = 15_000

OFFER_COMPOSED = "offer composed"
SEND_OFFER = ".rr-barter-composer button[data-act=offer]"


# the seat's own table on its first day (the visitor's view it replaces shows the phase too)
SEATED = "#match[data-you]:not([data-you='']) .rr[data-phase=money_move]"


def table(page: Any) -> dict[str, Any]:
    """The table's phase, day and seq, and whether the result screen is up."""
    return page.evaluate("""() => {
        const rr = document.querySelector('.rr');
        return {phase: rr ? rr.dataset.phase : null, day: rr ? Number(rr.dataset.day) : 0,
                seq: Number(document.querySelector('#match').dataset.seq || -1),
                over: !document.querySelector('#result').hidden};
    }""")


def wait_change(page: Any, seq: int, timeout: int = PHASE_MS) -> None:
    """Wait until a newer state than ``seq`` has been drawn (or the game is over)."""
    page.wait_for_function(
        "seq => Number(document.querySelector('#match').dataset.seq) > seq || !document.querySelector('#result').hidden",
        arg=seq, timeout=timeout)


def wait_phase_ends(page: Any, phase: str, day: int) -> None:
    page.wait_for_function(
        """([phase, day]) => {
            const rr = document.querySelector('.rr');
            return !document.querySelector('#result').hidden || !rr || rr.dataset.phase !== phase || Number(rr.dataset.day) !== day;
        }""", arg=[phase, day], timeout=PHASE_MS)


@dataclass
class RivalDriver:
    page: Any
    shot: Callable[[Any, str], Any]
    did: set[str] = field(default_factory=set)  # what this chef has done at least once
    days: list[dict[str, Any]] = field(default_factory=list)

    # -- small page helpers --
    def first(self, selector: str) -> Any | None:
        loc = self.page.locator(selector)
        return loc.first if loc.count() else None

    def click(self, selector: str) -> bool:
        """Click the first element matching ``selector`` and wait for the table to change;
        returns False when there is none (or it went away meanwhile)."""
        seq = table(self.page)["seq"]
        if not self.ui_click(selector):
            return False
        try:
            wait_change(self.page, seq, timeout=ANSWER_MS)
        except Exception:
            pass  # a refused action changes nothing; the toast says why
        return True

    def click_until(self, selector: str, shown: str, before: Callable[[], Any] = lambda: None) -> bool:
        """Click ``selector`` until the page shows ``shown`` (a player clicks again when a
        redraw swallowed the click); ``before`` runs before each click (fills a field).
        Returns whether it clicked and ``shown`` came; False when the control was not
        there to click."""
        clicked = False
        for _ in range(3):
            before()
            if not self.ui_click(selector):
                return clicked and bool(self.page.locator(shown).count())
            clicked = True
            try:
                self.page.wait_for_selector(shown, state="attached", timeout=ANSWER_MS)
                return True
            except Exception:
                continue
        raise AssertionError(f"clicking {selector} three times never showed {shown}; did: {sorted(self.did)}")

    def ui_click(self, selector: str) -> bool:
        """Click a control that changes only this page (a composer), not the game; returns
        False when there is none (or a new state took it away meanwhile)."""
        for _ in range(3):
            target = self.first(selector)
            if target is None:
                return False
            try:
                target.click(timeout=CLICK_MS)
                return True
            except Exception:  # the control was redrawn or went away: look again
                continue
        return False

    # -- the phases --
    def move(self, day: int) -> str:
        page = self.page
        wanted = page.evaluate("""() => [...document.querySelectorAll('.rr-market')].map(m => [
            m.dataset.location, m.querySelectorAll('.rr-card.wanted').length])""")
        wanted.sort(key=lambda kv: -kv[1])
        where = "island" if day == 2 or not wanted or wanted[0][1] == 0 else wanted[0][0]
        went = self.click_until(f"button.rr-go[data-location='{where}']",
                                f"button.rr-go.picked[data-location='{where}'], .rr[data-phase]:not([data-phase=money_move]), #result:not([hidden])")
        assert went or table(page)["phase"] != "money_move", f"no Go button for {where} to click on day {day}"
        if day == 1:
            self.shot(page, "laptop-move")
        self.days.append({"day": day, "went": where})
        return where

    def market(self, day: int) -> None:
        page = self.page
        page.wait_for_selector(".rr-standee-wrap")  # standees stand where their chefs went
        bids: set[str] = set()
        while True:
            t = table(page)
            if t["over"] or t["phase"] != "buy_barter" or t["day"] != day:
                return
            if self.step(day, bids):
                if day == 1 and "market shot" not in self.did:
                    self.did.add("market shot")
                    self.shot(page, "laptop-market")
                continue
            # Nothing left that this chef wants: done, once claims here are settled.
            if page.locator(".rr-loc.here .rr-claiming").count():
                wait_change(page, t["seq"])  # a claim window may run its whole length (30 s here)
                continue
            if self.click("button[data-act=done].legal"):
                self.did.add("done")
                wait_phase_ends(page, "buy_barter", day)
                return
            wait_change(page, t["seq"])

    def step(self, day: int, bids: set[str]) -> bool:
        """One thing worth doing at the market now; returns whether it did something."""
        page = self.page
        # First, while the other chefs are still at it, an offer built in the composer.
        if OFFER_COMPOSED not in self.did and f"offer tried:{day}" not in self.did and page.locator("button[data-act=open-barter]").count():
            self.did.add(f"offer tried:{day}")
            if self.compose_offer():
                return True
        claim = ".rr-card.legal[data-act=claim]"
        if page.locator(claim).count():
            self.did.add("claim")
            return self.click(f"{claim}.wanted") or self.click(claim)
        auction = self.first(".rr-auction.yours")
        if auction is not None:
            ident = auction.get_attribute("data-auction")
            bid = f".rr-auction[data-auction='{ident}'] button[data-act=bid].legal"
            if ident not in bids and page.locator(bid).count():
                bids.add(ident)
                self.did.add("bid")
                return self.click(bid)
            self.did.add("pass")
            return self.click(f".rr-auction[data-auction='{ident}'] button[data-act=pass]")
        if self.click(".rr-offer.in[data-possible=true] button[data-act=accept].legal"):
            self.did.add("accept")
            return True
        if self.click(".rr-offer.in button[data-act=decline].legal"):
            self.did.add("decline")
            return True
        if f"play:{day}" not in self.did and page.locator(".rr-plays button[data-act=play].legal").count():
            self.did.add(f"play:{day}")
            return self.play_card()
        if f"island:{day}" not in self.did and page.locator(".rr-island.here .rr-shop").count():
            self.did.add(f"island:{day}")
            bought = self.click(".rr-shop button[data-act=dump].legal") | self.click(".rr-shop button[data-act=buy_action].legal")
            self.did.add("island" if bought else "island-browsed")
            return True
        if self.click(".rr-card.legal.wanted[data-act=buy]"):
            self.did.add("buy")
            return True
        return False

    def compose_offer(self) -> bool:
        """Build an offer in the composer: money from our side, one ingredient of theirs."""
        page = self.page
        self.ui_click("button[data-act=open-barter]")
        if not self.ui_click(".rr-barter-composer .rr-partner"):
            return False  # everybody else is done already: try again tomorrow
        their = ".rr-bundle.get button[data-item^='ingredient:'][data-step='1']:not([disabled])"
        if not self.ui_click(their):
            self.ui_click(".rr-bundle.get button[data-item^='recipe:']")
        try:
            page.fill(".rr-bundle.give input[data-field=money]", "100", timeout=CLICK_MS)
        except Exception:
            return False  # the partner left the market meanwhile
        self.did.add(OFFER_COMPOSED)
        sent = self.click(f"{SEND_OFFER}.legal")
        if sent and page.locator(".rr-offer.out").count():
            self.did.add("offer sent")
        self.ui_click(".rr-barter-composer button[data-act=close-barter]")
        return sent

    def play_card(self) -> bool:
        """Play the first action card offered, finishing its small composer if it has one."""
        page = self.page
        seq = table(page)["seq"]
        self.ui_click(".rr-plays button[data-act=play].legal")
        for selector in (".rr-play-composer button[data-target]", ".rr-play-composer button[data-ingredient]",
                         ".rr-play-composer button[data-kind].legal", ".rr-board.picking-slot .rr-card.legal"):
            if page.locator(".rr-play-composer").count() == 0:
                break
            self.ui_click(selector)
        self.ui_click(".rr-play-composer button[data-act=cancel-play]")
        if table(page)["seq"] == seq:
            try:
                wait_change(page, seq, timeout=ANSWER_MS)
            except Exception:
                pass
        self.did.add("play")
        return True

    def cook(self, day: int) -> None:
        page = self.page
        if f"play:{day}" not in self.did and page.locator(".rr-plays button[data-act=play].legal").count():
            self.did.add(f"play:{day}")
            self.play_card()
        if self.click_until(".rr-dish button[data-act=cook].legal",
                            ".rr-dish.declared, .rr[data-phase]:not([data-phase=cook_counter]), #result:not([hidden])"):
            self.did.add("cook")
        if day == 1:
            self.shot(page, "laptop-cook")
        self.click("button[data-act=serve].legal")
        wait_phase_ends(page, "cook_counter", day)

    def play_to_the_end(self, limit_s: float = 900) -> None:
        start = time.monotonic()
        while time.monotonic() - start < limit_s:
            t = table(self.page)
            if t["over"]:
                return
            if not self.play_phase(t["phase"], t["day"]):
                wait_change(self.page, t["seq"])
        raise AssertionError(f"the match did not end within {limit_s} s; did: {sorted(self.did)}")

    def play_phase(self, phase: str, day: int) -> bool:
        """Play this chef's part of ``phase``; False for a phase it has nothing to do in."""
        if phase == "money_move":
            if self.page.locator("button.rr-go.legal:not(.picked)").count() and not self.page.locator("button.rr-go.picked").count():
                self.move(day)
            wait_phase_ends(self.page, phase, day)
        elif phase == "buy_barter":
            self.market(day)
        elif phase == "cook_counter":
            self.cook(day)
        else:
            return False
        return True


# ---- situations built with the rules, drawn by the renderer alone ------------------------------

RENDER_VIEW = """async ([message, names]) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/static/css/games/rival-restaurants.css';
    const loaded = new Promise(resolve => { link.onload = resolve; });
    document.head.append(link);
    await loaded;
    const client = await import('/static/js/client.js');
    const renderer = await import('/static/js/games/rival-restaurants.js');
    const root = document.createElement('div');
    root.id = 'board';
    root.className = 'board';
    const main = document.querySelector('main');
    main.className = '';
    main.replaceChildren(root);
    window.__sent = [];
    const state = {...message, receivedAt: performance.now(), fresh: [], first: true};
    const ctx = {
        h: client.h, svg: client.svg, seatColor: client.seatColor, toast: client.toast,
        you: message.view.you, spectator: message.view.you === null, legal: message.legal,
        send: action => { window.__sent.push(action); return Promise.resolve({seq: message.seq + 1}); },
        onKey: () => {}, remaining: () => message.deadline === null ? null : message.deadline - message.now,
        playerName: seat => names[seat],
    };
    renderer.render(root, state, ctx);
}"""


def state_message(state: Any, seat: int | None) -> dict[str, Any]:
    """What the server would send ``seat`` for ``state``, as far as the renderer reads it."""
    from server.games.rival_restaurants import GAME

    deadline = GAME.deadline(state)
    return {"type": "state", "seq": 7, "status": "running", "view": GAME.view(state, seat),
            "legal": GAME.legal(state, seat) if seat is not None else [], "deadline": deadline,
            "now": state.phase_since + 1000, "events": [], "result": None}


def show(page: Any, state: Any, seat: int | None, extra_legal: tuple[dict[str, Any], ...] = ()) -> None:
    """Draw ``state`` as ``seat`` sees it on ``page`` (any page of the server), with a
    ``ctx.send`` that only records the actions (``sent``); ``extra_legal`` stands for
    actions an expansion would add."""
    message = state_message(state, seat)
    message["legal"] += list(extra_legal)
    page.evaluate(RENDER_VIEW, [message, list(state.players)])
    page.wait_for_selector(".rr")


def sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__sent")


def situation(kind: str) -> Any:
    """Ann (seat 0) in a situation with every control of a phase on show:
    ``market`` — at the Chop Shop with Bo: an auction for the same card (Bo leads), Bo's
    offer to her, hers to Cy, three action cards and Pork Knuckles' power; ``island`` — at
    the Island with money and garbage; ``cook`` — her basic recipe ready, with a Chocolate
    to add; ``move`` — Clam-Voyance picking a location and a chef to foresee."""
    from server.games.rival_restaurants import GAME
    from server.games.rival_restaurants.cards import RECIPES

    s = GAME.setup(["Ann", "Bo", "Cy"], GAME.options({"random_chefs": False}), 11, 0)
    s.chefs[0].chef = {"move": "clam_voyance", "market": "pork_knuckles"}.get(kind, "dr_umami")
    if kind == "move":
        return s
    where = {"market": ["chop_shop", "chop_shop", "island"], "island": ["island", "veg_out", "carb_wash"]}
    if kind == "market":
        s.chefs[0].actions = ["swipe-1", "home_delivery-1", "menu_shakeup-1"]
    if kind == "island":
        s.chefs[0].money, s.chefs[0].garbage = 1500, 3
    for seat, location in enumerate(where.get(kind, ["island"] * 3)):
        s = GAME.apply(s, seat, {"type": "move", "location": location}, 500)[0]
    if kind == "market":
        s = GAME.apply(s, 0, {"type": "claim", "slot": 0}, 600)[0]
        s = GAME.apply(s, 1, {"type": "claim", "slot": 0}, 700)[0]
        s = GAME.apply(s, 1, {"type": "bid", "auction": s.auctions[0].id, "amount": 200}, 800)[0]
        ask = {"ingredients": [sorted(s.chefs[0].ingredients)[0]]}
        s = GAME.apply(s, 1, {"type": "offer", "to": 0, "give": {"money": 50}, "get": ask}, 900)[0]
        ask = {"ingredients": [sorted(s.chefs[2].ingredients)[0]]}
        s = GAME.apply(s, 0, {"type": "offer", "to": 2, "give": {"money": 50}, "get": ask}, 900)[0]
    if kind == "cook":
        for seat in range(3):
            s = GAME.apply(s, seat, {"type": "done"}, 900)[0]
        pantry = s.chefs[0]
        for need in RECIPES[pantry.recipes[0]].ingredients:
            pantry.ingredients[need] = pantry.ingredients.get(need, 0) + 1
        pantry.ingredients["chocolate"] = 1
    return s


def legal_for(state: Any, seat: int, action: dict[str, Any]) -> str | None:
    """None when the rules accept ``action`` from ``seat`` now, else their reason."""
    from server.engine import IllegalAction
    from server.games.rival_restaurants import GAME

    try:
        GAME.apply(state, seat, action, state.phase_since + 1000)
    except IllegalAction as exc:
        return str(exc)
    return None
