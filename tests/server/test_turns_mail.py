""""Your move" mail, against a real SMTP server run by the test (aiosmtpd):

- a seat taken by an account with a confirmed address gets one mail when it becomes its
  move — game, opponents, deadline and links, nothing of the game's state — and one more
  only at its next move; an unconfirmed or unsubscribed address gets none;
- several matches waiting for an account at once make one digest;
- over the API: setting an address mails a one-time confirmation link; the link confirms
  it once; the unsubscribe link switches the mail off.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from server.engine import HOUR_MS
from server.runtime import Runtime
from server.runtime.clock import Clock
from server.runtime.tokens import token_hash
from server.runtime.your_move import when

from .conftest import serve
from ..mailbox import smtp_server
from .test_accounts import sign_up
from .test_runtime import _until, runtime

TURNS = {"pace": "turns", "move_hours": 24}


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'potluck.db'}"


async def _account(rt: Runtime, name: str, confirmed: bool = True) -> int:
    account = await rt.store.accounts.create(name, None, 1)
    token = secrets.token_urlsafe(8)
    await rt.store.mail.set(account.id, f"{name.lower()}@example.org", token_hash(token), f"key-{name}")
    if confirmed:
        assert await rt.store.mail.confirm(token_hash(token)) == account.id
    return account.id


async def _match(rt: Runtime, accounts: list[int | None], game: str = "sneaky-supper") -> str:
    record = await rt.create(game, len(accounts), TURNS, 0)
    for i, account in enumerate(accounts):
        await rt.join(record.id, f"P{i}", account_id=account)
    return record.id


async def test_each_move_mails_its_player_once_with_nothing_of_the_game(tmp_path: Path) -> None:
    clock = Clock()
    with smtp_server() as (url, inbox):
        async with runtime(_sqlite(tmp_path), clock, smtp_url=url, mail_digest_s=0.05,
                           public_url="http://potluck.test") as rt:
            ann, bob = await _account(rt, "Ann"), await _account(rt, "Bob")
            match_id = await _match(rt, [ann, bob])
            live = rt.live[match_id]
            first, second = ("ann", "bob") if live.state.active == 0 else ("bob", "ann")
            await _until(lambda: len(inbox.to(f"{first}@example.org")) == 1)
            mail = inbox.to(f"{first}@example.org")[0]
            assert mail["Subject"] == "Your move in Sneaky Supper"
            other = "P1" if first == "ann" else "P0"
            assert mail.get_content().replace("\r\n", "\n") == (
                "It is your move:\n\n"
                f"- Sneaky Supper against {other}: move by {when(live.deadline)}\n"
                f"  http://potluck.test/matches/{match_id}\n\n"
                "If you do not move in time, the game makes a move for you.\n\n"
                f"No more of these mails: http://potluck.test/mail/unsubscribe?key=key-{first.title()}\n")
            assert mail["List-Unsubscribe"] == f"<http://potluck.test/mail/unsubscribe?key=key-{first.title()}>"
            assert inbox.to(f"{second}@example.org") == []
            clock.advance(24 * HOUR_MS)  # the first player's move is missed: made by time
            await _until(lambda: len(inbox.to(f"{second}@example.org")) == 1)
            clock.advance(24 * HOUR_MS)
            await _until(lambda: len(inbox.to(f"{first}@example.org")) == 2)
            await rt.services.your_move.flush()
            assert len(inbox.to(f"{second}@example.org")) == 1, "mailed twice for one move"


async def test_several_matches_waiting_make_one_digest_and_unconfirmed_or_unsubscribed_get_none(
        tmp_path: Path) -> None:
    with smtp_server() as (url, inbox):
        async with runtime(_sqlite(tmp_path), Clock(), smtp_url=url, mail_digest_s=3600) as rt:  # flushed by hand
            ann, cy, di = await _account(rt, "Ann"), await _account(rt, "Cy", confirmed=False), await _account(rt, "Di")
            await rt.store.mail.unsubscribe("key-Di")
            told = rt.services.your_move.told
            waiting: list[str] = []
            while len(waiting) < 2:  # matches whose first move is Ann's (who seeds first is dealt at random)
                match_id = await _match(rt, [ann, None], "snollygoster")
                await _until(lambda: any(key[0] == match_id for key in told))
                if (match_id, 0) in told:
                    waiting.append(match_id)
            for accounts in ([cy, di], [di, cy]):
                match_id = await _match(rt, accounts)
                await _until(lambda: any(key[0] == match_id for key in told))
            assert await rt.services.your_move.flush() == 1
            (digest,) = inbox.to("ann@example.org")
            assert digest["Subject"] == "Your move in 2 matches"
            assert set(re.findall(r"/matches/([\w-]+)", digest.get_content())) == set(waiting)
            assert inbox.to("cy@example.org") == [] and inbox.to("di@example.org") == []


async def test_the_address_is_confirmed_by_its_one_time_link_and_unsubscribed_by_its_link(tmp_path: Path) -> None:
    with smtp_server() as (url, inbox):
        async with serve(_sqlite(tmp_path), smtp_url=url) as served, \
                httpx.AsyncClient(base_url=served.url, timeout=20, headers={"Origin": served.url}) as client:
            assert (await sign_up(client, "Maria")).status_code == 201
            bad = await client.put("/api/me/email", json={"email": "not an address"})
            assert bad.status_code == 422 and "mail address" in bad.json()["detail"]
            done = await client.put("/api/me/email", json={"email": "maria@example.org"})
            assert done.status_code == 200 and done.json() == {"email": "maria@example.org", "confirmed": False,
                                                               "off": False}
            await _until(lambda: len(inbox.to("maria@example.org")) == 1)
            link = re.search(r"http://\S+/mail/confirm\?token=\S+", inbox.to("maria@example.org")[0].get_content())
            assert link is not None
            parts = urlsplit(link.group(0))
            path = f"{parts.path}?{parts.query}"
            page = await client.get(path)
            assert page.status_code == 200 and "Address confirmed" in page.text
            assert (await client.get("/api/me/email")).json()["confirmed"] is True
            again = await client.get(path)
            assert "used already" in again.text  # one time only
            key = (await served.runtime.store.mail.of([1]))[1].mail_key
            assert "No more" in (await client.get(f"/mail/unsubscribe?key={key}")).text
            gone = await client.post(f"/mail/unsubscribe?key={key}")
            assert gone.status_code == 200 and "Unsubscribed" in gone.text
            assert (await client.get("/api/me/email")).json()["off"] is True


async def test_without_smtp_setting_an_address_is_refused_with_the_reason(tmp_path: Path) -> None:
    async with serve(_sqlite(tmp_path)) as served, httpx.AsyncClient(base_url=served.url, timeout=20, headers={"Origin": served.url}) as client:
        await sign_up(client, "Maria")
        refused = await client.put("/api/me/email", json={"email": "maria@example.org"})
        assert refused.status_code == 503 and "POTLUCK_SMTP_URL" in refused.json()["detail"]


async def test_a_restarted_server_does_not_mail_a_move_again(tmp_path: Path) -> None:
    with smtp_server() as (url, inbox):
        settings = {"smtp_url": url, "mail_digest_s": 3600}  # flushed by hand
        async with runtime(_sqlite(tmp_path), Clock(), **settings) as rt:
            ann, bob = await _account(rt, "Ann"), await _account(rt, "Bob")
            match_id = await _match(rt, [ann, bob])
            await _until(lambda: rt.services.your_move.pending)
            assert await rt.services.your_move.flush() == 1
        async with runtime(_sqlite(tmp_path), Clock(), **settings) as again:  # the same move, told again
            live = await again.get(match_id)
            await _until(lambda: (match_id, min(live.waiting)) in again.services.your_move.told)
            assert await again.services.your_move.flush() == 0
        assert len(inbox.mails) == 1
