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

from server.engine.kept import derived, interned, listed

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

FoodFacts = tuple[Any, ...]
"""A Food in a stash, as plain values: its id, its tag (tagger, their name, the claim) or
``None``, who placed it, whether an Antidote protects it this turn, its kind, and ``True``
once it is revealed, else who knows its kind and how (placed, inspected, seen)."""
FoodSeen = tuple[Any, ...]  # a Food's id, tag (tagger, their name, claim), placer, Antidote, kind, how known


def _table_food(food: FoodFacts) -> FoodSeen:
    """A Food as the table sees it: its kind only once revealed."""
    card, tag, placed_by, antidote, kind, knowers = food
    return (card, *(tag or (None, None, None)), placed_by, antidote,
            *((kind, "revealed") if knowers is True else (None, None)))


def _known_to(foods: tuple[FoodFacts, ...], seen: tuple[FoodSeen, ...], viewer: int) -> tuple[FoodSeen, ...]:
    """A stash as ``viewer`` sees it: each Food as the table does (``seen``), unless they
    know its kind."""
    out = []
    for food, table in zip(foods, seen):
        how = None if food[5] is True else dict(food[5]).get(viewer)
        out.append(table if how is None else (*table[:6], food[4], how))
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


PlayerFacts = tuple[Any, ...]  # seat, name, score, character, Fuel, hand, Tag cards, quarantined, dead, locked by, active, waited on


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
def _seen_by(facts: PlayerFacts, foods: tuple[FoodFacts, ...], agenda: str,
             revealed: bool) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Player ``facts[0]`` as the table sees them, and as each seat that sees more than the
    table: themselves (their agenda) and every seat that knows a Food in their stash that
    the table does not (its kind, and how they know it)."""
    p = facts[0]
    seen = tuple([_table_food(f) for f in foods])
    viewers = {p, *(q for f in foods if f[5] is not True for q, _ in f[5])}
    return _player(facts, seen, agenda if revealed else None), {
        v: _player(facts, _known_to(foods, seen, v), agenda if revealed or v == p else None) for v in viewers}


def _players(s: S, scores: tuple[float, ...] | None) -> dict[int | None, list[Any]]:
    """Every seat's list of players (``_lists``). Each player is kept by their facts, read
    here as plain values: what everyone sees of them and of each Food in their stash
    (``FoodFacts``)."""
    names, placed, antidote, kinds, public, known, turn_no = \
        s.players, s.placed_by, s.antidote, s.kinds, s.public_kind, s.known, s.turn_no
    tags = {f: (by, names[by], claim) for f, (by, claim) in s.tags.items()}
    waiting = s.window.waiting if s.window else (s.eating.waiting if s.eating else [])
    active = s.turn if s.phase == "play" else None
    locked, fuel, hands, tags_left, quarantined, dead = s.locked, s.fuel, s.hands, s.tags_left, s.quarantined, s.dead
    seen = []
    for p, stash in enumerate(s.stashes):
        facts = (p, names[p], scores[p] if scores else None, s.characters[p], len(fuel[p]), len(hands[p]),
                 tags_left[p], quarantined[p], dead[p], locked.get(p), p == active, p in waiting)
        foods = tuple([(f, tags.get(f), placed.get(f), antidote.get(f) == turn_no, kinds[f],
                        public[f] or tuple(known[f].items())) for f in stash])
        seen.append(_seen_by(facts, foods, s.agendas[p], p in s.revealed_agendas))
    return _lists(listed(*seen))


@derived()
def _lists(seen: list[tuple[dict[str, Any], dict[int, dict[str, Any]]]]) -> dict[int | None, list[Any]]:
    """Each seat's list of players (and the spectator's, ``None``), from each player as
    the table sees them and as the seats that see more do (``_seen_by``): a player is seen
    as the spectator sees them, except by themselves (their agenda) and by a seat that
    knows a Food in their stash that the table does not. Kept by the very players seen:
    the same lists while no player changed."""
    table = [everyone for everyone, _ in seen]
    lists: dict[int | None, list[Any]] = {seat: table.copy() for seat in range(len(seen))}
    for p, (_, more) in enumerate(seen):
        for viewer, part in more.items():
            lists[viewer][p] = part
    out: dict[int | None, list[Any]] = {seat: listed(*parts) for seat, parts in lists.items()}
    out[None] = listed(*table)
    return out


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


@derived()
def _eaten(record: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public record of reveals (``s.eaten``: records replaced, never changed in place,
    so kept by the very records, ``listed``)."""
    return [{"food": e["food"], "kind": e["kind"], "eater": e["eater"], "tag": list(e["tag"]) if e["tag"] else None,
             "placed_by": e["placed_by"]} for e in record]


