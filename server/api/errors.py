"""How refusals become HTTP answers: ``{"detail": …, "code": …}`` with a 4xx status, or 503
when the database is unreachable, slow past its timeouts or failing to write. A client's
mistake is never a 500, and every 503 says when to try again (``Retry-After``)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from server import problems as rt
from server.store import STORE_AWAY, away_line

log = logging.getLogger(__name__)

RETRY_AFTER_S = 5  # a 503 that knows no better: the store's timeouts are a few seconds
STORE_AWAY_DETAIL = "The database is unavailable; try again soon."

STATUS: list[tuple[type[rt.Problem], int]] = [
    (rt.UnknownMatch, 404),
    (rt.NotAuthenticated, 401),
    (rt.NotYourSeat, 403),
    (rt.NameClaimed, 403),
    (rt.Conflict, 409),
    (rt.Illegal, 422),
    (rt.Invalid, 422),
    (rt.RateLimited, 429),
    (rt.AtCapacity, 503),
    (rt.Busy, 503),
    (rt.Unavailable, 503),
]


def status_of(problem: rt.Problem) -> int:
    return next((status for kind, status in STATUS if isinstance(problem, kind)), 400)


def problem_response(problem: rt.Problem) -> JSONResponse:
    body: dict[str, object] = {"detail": problem.message, "code": problem.code}
    if isinstance(problem, rt.StaleSeq):
        body["seq"] = problem.seq
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(problem, rt.NotAuthenticated) else None
    status = status_of(problem)
    retry_after = getattr(problem, "retry_after", None)
    if retry_after is None and status == 503:
        retry_after = RETRY_AFTER_S
    if retry_after is not None:
        headers = {"Retry-After": str(retry_after)}
    return JSONResponse(body, status_code=status, headers=headers)


def store_away_response() -> JSONResponse:
    return JSONResponse({"detail": STORE_AWAY_DETAIL, "code": "unavailable"}, status_code=503,
                        headers={"Retry-After": str(RETRY_AFTER_S)})


HTTP_CODES = {400: "invalid", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 413: "too_large", 422: "invalid", 429: "rate_limited"}


def validation_detail(exc: RequestValidationError) -> str:
    """Where and what, for each error — never the input itself, which may be anything
    (FastAPI's own answer echoes it, and cannot always encode it)."""
    parts = []
    for err in exc.errors()[:10]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return _printable("; ".join(parts) or "Invalid request.")


def _printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")[:1000]


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_detail(exc), "code": "invalid"}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "The request was refused."
        return JSONResponse({"detail": _printable(detail), "code": HTTP_CODES.get(exc.status_code, "invalid")},
                            status_code=exc.status_code, headers=exc.headers)


    @app.exception_handler(rt.Problem)
    async def _problem(_request: Request, exc: rt.Problem) -> JSONResponse:
        return problem_response(exc)

    async def _store_down(_request: Request, exc: Exception) -> JSONResponse:
        log.error("database unavailable: %s", away_line(exc))
        return store_away_response()

    for kind in STORE_AWAY:  # by the exception's class: a subclass finds its nearest handler
        app.add_exception_handler(kind, _store_down)
