"""Load benchmark: bot clients over real WebSockets on loopback.

    python -m bench.load [--matches 1,100,500] [--players 2] [--seconds 8] [--idle 1000]

For each number of concurrent matches it starts fresh Potluck matches of Nutty Noodles on a
``potluck serve`` subprocess (a fresh SQLite file unless ``--database`` names another
store), connects one WebSocket client per seat, and lets every client play random legal
actions after a human-like pause. It prints the **action → all views** latency: from a
client sending an action to the moment every client of that match holds the state with
the action's ``seq`` (p50, p99, max), and the actions per second the run carried.

The same clients then play against a **bare ``websockets`` broadcast server** (one room per
match; each action bumps the room's seq and broadcasts a state of the same size as
Potluck's average state message, then acks) — the floor: what loopback, the client and the
WebSocket library cost with no game, no database and no views.

Finally it measures **memory per idle match**: the server's RSS growth per started match
that nobody is playing (all seats joined, slow timers, no sockets).
No timing assertions: these are figures for the notes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

REPO = Path(__file__).resolve().parents[1]
SLOW_TIMERS = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}
STATE_HEAD = re.compile(r'\{"type": ?"state", ?"seq": ?(\d+)')
NO_LEGAL = re.compile(r'"legal": ?\[\]')


# ---- servers ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """A server subprocess, ready once ``url`` answers."""

    def __init__(self, args: list[str], ready_url: str, env: dict[str, str] | None = None,
                 workdir: Path | None = None) -> None:
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(args, cwd=workdir or REPO, stdout=self.log, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})})
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"{args} exited:\n{self.log.read().decode(errors='replace')}")
            try:
                httpx.get(ready_url, timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise TimeoutError(f"{args} did not start")

    def cpu_seconds(self) -> float:
        """User + system CPU time the process has used."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_potluck(database: str | None, workdir: Path) -> tuple[Process, str]:
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {"POTLUCK_STANDIN_AFTER_S": "0", "POTLUCK_RATE_PER_SECOND": "1000", "POTLUCK_RATE_BURST": "1000",
           # every simulated player comes from 127.0.0.1: no limits per address
           "POTLUCK_MAX_SOCKETS_PER_ADDRESS": "0", "POTLUCK_CREATE_PER_MINUTE": "0"}
    env["DATABASE_URL"] = database or f"sqlite:///{workdir / 'bench.db'}"
    url = f"http://127.0.0.1:{port}"
    proc = Process([sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--no-access-log"],
                   f"{url}/healthz", env, workdir)
    return proc, url


def start_floor(payload_bytes: int) -> tuple[Process, str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = Process([sys.executable, "-m", "bench.load", "--floor-server", str(port), "--payload", str(payload_bytes)],
                   f"{url}/", None)
    return proc, url


async def floor_server(port: int, payload_bytes: int) -> None:
    """The floor: rooms of sockets; an action bumps the room's seq, broadcasts a state of
    ``payload_bytes`` to the room, then acks the sender."""
    from websockets.asyncio.server import broadcast, serve
    from websockets.http11 import Response
    from websockets.datastructures import Headers

    rooms: dict[str, set[Any]] = {}
    seqs: dict[str, int] = {}
    pad = "x" * max(0, payload_bytes - 80)

    def state(room: str) -> str:
        return json.dumps({"type": "state", "seq": seqs[room], "legal": [{"type": "noop"}],
                           "view": {"pad": pad}, "events": []})

    async def handler(ws: Any) -> None:
        room = ws.request.path.split("?")[0]
        members = rooms.setdefault(room, set())
        seqs.setdefault(room, 0)
        members.add(ws)
        try:
            await ws.send(state(room))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "action":
                    seqs[room] += 1
                    broadcast(members, state(room))
                    await ws.send(json.dumps({"type": "ack", "id": msg.get("id"), "seq": seqs[room]}))
        finally:
            members.discard(ws)

    def health(connection: Any, request: Any) -> Response | None:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return Response(200, "OK", Headers([("Content-Length", "2")]), b"ok")
        return None

    async with serve(handler, "127.0.0.1", port, process_request=health, max_size=None):
        await asyncio.Future()


# ---- clients ---------------------------------------------------------------------------

@dataclass
class Sent:
    match: int
    at: float
    seq: int | None = None


@dataclass
class Run:
    label: str
    matches: int
    sockets: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    unseen: int = 0
    dropped: int = 0  # sockets that failed to connect or were closed during the run
    state_bytes: list[int] = field(default_factory=list)
    server_cpu: float = 0.0  # share of one core the server used while measured
    cpu_per_action_ms: float = 0.0  # server CPU time per acknowledged action
    server_p50_ms: float | None = None  # receive → committed → queued to every socket (from /metrics)

    def line(self) -> str:
        lat = sorted(self.latencies_ms)
        if not lat:
            return f"{self.label:<9} {self.matches:>5} matches: no actions measured"
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        return (f"{self.label:<9} {self.matches:>5} matches {self.sockets:>5} sockets  "
                f"p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  max {lat[-1]:7.1f} ms  "
                f"{self.actions / self.seconds:6.1f} actions/s  server CPU {self.server_cpu:4.0%} "
                f"({self.cpu_per_action_ms:.2f} ms/action)"
                + (f"  in-server p50 ≤{self.server_p50_ms:g} ms" if self.server_p50_ms is not None else "")
                + f"  (n={len(lat)}, refused {self.refused}, unseen {self.unseen}, dropped {self.dropped})")


class Client:
    """One seat's socket: records when each seq arrived, plays a random legal action after a
    pause whenever it may act."""

    def __init__(self, run: Run, match: int, arrivals: list[dict[int, float]], think: tuple[float, float],
                 rng: random.Random, measure_from: float) -> None:
        self.run, self.match, self.think, self.rng = run, match, think, rng
        self.arrivals: dict[int, float] = {}
        arrivals.append(self.arrivals)
        self.legal: list[Any] = []
        self.latest = ""
        self.pending: dict[str, Sent] = {}
        self.sent: list[Sent] = []
        self.timer: asyncio.TimerHandle | None = None
        self.measure_from = measure_from
        self.next_id = 0
        self.ws: Any = None
        self.ready = False  # connected, or failed to

    async def play(self, url: str, stop: asyncio.Event) -> None:
        try:
            async with websockets.connect(url, max_size=None, open_timeout=60) as ws:
                self.ws = ws
                self.ready = True
                reader = asyncio.create_task(self._read(ws))
                await stop.wait()
                if self.timer:
                    self.timer.cancel()
                reader.cancel()
        except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
            self.run.dropped += 1
        finally:
            self.ready = True

    async def _read(self, ws: Any) -> None:
        try:
            await self._read_all(ws)
        except websockets.ConnectionClosed:
            self.run.dropped += 1
            self.ws = None

    async def _read_all(self, ws: Any) -> None:
        async for raw in ws:
            now = time.perf_counter()
            head = STATE_HEAD.match(raw)
            if head:  # states are parsed only when the client acts on them: the client's
                self.arrivals.setdefault(int(head[1]), now)  # CPU is shared with the server
                self.latest = raw
                if now >= self.measure_from:
                    self.run.state_bytes.append(len(raw))
                if not NO_LEGAL.search(raw) and self.timer is None:
                    delay = self.rng.uniform(*self.think)
                    self.timer = asyncio.get_running_loop().call_later(delay, self._act)
                continue
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack":
                sent = self.pending.pop(msg["id"], None)
                if sent:
                    sent.seq = msg["seq"]
            elif kind == "error":
                self.pending.pop(msg.get("id"), None)
                self.run.refused += 1

    def _act(self) -> None:
        self.timer = None
        if self.ws is None or not self.latest:
            return
        self.legal = json.loads(self.latest).get("legal") or []
        if not self.legal:
            return
        self.next_id += 1
        msg_id = f"{self.match}-{id(self)}-{self.next_id}"
        sent = Sent(self.match, time.perf_counter())
        self.pending[msg_id] = sent
        self.sent.append(sent)
        text = json.dumps({"type": "action", "id": msg_id, "action": self.rng.choice(self.legal)})
        asyncio.get_running_loop().create_task(self._send(text))

    async def _send(self, text: str) -> None:
        try:
            await self.ws.send(text)
        except websockets.ConnectionClosed:
            pass


async def drive(label: str, rooms: list[list[str]], seconds: float, warmup: float,
                think: tuple[float, float], server: Process, metrics_url: str | None = None,
                seed: int = 1) -> Run:
    """Connect every seat, play for ``warmup + seconds``, measure the last ``seconds``
    (client latencies, the server's CPU share and, from ``metrics_url``, its own latency)."""
    run = Run(label, len(rooms), sum(len(r) for r in rooms), seconds)
    rng = random.Random(seed)
    stop = asyncio.Event()
    arrivals: dict[int, list[dict[int, float]]] = {}
    clients: list[Client] = []
    start = time.perf_counter() + 3600  # set once everyone is connected
    for m, urls in enumerate(rooms):
        for _ in urls:
            clients.append(Client(run, m, arrivals.setdefault(m, []), think, random.Random(rng.random()), start))
    gate = asyncio.Semaphore(50)

    async def connect_and_play(client: Client, url: str) -> None:
        async with gate:
            pass
        await client.play(url, stop)

    tasks = [asyncio.create_task(connect_and_play(c, url))
             for c, url in zip(clients, [u for r in rooms for u in r])]
    while not all(c.ready for c in clients):
        await asyncio.sleep(0.05)
    measure_from = time.perf_counter() + warmup
    for c in clients:
        c.measure_from = measure_from
    await asyncio.sleep(warmup)
    cpu0, histogram0 = server.cpu_seconds(), await _latency_histogram(metrics_url)
    await asyncio.sleep(seconds)
    measure_to = time.perf_counter()
    run.server_cpu = (server.cpu_seconds() - cpu0) / (measure_to - measure_from)
    if metrics_url:
        run.server_p50_ms = _median_ms(histogram0, await _latency_histogram(metrics_url))
    await asyncio.sleep(1.0)  # let the last states arrive
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for c in clients:
        for sent in c.sent:
            if sent.seq is None or not measure_from <= sent.at <= measure_to:
                continue
            run.actions += 1
            seen = [a.get(sent.seq) for a in arrivals[sent.match]]
            if any(t is None for t in seen):
                run.unseen += 1
                continue
            run.latencies_ms.append((max(seen) - sent.at) * 1000)  # type: ignore[type-var]
    if run.actions:
        run.cpu_per_action_ms = run.server_cpu * (measure_to - measure_from) / run.actions * 1000
    return run


async def _latency_histogram(metrics_url: str | None) -> dict[float, float]:
    """Cumulative counts of ``potluck_action_latency_seconds`` by upper bound."""
    if not metrics_url:
        return {}
    async with httpx.AsyncClient(timeout=30) as client:
        text = (await client.get(metrics_url)).text
    out = {}
    for line in text.splitlines():
        if line.startswith("potluck_action_latency_seconds_bucket"):
            bound = line.split('le="')[1].split('"')[0]
            out[float(bound)] = float(line.split()[-1])
    return out


def _median_ms(before: dict[float, float], after: dict[float, float]) -> float | None:
    """The bucket bound holding the median of the observations between two scrapes."""
    counts = sorted((bound, after[bound] - before.get(bound, 0.0)) for bound in after)
    if not counts or counts[-1][1] <= 0:
        return None
    half = counts[-1][1] / 2
    return next(bound for bound, n in counts if n >= half) * 1000


async def potluck_rooms(url: str, matches: int, players: int) -> list[list[str]]:
    """Start ``matches`` matches and return each seat's WebSocket URL."""
    ws = url.replace("http://", "ws://")
    gate = asyncio.Semaphore(20)
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        async def one(i: int) -> list[str]:
            async with gate:
                r = await client.post("/api/matches", json={"game": "nutty-noodles", "players": players})
                match_id = r.json()["id"]
                tokens = []
                for p in range(players):
                    r = await client.post(f"/api/matches/{match_id}/join", json={"name": f"P{p}"})
                    tokens.append(r.json()["token"])
            return [f"{ws}/ws/matches/{match_id}?token={t}" for t in tokens]

        return await asyncio.gather(*(one(i) for i in range(matches)))


async def idle_memory(database: str | None, workdir: Path, count: int, players: int) -> tuple[float, int]:
    """RSS growth per started, unplayed match (KiB), and the baseline RSS (KiB)."""
    server, url = start_potluck(database, workdir / "idle")
    try:
        gate = asyncio.Semaphore(20)
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            async def one() -> None:
                async with gate:
                    r = await client.post("/api/matches", json={"game": "nutty-noodles", "players": players,
                                                                "options": SLOW_TIMERS})
                    match_id = r.json()["id"]
                    for p in range(players):
                        await client.post(f"/api/matches/{match_id}/join", json={"name": f"P{p}"})

            await asyncio.gather(*(one() for _ in range(20)))  # warm every code path
            await asyncio.sleep(1)
            before = server.rss_kib()
            await asyncio.gather(*(one() for _ in range(count)))
            await asyncio.sleep(1)
            live = (await client.get("/healthz")).json()["live_matches"]
            after = server.rss_kib()
        return (after - before) / count, before if live >= count else -1
    finally:
        server.stop()


# ---- main ------------------------------------------------------------------------------

async def main(args: argparse.Namespace) -> None:
    counts = [int(n) for n in args.matches.split(",")]
    think = tuple(float(x) for x in args.think.split(","))
    workdir = Path(tempfile.mkdtemp(prefix="potluck-bench-"))
    print(f"Potluck load benchmark: Nutty Noodles, {args.players} players a match, random legal play "
          f"after {think[0]}–{think[1]} s, {args.seconds} s measured after {args.warmup} s warm-up; "
          f"store: {args.database or 'SQLite (fresh file)'}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.1f} at start.", flush=True)
    runs: list[Run] = []
    server, url = start_potluck(args.database, workdir / "potluck")
    try:
        for n in counts:
            rooms = await potluck_rooms(url, n, args.players)
            run = await drive("potluck", rooms, args.seconds, args.warmup, think,  # type: ignore[arg-type]
                              server, f"{url}/metrics")
            print(run.line(), flush=True)
            runs.append(run)
    finally:
        server.stop()
    sizes = [b for r in runs for b in r.state_bytes]
    payload = int(statistics.mean(sizes)) if sizes else 4000
    if not args.skip_floor:
        floor, furl = start_floor(payload)
        try:
            ws = furl.replace("http://", "ws://")
            for n in counts:
                rooms = [[f"{ws}/room{m}-{n}" for _ in range(args.players)] for m in range(n)]
                run = await drive("bare ws", rooms, args.seconds, args.warmup, think, floor)  # type: ignore[arg-type]
                print(run.line(), flush=True)
        finally:
            floor.stop()
    print(f"(average Potluck state message: {payload} bytes; the floor sends the same size)")
    if args.idle:
        per_match, base = await idle_memory(args.database, workdir, args.idle, args.players)
        print(f"memory per idle match: {per_match:.1f} KiB RSS ({args.idle} started matches, "
              f"{args.players} seats each, no sockets; server baseline {base / 1024:.0f} MiB)")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="1,100,500", help="concurrent matches per run (comma list)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--think", default="0.7,2.5",
                        help="a client's pause before acting, min,max seconds (default: the Nutty "
                             "Noodles bot's throw and reaction times)")
    parser.add_argument("--idle", type=int, default=1000, help="idle matches for the memory figure (0: skip)")
    parser.add_argument("--database", default=None, help="DATABASE_URL for Potluck (default: fresh SQLite)")
    parser.add_argument("--skip-floor", action="store_true")
    parser.add_argument("--floor-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--payload", type=int, default=4000, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    options = parse()
    if options.floor_server:
        asyncio.run(floor_server(options.floor_server, options.payload))
    else:
        asyncio.run(main(options))
