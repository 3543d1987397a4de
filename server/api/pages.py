"""The HTML pages: the lobby ``/``, a match ``/matches/{id}`` and its replay
``/matches/{id}/replay``, a player's history ``/players/{name}``, a game's rules
``/games/{id}/rules``, and the static files under ``/static``.

The pages are thin Jinja2 shells; the browser talks to the public REST/WebSocket API for
everything live. ``install(app)`` mounts all of it on an app.

The ``web/`` and ``docs/`` folders are found beside the ``server`` package (a checkout or
an editable install) or, for an installed package, in the working directory (the Docker
image runs from the source folder).
"""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from server.engine import registry
from server.folders import shipped


WEB = shipped("web")
STATIC = WEB / "static"
RULES = shipped("docs") / "rules"
MATCH_ID = r"[A-Za-z0-9_-]{1,64}"

templates = Jinja2Templates(directory=str(WEB / "templates"))
router = APIRouter(include_in_schema=False)


def renderers() -> list[str]:
    """Game ids that have their own renderer module (others use the generic one)."""
    return sorted(p.stem for p in (STATIC / "js" / "games").glob("*.js") if p.stem != "generic")


def stylesheets() -> list[str]:
    """Per-game stylesheets (``web/static/css/games/<game-id>.css``), loaded on the match
    page; each scopes its rules under its renderer's root element."""
    return sorted(p.stem for p in (STATIC / "css" / "games").glob("*.css"))


def picture(game_id: str) -> str:
    """The catalogue picture of a game (a generic one when it has none yet)."""
    name = game_id if (STATIC / "img" / "games" / f"{game_id}.svg").is_file() else "generic"
    return f"/static/img/games/{name}.svg"


def catalogue() -> list[dict[str, Any]]:
    return [
        {**game.catalogue_entry(), "picture": picture(game.id), "teaches": game.teacher is not None,
         "rules": f"/games/{game.id}/rules" if (RULES / f"{game.id}.md").is_file() else None}
        for game in registry.games().values()
    ]


_DESIGNED = re.compile(r"<(p|li|td)>((?:(?!</\1>).)*?<em>Designed\b[^<]*</em>)", re.S)
# CommonMark (a list right after a paragraph is a list) with tables; the rules are our own
# files, so their HTML (the collapsed sections below) is kept
_MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable("table")
# What only developers need (the commands that print the figures, test names) sits between
# these two lines in a rules file, and is shown collapsed
DEVELOPERS = "<!-- developers -->"
DEVELOPERS_END = "<!-- /developers -->"
_COLLAPSED = ('<details class="developers"><summary>For developers: the commands and tests behind this</summary>\n\n',
              "\n\n</details>")


# A clause's stable anchor, written ``{#anchor}`` at its start in a rules file (teach mode's
# hints link to it): on the page, a link to itself that the clause can be scrolled to
CLAUSE = re.compile(r"\{#([a-z0-9-]+)\}\s?")


@cache
def rules_html(game_id: str) -> str:
    """A rules page as HTML; every paragraph, list item or cell holding a *Designed:*
    remark is marked, so readers see what we designed where the rulebook is silent, and
    every clause's ``{#anchor}`` becomes a link to itself."""
    text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    text = text.replace(DEVELOPERS, _COLLAPSED[0]).replace(DEVELOPERS_END, _COLLAPSED[1])
    body = _DESIGNED.sub(lambda m: f'<{m.group(1)} class="designed">{m.group(2)}', _MARKDOWN.render(text))
    return CLAUSE.sub(lambda m: f'<a class="clause" id="{m.group(1)}" href="#{m.group(1)}" '
                                f'aria-label="Link to this rule">§</a> ', body)


def _page(request: Request, template: str, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"renderers": renderers(), **context})


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    return _page(request, "lobby.html", games=catalogue())


def _table_page(request: Request, template: str, match_id: str) -> HTMLResponse:
    """A page around a game's table (live or replayed): the renderers' styles and names."""
    if not re.fullmatch(MATCH_ID, match_id):
        raise HTTPException(404, "No such match.")
    games = {g["id"]: {"name": g["name"], "rules": g["rules"]} for g in catalogue()}
    return _page(request, template, match_id=match_id, games=games, stylesheets=stylesheets())


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str) -> HTMLResponse:
    return _table_page(request, "match.html", match_id)


@router.get("/matches/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, match_id: str) -> HTMLResponse:
    """A finished match, step by step (the page asks the replay API; a running match is
    refused there, and the page says so)."""
    return _table_page(request, "replay.html", match_id)


@router.get("/players/{name}", response_class=HTMLResponse)
async def player_page(request: Request, name: str) -> HTMLResponse:
    """The matches played under a name, with wins per game (from the history API)."""
    games = {g["id"]: {"name": g["name"]} for g in catalogue()}
    return _page(request, "player.html", name=name, games=games)


@router.get("/games/{game_id}/rules", response_class=HTMLResponse)
async def rules_page(request: Request, game_id: str) -> HTMLResponse:
    game = registry.games().get(game_id)
    if game is None or not (RULES / f"{game_id}.md").is_file():
        raise HTTPException(404, f"No rules page for {html.escape(game_id)}.")
    return _page(request, "rules.html", game=game, picture=picture(game_id), body=rules_html(game_id))


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "img" / "favicon.svg", media_type="image/svg+xml")


def install(app: FastAPI) -> None:
    """Mount the pages and the static files on ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
