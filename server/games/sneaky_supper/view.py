"""What each seat of Sneaky Supper sees: JSON-ready, exactly what that seat may know.

Public: the Floorplan (cards drawn this turn, in order, with their Noise and Careful
cancellations), the bust pick, tokens, scores and their sources, recipes available and
claimed, deck sizes, hand sizes and the cards everyone saw go into each hand (``hand_known``
when the whole hand is known, else ``hand_maybe``: the hand is ``hand_size`` of those).
Private to the seat: its hand and its Craving.
"""

from __future__ import annotations

from typing import Any, Sequence

from server.engine import Game
from server.engine.kept import interned, kept

from .cards import (
    BUST_NOISE, CRAVING, GOAL, HAND_LIMIT, MAX_DRAWN, MAX_TOKENS, RECIPES, SEARCH_CARDS, UTENSIL_CARDS, Need,
    card, from_utensil_deck,
)
from .state import POINT_SOURCES, SneakySupperState, can_crave, can_draw_utensil, completable


def _describe(c: str) -> dict[str, Any]:
    t = card(c)
    return {"id": c, "type": t.id, "name": t.name, "kind": t.kind, "group": t.group,
            "noise": t.noise, "points": t.points, "icon": t.icon, "text": t.text,
            "deck": "utensil" if from_utensil_deck(c) else "search"}


CARDS = {c: _describe(c) for c in (*SEARCH_CARDS, *UTENSIL_CARDS)}
"""Every card as the renderer draws it: ``id`` is how actions name it (copies alike)."""


def card_json(c: str) -> dict[str, Any]:
    """A card as the renderer draws it: the same object each time, never changed."""
    return CARDS[c]


@interned()
def cards_json(cards: tuple[str, ...]) -> list[dict[str, Any]]:
    return [CARDS[c] for c in cards]


def describe_needs(needs: Sequence[Need]) -> str:
    labels = [n.label for n in needs]
    return ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else labels[0]


def needs_json(needs: Sequence[Need]) -> list[dict[str, Any]]:
    return [{"what": n.what, "count": n.count, "different": n.different, "label": n.label} for n in needs]


def _describe_craving(cid: str) -> dict[str, Any]:
    c = CRAVING[cid]
    return {"id": c.id, "name": c.name, "points": c.points, "snacks": list(c.snacks),
            "needs": needs_json(c.needs), "label": describe_needs(c.needs)}


CRAVINGS_JSON = {cid: _describe_craving(cid) for cid in CRAVING}
RECIPES_JSON = {r.id: {"id": r.id, "name": r.name, "points": r.points, "needs": needs_json(r.needs),
                       "label": describe_needs(r.needs), "copies": r.copies} for r in RECIPES}
LIMITS = {"bust_noise": BUST_NOISE, "max_cards": MAX_DRAWN, "hand": HAND_LIMIT, "tokens": MAX_TOKENS, "goal": GOAL}


def render(game: Game[SneakySupperState, Any], s: SneakySupperState, seat: int | None) -> dict[str, Any]:
    return render_all(game, s, [seat])[seat]