@interned()
def _cards(kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    return [CARDS[k] for k in kinds]


NO_CARDS = _cards(())
NO_OFFERS = _offers(())


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
    offers = [name(s, o.by) for o in s.offers if o.to == seat] if s.offers else None
    extra = f" {', '.join(offers)} offer{'s' if len(offers) == 1 else ''} you a trade." if offers else ""
    return step_prompt(s, seat) + extra


def _addressed(s: S) -> set[int]:
    """The seats ``prompt`` may tell something of their own; every other seat is told what
    the spectator is: the seeder, the Sleuths guessing, and in play the dead, the player
    whose turn it is, the eater, the seats a card or a Food waits on and those offered a
    trade."""
    if s.phase == "seed":
        return {s.seeding[0]}
    if s.phase == "guess":
        return set(s.guessing)
    if s.phase != "play":
        return set()
    out = {s.turn, *[p for p, dead in enumerate(s.dead) if dead], *[o.to for o in s.offers]}
    if s.window is not None:
        out.update(s.window.waiting)
    if s.eating is not None:
        out.add(s.eating.eater)
        out.update(s.eating.waiting)
    return out


def step_prompt(s: S, seat: int | None) -> str:
    step = s.step
    if step == "eat" and s.eating is not None:
        if seat == s.eating.eater:
            return f"Choose a Food from your stash to eat ({s.eating.remaining} to go)."
        return f"{name(s, s.eating.eater)} is choosing a Food to eat."
    if seat == s.turn:
        if step == "action":
            return "Your Action stage: play or discard cards, trade, then end it."
        if step == "event":
            return "Keep one of the two Event cards you drew; the other goes to the bottom."
        if step == "tag":
            return f"Tag Food #{s.inspecting} safe or unsafe — you may lie."
    who = name(s, s.turn)
    return STEP_LINES.get(step, "{who}'s turn.").format(who=who)


STEP_LINES = {"action": "{who}'s Action stage.", "event": "{who} is choosing an Event card.",
              "tag": "{who} is tagging a Food."}
"""What the other seats are told of the turn's step (``who``: the player whose turn it is)."""


def build_view(s: S, seat: int | None, deadline: int | None) -> dict[str, Any]:
    return build_views(s, [seat], deadline)[seat]


def build_views(s: S, seats: Sequence[int | None], deadline: int | None) -> dict[int | None, dict[str, Any]]:
    """Every seat's view at once: what all seats see alike is built once (the very same
    object in every view), and each part is kept by its facts (``interned``), so a part
    that did not change since the last state is the very same object as in its views. A
    seat ``prompt`` says nothing of its own (``addressed``) is told what the spectator is."""
    result = outcome(s) if s.phase == "over" else None
    players = _players(s, tuple(result.scores) if result else None)
    o = s.options
    offers = s.offers
    alike = {  # every seat's view, its own parts (None here) set for each seat below
        "game": "snollygoster", "you": None, "phase": s.phase, "step": s.step if s.phase == "play" else None,
        "prompt": None, "deadline": deadline, "since": s.step_since,
        "timers": _timers(o.window_ms, o.turn_ms, o.step_ms),
        "turn": s.turn, "turn_no": s.turn_no, "round": s.round_no,
        "round_limit": o.round_limit, "dealer": s.dealer, "team_game": o.team_game,
        "players": None,
        "limits": LIMITS,
        "escape_pod": _escape(s),
        "decks": _decks(len(s.action_deck), len(s.action_discard), len(s.event_deck), len(s.event_discard)),
        "action_discard": _cards(tuple(s.action_discard)),
        "window": window_view(s),
        "eating": eating_view(s),
        "offers": _offers(tuple([(x.by, x.to, x.give_fuel, x.want_fuel, x.give_food, x.want_food)
                                 for x in offers])) if offers else NO_OFFERS,
        "drawn": _drawn(len(s.drawn), None),
        "inspecting": s.inspecting,
        "eaten": _eaten(listed(*s.eaten)),
        "hand": NO_CARDS,
        "agenda": None,
        "guessing": _guessing(tuple(s.guessing), tuple([(k, tuple(v.items())) for k, v in s.guesses.items()])),
        "result": result.to_json() if result else None,
    }
    spectators = prompt(s, None)
    addressed = _addressed(s)
    out = {}
    for seat in seats:
        out[seat] = view = alike.copy()
        view["you"], view["prompt"], view["players"] = \
            seat, prompt(s, seat) if seat in addressed else spectators, players[seat]
        if seat is not None:
            view["hand"], view["agenda"] = _cards(tuple(s.hands[seat])), AGENDA_VIEWS[s.agendas[seat]]
            if seat == s.turn:
                view["drawn"] = _drawn(len(s.drawn), tuple([s.kinds[c] for c in s.drawn]))
    return out
