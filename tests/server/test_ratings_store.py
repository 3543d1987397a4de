"""Ratings in the store, on each database: a finished match is rated in the transaction that
records its end, once, whoever commits it; ratings after any set of finished matches are
the same whatever order the processes saw them end (the property test); an unrated match,
a match with one account alone and an account's deleted seats are left out."""

from __future__ import annotations

import asyncio
import random
import secrets

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.store import Database, SeqTaken, Store
from server.store import skill
from server.store.migrate import upgrade


async def _accounts(store: Store, n: int, tag: str) -> list[int]:
    return [(await store.accounts.create(f"{tag}-{i}", None, 1)).id for i in range(n)]


async def _seated(store: Store, match_id: str, accounts: list[int | None], tag: str, bots: list[str] = (),
                  rated: bool = True) -> None:
    """A running match whose human seats are ``accounts`` (None: no account), then bots."""
    await store.create_match(id=match_id, game="nutty-noodles", options={}, players=len(accounts) + len(bots),
                             bot_names=[f"Bot {i}" for i in range(len(bots))], bot_levels=bots, seed=1, now=1,
                             rated=rated)
    for i, account in enumerate(accounts):
        name = f"{tag}-{accounts.index(account)}" if account is not None else f"guest-{i}-{match_id}"
        await store.join(match_id, name if account is None else (await store.accounts.get(account)).name,
                         secrets.token_hex(8), 2, account_id=account)


def _result(winner: int, seats: int) -> dict:
    return {"winners": [winner], "scores": [1.0 if s == winner else 0.0 for s in range(seats)], "reason": "test",
            "teams": None, "details": {}}


async def _ratings(store: Store, accounts: list[int]) -> dict[int, tuple[float, float, int]]:
    return {r.account_id: (round(r.mu, 9), round(r.sigma, 9), r.matches)
            for r in await store.ratings.of(accounts, "nutty-noodles")}


async def test_a_match_is_rated_once_even_when_two_writers_see_its_end(store: Store) -> None:
    accounts = await _accounts(store, 2, "twice")
    await _seated(store, "rated-race", accounts, "twice")
    outcomes = await asyncio.gather(*(store.append_action("rated-race", 1, 0, {"type": "x", "by": i}, 50,
                                                          result=_result(0, 2)) for i in range(4)),
                                    return_exceptions=True)
    assert sum(o is None for o in outcomes) == 1 and all(isinstance(o, (SeqTaken, type(None))) for o in outcomes)
    after = await _ratings(store, accounts)
    assert after[accounts[0]][2] == 1 and after[accounts[1]][2] == 1
    assert after[accounts[0]][0] > skill.MU > after[accounts[1]][0]  # the winner went up, the loser down
    assert len(await store.ratings.chart(accounts[0])) == 1


async def test_who_is_rated(store: Store) -> None:
    """Two accounts: rated. One account against a bot: rated against the bot's anchor. One
    account among guests: not rated. ``rated: false``: not rated."""
    a, b, c, d = await _accounts(store, 4, "who")
    await _seated(store, "two-accounts", [a, b], "who")
    await _seated(store, "against-bot", [c], "who", bots=["hard"])
    await _seated(store, "among-guests", [d, None], "who")
    await _seated(store, "unrated", [a, b], "who", rated=False)
    for match_id, seats in (("two-accounts", 2), ("against-bot", 2), ("among-guests", 2), ("unrated", 2)):
        await store.append_action(match_id, 1, 0, {"type": "x"}, 10, result=_result(0, seats))
    after = await _ratings(store, [a, b, c, d])
    assert after[a][2] == 1 and after[b][2] == 1  # the unrated match did not count
    assert after[c][2] == 1 and d not in after
    beat = skill.rate("nutty-noodles", skill.Table(((("account", c),), (("bot", "hard"),)), (0, 1)), {})[c]
    assert after[c][:2] == (round(beat.mu, 9), round(beat.sigma, 9))


