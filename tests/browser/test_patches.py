"""State deltas in the browser: the page applies the server's JSON Patches exactly as the
server computes them, and a page that misses a patch asks for the whole state (resync)
and draws the present."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import httpx

from server.engine import registry
from server.engine.playout import play, random_bots
from server.runtime.patches import diff

from tests.server.clients import answer

from .conftest import Pages


def test_the_page_applies_patches_to_exactly_the_next_view(pages: Pages) -> None:
    """Every game: the server's patch between two consecutive views, applied by the page's
    own ``applyPatch``, gives the second view (and leaves the first one as it was)."""
    pairs: list[dict[str, Any]] = []
    for game_id in sorted(registry.games()):
        game = registry.get(game_id)
        players = game.max_players
        for seat in (0, None):
            views: list[Any] = []
            play(game, players, None, 3, bots=random_bots, max_steps=60,
                 on_step=lambda state, entry, events: views.append(game.view(state, seat)))
            for before, after in zip(views, views[1:]):
                pairs.append({"before": before, "after": after, "ops": diff(before, after)})
    assert sum(1 for p in pairs if p["ops"]) > 100
    page = pages.open("/")
    failures = page.evaluate("""async (pairs) => {
        const { applyPatch } = await import("/static/js/client.js");
        const sorted = (k, x) => x && typeof x === "object" && !Array.isArray(x)
            ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x;
        const canon = (v) => JSON.stringify(v, sorted);  // members in any order
        const bad = [];
        pairs.forEach((p, i) => {
            const before = canon(p.before);
            const got = applyPatch(p.before, p.ops);
            if (canon(got) !== canon(p.after)) bad.push(`pair ${i}: wrong view`);
            if (canon(p.before) !== before) bad.push(`pair ${i}: the old view changed`);
        });
        return bad;
    }""", json.loads(json.dumps(pairs)))
    assert failures == []


def test_a_page_that_misses_a_patch_resyncs_and_shows_the_present(pages: Pages, api: httpx.Client) -> None:
    """The socket between server and page drops one patch: the next one does not start from
    the seq the page holds, so the page asks for the whole state and draws the present;
    later patches apply to it."""
    slow = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}  # only the players move
    match_id = api.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "options": slow}).json()["id"]
    tokens = [api.post(f"/api/matches/{match_id}/join", json={"name": name}).json()["token"]
              for name in ("Ann", "Bob")]
    ann = pages.browser.new_context(base_url=pages.base)
    pages.contexts.append(ann)
    ann.add_init_script(f"localStorage.setItem('potluck:seat:{match_id}', "
                        f"JSON.stringify({{token: '{tokens[0]}', seat: 0, name: 'Ann'}}))")
    page = ann.new_page()
    pages.watch(page, "Ann")

    lock = threading.Lock()
    dropped: list[int] = []
    resyncs: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            with lock:
                if msg["type"] == "patch" and not dropped:
                    dropped.append(msg["seq"])
                    return  # lost on the way
            ws.send(message)

        def from_page(message: str | bytes) -> None:
            if json.loads(message).get("type") == "resync":
                with lock:
                    resyncs.append(str(message))
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/matches/"), route)
    page.goto(f"/matches/{match_id}")
    page.wait_for_selector("#match[data-seq='0'] .nn[data-phase=roll]")

    def view(seat: int) -> dict[str, Any]:
        return api.get(f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()

    def act(seat: int, action: dict[str, Any]) -> int:
        r = api.post(f"/api/matches/{match_id}/actions", json={"action": action},
                     headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
        return r.json()["seq"]

    assert act(view(0)["view"]["thrower"], {"type": "roll"}) == 1  # its patch is lost
    bob = view(1)
    wrong = next(a for a in bob["legal"] if a["bowl"] != answer(bob["view"])["bowl"])
    assert act(1, wrong) == 2  # its patch starts from seq 1, which the page never had

    page.wait_for_selector("#match[data-seq='2'][data-resyncs='1']")
    with lock:
        assert dropped == [1] and len(resyncs) == 1
    present = view(0)
    assert present["seq"] == 2
    shown = page.evaluate("[...document.querySelectorAll('.nn-dice.live .die')].map(d => d.dataset.face)")
    assert shown == present["view"]["throw"]["dice"]
    assert page.locator(".player[data-seat='1'] .pname").inner_text() == "Bob"

    act(0, answer(present["view"]))  # Ann serves right: a patch from seq 2, applied
    page.wait_for_selector("#match[data-seq='3']")
    assert page.get_attribute("#match", "data-resyncs") == "1"
    assert page.locator(".player.you .score").inner_text() == "1"
    pages.shot(page, "after-resync")
