"""Engine benchmark: steps per second, bot games per second, and the cost of the views.

    .venv/bin/python -m bench.engine [GAME ...] [--players N] [--seconds S] [--json]

Every game by default, each at its largest table unless ``--players`` says otherwise.
Times are this process's CPU time (``time.process_time``), so a busy machine slows the
benchmark down without changing its figures much. Figures are printed, never asserted:

- **steps/s**: one ``legal`` call for every seat plus one ``apply`` of a random legal
  action (timeouts included when the deadline comes first);
- **bot games/s**: whole games played by the game's own bots (``potluck simulate``);
- **views after one action**: the time to build every seat's view and the spectator's
  at once (``Game.views``) after one action (what the server pushes after every change),
  measured on states sampled along random games, the views of the state before the action
  built just before as the runtime builds them; beside it the same for a state alone
  (nothing built before it); and the mean size of one seat's view as JSON;
- **fan-out after one action**: what the runtime does per change for every seat and the
  spectator: the views (built through ``Game.views``), each seat's legal actions, the
  patch from the previous view and the encoded message; beside it, for comparison, whole
  states as the runtime sent them before patches (view, legal actions, stdlib ``json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from server.engine import IllegalAction, Rng, registry
from server.engine import TIMEOUT
from server.engine.playout import play, player_names

clock = time.process_time  # this process's CPU time: the machine may be shared


def random_states(game: Any, players: int, seconds: float, seed: int = 1,
                  keep_every: int = 1) -> tuple[float, list[Any]]:
    """Random legal play for ``seconds``: returns the steps/s and every ``keep_every``-th
    state reached (``keep_every=0``: none). The steps/s figure is taken keeping none: the
    states kept otherwise (every one, tens of thousands) make the collector's full
    collections walk them all, which halved Rival Restaurants' figure — the collector's
    cost, not the game's."""
    rng = Rng(seed)
    names = player_names(players)
    steps, kept, started = 0, [], clock()
    while clock() - started < seconds:
        state = game.setup(names, game.options(None), rng.next64(), 0)
        now = 0
        while game.result(state) is None:
            moves = [(seat, a) for seat in range(players) for a in game.legal(state, seat)]
            now += rng.randint(20, 400)
            deadline = game.deadline(state)
            if deadline is not None and (deadline <= now or not moves):
                now = max(now, deadline)
                state, _ = game.apply(state, None, dict(TIMEOUT), now)
            else:
                seat, action = rng.choice(moves)
                try:
                    state, _ = game.apply(state, seat, action, now)
                except IllegalAction:
                    pass
            steps += 1
            if keep_every and steps % keep_every == 0:
                kept.append(state)
    return steps / (clock() - started), kept