def render_all(game: Game[SneakySupperState, Any], s: SneakySupperState,
               seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """Every seat's view at once: what all seats see alike is built once and is the very
    same object in every view; only the seat's prompt and its own part (hand, Craving,
    which recipes it can complete) are per seat. Every part is kept by the facts it reads
    (``interned`` on them, or ``kept`` by them): a part whose facts did not change since
    the last state is the very same object as in that state's views. A prompt is written
    once for all the seats that stand alike towards it (their role)."""
    shared = _shared(game, s)
    facts = _recipe_facts(s)
    spectator = {"recipes": _recipes(*facts), "hand": None, "craving": None, "craving_ready": False}
    picker = s.turn.picker() if s.phase == "pick" else None
    prompts: dict[tuple[bool, ...], str] = {}
    out = {}
    n, active, last_call = s.n, s.active, s.last_call
    for seat in seats:
        me = seat if isinstance(seat, int) and 0 <= seat < n else None
        own = spectator if me is None else _own(s, me, facts)
        ready = own["craving_ready"]
        # the seat's role: every fact about it that ``prompt`` reads (the rest is the table's)
        role = (me == active, me == picker, me in last_call, ready)
        said = prompts.get(role)
        if said is None:
            said = prompts[role] = prompt(s, me, ready)
        out[seat] = {**shared, "you": me, "prompt": said, **own}
    return out


def _own_facts(s: SneakySupperState, me: int, facts: "RecipeFacts") -> tuple[Any, ...]:
    """Every fact the seat's own part reads: its hand (in order), tokens and Craving, the
    Mish-Mash rule, the recipes left and claimed, and whether the game is over."""
    return tuple(s.hands[me]), s.tokens[me], s.cravings[me], s.options.mish_mash, facts, s.phase == "over"


@kept(_own_facts, None)
def _own(s: SneakySupperState, me: int, facts: "RecipeFacts") -> dict[str, Any]:
    """The seat's own part of its view: the recipes (those it can complete marked), its
    hand, its Craving and whether it can complete that now."""
    cid = s.cravings[me]
    return {
        "recipes": _recipes_for(s, facts, me) or _recipes(*facts),
        "hand": cards_json(tuple(s.hands[me])),
        "craving": CRAVINGS_JSON[cid] if cid else None,
        "craving_ready": can_crave(s, me),
    }


def _shared(game: Game[SneakySupperState, Any], s: SneakySupperState) -> dict[str, Any]:
    """The fields of a view that are the same for every seat."""
    t = s.turn
    return {
        "game": game.id,
        "phase": s.phase,
        "options": _options(s.options.mish_mash),
        "limits": LIMITS,
        "active": s.active,
        "turn": s.turn_number,
        "players": _players(_players_facts(s)),
        "floorplan": _floorplan(tuple(t.path), tuple(t.cancelled), tuple(t.mat), t.utensil_drawn,
                                s.phase == "turn" and can_draw_utensil(s), t.outcome),
        "bust": _bust(tuple(t.order), t.picker() if s.phase == "pick" else None, tuple(t.pool), tuple(t.picks),
                      t.icon) if t.outcome == "busted" else None,
        "decks": _decks(len(s.deck), len(s.udeck), len(s.discard), len(s.udiscard), len(s.craving_deck)),
        "end": _end(s.triggered_by, tuple(s.final_left or ()), tuple(s.last_call), s.end_reason),
        "last_turn": s.last_turn,
        "tally": _tally(s) if s.phase == "over" else None,
    }


@interned(size=4)
def _options(mish_mash: bool) -> dict[str, Any]:
    return {"mish_mash": mish_mash}


@interned()
def _decks(search: int, utensil: int, discard: int, utensil_discard: int, cravings: int) -> dict[str, int]:
    return {"search": search, "utensil": utensil, "discard": discard, "utensil_discard": utensil_discard,
            "cravings": cravings}


@interned()
def _end(triggered_by: int | None, final_left: tuple[int, ...], last_call: tuple[int, ...],
         reason: str | None) -> dict[str, Any]:
    return {"triggered_by": triggered_by, "final_turns_left": list(final_left), "last_call": list(last_call),
            "reason": reason}


PlayerFacts = tuple[Any, ...]


def _players_facts(s: SneakySupperState) -> tuple[PlayerFacts, ...]:
    """What the table sees of each player: everything ``_player`` shows, as plain values."""
    active = s.active if s.phase not in ("last_call", "over") else None
    pending = s.final_left or ()
    return tuple([(name, tuple(points.values()), tokens, len(hand), tuple(seen), tuple(completed),
                   tuple(cravings), craving is not None, turns, q == active, q in pending)
                  for q, (name, points, tokens, hand, seen, completed, cravings, craving, turns)
                  in enumerate(zip(s.players, s.points, s.tokens, s.hands, s.seen, s.completed, s.scored_cravings,
                                   s.cravings, s.turns))])


@interned()
def _players(facts: tuple[PlayerFacts, ...]) -> list[dict[str, Any]]:
    """The players as everyone sees them (each one kept on its own facts too: a player
    whose facts did not change is the very same object)."""
    return [_player(*f) for f in facts]


@interned()
def _player(name: str, points: tuple[int, ...], tokens: int, hand_size: int, seen: tuple[str, ...],
            completed: tuple[str, ...], cravings: tuple[str, ...], has_craving: bool, turns: int, active: bool,
            pending: bool) -> dict[str, Any]:
    """A player as everyone sees them; the hand is known when every card in it was seen
    going in (``hand_known``), else it is ``hand_size`` of the cards seen (``hand_maybe``).
    Its lists and points are kept too: a player changed in one thing shares the rest."""
    known = len(seen) == hand_size
    return {
        "name": name,
        "score": sum(points),
        "points": _points(points),
        "tokens": tokens,
        "hand_size": hand_size,
        "hand_known": cards_json(seen if known else ()),
        "hand_maybe": cards_json(() if known else seen),
        "recipes": _ids(completed),
        "cravings": _cravings(cravings),
        "has_craving": has_craving,
        "turns": turns,
        "active": active,
        "final_turn_pending": pending,
    }


@interned()
def _points(points: tuple[int, ...]) -> dict[str, int]:
    """A player's points by their source (a player's points are a dict of every source, in
    ``POINT_SOURCES`` order: ``new_points``)."""
    return dict(zip(POINT_SOURCES, points))


@interned()
def _ids(ids: tuple[str, ...]) -> list[str]:
    return list(ids)


@interned()
def _cravings(cravings: tuple[str, ...]) -> list[dict[str, Any]]:
    return [CRAVINGS_JSON[c] for c in cravings]


@interned()
def _floorplan(path: tuple[str, ...], cancelled: tuple[int, ...], mat: tuple[str, ...], utensil_drawn: bool,
               can_draw_utensil: bool, outcome: str | None) -> dict[str, Any]:
    """The sneak so far: step ``i`` is the ``i``-th card drawn this turn."""
    noises = [0 if i in cancelled else card(c).noise for i, c in enumerate(path)]
    return {
        "steps": MAX_DRAWN,
        "path": [
            {"step": i + 1, "card": CARDS[c], "cancelled": i in cancelled, "noise": noise, "on_mat": c in mat}
            for i, (c, noise) in enumerate(zip(path, noises))
        ],
        "noise": sum(noises),
        "utensil_drawn": utensil_drawn,
        "can_draw_utensil": can_draw_utensil,
        "outcome": outcome,
    }


@interned()
def _bust(order: tuple[int, ...], picker: int | None, pool: tuple[str, ...], picks: tuple[tuple[int, str], ...],
          icon: bool) -> dict[str, Any]:
    return {"order": list(order), "next": picker, "pool": cards_json(pool),
            "picks": [{"seat": q, "card": CARDS[c]} for q, c in picks], "icon": icon}


RecipeFacts = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]


