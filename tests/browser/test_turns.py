"""Playing by turns in Chromium: two people, each in their own browser context and signed
in with a confirmed mail address, play a whole Sneaky Supper and a whole Snollygoster match
by turns (12 hours a move) to the result screen. The server's game clock is moved forward
by the test (``POTLUCK_TEST_CLOCK``) to let a deadline pass unanswered (once on purpose,
and whenever the drivers find nothing to do): time makes that move and the match goes on. Each time a page says it is its player's move (the tab title,
the badge on the icon), the test SMTP server (aiosmtpd) has received that player's "your
move" mail."""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Iterator

import httpx
import pytest

from ..mailbox import Inbox, smtp_server
from .conftest import Pages, potluck_server
from .sneaky_supper_driver import NEXT_MOVE, Player, click
from .snollygoster_driver import Driver
from .test_accessibility import serious_violations
from .test_accounts import claim
from .test_watch import take_seat

TWELVE_HOURS_MS = 12 * 3_600_000
MY_MOVE = "() => document.documentElement.dataset.yourMove === 'true'"
SEQ = "() => document.getElementById('match').dataset.seq"
STALL_S = 30  # nothing moved for this long: neither driver knows the move waited for


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[str, Inbox]]:
    with smtp_server() as served:
        yield served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[str, Inbox]) -> Iterator[str]:
    with potluck_server(tmp_path_factory.mktemp("turns-serve"), POTLUCK_TEST_CLOCK="1", POTLUCK_SMTP_URL=mailbox[0],
                        POTLUCK_MAIL_DIGEST_S="0") as base:
        yield base


class Person:
    """One player in their own browser context: an account with a confirmed address."""

    def __init__(self, pages: Pages, inbox: Inbox, name: str) -> None:
        self.name, self.inbox = name, inbox
        self.address = f"{name.lower()}-{time.monotonic_ns()}@example.org"
        self.page = pages.open("/", who=name)
        self.page.emulate_media(reduced_motion="reduce")
        self.account = f"{name}{time.monotonic_ns() % 100000}"
        claim(self.page, self.account)
        self.page.fill("#mail-address", self.address)
        self.page.click("#mail-form button[type=submit]")
        self.page.wait_for_selector("#mail-state:has-text('open the link')")
        link = self.wait_mail(1)[0].get_content()
        self.page.goto(re.search(r"http://\S+/mail/confirm\?token=\S+", link).group(0))
        self.page.wait_for_selector("h1:has-text('Address confirmed')")
        self.moves = 0  # the times the page said it was our move
        self.was_mine = False

    def mails(self) -> list[Any]:
        return self.inbox.to(self.address)

    def wait_mail(self, n: int, timeout: float = 30) -> list[Any]:
        until = time.monotonic() + timeout
        while len(self.mails()) < n:
            assert time.monotonic() < until, f"{self.name} got {len(self.mails())} mails, not {n}"
            time.sleep(0.05)
        return self.mails()

    def sit(self, match_id: str) -> None:
        self.page.goto(f"/matches/{match_id}")
        take_seat(self.page, self.account)

    def notice(self) -> bool:
        """Whether the page says it is our move; each new time, our mail has come (one
        confirmation mail, then one per move)."""
        mine = self.page.evaluate(MY_MOVE)
        if mine and not self.was_mine:
            self.moves += 1
            assert self.page.title().startswith("● Your move")
            assert self.page.evaluate("document.querySelector('link[rel=icon]').href").startswith(
                ("data:image/svg+xml", "http"))
            mail = self.wait_mail(1 + self.moves)[-1]
            assert mail["Subject"].startswith("Your move in ") and "/matches/" in mail.get_content()
        self.was_mine = mine
        return mine


def create_turns_match(person: Person, game: str) -> str:
    made = person.page.evaluate("""(game) => fetch('/api/matches', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game, players: 2, bots: 0, options: {pace: 'turns', move_hours: 12}})})
        .then(r => r.json())""", game)
    return made["id"]