def games_per_second(game: Any, players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    rng = Rng(seed)
    games, actions, started = 0, 0, clock()
    while clock() - started < seconds:
        out = play(game, players, None, rng.next64())
        games += 1
        actions += len(out.log)
    elapsed = clock() - started
    return games / elapsed, actions / games


def sample(states: list[Any], count: int) -> list[Any]:
    """``count`` states spread evenly over ``states`` (consecutive pairs kept together)."""
    if len(states) <= count:
        return states
    step = len(states) / count
    return [states[int(i * step)] for i in range(count)]


def views_cost(game: Any, players: int, pairs: list[tuple[Any, Any]]) -> tuple[float, float, float]:
    """All seats' views and the spectator's, built at once (``Game.views``, as the runtime
    does): the mean ms after one action — the views of the state before it were built just
    before, as the runtime built them, so what a game keeps between states counts — and
    the mean ms for a state alone (views of each second pair's state after, nothing built
    before it); and the mean bytes of one view as JSON."""
    seats: list[int | None] = [*range(players), None]
    after = alone = 0.0
    for i, (before, state) in enumerate(pairs):
        if i % 2 == 0:
            game.views(before, seats)
        started = clock()
        game.views(state, seats)
        if i % 2 == 0:
            after += clock() - started
        else:
            alone += clock() - started
    halves = (len(pairs) + 1) // 2, max(1, len(pairs) // 2)
    states = [state for _, state in pairs]
    sizes = [len(json.dumps(game.view(s, seat), separators=(",", ":"))) for s in states[:50] for seat in seats]
    return after * 1000 / halves[0], alone * 1000 / halves[1], statistics.mean(sizes)


def fanout_cost(game: Any, players: int, pairs: list[tuple[Any, Any]]) -> tuple[float, float]:
    """Mean ms the runtime spends per change on the sockets of every seat and a spectator
    (``SeatViews.messages``: views, legal actions, patches, encoded messages), and the
    median bytes of one seat's patch message."""
    from server.runtime.seat_views import WHOLE, SeatViews
    from server.runtime.step import settled

    sockets = {seat: (WHOLE,) for seat in [*range(players), None]}
    common = {"status": "running", "deadline": None, "now": 0, "result": None}
    sizes: list[int] = []
    elapsed = 0.0
    for before, after in pairs:
        views = SeatViews(game)
        views.messages(settled(game, before, 1, []), sockets, common)
        started = clock()
        texts = views.messages(settled(game, after, 2, []), sockets, common)
        elapsed += clock() - started
        sizes += [len(m.text) for m in texts.values()]
    return elapsed * 1000 / len(pairs), statistics.median(sizes)


def whole_states_cost(game: Any, players: int, states: list[Any]) -> tuple[float, float]:
    """Mean ms to send every seat and a spectator its whole state after one change the way
    the runtime did before patches (a view, legal actions and ``json.dumps`` per seat), and
    the median bytes of one such message."""
    seats: list[int | None] = [*range(players), None]
    encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    sizes: list[int] = []
    started = clock()
    for state in states:
        for seat in seats:
            legal = [] if seat is None else game.legal(state, seat)
            sizes.append(len(encode({"type": "state", "seq": 1, "status": "running", "view": game.view(state, seat),
                                     "legal": legal, "events": [], "deadline": game.deadline(state), "now": 0,
                                     "result": None})))
    return (clock() - started) * 1000 / len(states), statistics.median(sizes)


def measure(game_id: str, players: int | None, seconds: float) -> dict[str, Any]:
    game = registry.get(game_id)
    players = players or game.max_players
    sps, _ = random_states(game, players, seconds, keep_every=0)  # no state kept: see random_states
    gps, mean_actions = games_per_second(game, players, seconds)
    _, states = random_states(game, players, min(seconds, 2.0), seed=2)
    pairs = sample(list(zip(states, states[1:])), 200)
    views_ms, alone_ms, view_bytes = views_cost(game, players, pairs)
    whole_ms, whole_bytes = whole_states_cost(game, players, [after for _, after in pairs])
    out = {"game": game_id, "players": players, "steps_per_s": round(sps),
           "bot_games_per_s": round(gps, 2), "actions_per_game": round(mean_actions, 1),
           "views_ms": round(views_ms, 3), "views_alone_ms": round(alone_ms, 3), "view_bytes": round(view_bytes),
           "whole_states_ms": round(whole_ms, 3), "whole_state_bytes_median": round(whole_bytes)}
    try:
        fan_ms, patch_bytes = fanout_cost(game, players, pairs)
        out.update(fanout_ms=round(fan_ms, 3), patch_bytes_median=round(patch_bytes))
    except ImportError:  # before the runtime had per-seat patches
        pass
    return out


def line(r: dict[str, Any]) -> str:
    text = (f"{r['game']} ({r['players']} players): {r['steps_per_s']:,} legal+apply steps/s; "
            f"{r['bot_games_per_s']:,} bot games/s ({r['actions_per_game']} actions/game); "
            f"all {r['players']} seats' views + spectator's after one action {r['views_ms']:.2f} ms "
            f"(a state alone {r['views_alone_ms']:.2f} ms; {r['view_bytes']:,} bytes a view)")
    text += (f"; whole states per change {r['whole_states_ms']:.2f} ms (median {r['whole_state_bytes_median']:,} "
             f"bytes)")
    if "fanout_ms" in r:
        text += f"; patches per change {r['fanout_ms']:.2f} ms (median {r['patch_bytes_median']:,} bytes)"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--players", type=int, default=None, help="default: each game's largest table")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of lines")
    args = parser.parse_args()
    results = []
    for game_id in args.games or list(registry.games()):
        results.append(measure(game_id, args.players, args.seconds))
        if not args.json:
            print(line(results[-1]), flush=True)
    if args.json:
        print(json.dumps({"runs": results}, indent=1))


if __name__ == "__main__":
    main()
