"""A Sneaky Supper bot with a real push-your-luck policy.

It values cards by what they can still become (progress towards an available Recipe or its
Craving) or their points when eaten. Before each draw it looks at the cards that can come
next — the contents of the top segment of the Search deck and of the Utensil deck are
public (only their order is not), and it learns them from a ``determinize``d state — and
draws while the expected gain beats the expected loss of a bust. Careful tokens buy a
continued sneak or save a rich haul when that is worth more than the point the token
would score at the end; the Secret Stash is used when a Recipe or Craving is worth more
than the tokens and cards it costs. Cravings are grabbed the moment they can be scored.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Iterable, Sequence

from server.engine import Action, Bot, Decision, Rng, SampleBot
from server.engine.bots import NORMAL, at_level
from server.engine.rollouts import Rollouts, SearchBot, squash, win_share

from .cards import (
    BUST_NOISE, CRAVING, MAX_TOKENS, RECIPE, TYPE, Need, card,
)
from .rules import SneakySupper
from .state import SneakySupperState


def missing(needs: Sequence[Need], types: Iterable[str]) -> int:
    """How many ingredients the cards (by type) still lack, greedily matched (specific
    ingredients first, then groups; ``different`` groups take distinct types)."""
    return _missing(tuple(needs), tuple(sorted(types)))


_BY_GROUP: dict[str, list[str]] = {}
for _t in sorted(TYPE.values(), key=lambda t: (t.points, t.id)):
    _BY_GROUP.setdefault(_t.group, []).append(_t.id)


Shape = tuple[tuple[str, int, bool, tuple[str, ...] | None], ...]


def _shape(needs: Sequence[Need]) -> Shape:
    """Needs as plain tuples, specific ingredients first, groups with their members."""
    ordered = sorted(needs, key=lambda n: n.what not in TYPE)
    return tuple((n.what, n.count, n.different, None if n.what in TYPE else tuple(_BY_GROUP[n.what]))
                 for n in ordered)


def _lack(shape: Shape, have: dict[str, int]) -> int:
    used: dict[str, int] = {}
    lacking = 0
    for what, count, different, members in shape:
        if members is None:
            got = min(count, have.get(what, 0) - used.get(what, 0))
            used[what] = used.get(what, 0) + got
        else:
            got = 0
            for t in members:
                if got == count:
                    break
                take = min(have.get(t, 0) - used.get(t, 0), 1 if different else count - got)
                if take > 0:
                    used[t] = used.get(t, 0) + take
                    got += take
        lacking += count - got
    return lacking


def _have(types: Iterable[str]) -> dict[str, int]:
    have: dict[str, int] = {}
    for t in types:
        have[t] = have.get(t, 0) + 1
    return have


@lru_cache(maxsize=65536)
def _missing(needs: tuple[Need, ...], types: tuple[str, ...]) -> int:
    return _lack(_shape(needs), _have(types))


_SNEAKS: dict[tuple[Any, ...], Action] = {}  # situation -> the draw-or-stop answer


class SneakySupperBot(SampleBot):
    """``delay_ms`` ± ``jitter_ms`` per move (on the game's clock, so simulations cost no
    time); ``boldness`` shifts the draw-or-stop threshold (points); ``token_value`` is what
    it thinks a Careful token in hand is worth; ``envy`` how much it minds the cards a bust
    hands to the other players."""

    def __init__(self, game: "SneakySupper", rng: Rng, delay_ms: int = 1500, jitter_ms: int = 700,
                 boldness: float = 0.0, token_value: float = 1.3, envy: float = 0.0) -> None:
        self.game, self.rng = game, rng
        self.delay_ms, self.jitter_ms = delay_ms, jitter_ms
        self.boldness, self.token_value, self.envy = boldness, token_value, envy
        self._timing: tuple[Any, int] | None = None
        self._hauls: dict[tuple[str, ...], float] = {}

    # ---- the contract ----------------------------------------------------------------------
    def play(self, state: SneakySupperState, seat: int, now_ms: int) -> Decision | None:
        actions = self.game.legal(state, seat)
        if not actions:
            return None
        action = self.choose(state, seat, actions)
        if action is None:
            return None
        return Decision(action, max(now_ms, state.since + self._delay(state)))

    def _delay(self, s: SneakySupperState) -> int:
        """One human-like pause per situation, so asking twice gives the same answer."""
        key = (s.turn_number, s.phase, s.since, len(s.turn.path))
        if self._timing is None or self._timing[0] != key:
            jitter = self.rng.randint(-self.jitter_ms, self.jitter_ms) if self.jitter_ms else 0
            self._timing = (key, max(100, self.delay_ms + jitter))
        return self._timing[1]

    def choose(self, s: SneakySupperState, seat: int, actions: list[Action]) -> Action | None:
        """The move for this seat, or ``None`` to wait (a Craving not worth its cost yet)."""
        self._hauls = {}  # this decision's hauls, by their cards
        by_type: dict[str, list[Action]] = {}
        for a in actions:
            by_type.setdefault(a["type"], []).append(a)
        if "craving" in by_type:
            best = self._best_use(s, seat, by_type.pop("craving"), CRAVING[s.cravings[seat]].points)  # type: ignore[index]
            if best is not None:
                return best
        if not by_type:
            return None
        if "pass" in by_type:
            return by_type["pass"][0]
        if "pick" in by_type:
            return max(by_type["pick"], key=lambda a: (self.worth(s, seat, a["card"]), a["card"]))
        if s.phase in ("turn", "noisy"):
            return self._sneak(s, seat, by_type)
        if s.phase == "retreat":
            return self._retreat(s, seat, by_type)
        if "discard" in by_type:
            return min(by_type["discard"], key=lambda a: (self.worth(s, seat, a["card"]), a["card"]))
        return actions[0]

    # ---- valuing cards ---------------------------------------------------------------------
    def plan(self, s: SneakySupperState, seat: int, types: Sequence[str]) -> float:
        """What a collection of cards promises: the best available Recipe by progress
        (squared, so near-complete ones count most), plus the Craving's progress."""
        if not types:
            return 0.0
        available = tuple(rid for rid, left in s.recipes_left.items() if left)
        return _plan(available, s.cravings[seat], tuple(sorted(types)))

    def worth(self, s: SneakySupperState, seat: int, c: str, hand: Sequence[str] | None = None) -> float:
        """A card's value to this seat: its points, or what it adds to the plan."""
        types = [card(x).id for x in (s.hands[seat] if hand is None else hand) if x != c]
        gain = self.plan(s, seat, types + [card(c).id]) - self.plan(s, seat, types)
        return max(float(card(c).points), gain)

    def haul(self, s: SneakySupperState, seat: int, extra: Sequence[str]) -> float:
        """What Retreating with ``extra`` (card type ids) adds to the hand: its progress, plus
        the best card to eat."""
        known = tuple(sorted(extra))
        if known not in self._hauls:
            self._hauls[known] = self._haul(s, seat, known)
        return self._hauls[known]

    def _haul(self, s: SneakySupperState, seat: int, extra: Sequence[str]) -> float:
        hand = [card(x).id for x in s.hands[seat]]
        food = [t for t in extra if TYPE[t].kind != "accident"]
        if not food:
            return 0.0
        eat = max(TYPE[t].points for t in hand + food)
        eat_now = max([TYPE[t].points for t in hand] or [0])
        final = self._final_turn(s, seat)
        grow = 0.0 if final else self.plan(s, seat, hand + food) - self.plan(s, seat, hand)
        return grow + eat - eat_now + (0.0 if not final else self._final_bonus(s, seat, food))

    def _final_turn(self, s: SneakySupperState, seat: int) -> bool:
        return s.triggered_by is not None and seat == s.active and (not s.final_left or seat not in s.final_left)

    def _final_bonus(self, s: SneakySupperState, seat: int, food: Sequence[str]) -> float:
        """In a final turn only what scores now counts: Recipes completed at once."""
        hand = [card(x).id for x in s.hands[seat]] + list(food)
        return max([RECIPE[r].points for r, left in s.recipes_left.items()
                    if left and missing(RECIPE[r].needs, hand) == 0] or [0])

    # ---- sneaking --------------------------------------------------------------------------
    def _sneak(self, s: SneakySupperState, seat: int, by_type: dict[str, list[Action]]) -> Action:
        """Draw, Retreat or hush — the same answer for the same situation, so it is worked
        out once (a search asks the same question in many samples)."""
        upcoming = _next_search(s) if "draw" in by_type else []
        situation = (self.boldness, self.token_value, self.envy, s.phase, s.n, tuple(s.turn.path),
                     tuple(s.turn.cancelled), s.turn.utensil_drawn, s.tokens[seat], self._final_turn(s, seat),
                     tuple(sorted(card(c).id for c in s.hands[seat])), tuple(sorted(card(c).id for c in upcoming)),
                     tuple(sorted(card(c).id for c in s.udeck)) if "draw_utensil" in by_type else (),
                     tuple(sorted(by_type)), tuple(r for r, left in s.recipes_left.items() if left), s.cravings[seat])
        if situation not in _SNEAKS:
            if len(_SNEAKS) > 50_000:
                _SNEAKS.clear()
            _SNEAKS[situation] = self._sneak_now(s, seat, by_type)
        return _SNEAKS[situation]

    def _sneak_now(self, s: SneakySupperState, seat: int, by_type: dict[str, list[Action]]) -> Action:
        if s.phase == "noisy":
            return self._hush_or_bust(s, seat, by_type)
        if "retreat" not in by_type:
            return by_type["draw"][0]  # the compulsory first card
        mat = [card(c).id for c in s.turn.mat]
        stop = self.haul(s, seat, mat)
        noise = s.turn.noise()
        options: list[tuple[float, Action]] = [(stop, {"type": "retreat"})]
        if "draw" in by_type:
            options.append((self._draw_value(s, seat, mat, noise, _next_search(s)), by_type["draw"][0]))
        if "draw_utensil" in by_type:
            options.append((self._draw_value(s, seat, mat, noise, list(s.udeck)), by_type["draw_utensil"][0]))
        for a in by_type.get("careful", []):
            quieter = noise - card(a["card"]).noise
            value = self._draw_value(s, seat, mat, quieter, _next_search(s)) - self._token_cost(s, seat)
            options.append((value, a))
        value, action = max(options, key=lambda o: o[0])
        return action if action["type"] == "retreat" or value > stop + 0.05 else {"type": "retreat"}

    def _draw_value(self, s: SneakySupperState, seat: int, mat: list[str], noise: int,
                    upcoming: Sequence[str]) -> float:
        """Expected value of drawing one more card from ``upcoming`` (types, any order)."""
        if not upcoming:
            return float("-inf")
        counts = Counter(card(c).id for c in upcoming)
        total = sum(counts.values())
        busted = self._bust_value(s, seat, mat)
        tokens = s.tokens[seat]
        ev = 0.0
        for t, k in counts.items():
            after = mat + [t]
            loud = noise + TYPE[t].noise
            if loud < BUST_NOISE:
                value = self.haul(s, seat, after)
            else:
                value = busted
                hush = self._tokens_to_hush(s, [t], loud, tokens)
                if hush is not None:
                    value = max(value, self.haul(s, seat, after) - hush * self._token_cost(s, seat))
            ev += k / total * value
        return ev + self.boldness + 0.1 * (len(s.turn.path) < 3)

    def _bust_value(self, s: SneakySupperState, seat: int, mat: Sequence[str]) -> float:
        """A bust gives a token (two with the icon; at most 3) and, with enough cards, the
        last pick — but the other players pick first, and what they gain counts against it
        (``envy``, shared among them)."""
        icon = any(card(c).icon for c in s.turn.path)
        tokens = min(MAX_TOKENS - s.tokens[seat], 2 if icon else 1)
        food = sorted((TYPE[t].points for t in mat if TYPE[t].kind != "accident"), reverse=True)
        last = food[s.n - 1] if len(food) >= s.n else 0
        given = sum(food[: s.n - 1]) + 0.5 * min(len(food), s.n - 1)
        return tokens * 1.0 + 0.5 * last - self.envy * given / max(1, s.n - 1)

    def _tokens_to_hush(self, s: SneakySupperState, new: Sequence[str], noise: int, tokens: int) -> int | None:
        """How many tokens bring ``noise`` under 4 (cancelling the loudest first)."""
        loud = sorted(s.turn.noises() + [TYPE[t].noise for t in new], reverse=True)
        for used in range(tokens + 1):
            if noise - sum(loud[:used]) < BUST_NOISE:
                return used
        return None

    def _token_cost(self, s: SneakySupperState, seat: int) -> float:
        """A token at the cap is wasted by the next bust anyway, so it is cheaper to spend."""
        return self.token_value - (0.4 if s.tokens[seat] >= MAX_TOKENS else 0.0)

    def _hush_or_bust(self, s: SneakySupperState, seat: int, by_type: dict[str, list[Action]]) -> Action:
        mat = [card(c).id for c in s.turn.mat]
        need = self._tokens_to_hush(s, [], s.turn.noise(), s.tokens[seat])
        careful = by_type.get("careful", [])
        if need and careful:
            saved = self.haul(s, seat, mat) - need * self._token_cost(s, seat)
            if saved > self._bust_value(s, seat, mat):
                return max(careful, key=lambda a: (card(a["card"]).noise, a["card"]))
        return {"type": "bust"}

    # ---- retreating ------------------------------------------------------------------------
    def _retreat(self, s: SneakySupperState, seat: int, by_type: dict[str, list[Action]]) -> Action:
        recipes = by_type.get("recipe", [])
        best = max(
            ((self._net(s, seat, a, RECIPE[a["recipe"]].points), a) for a in recipes),
            key=lambda o: o[0], default=(0.0, None),
        )
        if best[1] is not None and best[0] > 0:
            return best[1]
        eats = by_type.get("consume", [])
        if eats:
            return max(eats, key=lambda a: (card(a["card"]).points - self._keep(s, seat, a["card"]), a["card"]))
        return by_type["end_turn"][0]

    def _best_use(self, s: SneakySupperState, seat: int, uses: list[Action], points: int) -> Action | None:
        best = max(uses, key=lambda a: self._net(s, seat, a, points))
        return best if self._net(s, seat, best, points) > 0 else None

    def _net(self, s: SneakySupperState, seat: int, action: Action, points: int) -> float:
        """Points gained minus the tokens spent and half what the used cards were worth."""
        cost = sum(card(c).points for c in action["cards"]) * 0.5
        tv = 1.0 if self._final_turn(s, seat) or s.phase == "last_call" else self.token_value
        return points - action["tokens"] * tv - cost

    def _keep(self, s: SneakySupperState, seat: int, c: str) -> float:
        """What keeping a card is worth (nothing past the hand limit or in a final turn)."""
        if self._final_turn(s, seat):
            return 0.0
        types = [card(x).id for x in s.hands[seat] if x != c]
        return self.plan(s, seat, types + [card(c).id]) - self.plan(s, seat, types)


