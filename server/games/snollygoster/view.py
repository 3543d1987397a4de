"""Snollygoster: what one seat sees (``view``), shaped for the table renderer.

Public: tags (claims, with who tagged), who placed each Food, stash sizes, Fuel,
Quarantine, Lockout, deaths, hand sizes, Tag cards left, offers, the response window and
its deadline, every revealed Food, the Action discard pile (every card in it was shown
going there). Private to the seat: its hand, its agenda, the Event
cards it drew, and its knowledge of Food (``you_know`` with ``how``: placed, inspected or
seen). Never another seat's agenda (until the Sleuth's reveal or the end) nor the safety
of a Food the seat has not seen.
"""

from __future__ import annotations

from typing import Any, Sequence

from server.engine.kept import interned, listed

from .cards import ACTION_CARDS, AGENDA_NAMES, AGENDAS, CHARACTERS, EVENT_CARDS, FUEL_CAP, POD_FUEL, STASH_SIZE
from .flow import name
from .scoring import outcome
from .state import SnollygosterState

S = SnollygosterState


def _card(kind: str) -> dict[str, Any]:
    card = ACTION_CARDS.get(kind) or EVENT_CARDS[kind]
    return {"card": kind, "name": card.name, "text": card.text, "any_time": card.any_time}


CARDS = {kind: _card(kind) for kind in (*ACTION_CARDS, *EVENT_CARDS)}
"""Every Action and Event card as the renderer draws it (the same object each time, never changed)."""
CHARACTER_VIEWS = {c.id: {"id": c.id, "name": c.name, "color": c.color} for c in CHARACTERS.values()}
AGENDA_VIEWS = {a.id: {"id": a.id, "name": a.name, "team": a.team, "text": a.text} for a in AGENDAS.values()}
LIMITS = {"stash": STASH_SIZE, "fuel": FUEL_CAP}


# ---- the parts of a view, each built from its facts alone (``interned``): a part whose
# facts did not change since the last state is the very same object in both views ----------

FoodSeen = tuple[Any, ...]  # a Food's id, tag (tagger, their name, claim), placer, Antidote, kind, how known


def _food_seen(s: S, food: int) -> FoodSeen:
    """A Food as the table sees it: its id, its tag (tagger, their name, the claim), who
    placed it, whether an Antidote protects it this turn, and its kind once revealed."""
    tag = s.tags.get(food)
    tagger = (tag[0], name(s, tag[0]), tag[1]) if tag else (None, None, None)
    shown = (s.kinds[food], "revealed") if s.public_kind[food] else (None, None)
    return (food, *tagger, s.placed_by.get(food), s.antidote.get(food) == s.turn_no, *shown)


Secret = tuple[str, tuple[tuple[int, str], ...]] | None


def _secret(s: S, food: int) -> Secret:
    """What the table does not see of a Food: its kind and who knows it (and how: placed,
    inspected, seen), or ``None`` once it is revealed."""
    return None if s.public_kind[food] else (s.kinds[food], tuple(s.known[food].items()))


def _known_to(stash: tuple[FoodSeen, ...], secrets: tuple[Secret, ...], viewer: int) -> tuple[FoodSeen, ...]:
    """A stash as ``viewer`` sees it: each Food as the table does, unless they know its kind."""
    out = []
    for seen, secret in zip(stash, secrets):
        how = dict(secret[1]).get(viewer) if secret else None
        out.append(seen if how is None else (*seen[:6], secret[0], how))
    return tuple(out)


@interned(size=4096)
def _food(food: int, tag_by: int | None, tag_name: str | None, claim: str | None, placed_by: int | None,
          antidote: bool, you_know: str | None, how: str | None) -> dict[str, Any]:
    return {
        "id": food,
        "tag": {"by": tag_by, "by_name": tag_name, "claim": claim} if tag_by is not None else None,
        "placed_by": placed_by,
        "antidote": antidote,
        "you_know": you_know,
        "how": how,
    }


PlayerFacts = tuple[Any, ...]


