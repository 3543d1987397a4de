"""Playing SPORKS Out through the page as Pam Knee You: the base driver's chef, who also bids
in the Action Auction, picks a corner market not yet on her boxing ring each day (after
waiting for Wahine's Luau to be thrown), and, once the ring earns her the Boxing Gloves,
knocks one chef out and robs another. It waits on the page, never on the clock; it takes
a screenshot the first time each SPORKS Out sight is on show."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.games.rival_restaurants import GAME
from server.store import Database, Store
from server.store.migrate import upgrade

from .rival_restaurants_driver import CLICK_MS, PHASE_MS, RivalDriver, wait_phase_ends

OVER = "#result:not([hidden])"


def past(phase: str) -> str:
    """A selector that matches once the table has left ``phase``."""
    return f".rr[data-phase]:not([data-phase={phase}])"


def store_waiting_match(db_file: Path, seed: int, players: list[str], bots: int, options: dict[str, Any]) -> str:
    """A Rival Restaurants match dealt from ``seed``, waiting for its human seats (the first
    ``len(players) - bots``), stored before the server starts; returns its id."""
    async def make() -> str:
        db = Database(f"sqlite:///{db_file}")
        try:
            await upgrade(db)
            record = await Store(db).create_match(
                id=f"sporks{seed}", game=GAME.id, options=GAME.options(options).model_dump(mode="json"),
                players=len(players), bot_names=players[len(players) - bots:], seed=seed,
                now=int(time.time() * 1000))
            return record.id
        finally:
            await db.close()

    with ThreadPoolExecutor(1) as pool:  # a live Playwright holds this thread's event loop
        return pool.submit(asyncio.run, make()).result()


@dataclass
class SporksDriver(RivalDriver):
    robbed: int | None = None  # the chef the Rob Glove hit
    def sight(self, label: str) -> None:
        """A screenshot of a SPORKS Out sight, the first time it is on show."""
        if f"shot:{label}" not in self.did:
            self.did.add(f"shot:{label}")
            self.shot(self.page, label)

    def auction(self, day: int) -> None:
        page = self.page
        page.wait_for_selector(f".rr-box-bid, {past('action_auction')}, {OVER}")
        if page.locator(".rr-snackle .rr-action-card.face-down").count():
            self.did.add("face-down card")
            self.sight("face-down-card")
        if page.locator(".rr-box-bid button[data-act=box_bid].legal").count():
            money = int(page.locator(".rr-me").get_attribute("data-money") or 0)
            amount = 100 if money >= 100 and day % 2 == 0 else 0
            self.click_until(".rr-box-bid button[data-act=box_bid].legal",
                             f".rr-box-bid[data-your-bid='{amount}'], {past('action_auction')}, {OVER}",
                             before=lambda: page.fill("#rr-box-bid", str(amount), timeout=CLICK_MS))
            if page.locator(".rr-box-bid[data-your-bid]").count():
                self.did.add("bid")
                self.sight("auction-secret-bid")
        wait_phase_ends(page, "action_auction", day)
        page.wait_for_selector(f".rr-last-auction, {OVER}")
        self.did.add("bids revealed")

    def move(self, day: int) -> str:
        """Wait for the Luau, then the first corner not yet on the ring."""
        page = self.page
        try:
            page.wait_for_selector(f".rr-market.luau .rr-luau, {past('money_move')}", timeout=PHASE_MS)
        except Exception:
            pass  # no Luau today: the test says so at the end
        if page.locator(".rr-market.luau").count():
            self.did.add("luau")
            self.sight("luau")
        corner = page.evaluate("""() => [...document.querySelectorAll('.rr-me .rr-corner:not(.marked)')]
            .map(c => c.dataset.corner)[0] || null""")
        where = corner or "island"
        self.click_until(f"button.rr-go[data-location='{where}']",
                         f"button.rr-go.picked[data-location='{where}'], {past('money_move')}, {OVER}")
        self.days.append({"day": day, "went": where})
        return where

    def step(self, day: int, bids: set[str]) -> bool:
        if self.page.locator(".rr-me .rr-glove").count():
            self.sight("gloves")
        return self.use_gloves() or super().step(day, bids)

    def use_gloves(self) -> bool:
        """Once earned: the Rob Glove on a bot with an ingredient to take, then the Knockout
        Glove on the other (never both on one chef), each through its composer."""
        composer = ".rr-play-composer"
        if "rob" not in self.did and self.ui_click(".rr-plays button[data-act=power][data-use=rob].legal"):
            for target in (1, 2):
                chosen = self.ui_click(f"{composer} button[data-target='{target}']")
                if chosen and self.click(f"{composer} button[data-ingredient]"):
                    self.did.add("rob")
                    self.robbed = target
                    return True
            self.ui_click(f"{composer} button[data-act=cancel-play]")
        if "knockout" not in self.did and self.ui_click(".rr-plays button[data-act=power][data-use=knockout].legal"):
            if self.click(f"{composer} button[data-target='{3 - (self.robbed or 1)}']"):
                self.did.add("knockout")
                return True
            self.ui_click(f"{composer} button[data-act=cancel-play]")
        return False

    def play_phase(self, phase: str, day: int) -> bool:
        if phase == "action_auction":
            self.auction(day)
            return True
        return super().play_phase(phase, day)