@lru_cache(maxsize=65536)
def _plan(recipes: tuple[str, ...], craving: str | None, types: tuple[str, ...]) -> float:
    have = _have(types)
    best = 0.0
    for rid in recipes:
        size, shape = _SHAPES[rid]
        best = max(best, RECIPE[rid].points * ((size - _lack(shape, have)) / size) ** 2)
    if craving is not None:
        size, shape = _SHAPES[craving]
        best += CRAVING[craving].points * ((size - _lack(shape, have)) / size) ** 2
    return best


_SHAPES = {x.id: (sum(n.count for n in x.needs), _shape(x.needs)) for x in (*RECIPE.values(), *CRAVING.values())}


def _next_search(d: SneakySupperState) -> list[str]:
    """The cards the next Search draw can be: the top segment (or, if the deck is empty,
    the discard pile that becomes the new deck)."""
    if not d.deck:
        return list(d.discard)
    return d.deck[len(d.deck) - d.segments[-1]:]


# ---- hard: a search over what the next moves can bring ---------------------------------------

HARD_ITERATIONS = 150


def standing(s: SneakySupperState, seat: int) -> float:
    """What a seat has: its points, a point per Careful token (they score at the end),
    and what its hand promises (the normal bot's plan)."""
    available = tuple(rid for rid, left in s.recipes_left.items() if left)
    hand = tuple(sorted(card(c).id for c in s.hands[seat]))
    promise = _plan(available, s.cravings[seat], hand) if hand else 0.0
    return s.score(seat) + s.tokens[seat] + 0.6 * promise


