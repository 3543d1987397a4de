"""Load benchmark: bot clients over real WebSockets on loopback.

    python -m bench.load [--game nutty-noodles] [--players 2] [--matches 1,100,500]
                         [--seconds 8] [--idle 1000] [--legal delta|whole] [--json]

For each number of concurrent matches it starts fresh matches of ``--game`` on a
``potluck serve`` subprocess (a fresh SQLite file unless ``--database`` names another
store), connects one WebSocket client per seat, and lets every client play random legal
actions after a human-like pause. It prints the **action → all views** latency: from a
client sending an action to the moment every client of that match holds the state with
the action's ``seq`` (p50, p99, max), the actions per second the run carried, the server's
CPU time per action, and the median size of an update (every ``state`` or ``patch``
message after a socket's first state). The clients read compact patches, as the browser
does (``updates=compact``: the legal list as a delta or named by the seq it was held at,
unchanged fields left out); ``--legal delta`` measures the full patch with the legal delta,
``--legal whole`` clients that read the whole list from every patch (as before the delta).

The same clients then play against a **bare ``websockets`` relay** (one room per match;
each action bumps the room's seq and broadcasts an update, then acks) — the floor: what
loopback, the client and the WebSocket library cost with no game, no database and no
views. The relay's first state has the size of Potluck's average first state and its
updates cycle through the sizes of the updates Potluck sent (deltas included); like
Potluck's server it does not compress messages (``permessage-deflate`` off).

Beside the CPU per acknowledged action, each run prints the **changes** per second (seqs,
counted once per match: the actions, and the changes the game's own timers make — a Nutty
Noodles round closing at the end of its tie window, a throw after the throw timer — which
every socket is sent too; the relay has none, its changes are its actions) and the CPU per
change. Refused actions (``refused``: a move a client chose from a list that changed
meanwhile) cost the server CPU but are counted in neither.

Finally it measures **memory per idle match**: the server's RSS growth per started match
of ``--game`` that nobody is playing (all seats joined, no sockets; Nutty Noodles with slow
timers). ``--json`` prints ``{"runs": [{"server": "potluck" | "bare", "game", "players",
"matches", "p50_ms", "p99_ms", "max_ms", "actions_per_s", "cpu_ms_per_action",
"changes_per_s", "cpu_ms_per_change", "server_cpu", "bytes_per_update_median"}, …],
"idle_kib_per_match": …}`` (the lines go to stderr).
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

from server.runtime.patches import apply as patch
from server.runtime.patches import expand

REPO = Path(__file__).resolve().parents[1]
SLOW_TIMERS = {"nutty-noodles": {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}}
UPDATE_HEAD = re.compile(r'\{"type": ?"(state|patch)", ?"seq": ?(\d+)(?:, ?"prev_seq": ?(\d+))?')
LEGAL_CHANGED = re.compile(r'"legal(?:_ops|_at)?": ?(?!\[\])')  # a patch that changes the list held
RECALLED = 4  # as the server keeps them (``seat_views.RECALLED``)


def report(text: str, json_out: bool) -> None:
    print(text, file=sys.stderr if json_out else sys.stdout, flush=True)


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

    def cpu_seconds(self) -> tuple[float, float]:
        """User and system CPU time the process has used."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

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


