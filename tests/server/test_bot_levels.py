"""Bot levels: ``POST /api/matches`` takes a level per bot seat (or a count: all normal),
the store keeps them, the runtime seats each bot at its level, a rematch keeps them, and
migration 0006 gives the bots of older matches the normal level."""

from __future__ import annotations

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from server.engine.rollouts import SearchBot
from server.store import Database, Store
from server.store.migrate import current_revision, upgrade

from .clients import Api
from .test_runtime import runtime
from .test_store import _downgrade, empty_database_url  # noqa: F401 - a fixture


async def test_bots_by_level_in_seat_order_or_by_count(api: Api) -> None:
    r = await api.client.post("/api/matches", json={"game": "sneaky-supper", "players": 4,
                                                    "bots": ["hard", "easy", "normal"]})
    assert r.status_code == 201, r.text
    seats = r.json()["match"]["seats"]
    assert [(s["seat"], s["bot"], s["level"]) for s in seats] == [(1, True, "hard"), (2, True, "easy"),
                                                                (3, True, "normal")]
    r = await api.client.post("/api/matches", json={"game": "nutty-noodles", "players": 3, "bots": 2})
    assert [s["level"] for s in r.json()["match"]["seats"]] == ["normal", "normal"]
    seat, _token = await api.join(r.json()["id"], "Ann")
    joined = (await api.client.get(f"/api/matches/{r.json()['id']}")).json()["seats"]
    assert [(s["seat"], s["level"]) for s in joined] == [(0, None), (1, "normal"), (2, "normal")] and seat == 0


async def test_an_unknown_level_or_too_many_bots_is_refused_and_creates_nothing(api: Api) -> None:
    before = (await api.client.get("/api/matches")).json()["total"]
    for bots in (["hard", "grandmaster"], ["easy", "easy", "easy"], -1, 65, ["hard"] * 65, [1], "hard"):
        r = await api.client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "bots": bots})
        assert r.status_code == 422, (bots, r.text)
    assert (await api.client.get("/api/matches")).json()["total"] == before
    r = await api.client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "bots": ["grandmaster"]})
    assert "easy" in str(r.json()) and "hard" in str(r.json())  # the levels there are


async def test_each_bot_seat_plays_at_its_level_and_a_rematch_keeps_the_levels(database_url: str) -> None:
    async with runtime(database_url) as rt:
        record = await rt.create("sneaky-supper", 3, {}, ["hard", "easy"])
        assert [(s.seat, s.level) for s in record.seats] == [(1, "hard"), (2, "easy")]
        _, _, live = await rt.join(record.id, "Ann")
        bots = live.players.bots
        assert isinstance(bots[1], SearchBot) and not isinstance(bots[2], SearchBot)
        assert type(bots[2]).__name__ == "SloppyBot"
        noodles = await rt.create("nutty-noodles", 2, {}, ["hard", "easy"])
        live = await rt.get(noodles.id)
        fast, slow = live.players.bots[0], live.players.bots[1]
        assert fast.reaction_ms < slow.reaction_ms and fast.mistake_rate < slow.mistake_rate

        rt.live.pop(noodles.id).close()  # as if it had ended: the rematch comes from the store
        await rt.store.db.write(lambda conn: conn.execute(
            text("UPDATE matches SET status = 'finished' WHERE id = :id"), {"id": noodles.id}))
        again, created = await rt.rematch(await rt.get(noodles.id))
        assert created and [(s.seat, s.level) for s in again.seats] == [(0, "hard"), (1, "easy")]


def _levels(conn: Connection) -> list[tuple[str, int, str | None]]:
    return [tuple(r) for r in conn.execute(text("SELECT match_id, seat, bot_level FROM seats ORDER BY seat"))]


async def test_migration_0006_gives_older_bots_the_normal_level(empty_database_url: str) -> None:  # noqa: F811
    db = Database(empty_database_url)
    try:
        assert await upgrade(db, "0005") == "0005"
        await db.write(lambda conn: conn.execute(text(
            "INSERT INTO matches (id, game, options, players, bots, humans_joined, seed, status, created_at) "
            "VALUES ('old', 'nutty-noodles', '{}', 2, 1, 0, 7, 'open', 1)")))
        await db.write(lambda conn: conn.execute(text(
            "INSERT INTO seats (match_id, seat, name, token_hash, bot, joined_at) "
            "VALUES ('old', 1, 'Bot 1', NULL, true, 1)")))
        assert await upgrade(db, "0006") == "0006"
        assert await db.read(_levels) == [("old", 1, "normal")]
        await upgrade(db)  # the store reads the newest schema
        assert [s.level for s in (await Store(db).get_match("old")).seats] == ["normal"]

        await db.exclusive(_downgrade("0005"))
        assert await current_revision(db) == "0005"
        assert "bot_level" not in await db.read(lambda conn: {c["name"] for c in inspect(conn).get_columns("seats")})
        assert await db.read(lambda conn: conn.execute(text("SELECT count(*) FROM seats")).scalar()) == 1
    finally:
        await db.close()