async def test_a_deleted_account_leaves_its_seats_as_names(store: Store) -> None:
    a, b = await _accounts(store, 2, "gone")
    await _seated(store, "gone-match", [a, b], "gone")
    await store.append_action("gone-match", 1, 0, {"type": "x"}, 10, result=_result(0, 2))
    assert await store.accounts.delete(a)
    match = await store.get_match("gone-match")
    assert [(s.name, s.account_id) for s in match.seats] == [("gone-0", None), ("gone-1", b)]
    assert await _ratings(store, [a]) == {}
    assert (await store.accounts.create("GONE-0", None, 3)).name == "GONE-0"  # the name is free again


MATCHES = 7


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_ratings_do_not_depend_on_the_order_matches_were_seen_to_end(database_url: str, data: st.DataObject) -> None:
    """N random finished matches among five accounts (some with a bot), each ending at a
    random time: whatever order their final actions commit in, the ratings are those of
    folding the matches in the order they ended — and the same for two orders. Some ends
    are seen again (a second process commits the same last action, or a later action
    reports the end once more): nothing is rated twice."""
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    plans = [(rng.sample(range(5), rng.randint(2, 4)), rng.choice([[], ["easy"], ["hard"]]),
              rng.randint(1_000, 1_010)) for _ in range(MATCHES)]
    orders = [data.draw(st.permutations(range(MATCHES)), label=f"order {k}") for k in range(2)]
    again = data.draw(st.lists(st.integers(0, MATCHES - 1), max_size=4), label="ends seen again")

    async def scenario(order: list[int]) -> tuple[dict, dict]:
        db = Database(database_url)
        await upgrade(db)
        store, tag = Store(db), secrets.token_hex(4)
        try:
            accounts = await _accounts(store, 5, tag)
            tables = []
            for i, (who, bots, _) in enumerate(plans):
                seated = [accounts[w] for w in who]
                await _seated(store, f"{tag}-{i}", seated, tag, bots=bots)
                tables.append(_result(i % (len(who) + len(bots)), len(who) + len(bots)))
            for i in order:
                await store.append_action(f"{tag}-{i}", 1, 0, {"type": "x"}, plans[i][2], result=tables[i])
            for k, i in enumerate(again):
                try:
                    await store.append_action(f"{tag}-{i}", 1, 0, {"type": "x"}, plans[i][2], result=tables[i])
                    raise AssertionError("a second writer committed the same seq")
                except SeqTaken:
                    pass
                await store.append_action(f"{tag}-{i}", 2 + k, 0, {"type": "x"}, plans[i][2] + 5, result=tables[i])
            got = await _ratings(store, accounts)
            ended = sorted(range(MATCHES), key=lambda i: (plans[i][2], f"{tag}-{i}"))
            expected: dict[int, skill.Rating] = {}
            counts: dict[int, int] = {}
            for i in ended:
                who, bots, _ = plans[i]
                entrants = {s: ("account", accounts[w]) for s, w in enumerate(who)}
                entrants.update({len(who) + k: ("bot", lv) for k, lv in enumerate(bots)})
                after = skill.rate("nutty-noodles", skill.table(tables[i], entrants), expected)
                expected.update(after)
                for a in after:
                    counts[a] = counts.get(a, 0) + 1
            want = {a: (round(r.mu, 9), round(r.sigma, 9), counts[a]) for a, r in expected.items()}
            relabel = {a: k for k, a in enumerate(accounts)}
            return ({relabel[a]: v for a, v in got.items()}, {relabel[a]: v for a, v in want.items()})
        finally:
            await db.close()

    first, expected_first = asyncio.run(scenario(orders[0]))
    second, _ = asyncio.run(scenario(orders[1]))
    assert first == expected_first
    assert second == first


async def test_a_rating_that_fails_leaves_the_match_ending_unrated(store: Store, monkeypatch) -> None:
    a, b = await _accounts(store, 2, "fails")
    await _seated(store, "fails-match", [a, b], "fails")

    def broken(*args, **kwargs):
        raise ValueError("a rating model that fails")

    monkeypatch.setattr(skill, "rate", broken)
    await store.append_action("fails-match", 1, 0, {"type": "x"}, 10, result=_result(0, 2))
    assert (await store.get_match("fails-match")).status == "finished"
    assert await _ratings(store, [a, b]) == {}
    assert len(await store.actions("fails-match")) == 1