def start_floor(first_bytes: int, update_sizes: list[int], workdir: Path) -> tuple[Process, str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    sizes = workdir / "update-sizes.json"
    sizes.write_text(json.dumps({"first": first_bytes, "updates": update_sizes or [first_bytes]}))
    proc = Process([sys.executable, "-m", "bench.load", "--floor-server", str(port), "--sizes", str(sizes)],
                   f"{url}/", None)
    return proc, url


async def floor_server(port: int, sizes_file: str) -> None:
    """The floor: rooms of sockets; a socket gets a first state of Potluck's average first
    state size; an action bumps the room's seq, broadcasts an update whose size is the next
    of Potluck's update sizes, then acks the sender."""
    from websockets.asyncio.server import broadcast, serve
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    sizes = json.loads(Path(sizes_file).read_text())
    updates = sizes["updates"]
    rooms: dict[str, set[Any]] = {}
    seqs: dict[str, int] = {}
    sent = 0

    def message(kind: str, seq: int, size: int) -> str:
        if kind == "patch":   # the legal actions held stay as they are
            head = {"type": kind, "seq": seq, "prev_seq": seq - 1, "legal_ops": []}
        else:
            head = {"type": kind, "seq": seq, "legal": [{"type": "noop"}]}
        text = json.dumps({**head, "pad": ""})
        return text[:-2] + "x" * max(0, size - len(text)) + '"}'

    async def handler(ws: Any) -> None:
        nonlocal sent
        room = ws.request.path.split("?")[0]
        members = rooms.setdefault(room, set())
        seqs.setdefault(room, 0)
        members.add(ws)
        try:
            await ws.send(message("state", seqs[room], sizes["first"]))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "action":
                    seqs[room] += 1
                    broadcast(members, message("patch", seqs[room], updates[sent % len(updates)]))
                    sent += 1
                    await ws.send(json.dumps({"type": "ack", "id": msg.get("id"), "seq": seqs[room]}))
        finally:
            members.discard(ws)

    def health(connection: Any, request: Any) -> Response | None:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return Response(200, "OK", Headers([("Content-Length", "2")]), b"ok")
        return None

    # no per-message compression, as Potluck's server (``server_config``): the same frames on the wire
    async with serve(handler, "127.0.0.1", port, process_request=health, max_size=None, compression=None):
        await asyncio.Future()


# ---- clients ---------------------------------------------------------------------------

@dataclass
class Sent:
    match: int
    at: float
    seq: int | None = None


@dataclass
class Run:
    server: str  # "potluck" or "bare"
    game: str
    players: int
    matches: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    actions: int = 0
    changes: int = 0  # seqs first seen in the measured seconds: actions and the game's own timeouts
    refused: dict[str, int] = field(default_factory=dict)  # error code → count
    unseen: int = 0
    gaps: int = 0  # patches whose prev_seq was not the seq the socket held (a resync was asked)
    dropped: int = 0  # sockets that failed to connect or were closed during the run
    first_bytes: list[int] = field(default_factory=list)  # each socket's first state
    update_bytes: list[int] = field(default_factory=list)  # every later state or patch
    server_cpu: float = 0.0  # share of one core the server used while measured
    server_sys: float = 0.0  # the part of it spent in the kernel (system time)
    cpu_per_action_ms: float = 0.0  # server CPU time per acknowledged action
    cpu_per_change_ms: float = 0.0  # server CPU time per change (an action or a timeout), every socket told
    server_p50_ms: float | None = None  # receive → committed → queued to every socket (from /metrics)

    def percentile(self, q: float) -> float | None:
        lat = sorted(self.latencies_ms)
        return lat[min(len(lat) - 1, int(len(lat) * q))] if lat else None

    def figures(self) -> dict[str, Any]:
        """The run as the ``--json`` output names it."""
        lat = self.latencies_ms
        r2 = (lambda x: None if x is None else round(x, 2))
        return {"server": self.server, "game": self.game, "players": self.players, "matches": self.matches,
                "p50_ms": r2(statistics.median(lat) if lat else None), "p99_ms": r2(self.percentile(0.99)),
                "max_ms": r2(max(lat) if lat else None), "actions_per_s": round(self.actions / self.seconds, 1),
                "cpu_ms_per_action": round(self.cpu_per_action_ms, 3),
                "changes_per_s": round(self.changes / self.seconds, 1),
                "cpu_ms_per_change": round(self.cpu_per_change_ms, 3), "server_cpu": round(self.server_cpu, 3),
                "bytes_per_update_median": statistics.median(self.update_bytes) if self.update_bytes else None}

    def line(self) -> str:
        f = self.figures()
        if not self.latencies_ms:
            return (f"{self.server:<8} {self.matches:>5} matches: no actions measured; server CPU while idle "
                    f"{self.server_cpu:4.0%} (sys {self.server_sys:3.0%}), {f['changes_per_s']:.0f} changes/s "
                    f"(the game's own timeouts)")
        return (f"{self.server:<8} {self.matches:>5} matches {self.matches * self.players:>5} sockets  "
                f"p50 {f['p50_ms']:7.1f} ms  p99 {f['p99_ms']:7.1f} ms  max {f['max_ms']:7.1f} ms  "
                f"{f['actions_per_s']:6.1f} actions/s  server CPU {self.server_cpu:4.0%} (sys {self.server_sys:3.0%}) "
                f"({self.cpu_per_action_ms:.2f} ms/action; {f['changes_per_s']:.0f} changes/s, "
                f"{self.cpu_per_change_ms:.2f} ms/change)  update median {f['bytes_per_update_median']:,.0f} B"
                + (f"  in-server p50 ≤{self.server_p50_ms:g} ms" if self.server_p50_ms is not None else "")
                + f"  (n={len(self.latencies_ms)}, refused {sum(self.refused.values())} {self.refused or ''}, "
                  f"unseen {self.unseen}, "
                  f"gaps {self.gaps}, dropped {self.dropped})")


class Client:
    """One seat's socket: records when each seq arrived, plays a random legal action after a
    pause whenever it may act. It reads the legal actions as a delta (``legal=delta``: a
    patch of the list it holds, or the whole list from a server that sends it so). Messages
    are parsed only when they change that list (the client's CPU is shared with the
    server): a regular expression reads each update's head."""

    def __init__(self, run: Run, match: int, arrivals: list[dict[int, float]], think: tuple[float, float],
                 rng: random.Random, measure_from: float) -> None:
        self.run, self.match, self.think, self.rng = run, match, think, rng
        self.arrivals: dict[int, float] = {}
        arrivals.append(self.arrivals)
        self.held = -1  # the seq of the state this socket holds
        self.legal: list[Any] = []  # the legal actions it holds
        self.recent: list[tuple[int, list[Any]]] = []  # the last distinct lists held, by seq
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
            head = UPDATE_HEAD.match(raw)
            if head:
                self._update(raw, head, now)
                continue
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack":
                sent = self.pending.pop(msg["id"], None)
                if sent:
                    sent.seq = msg["seq"]
            elif kind == "error":
                self.pending.pop(msg.get("id"), None)
                code = msg.get("code", "?")
                self.run.refused[code] = self.run.refused.get(code, 0) + 1

    def _update(self, raw: str, head: re.Match[str], now: float) -> None:
        kind, seq = head[1], int(head[2])
        if kind == "patch" and int(head[3] or seq - 1) != self.held:
            self.run.gaps += 1  # a real client would ask for the full state here
            self._send_soon(json.dumps({"type": "resync"}))
        first = self.held < 0
        self.held = seq
        self.arrivals.setdefault(seq, now)
        if now >= self.measure_from:
            (self.run.first_bytes if first else self.run.update_bytes).append(len(raw))
        elif first:
            self.run.first_bytes.append(len(raw))
        if kind == "state" or LEGAL_CHANGED.search(raw):
            self._read_legal(kind, seq, json.loads(raw))
        if self.legal and self.timer is None:
            delay = self.rng.uniform(*self.think)
            self.timer = asyncio.get_running_loop().call_later(delay, self._act)

    def _read_legal(self, kind: str, seq: int, msg: dict[str, Any]) -> None:
        """The legal list after a message that changed it; the last ``RECALLED`` distinct
        lists are kept by seq, as the server keeps them, for ``legal_at`` to name."""
        if kind == "state":
            self.legal, self.recent = msg.get("legal") or [], []
        elif "legal_at" in msg:
            kept = [entry for entry in self.recent if entry[0] == msg["legal_at"]]
            if not kept:
                self.run.gaps += 1
                self._send_soon(json.dumps({"type": "resync"}))
                return
            self.legal = kept[0][1]
            self.recent.remove(kept[0])
        elif "legal_ops" in msg:
            self.legal = patch(self.legal, expand(msg["legal_ops"]))
        else:
            self.legal = msg.get("legal") or []
        self.recent = [*self.recent, (seq, self.legal)][-RECALLED:]

    def _act(self) -> None:
        self.timer = None
        legal = self.legal
        if self.ws is None or not legal:
            return
        self.next_id += 1
        msg_id = f"{self.match}-{id(self)}-{self.next_id}"
        sent = Sent(self.match, time.perf_counter())
        self.pending[msg_id] = sent
        self.sent.append(sent)
        self._send_soon(json.dumps({"type": "action", "id": msg_id, "action": self.rng.choice(legal)}))

    def _send_soon(self, text: str) -> None:
        asyncio.get_running_loop().create_task(self._send(text))

    async def _send(self, text: str) -> None:
        try:
            await self.ws.send(text)
        except (websockets.ConnectionClosed, AttributeError):
            pass


async def drive(run: Run, rooms: list[list[str]], warmup: float, think: tuple[float, float],
                server: Process, metrics_url: str | None = None, seed: int = 1,
                profile: str | None = None) -> Run:
    """Connect every seat, play for ``warmup + run.seconds``, measure the last seconds
    (client latencies, the server's CPU share and, from ``metrics_url``, its own latency;
    with ``profile``, py-spy samples the server meanwhile into that file)."""
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
    spy = None
    if profile:
        spy = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(server.proc.pid), "--nonblocking", "--gil",
            "--duration", str(int(run.seconds)), "--format", "raw", "--output", profile,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    await asyncio.sleep(run.seconds)
    measure_to = time.perf_counter()
    user, system = (b - a for a, b in zip(cpu0, server.cpu_seconds()))
    run.server_cpu = (user + system) / (measure_to - measure_from)
    run.server_sys = system / (measure_to - measure_from)
    if metrics_url:
        run.server_p50_ms = _median_ms(histogram0, await _latency_histogram(metrics_url))
    await asyncio.sleep(1.0)  # let the last states arrive
    if spy:
        await spy.wait()
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
    for match_arrivals in arrivals.values():  # a change is counted once, when its first socket has it
        firsts: dict[int, float] = {}
        for a in match_arrivals:
            for seq, at in a.items():
                firsts[seq] = min(at, firsts.get(seq, at))
        run.changes += sum(1 for at in firsts.values() if measure_from <= at <= measure_to)
    spent_ms = run.server_cpu * (measure_to - measure_from) * 1000
    if run.actions:
        run.cpu_per_action_ms = spent_ms / run.actions
    if run.changes:
        run.cpu_per_change_ms = spent_ms / run.changes
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


async def start_matches(client: httpx.AsyncClient, game: str, matches: int, players: int,
                        options: dict[str, Any] | None = None) -> list[tuple[str, list[str]]]:
    """Start ``matches`` matches of ``game`` (every seat joined); each one's id and tokens."""
    gate = asyncio.Semaphore(20)

    async def one() -> tuple[str, list[str]]:
        async with gate:
            r = await client.post("/api/matches", json={"game": game, "players": players, "options": options or {}})
            r.raise_for_status()
            match_id = r.json()["id"]
            tokens = []
            for p in range(players):
                r = await client.post(f"/api/matches/{match_id}/join", json={"name": f"P{p}"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
        return match_id, tokens

    return await asyncio.gather(*(one() for _ in range(matches)))


async def potluck_rooms(url: str, game: str, matches: int, players: int, legal: str,
                        options: dict[str, Any] | None = None) -> list[list[str]]:
    """Start ``matches`` matches (with ``options``) and return each seat's WebSocket URL
    (reading ``legal`` whole or as a delta)."""
    ws = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        started = await start_matches(client, game, matches, players, options)
    query = "updates=compact" if legal == "compact" else f"legal={legal}"
    return [[f"{ws}/ws/matches/{match_id}?token={t}&{query}" for t in tokens] for match_id, tokens in started]


async def idle_memory(database: str | None, workdir: Path, game: str, count: int, players: int) -> tuple[float, int]:
    """RSS growth per started, unplayed match (KiB), and the baseline RSS (KiB)."""
    server, url = start_potluck(database, workdir / "idle")
    options = SLOW_TIMERS.get(game)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            await start_matches(client, game, 20, players, options)  # warm every code path
            await asyncio.sleep(1)
            before = server.rss_kib()
            await start_matches(client, game, count, players, options)
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
    say = lambda text: report(text, args.json)  # noqa: E731
    say(f"Potluck load benchmark: {args.game}, {args.players} players a match, random legal play "
        f"after {think[0]}–{think[1]} s, {args.seconds} s measured after {args.warmup} s warm-up; "
        f"store: {args.database or 'SQLite (fresh file)'}; {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.1f} at start.")
    runs: list[Run] = []
    server, url = start_potluck(args.database, workdir / "potluck")
    try:
        for n in counts:
            rooms = await potluck_rooms(url, args.game, n, args.players, args.legal,
                                        SLOW_TIMERS.get(args.game) if args.slow_timers else None)
            run = Run("potluck", args.game, args.players, n, args.seconds)
            await drive(run, rooms, args.warmup, think, server, f"{url}/metrics",  # type: ignore[arg-type]
                        profile=args.profile and f"{args.profile}-{n}.txt")
            say(run.line())
            runs.append(run)
    finally:
        server.stop()
    firsts = [b for r in runs for b in r.first_bytes]
    updates = [b for r in runs for b in r.update_bytes]
    first = int(statistics.mean(firsts)) if firsts else 4000
    if not args.skip_floor:
        floor, furl = start_floor(first, random.Random(1).sample(updates, min(len(updates), 5000)), workdir)
        try:
            ws = furl.replace("http://", "ws://")
            for n in counts:
                rooms = [[f"{ws}/room{m}-{n}" for _ in range(args.players)] for m in range(n)]
                run = Run("bare", args.game, args.players, n, args.seconds)
                await drive(run, rooms, args.warmup, think, floor)  # type: ignore[arg-type]
                say(run.line())
                runs.append(run)
        finally:
            floor.stop()
    say(f"(Potluck's first state averages {first:,} bytes, its updates {statistics.mean(updates or [0]):,.0f} "
        f"(median {statistics.median(updates or [0]):,.0f}); the bare relay sends the same sizes)")
    idle = None
    if args.idle:
        idle, base = await idle_memory(args.database, workdir, args.game, args.idle, args.players)
        say(f"memory per idle match: {idle:.1f} KiB RSS ({args.idle} started matches, "
            f"{args.players} seats each, no sockets; server baseline {base / 1024:.0f} MiB)")
    if args.json:
        print(json.dumps({"runs": [r.figures() for r in runs],
                          "idle_kib_per_match": None if idle is None else round(idle, 1)}, indent=1))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nutty-noodles")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", default="1,100,500", help="concurrent matches per run (comma list)")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds played before measuring (2 s, the old default, left the aftermath of "
                             "connecting 1,000 sockets in the measured seconds: an idle server's CPU 11 %% "
                             "then, 2 %% after 10 s)")
    parser.add_argument("--think", default="0.7,2.5",
                        help="a client's pause before acting, min,max seconds (default: the Nutty "
                             "Noodles bot's throw and reaction times)")
    parser.add_argument("--idle", type=int, default=1000, help="idle matches for the memory figure (0: skip)")
    parser.add_argument("--database", default=None, help="DATABASE_URL for Potluck (default: fresh SQLite)")
    parser.add_argument("--legal", choices=("compact", "delta", "whole"), default="compact",
                        help="how Potluck's clients read patches: compact (the browser's), full with the "
                             "legal delta, or full with the whole list (as before the delta)")
    parser.add_argument("--slow-timers", action="store_true",
                        help="matches with the game's timers at their slowest (Nutty Noodles: a throw after "
                             "120 s, a round after 600 s): with --think 3600,3600, what the server spends while "
                             "nothing happens at all")
    parser.add_argument("--skip-floor", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON document")
    parser.add_argument("--profile", metavar="PREFIX",
                        help="sample Potluck with py-spy while measured (pip install py-spy): "
                             "PREFIX-<matches>.txt, one stack and its count a line")
    parser.add_argument("--floor-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    options = parse()
    if options.floor_server:
        asyncio.run(floor_server(options.floor_server, options.sizes))
    else:
        asyncio.run(main(options))