def play(people: list[Person], api: httpx.Client, step: Callable[[Person], bool], finished: Callable[[Person], bool],
         limit_s: float = 1500) -> int:
    """Each player moves when the page says it is their move (one deadline is let pass,
    once, at the second player's first move; and whenever neither player's driver finds
    anything to do for a while, the waited-for move is left to time too); returns the
    moves time made."""
    until, missed, last_seq, still_since = time.monotonic() + limit_s, 0, None, time.monotonic()
    while not all(finished(p) for p in people):
        assert time.monotonic() < until, "the match did not end in time"
        moved = False
        for person in people:
            if finished(person):
                continue
            mine = person.notice()
            if mine and person is people[1] and missed == 0 and person.moves == 1:
                let_time_move(person, api)
                missed += 1
                continue
            moved = step(person) or moved
        seq = people[0].page.evaluate(SEQ)
        if seq != last_seq:
            last_seq, still_since = seq, time.monotonic()
        elif time.monotonic() - still_since > STALL_S and not any(finished(p) for p in people):
            let_time_move(people[0], api)
            missed += 1
        if not moved:
            time.sleep(0.05)
    return missed


def let_time_move(person: Person, api: httpx.Client) -> None:
    """The clock jumps a time per move: the move waited for is made by time."""
    seq = person.page.evaluate(SEQ)
    assert api.post("/api/test/clock", json={"ms": TWELVE_HOURS_MS}).status_code == 200
    person.page.wait_for_function("(seq) => document.getElementById('match').dataset.seq !== seq", arg=seq)


def check_the_end(api: httpx.Client, match_id: str, missed: int, people: list[Person]) -> None:
    """A deadline was missed and time made that move (it is in the log); each player was
    told of several moves, a mail each time."""
    assert missed >= 1 and all(p.moves >= 2 for p in people)
    log = api.get(f"/api/matches/{match_id}/log").json()
    assert any(entry["seat"] is None and entry["action"]["type"] == "timeout" for entry in log["actions"])


def seated(pages: Pages, inbox: Inbox, game: str, table: str) -> tuple[str, list[Person]]:
    """Ann and Bob, each signed in in their own browser, at a new match by turns of ``game``
    (its table drawn: ``table``), with the page's "your move" controls (no serious
accessibility fault)."""
    people = [Person(pages, inbox, "Ann"), Person(pages, inbox, "Bob")]
    match_id = create_turns_match(people[0], game)
    lobby = people[1].page
    lobby.goto("/")  # Bob finds it among the open tables, marked "by turns"
    badge = lobby.wait_for_selector(f"#open-matches .match-row[data-match='{match_id}'] .by-turns")
    assert "12 h a move" in badge.inner_text()
    assert "Live only" in lobby.locator(".game-card[data-game='nutty-noodles'] .pace-note").inner_text()
    for p in people:
        p.sit(match_id)
    for p in people:
        p.page.wait_for_selector(table)
        assert p.page.locator("#your-move-sound").is_checked()
    assert serious_violations(people[0].page) == []  # with the "your move" controls
    return match_id, people


def test_sneaky_supper_by_turns_between_two_browsers(pages: Pages, api: httpx.Client,
                                                     mailbox: tuple[str, Inbox]) -> None:
    match_id, (ann, bob) = seated(pages, mailbox[1], "sneaky-supper", ".ss")
    players = {ann.name: Player(), bob.name: Player()}

    def step(person: Person) -> bool:
        seen = person.page.evaluate(NEXT_MOVE)
        if not seen or seen["over"]:
            return False
        act = players[person.name].choose(seen)
        return act is not None and click(person.page, act)

    missed = play([ann, bob], api, step, lambda p: p.page.locator("#result:not([hidden]) .result").count() > 0)
    check_the_end(api, match_id, missed, [ann, bob])


def test_snollygoster_by_turns_between_two_browsers(pages: Pages, api: httpx.Client,
                                                    mailbox: tuple[str, Inbox]) -> None:
    match_id, (ann, bob) = seated(pages, mailbox[1], "snollygoster", ".sg")
    drivers = {p.name: Driver(p.page) for p in (ann, bob)}

    def step(person: Person) -> bool:
        t = drivers[person.name].read()
        return t is not None and drivers[person.name].step(t)

    missed = play([ann, bob], api, step, lambda p: drivers[p.name].finished())
    check_the_end(api, match_id, missed, [ann, bob])