def evaluate(game: Any, s: SneakySupperState, seat: int) -> float:
    """The game's outcome, or the seat's lead over the best other seat as a win chance."""
    share = win_share(game, s, seat)
    if share is not None:
        return share
    return squash(standing(s, seat) - max(standing(s, q) for q in range(s.n) if q != seat), 4.0)


def hard_bot(game: Any, rng: Rng, iterations: int = HARD_ITERATIONS, **params: Any) -> Bot:
    """Weighs each choice against the normal bot's: every move played out until the turn
    in play is over, in the same sampled worlds, the normal bot playing every seat."""
    search = Rollouts(game, policy=lambda seat, r: SneakySupperBot(game, r, jitter_ms=0),
                      evaluate=lambda s, seat: evaluate(game, s, seat), iterations=iterations,
                      horizon=lambda start, s: s.turn_number > start.turn_number)
    return SearchBot(search, SneakySupperBot(game, rng.fork(), **params), rng.fork())


def bot_at(game: Any, rng: Rng, level: str = NORMAL, **params: Any) -> Bot:
    """This game's bot at ``level``: ``easy`` slips now and then, ``hard`` searches."""
    return at_level(level, rng, lambda r: SneakySupperBot(game, r, **params), lambda r: hard_bot(game, r, **params))
