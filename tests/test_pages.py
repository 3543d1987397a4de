"""The HTML routes without a browser: the lobby lists every game, rules pages mark what
we designed, unknown games and malformed match ids are 404s, renderers are found by id."""

from __future__ import annotations

import re
import warnings

import pytest
from fastapi import FastAPI

from server.api import pages
from server.engine import registry

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    pages.install(app)
    return TestClient(app)


def test_the_lobby_lists_every_game_with_its_picture_and_rules(client: TestClient) -> None:
    html = client.get("/").text
    for game in registry.games().values():
        assert f'data-game="{game.id}"' in html and game.name in html
        assert client.get(pages.picture(game.id)).status_code == 200
    assert 'href="/games/nutty-noodles/rules"' in html


def test_rules_pages_mark_what_we_designed(client: TestClient) -> None:
    page = client.get("/games/nutty-noodles/rules")
    assert page.status_code == 200
    body = pages.rules_html("nutty-noodles")
    assert body in page.text
    assert body.count('class="designed"') == (pages.RULES / "nutty-noodles.md").read_text().count("*Designed")
    assert client.get("/games/no-such-game/rules").status_code == 404


def test_match_pages_load_their_renderer_or_the_generic_one(client: TestClient) -> None:
    page = client.get("/matches/abc123")
    assert page.status_code == 200 and 'data-match="abc123"' in page.text
    assert "nutty-noodles" in pages.renderers() and "generic" not in pages.renderers()
    for name in [*pages.renderers(), "generic"]:
        assert client.get(f"/static/js/games/{name}.js").status_code == 200
    assert client.get("/matches/bad%20id!").status_code == 404
    assert client.get("/favicon.ico").status_code == 200


LIST_ITEM = re.compile(r"^ *(?:[-*+]|\d+[.)]) ", re.M)
DEVELOPER_WORDS = re.compile(r"python -m|potluck simulate|pytest|tests/|test_\w+\.py")


@pytest.mark.parametrize("game_id", sorted(p.stem for p in pages.RULES.glob("*.md")))
def test_rules_pages_render_every_list_item_of_the_markdown(game_id: str) -> None:
    """Issue 27, item 4: a list right after a paragraph line (Snollygoster's "A turn", the
    Rival Restaurants market) is a list, not a run-on paragraph."""
    text = (pages.RULES / f"{game_id}.md").read_text()
    assert pages.rules_html(game_id).count("<li") == len(LIST_ITEM.findall(text))


@pytest.mark.parametrize("game_id", sorted(p.stem for p in pages.RULES.glob("*.md")))
def test_rules_pages_keep_what_only_developers_need_collapsed(game_id: str) -> None:
    """Issue 27, item 4: command lines and test names are in a collapsed section only."""
    body = pages.rules_html(game_id)
    shown = re.sub(r'<details class="developers">.*?</details>', "", body, flags=re.S)
    assert '<details class="developers">' in body and "python -m" in body
    assert DEVELOPER_WORDS.findall(shown) == []