def _recipe_facts(s: SneakySupperState) -> RecipeFacts:
    """Per Recipe (in their order): how many are left, and who completed one."""
    left = tuple(map(s.recipes_left.__getitem__, RECIPE_IDS))
    if not any(s.completed):
        return left, UNCLAIMED
    by: dict[str, list[int]] = {}
    for q, done in enumerate(s.completed):
        for rid in done:
            by.setdefault(rid, []).append(q)
    return left, tuple([tuple(by.get(rid, ())) for rid in RECIPE_IDS])


RECIPE_IDS = tuple(r.id for r in RECIPES)
UNCLAIMED: tuple[tuple[int, ...], ...] = ((),) * len(RECIPES)  # nobody has completed a Recipe


@interned()
def _recipes(left: tuple[int, ...], claimed: tuple[tuple[int, ...], ...]) -> list[dict[str, Any]]:
    """The recipes as a spectator sees them (nobody's hand: none it can complete)."""
    return [{**RECIPES_JSON[r.id], "left": n, "claimed_by": list(by), "you_can_complete": False}
            for r, n, by in zip(RECIPES, left, claimed)]


def _recipes_for(s: SneakySupperState, facts: RecipeFacts, me: int) -> list[dict[str, Any]] | None:
    """The recipes as seat ``me`` sees them, those it can complete now marked so; ``None``
    when it can complete none (it sees the spectator's)."""
    if not s.hands[me]:
        return None
    can = frozenset(r for r in completable(tuple(s.hands[me]), s.tokens[me], s.options.mish_mash)
                    if s.recipes_left[r] > 0)
    return _marked(*facts, can) if can else None


