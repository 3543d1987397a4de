"""How soon a socket shows a move made through another process while Redis is away.

    python -m bench.redis_outage [--away 20] [--freeze]

The fault suite's own services and traffic (``tests/faults``: a PostgreSQL and a Redis of
its own on free ports, two ``potluck serve`` processes, two human-paced tables played over
REST through either process with a spectator socket on each, three all-bot matches). Redis
is killed (or, ``--freeze``, stopped with SIGSTOP: connections stay open and nothing
answers) for ``--away`` seconds. Printed: how many processes said the fan-out was
unavailable, and the seconds from each acknowledged move to each socket showing it
(p50, p90, p99, max). No assertion: figures for the README; ``tests/faults`` asserts 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import time
from typing import Any

from tests.faults.services import OwnPostgres, OwnRedis, missing_binaries
from tests.faults.test_faults import start_servers
from tests.faults.traffic import Traffic


class TimedTraffic(Traffic):
    """Traffic that keeps every delay, with no bound (the suite's stops at ``CURRENT_S``)."""

    async def _current(self, match_id: str, seq: int, watchers: list[Any]) -> None:
        acked = time.monotonic()

        async def shows(w: Any) -> None:
            try:
                await w.wait_seq(seq, timeout=30)
                self.delays.append(time.monotonic() - acked)
            except (asyncio.TimeoutError, ConnectionError):
                self.late.append(f"{match_id}@{seq}")

        await asyncio.gather(*(shows(w) for w in watchers))


def quantiles(values: list[float]) -> str:
    v = sorted(values)
    at = lambda q: v[min(len(v) - 1, int(q * len(v)))]  # noqa: E731
    return f"p50 {at(.5):.3f} s, p90 {at(.9):.3f} s, p99 {at(.99):.3f} s, max {v[-1]:.3f} s ({len(v)} shown)"


async def run(away: float, freeze: bool) -> None:
    pg, redis = await asyncio.to_thread(OwnPostgres), await asyncio.to_thread(OwnRedis)
    servers: list[Any] = []
    try:
        servers = await start_servers(2, pg.url, REDIS_URL=redis.url)
        traffic = TimedTraffic(servers)
        await traffic.keep_bots_busy(3)
        traffic.start_humans(2)
        await asyncio.sleep(3)
        assert redis.process is not None
        told = [s.output().count("Redis fan-out unavailable") for s in servers]
        if freeze:
            os.kill(redis.process.pid, signal.SIGSTOP)
        else:
            redis.kill()
        traffic.redis_down = True
        await asyncio.sleep(away)
        traffic.redis_down = False
        if freeze:
            os.kill(redis.process.pid, signal.SIGCONT)
        else:
            await asyncio.to_thread(redis.start)
        await asyncio.sleep(2)
        await traffic.stop()
        said = [s.output().count("Redis fan-out unavailable") - n for s, n in zip(servers, told)]
        print(f"Redis {'frozen' if freeze else 'killed'} for {away:g} s; load average {os.getloadavg()[0]:.1f}")
        print(f"processes that said the fan-out was unavailable: {sum(n > 0 for n in said)} of {len(servers)}")
        if traffic.delays:
            print(f"ack -> socket showing the move: {quantiles(traffic.delays)}; never shown: {len(traffic.late)}")
    finally:
        for s in servers:
            s.kill()
        redis.close()
        pg.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--away", type=float, default=20.0, help="seconds Redis is away")
    parser.add_argument("--freeze", action="store_true", help="SIGSTOP Redis instead of killing it")
    args = parser.parse_args()
    if (reason := missing_binaries()) is not None:
        raise SystemExit(reason)
    asyncio.run(run(args.away, args.freeze))


if __name__ == "__main__":
    main()
