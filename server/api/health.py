"""Liveness and Prometheus metrics."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
from functools import cache

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

from server.runtime import NotYourSeat

from .auth import client_address
from .errors import RETRY_AFTER_S

router = APIRouter(tags=["operations"])


HEALTH_TIMEOUT_S = 2.0  # a database slower than this to answer SELECT 1 is reported away


@router.get("/healthz", summary="Is the server up, its database reachable and its writes succeeding?",
            responses={503: {"description": "The database does not answer within 2 s, or the latest write "
                             "failed (``reason`` says why); ``Retry-After`` says when to ask again."}})
async def healthz(request: Request) -> Response:
    db = request.app.state.db
    try:
        await asyncio.wait_for(db.read(lambda conn: conn.execute(text("SELECT 1")).scalar()), HEALTH_TIMEOUT_S)
    except Exception as exc:  # report, never crash
        return unhealthy(type(exc).__name__, str(exc) or "no answer within 2 s")
    trouble = db.write_trouble()
    if trouble is not None:
        return unhealthy("writes failing", trouble)
    runtime = request.app.state.runtime  # "process": which server answered (behind a proxy)
    return Response(f'{{"status":"ok","live_matches":{len(runtime.live)},"process":"{runtime.process_id}"}}',
                    media_type="application/json")


@router.get("/metrics", summary="Prometheus metrics",
            responses={403: {"description": "Not from an address of `POTLUCK_METRICS_ALLOW` and without "
                             "`POTLUCK_METRICS_TOKEN` as a Bearer token."}})
async def metrics(request: Request) -> Response:
    """Prometheus metrics, for the addresses in ``POTLUCK_METRICS_ALLOW`` (default: this
    machine) or anyone with ``POTLUCK_METRICS_TOKEN`` as a Bearer token."""
    settings = request.app.state.settings
    if not metrics_allowed(request, settings.metrics_allow, settings.metrics_token):
        raise NotYourSeat("Metrics are for the server's operators.")
    return Response(request.app.state.runtime.metrics.render(), media_type=CONTENT_TYPE_LATEST)


def unhealthy(database: str, reason: str) -> Response:
    body = {"status": "unavailable", "database": database, "reason": reason.splitlines()[0][:300]}
    return JSONResponse(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER_S)})


def metrics_allowed(request: Request, allow: str, token: str) -> bool:
    sent = request.headers.get("authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(address in network for network in networks(allow))


@cache
def networks(allow: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``POTLUCK_METRICS_ALLOW``: comma-separated addresses or networks (``10.0.0.0/8``)."""
    return [ipaddress.ip_network(part.strip(), strict=False) for part in allow.split(",") if part.strip()]