@interned()
def _marked(left: tuple[int, ...], claimed: tuple[tuple[int, ...], ...], can: frozenset[str]) -> list[dict[str, Any]]:
    """The spectator's recipes with those in ``can`` marked as ones this seat can complete
    (the others are the spectator's very entries)."""
    return [{**entry, "you_can_complete": True} if entry["id"] in can else entry for entry in _recipes(left, claimed)]


def _tally(s: SneakySupperState) -> list[dict[str, Any]]:
    return [{"seat": q, "name": s.name(q), **s.points[q], "total": s.score(q)} for q in range(s.n)]


# ---- the one-line prompt ---------------------------------------------------------------------

def prompt(s: SneakySupperState, me: int | None, ready: bool = False) -> str:
    """What this seat should do now, in one line (``ready``: it can complete its Craving now)."""
    if s.phase == "over":
        return "The game is over: " + _winners(s)
    if s.phase == "last_call":
        if me in s.last_call:
            return "Last call: complete your Craving now if you can, or pass."
        return "Last call: waiting for players who can still complete a Craving."
    if s.phase == "pick":
        picker = s.turn.picker()
        if picker == me:
            return f"{s.name(s.active)} was Busted! Choose one of the drawn cards for your hand."
        return f"{s.name(s.active)} was Busted: {s.name(picker) if picker is not None else '—'} is choosing a card."
    if me != s.active:
        who = s.name(s.active)
        if s.phase == "after_bust":
            return f"{who} was Busted and may complete a Craving before the turn ends."
        extra = " You can complete your Craving now!" if ready else ""
        return f"{who} is sneaking to the kitchen (Noise {s.turn.noise()}).{extra}"
    return _active_prompt(s)


def _active_prompt(s: SneakySupperState) -> str:
    t = s.turn
    if s.phase == "turn" and not t.path:
        return "Your turn: draw the first Search card."
    if s.phase == "turn":
        utensil = ", try the Utensil deck" if can_draw_utensil(s) else ""
        return f"Noise {t.noise()} of {BUST_NOISE} after {len(t.path)} card{'s' if len(t.path) != 1 else ''}: draw again{utensil}, or Retreat."
    if s.phase == "noisy":
        return f"Noise {t.noise()}! Use Careful tokens to snuff it out, or accept being Busted."
    if s.phase == "after_bust":
        return "Busted! Complete your Craving now if you can, then end your turn."
    if s.phase == "retreat":
        eat = "" if t.consumed else ", consume one card"
        return f"Safe! Complete Recipes{eat}, then end your turn."
    extra = len(s.hands[s.active]) - HAND_LIMIT
    return f"Hand limit: discard {extra} more card{'s' if extra > 1 else ''}."


def _winners(s: SneakySupperState) -> str:
    best = max(s.score(q) for q in range(s.n))
    names = [s.name(q) for q in range(s.n) if s.score(q) == best]
    return f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'} with {best} points."
