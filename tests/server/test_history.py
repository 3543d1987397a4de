"""Match history by name: ``GET /api/players/{name}/matches`` (finished matches a human
seat of that name played, newest first, paged) and ``GET /api/players/{name}`` (wins per
game); the lobby's list of finished matches puts the most recently finished first; the
migration that indexes both lookups goes up and down."""

from __future__ import annotations

import secrets

from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from server.store import Database
from server.store.migrate import current_revision, upgrade

from .clients import Api, play_to_the_end
from .stored import stored_match
from .test_store import _downgrade, empty_database_url  # noqa: F401 (a fixture)
from .conftest import Served


async def played(api: Api, names: list[str]) -> str:
    """A Nutty Noodles match of these names played to the end; the first always serves
    right, so it wins."""
    match_id = await api.create(players=len(names), tie_window_ms=0)
    tokens = [(await api.join(match_id, name))[1] for name in names]
    await play_to_the_end(api, match_id, tokens)
    return match_id


async def test_the_matches_a_name_played_newest_first_with_wins(api: Api) -> None:
    ann, bea = (f"{name} {secrets.token_hex(4)}" for name in ("Ann", "Bea"))  # PostgreSQL is shared by tests
    first = await played(api, [ann, bea])
    second = await played(api, [bea, ann])
    running, _ = await api.seated(players=2)  # P0 and P1, not finished: not history
    r = await api.client.get(f"/api/players/{ann}/matches")
    assert r.status_code == 200, r.text
    page = r.json()
    assert (page["name"], page["total"]) == (ann, 2)
    assert [m["id"] for m in page["items"]] == [second, first]
    newest, oldest = page["items"]
    assert (newest["seat"], newest["won"], oldest["seat"], oldest["won"]) == (1, False, 0, True)
    assert [s["name"] for s in newest["seats"]] == [bea, ann]
    assert newest["game"] == "nutty-noodles" and newest["result"]["winners"] == [0]
    assert newest["finished_at"] >= oldest["finished_at"] and newest["replay"] == f"/matches/{second}/replay"
    assert running not in {m["id"] for m in (await api.client.get("/api/players/P0/matches")).json()["items"]}

    tally = (await api.client.get(f"/api/players/{ann}")).json()
    assert tally == {"name": ann, "account": False, "played": 2, "won": 1,
                     "games": [{"game": "nutty-noodles", "played": 2, "won": 1}]}
    assert (await api.client.get(f"/api/players/{bea}")).json()["won"] == 1

    # paged; spaces as the lobby trims them; an unknown name has no history
    r = (await api.client.get(f"/api/players/{ann}/matches", params={"limit": 1, "offset": 1})).json()
    assert ([m["id"] for m in r["items"]], r["total"], r["limit"], r["offset"]) == ([first], 2, 1, 1)
    assert (await api.client.get(f"/api/players/%20{ann}%20/matches")).json()["total"] == 2
    nobody = f"Nobody {secrets.token_hex(4)}"
    assert (await api.client.get(f"/api/players/{nobody}/matches")).json() == {
        "name": nobody, "account": False, "items": [], "total": 0, "limit": 20, "offset": 0}
    assert (await api.client.get(f"/api/players/{nobody}")).json()["games"] == []


async def test_bot_seats_are_not_a_players_history(api: Api, served: Served) -> None:
    name = f"Eve {secrets.token_hex(4)}"
    await stored_match(served.runtime.store, "nutty-noodles", humans=[name], bots=1)
    eve = (await api.client.get(f"/api/players/{name}/matches")).json()["items"][0]
    bot = next(s["name"] for s in eve["seats"] if s["bot"])
    played = (await api.client.get(f"/api/players/{bot}/matches")).json()["items"]
    assert eve["id"] not in [m["id"] for m in played]


async def test_a_name_no_player_could_have_is_a_clear_422(api: Api) -> None:
    for name in ("%20%20", "x" * 200, "a%07b"):
        for path in (f"/api/players/{name}/matches", f"/api/players/{name}"):
            r = await api.client.get(path)
            assert r.status_code == 422, (path, r.text)
    r = await api.client.get("/api/players/Ann/matches", params={"limit": 0})
    assert r.status_code == 422


async def test_the_lobby_lists_the_most_recently_finished_first(api: Api, served: Served) -> None:
    store, far = served.runtime.store, 4_000_000_000_000  # later than any other test's match
    for match_id, created, finished in (("made-first", far, far + 10_000), ("made-second", far + 1_000, far + 5_000)):
        await store.create_match(id=match_id, game="nutty-noodles", options={}, players=1, bot_names=["Bot 1"],
                                 seed=1, now=created)
        await store.append_action(match_id, 1, None, {"type": "timeout"}, finished,
                                  result={"winners": [0], "scores": [1], "reason": "Test."})
    items = (await api.client.get("/api/matches", params={"status": "finished"})).json()["items"]
    assert [m["id"] for m in items][:2] == ["made-first", "made-second"]


def _indexes(conn: Connection) -> set[str]:
    found = inspect(conn)
    return {i["name"] for table in ("seats", "matches") for i in found.get_indexes(table)}


async def test_migration_0003_indexes_names_and_finish_times(empty_database_url: str) -> None:  # noqa: F811
    db = Database(empty_database_url)
    try:
        assert await upgrade(db, "0002") == "0002"
        assert not {"ix_seats_name", "ix_matches_status_finished"} & await db.read(_indexes)
        assert await upgrade(db, "0003") == "0003"
        assert {"ix_seats_name", "ix_matches_status_finished"} <= await db.read(_indexes)
        await db.exclusive(_downgrade("0002"))
        assert await current_revision(db) == "0002"
        assert not {"ix_seats_name", "ix_matches_status_finished"} & await db.read(_indexes)
    finally:
        await db.close()
