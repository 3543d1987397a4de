"""How refusals become HTTP answers: ``{"detail": …, "code": …}`` with a 4xx status, or 503
when the database is unreachable. A client's mistake is never a 500."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError

from server.runtime import errors as rt

log = logging.getLogger(__name__)

STATUS: list[tuple[type[rt.Problem], int]] = [
    (rt.UnknownMatch, 404),
    (rt.NotAuthenticated, 401),
    (rt.NotYourSeat, 403),
    (rt.Conflict, 409),
    (rt.Illegal, 422),
    (rt.Invalid, 422),
    (rt.RateLimited, 429),
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
    return JSONResponse(body, status_code=status_of(problem), headers=headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(rt.Problem)
    async def _problem(_request: Request, exc: rt.Problem) -> JSONResponse:
        return problem_response(exc)

    @app.exception_handler(OperationalError)
    @app.exception_handler(DBAPIError)
    @app.exception_handler(OSError)
    async def _store_down(_request: Request, exc: Exception) -> JSONResponse:
        log.error("database unavailable: %s", exc)
        return JSONResponse({"detail": "The database is unavailable; try again soon.", "code": "unavailable"},
                            status_code=503)
