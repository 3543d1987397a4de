"""``POST /api/test/clock`` moves this process's game clock forward (``Clock.advance``), so
that a test can play a match by turns over days in minutes. Mounted only when
``POTLUCK_TEST_CLOCK=1``: never on a real server (anyone could make every deadline pass)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from server.runtime import Runtime

from .auth import runtime_of

router = APIRouter(prefix="/api/test", include_in_schema=False)

DAY_MS = 86_400_000


class Jump(BaseModel):
    ms: int = Field(ge=0, le=30 * DAY_MS, description="How far game time jumps forward.")


@router.post("/clock")
async def advance_clock(body: Jump, runtime: Runtime = Depends(runtime_of)) -> dict[str, int]:
    runtime.services.clock.advance(body.ms)
    return {"now": runtime.services.clock.now_ms()}
