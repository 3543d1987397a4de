"""Liveness and Prometheus metrics."""

from __future__ import annotations

import hmac
import ipaddress
from functools import cache

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

from server.runtime import NotYourSeat

from .auth import client_address

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Is the server up and its database reachable?")
async def healthz(request: Request) -> Response:
    try:
        await request.app.state.db.read(lambda conn: conn.execute(text("SELECT 1")).scalar())
    except Exception as exc:  # report, never crash
        return Response(f'{{"status":"unavailable","database":"{type(exc).__name__}"}}', status_code=503,
                        media_type="application/json")
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