def _player_facts(s: S, p: int, scores: tuple[float, ...] | None, waiting: list[int]) -> PlayerFacts:
    """What everyone sees of player ``p`` (their stash and agenda aside); ``waiting``: the
    seats the table waits on to answer."""
    return (p, s.players[p], scores[p] if scores else None, s.characters[p], len(s.fuel[p]), len(s.hands[p]),
            s.tags_left[p], s.quarantined[p], s.dead[p], s.locked.get(p), s.phase == "play" and p == s.turn,
            p in waiting)


@interned(size=4096)
def _stash(foods: tuple[FoodSeen, ...]) -> list[dict[str, Any]]:
    """A stash as a viewer sees it: each Food's facts with what the viewer knows of it."""
    return [_food(*f) for f in foods]


@interned(size=4096)
def _player(facts: PlayerFacts, stash: tuple[FoodSeen, ...], agenda: str | None) -> dict[str, Any]:
    """A player as a viewer sees them: ``stash`` the facts of their Food with what the
    viewer knows of each, ``agenda`` shown or not."""
    p, player_name, score, character_id, fuel, hand, tags_left, quarantined, dead, locked_by, active, waiting = facts
    return {
        "seat": p,
        "name": player_name,
        "score": score,
        "character": CHARACTER_VIEWS[character_id],
        "fuel": fuel,
        "hand": hand,
        "tags_left": tags_left,
        "stash": _stash(stash),
        "quarantined": quarantined,
        "dead": dead,
        "locked_by": locked_by,
        "active": active,
        "waiting_on": waiting,
        "agenda": AGENDA_VIEWS[agenda] if agenda else None,
    }


