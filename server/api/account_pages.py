"""The HTML pages of accounts and ratings: ``/signin``, ``/me`` (your tables), ``/reset``
(a one-time link's page) and ``/games/{game}/leaderboard``. Thin Jinja2 shells, like the
other pages (``pages``): the browser asks the REST API for everything."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from server.engine import registry

from .pages import catalogue, renderers, templates

router = APIRouter(include_in_schema=False)


def _page(request: Request, template: str, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"renderers": renderers(), **context})


def _game_names() -> dict[str, dict[str, str]]:
    return {g["id"]: {"name": g["name"]} for g in catalogue()}


@router.get("/signin", response_class=HTMLResponse)
async def signin_page(request: Request) -> HTMLResponse:
    return _page(request, "signin.html")


@router.get("/reset", response_class=HTMLResponse)
async def reset_page(request: Request) -> HTMLResponse:
    """The token is in the link's fragment (``/reset#…``): it never reaches a server log."""
    return _page(request, "reset.html")


@router.get("/me", response_class=HTMLResponse)
async def my_tables_page(request: Request) -> HTMLResponse:
    return _page(request, "me.html", games=_game_names())


@router.get("/games/{game_id}/leaderboard", response_class=HTMLResponse)
async def leaderboard_page(request: Request, game_id: str) -> HTMLResponse:
    game = registry.games().get(game_id)
    if game is None:
        raise HTTPException(404, f"No game {html.escape(game_id[:64])}.")
    return _page(request, "leaderboard.html", game=game)
