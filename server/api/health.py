"""Liveness and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Is the server up and its database reachable?")
async def healthz(request: Request) -> Response:
    try:
        await request.app.state.db.read(lambda conn: conn.execute(text("SELECT 1")).scalar())
    except Exception as exc:  # report, never crash
        return Response(f'{{"status":"unavailable","database":"{type(exc).__name__}"}}', status_code=503,
                        media_type="application/json")
    runtime = request.app.state.runtime
    return Response(f'{{"status":"ok","live_matches":{len(runtime.live)}}}', media_type="application/json")


@router.get("/metrics", summary="Prometheus metrics")
async def metrics(request: Request) -> Response:
    return Response(request.app.state.runtime.metrics.render(), media_type=CONTENT_TYPE_LATEST)