@interned(size=4096)
def _seen_by(facts: PlayerFacts, stash: tuple[FoodSeen, ...], secrets: tuple[Secret, ...], agenda: str,
             revealed: bool) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Player ``facts[0]`` as the table sees them, and as each seat that sees more than the
    table: themselves (their agenda) and every seat that knows a Food in their stash that
    the table does not (its kind, and how they know it)."""
    p = facts[0]
    viewers = {p, *(q for secret in secrets if secret for q, _ in secret[1])}
    return _player(facts, stash, agenda if revealed else None), {
        v: _player(facts, _known_to(stash, secrets, v), agenda if revealed or v == p else None) for v in viewers}


def _players(s: S, scores: tuple[float, ...] | None, seats: Sequence[int | None]) -> dict[int | None, list[Any]]:
    """Each seat's list of players: a player is seen as the spectator sees them, except by
    themselves (their agenda) and by a seat that knows a Food in their stash that the
    table does not."""
    public, personal = [], []
    waiting = s.window.waiting if s.window else (s.eating.waiting if s.eating else [])
    for p, stash in enumerate(s.stashes):
        table, seen = _seen_by(_player_facts(s, p, scores, waiting), tuple([_food_seen(s, f) for f in stash]),
                               tuple([_secret(s, f) for f in stash]), s.agendas[p], p in s.revealed_agendas)
        public.append(table)
        personal.append(seen)
    return {seat: listed(*[seen.get(seat, table) for table, seen in zip(public, personal)]) for seat in seats}


@interned()
def _window(seat: int, card: str, args: tuple[tuple[str, Any], ...], chain: tuple[int, ...],
            waiting: tuple[int, ...], deadline: int) -> dict[str, Any]:
    return {"card": card, "by": seat, "args": {k: list(v) if isinstance(v, tuple) else v for k, v in args},
            "chain": [{"seat": seat, "card": card}] + [{"seat": p, "card": "denied"} for p in chain],
            "stands": len(chain) % 2 == 0, "waiting": list(waiting), "deadline": deadline}


def window_view(s: S) -> dict[str, Any] | None:
    w = s.window
    if w is None:
        return None
    args = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in w.play.args.items())
    return _window(w.play.seat, w.play.card, args, tuple(w.chain), tuple(w.waiting), w.deadline)


@interned()
def _eating(eater: int, remaining: int, source: str, by: int | None, food: int | None, waiting: tuple[int, ...],
            deadline: int | None) -> dict[str, Any]:
    return {"eater": eater, "remaining": remaining, "source": source, "by": by, "food": food,
            "waiting": list(waiting), "deadline": deadline}


def eating_view(s: S) -> dict[str, Any] | None:
    e = s.eating
    if e is None:
        return None
    return _eating(e.eater, e.remaining, e.source, e.by, e.food, tuple(e.waiting), e.deadline)


@interned()
def _offers(offers: tuple[tuple[int, int, int, int, int | None, int | None], ...]) -> list[dict[str, Any]]:
    keys = ("by", "to", "give_fuel", "want_fuel", "give_food", "want_food")
    return [dict(zip(keys, o)) for o in offers]


@interned()
def _eaten(record: tuple[tuple[int, str, int, tuple[int, str] | None, int | None], ...]) -> list[dict[str, Any]]:
    return [{"food": food, "kind": kind, "eater": eater, "tag": list(tag) if tag else None, "placed_by": placed_by}
            for food, kind, eater, tag, placed_by in record]


def _eaten_facts(s: S) -> tuple[tuple[Any, ...], ...]:
    """The public record of reveals, as plain values."""
    return tuple((e["food"], e["kind"], e["eater"], tuple(e["tag"]) if e["tag"] else None, e["placed_by"])
                 for e in s.eaten)


@interned()
def _cards(kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    return [CARDS[k] for k in kinds]


@interned()
def _drawn(count: int, kinds: tuple[str, ...] | None) -> dict[str, Any]:
    """The Event cards drawn this turn: how many, and (to the drawer only) which."""
    return {"count": count, "cards": _cards(kinds) if kinds is not None else None}


@interned()
def _decks(action: int, action_discard: int, event: int, event_discard: int) -> dict[str, int]:
    return {"action": action, "action_discard": action_discard, "event": event, "event_discard": event_discard}


@interned(size=64)
def _timers(window_ms: int, turn_ms: int, step_ms: int) -> dict[str, int]:
    return {"window_ms": window_ms, "turn_ms": turn_ms, "step_ms": step_ms}


@interned(size=64)
def _escape_pod(players: int) -> dict[str, Any]:
    """The pod before anyone launched: the Fuel it takes for each number aboard."""
    return {"fuel_table": [{"people": k, "fuel": POD_FUEL[k]} for k in range(1, players + 1)], "launch": None}


def _escape(s: S) -> dict[str, Any]:
    pod = _escape_pod(s.n)
    return pod if s.launch is None else {**pod, "launch": s.launch}


@interned(size=256)
def _guessing(sleuths: tuple[int, ...], guesses: tuple[tuple[int, tuple[tuple[int, str], ...]], ...]) -> dict[str, Any]:
    return {"sleuths": list(sleuths), "agendas": list(AGENDA_NAMES),
            "guesses": {str(k): {str(o): g for o, g in v} for k, v in guesses}}


def prompt(s: S, seat: int | None) -> str:
    """One line telling this seat what to do now."""
    if s.phase == "over":
        return "The game is over: every agenda is revealed."
    if s.phase == "seed":
        who = s.seeding[0]
        return ("Seed a Food: choose safe or unsafe and the stash to hide it in." if seat == who
                else f"Waiting for {name(s, who)} to seed a Food.")
    if s.phase == "guess":
        if seat in s.guessing:
            return "You are the Sleuth: guess the others' agendas, then say done."
        return "The Sleuth is guessing agendas."
    if seat is not None and s.dead[seat]:
        return "You died — but you can still win on points. Watch the others."
    if s.window is not None:
        w = s.window
        last = w.play.seat if not w.chain else w.chain[-1]
        what = "Denied" if w.chain else ACTION_CARDS[w.play.card].name
        if seat in w.waiting:
            return f"{name(s, last)} played {what}: answer with Denied or let it go."
        return f"Waiting for answers to {name(s, last)}'s {what}."
    e = s.eating
    if e is not None and e.food is not None:
        if seat in e.waiting:
            return f"{name(s, e.eater)} will eat Food #{e.food}: acknowledge it (or play an Antidote)."
        return f"Waiting for everyone to acknowledge the Food {name(s, e.eater)} will eat."
    offers = [name(s, o.by) for o in s.offers if o.to == seat]
    extra = f" {', '.join(offers)} offer{'s' if len(offers) == 1 else ''} you a trade." if offers else ""
    return step_prompt(s, seat) + extra


def step_prompt(s: S, seat: int | None) -> str:
    who = name(s, s.turn)
    if s.step == "eat" and s.eating is not None:
        if seat == s.eating.eater:
            return f"Choose a Food from your stash to eat ({s.eating.remaining} to go)."
        return f"{name(s, s.eating.eater)} is choosing a Food to eat."
    mine = seat == s.turn
    lines = {
        "action": ("Your Action stage: play or discard cards, trade, then end it.", f"{who}'s Action stage."),
        "event": ("Keep one of the two Event cards you drew; the other goes to the bottom.",
                  f"{who} is choosing an Event card."),
        "tag": (f"Tag Food #{s.inspecting} safe or unsafe — you may lie.", f"{who} is tagging a Food."),
    }
    return lines.get(s.step, ("", ""))[0 if mine else 1] or f"{who}'s turn."


def build_view(s: S, seat: int | None, deadline: int | None) -> dict[str, Any]:
    return build_views(s, [seat], deadline)[seat]


def build_views(s: S, seats: Sequence[int | None], deadline: int | None) -> dict[int | None, dict[str, Any]]:
    """Every seat's view at once: what all seats see alike is built once (the very same
    object in every view), and each part is kept by its facts (``interned``), so a part
    that did not change since the last state is the very same object as in its views."""
    result = outcome(s) if s.phase == "over" else None
    scores = tuple(result.scores) if result else None
    players = _players(s, scores, seats)
    o = s.options
    common = {
        "timers": _timers(o.window_ms, o.turn_ms, o.step_ms),
        "turn": s.turn, "turn_no": s.turn_no, "round": s.round_no,
        "round_limit": o.round_limit, "dealer": s.dealer, "team_game": o.team_game,
    }
    table = {
        "limits": LIMITS,
        "escape_pod": _escape(s),
        "decks": _decks(len(s.action_deck), len(s.action_discard), len(s.event_deck), len(s.event_discard)),
        "action_discard": _cards(tuple(s.action_discard)),
        "window": window_view(s),
        "eating": eating_view(s),
        "offers": _offers(tuple((x.by, x.to, x.give_fuel, x.want_fuel, x.give_food, x.want_food) for x in s.offers)),
    }
    drawn_count, drawn_kinds = len(s.drawn), tuple(s.kinds[c] for c in s.drawn)
    ending = {
        "inspecting": s.inspecting,
        "eaten": _eaten(_eaten_facts(s)),
    }
    guessing = _guessing(tuple(s.guessing), tuple((k, tuple(v.items())) for k, v in s.guesses.items()))
    result_json = result.to_json() if result else None
    step = s.step if s.phase == "play" else None
    alike = {  # every seat's view, its own parts (None here) set for each seat below
        "game": "snollygoster", "you": None, "phase": s.phase, "step": step, "prompt": None,
        "deadline": deadline, "since": s.step_since, **common,
        "players": None,
        **table,
        "drawn": _drawn(drawn_count, None),
        **ending,
        "hand": _cards(()),
        "agenda": None,
        "guessing": guessing,
        "result": result_json,
    }
    out = {}
    for seat in seats:
        out[seat] = view = alike.copy()
        view["you"], view["prompt"], view["players"] = seat, prompt(s, seat), players[seat]
        if seat is not None:
            view["hand"], view["agenda"] = _cards(tuple(s.hands[seat])), AGENDA_VIEWS[s.agendas[seat]]
            if seat == s.turn:
                view["drawn"] = _drawn(drawn_count, drawn_kinds)
    return out
