"""Test clients: a thin REST wrapper, a WebSocket player, and the Nutty Noodles answer a
sharp player would find from the view alone."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import websockets

from server.engine import registry
from server.engine.playout import Entry, replay
from server.games.nutty_noodles.cards import BOWLS, MONSTERS
from server.games.nutty_noodles.rules import bowl_for_dice
from server.runtime.patches import PatchError, apply
from server.runtime.seat_views import Held


class Api:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def create(self, players: int = 2, bots: int = 0, game: str = "nutty-noodles",
                     **options: Any) -> str:
        r = await self.client.post("/api/matches", json={"game": game, "players": players,
                                                         "options": options, "bots": bots})
        assert r.status_code == 201, r.text
        return r.json()["id"]

    async def join(self, match_id: str, name: str) -> tuple[int, str]:
        r = await self.client.post(f"/api/matches/{match_id}/join", json={"name": name})
        assert r.status_code == 200, r.text
        return r.json()["seat"], r.json()["token"]

    async def seated(self, players: int = 2, bots: int = 0, **options: Any) -> tuple[str, list[str]]:
        """A started match and the tokens of its human seats, in seat order."""
        match_id = await self.create(players, bots, **options)
        tokens = [(await self.join(match_id, f"P{i}"))[1] for i in range(players - bots)]
        return match_id, tokens

    async def view(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        r = await self.client.get(f"/api/matches/{match_id}/view", headers=_auth(token))
        assert r.status_code == 200, r.text
        return r.json()

    async def act(self, match_id: str, token: str | None, action: Any, expect_seq: int | None = None,
                  **extra: Any) -> httpx.Response:
        body: dict[str, Any] = {"action": action, **extra}
        if expect_seq is not None:
            body["expect_seq"] = expect_seq
        return await self.client.post(f"/api/matches/{match_id}/actions", json=body, headers=_auth(token))

    async def log(self, match_id: str) -> httpx.Response:
        return await self.client.get(f"/api/matches/{match_id}/log")


async def play_to_the_end(api: Api, match_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play a Nutty Noodles match sharply over REST (seat 0 always serves right); with
    ``tie_window_ms=0`` every placement ends its round at once. Returns the final view."""
    while (v := await api.view(match_id))["status"] != "finished":
        view = v["view"]
        seat = view["thrower"] if view["phase"] == "roll" else 0
        r = await api.act(match_id, tokens[seat], {"type": "roll"} if view["phase"] == "roll" else answer(view))
        assert r.status_code == 200, r.text
    return v


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def answer(view: dict[str, Any]) -> dict[str, Any] | None:
    """The correct placement for the dice on the table, worked out from a view."""
    dice = view.get("throw", {}).get("dice")
    if view.get("phase") not in ("race", "closing") or not dice:
        return None
    target = bowl_for_dice(dice)
    eaters = [t for t, m in enumerate(view["tables"]) if m and MONSTERS[m["id"]].can_eat(BOWLS[target])]
    if not eaters:
        return {"type": "takeaway", "bowl": target}
    return {"type": "place", "table": eaters[0], "bowl": target}


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what differs by seat in Nutty Noodles (``you`` and the prompt)."""
    return {k: v for k, v in view.items() if k not in ("you", "prompt")}


class WsPlayer:
    """One WebSocket connection that records everything the server sends. A ``patch`` is
    applied to the view held, and recorded among ``states`` as the whole state it makes; a
    patch that does not start from the seq held is recorded in ``gaps`` and answered by a
    ``resync`` (as the browser does). A compact socket (``updates="compact"``) reads its
    patches by the rule the browser follows (``Held.read``)."""

    def __init__(self, ws: Any, compact: bool = False) -> None:
        self.ws = ws
        self.compact = compact
        self.held: Held | None = None  # what a compact socket holds
        self.states: list[dict[str, Any]] = []
        self.patches: list[dict[str, Any]] = []  # as received
        self.gaps: list[dict[str, Any]] = []
        self.replies: dict[Any, dict[str, Any]] = {}
        self.other: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self._next_id = 0

    @classmethod
    async def connect(cls, ws_url: str, match_id: str, token: str | None = None, legal: str | None = None,
                      updates: str | None = None, **kw: Any) -> "WsPlayer":
        """``legal``: how the socket reads the legal actions in patches (``None``: as a
        client that never heard of ``legal=``); ``updates="compact"``: compact patches."""
        query = "&".join(f"{k}={v}" for k, v in (("token", token), ("legal", legal), ("updates", updates)) if v)
        url = f"{ws_url}/ws/matches/{match_id}" + (f"?{query}" if query else "")
        return cls(await websockets.connect(url, max_size=None, **kw), compact=updates == "compact")

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    self.states.append(msg)
                    self.held = Held(msg["seq"], msg["view"], msg["legal"],
                                     (msg["status"], msg["deadline"], msg["result"]), ((msg["seq"], msg["legal"]),))
                elif msg["type"] == "patch":
                    self._patched(msg)
                elif msg["type"] in ("ack", "error") and msg.get("id") is not None:
                    self.replies[msg["id"]] = msg
                else:
                    self.other.append(msg)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.changed.set()

    def _patched(self, msg: dict[str, Any]) -> None:
        self.patches.append(msg)
        if self.compact:
            self._compact(msg)
            return
        if not self.states or self.state["seq"] != msg["prev_seq"]:
            self.gaps.append(msg)
            asyncio.get_running_loop().create_task(self.send({"type": "resync"}))
            return
        fields = {k: v for k, v in msg.items() if k not in ("ops", "prev_seq", "legal_ops")}
        if "legal_ops" in msg:
            fields["legal"] = apply(self.state["legal"], msg["legal_ops"])
        self.states.append({**fields, "type": "state", "view": apply(self.state["view"], msg["ops"])})

    def _compact(self, msg: dict[str, Any]) -> None:
        try:
            assert self.held is not None, "a patch before any state"
            self.held = held = self.held.read(msg)
        except (PatchError, AssertionError):
            self.gaps.append(msg)
            asyncio.get_running_loop().create_task(self.send({"type": "resync"}))
            return
        status, deadline, result = held.told
        self.states.append({"type": "state", "seq": held.seq, "view": held.view, "legal": held.legal,
                            "events": msg.get("events", []), "status": status, "deadline": deadline,
                            "result": result, "now": msg.get("now", self.state.get("now"))})

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    @property
    def summary(self) -> dict[str, Any]:
        """The last public summary received (a ``match`` message); ``{}`` before any."""
        return next((m["match"] for m in reversed(self.other) if m["type"] == "match"), {})

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def act(self, action: Any, **extra: Any) -> dict[str, Any]:
        """Send an action and wait for its ack or error."""
        self._next_id += 1
        msg_id = f"a{self._next_id}"
        await self.send({"type": "action", "id": msg_id, "action": action, **extra})
        return await self.reply(msg_id)

    async def reply(self, msg_id: Any, timeout: float = 10) -> dict[str, Any]:
        return await self.wait(lambda: self.replies.get(msg_id), timeout)

    async def wait(self, found: Any, timeout: float = 10) -> Any:
        """Wait until ``found()`` returns something truthy (re-checked on every message)."""
        async def loop() -> Any:
            while True:
                value = found()
                if value:
                    return value
                if self._reader.done():
                    raise ConnectionError("the server closed the connection")
                self.changed.clear()
                await self.changed.wait()
        return await asyncio.wait_for(loop(), timeout)

    async def wait_seq(self, seq: int, timeout: float = 10) -> dict[str, Any]:
        return await self.wait(lambda: self.states and self.state["seq"] >= seq and self.state, timeout)

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)


def choose(rng: random.Random, legal: list[dict], view: dict, sharp: float) -> dict:
    """A random legal action; with probability ``sharp`` the right bowl when there is one."""
    right = answer(view)
    if right in legal and rng.random() < sharp:
        return right
    return rng.choice(legal)


async def play_over_rest(apis: Api | list[Api], match_id: str, token: str, rng: random.Random,
                         sharp: float = 0.6, check: Any = None) -> list[int]:
    """Read this seat's view over REST until the match ends, playing (see ``choose``) each
    time there is something to play; every answer must be 200 or a refusal a race explains
    (409, 422). With several ``apis`` (servers), each request goes to one of them at random.
    ``check`` is called on every view of the running match. Returns the seqs acknowledged."""
    apis = apis if isinstance(apis, list) else [apis]
    pick = (lambda: rng.choice(apis)) if len(apis) > 1 else (lambda: apis[0])
    acks: list[int] = []
    while True:
        v = await pick().view(match_id, token)
        if v["status"] == "finished":
            return acks
        if check:
            check(v)
        if not v["legal"]:
            await asyncio.sleep(0.005)
            continue
        action = choose(rng, v["legal"], v["view"], sharp)
        r = await pick().act(match_id, token, action)
        assert r.status_code in (200, 409, 422), r.text  # 409, 422: the match moved on meanwhile
        if r.status_code == 200:
            acks.append(r.json()["seq"])


async def play_over_websocket(p: WsPlayer, rng: random.Random, sharp: float = 0.6,
                              delay: tuple[float, float] = (0.0, 0.02), timeout: float = 20) -> dict[str, Any]:
    """React to every new state until the match ends: after a pause in ``delay`` seconds,
    play (see ``choose``) and wait for the answer, which must be an ack or a refusal a
    fast-moving race explains; over the rate limit, it chooses again a moment later.
    Returns the final state."""
    seen = -1
    while True:
        state = await p.wait(lambda: p.states and p.state["seq"] > seen and p.state, timeout)
        seen = state["seq"]
        if state["status"] == "finished":
            return state
        if state["legal"]:
            await asyncio.sleep(rng.uniform(*delay))
            reply = await p.act(choose(rng, state["legal"], state["view"], sharp))
            if reply.get("code") == "rate_limited":
                await asyncio.sleep(0.2)
                seen -= 1  # choose again on the newest state
                continue
            assert reply["type"] == "ack" or reply["code"] in ("illegal", "stale", "finished"), reply


async def check_log_replays(api: Api, match_id: str, final_view: dict, seat: int | None = None) -> dict:
    """The published log has seqs 1…n and replays (seed, players, options, start time) to
    the final view ``seat`` was shown and to the stored result."""
    r = await api.log(match_id)
    assert r.status_code == 200, r.text
    log = r.json()
    seqs = [a["seq"] for a in log["actions"]]
    assert seqs == list(range(1, len(seqs) + 1)), "the log has a gap or a duplicate"
    game = registry.get(log["game"])
    state = replay(game, log["players"], log["options"], log["seed"],
                   [Entry(a["seat"], a["action"], a["at"]) for a in log["actions"]], log["started_at"])
    assert game.view(state, seat) == final_view
    assert game.result(state).to_json() == log["result"]
    return log
