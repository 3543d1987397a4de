"""Teach mode (issue 26): every kind of legal action of every game has a hint naming the
clause of its rules page that allows it; every clause has its anchor there and quotes it
word for word; hints are the seat's only (spectators get none) and only in teach mode; a
suggestion is a legal move of the normal bot, explained."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from server.api.pages import CLAUSE, rules_html
from server.engine import Game, Rng, registry
from server.engine.playout import Entry, play, random_bots
from server.engine.teaching import Clause, summary

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
GAMES = sorted(registry.games())


def _game(game_id: str) -> Game[Any, Any]:
    return registry.get(game_id)


# option sets that reach kinds of action no variant of the contract's does
REACHING = {"rival-restaurants": [{"restaurants": "chosen"}, {"kitchen_squad": True}]}


def _taught(options: dict[str, Any]) -> dict[str, Any]:
    return {**options, "teach": True}


@cache
def seen_kinds(game_id: str) -> dict[str, tuple[Any, int, int]]:
    """Each kind of action some seat may play along random games of every variant (at the
    fewest and the most players the variant seats) and a game of the default bots (who
    reach what random play rarely does: a Launch), with the first state and seat where it
    was legal and the time then."""
    game = _game(game_id)
    found: dict[str, tuple[Any, int, int]] = {}

    def keep_for(players: int):
        def keep(state: Any, entry: Entry, _events: list) -> None:
            for seat in range(players):
                for action in game.legal(state, seat):
                    found.setdefault(action["type"], (state, seat, entry.at_ms))
        return keep

    for options in [*(game.variants[name] for name in sorted(game.variants)), *REACHING.get(game_id, [])]:
        sizes = [n for n in (game.min_players, game.max_players) if _fits(game, n, options)]
        for players in dict.fromkeys(sizes):
            play(game, players, _taught(options), seed=players, bots=random_bots, on_step=keep_for(players))
    players = game.min_players if _fits(game, game.min_players, {}) else game.max_players
    play(game, players, _taught({}), seed=1, on_step=keep_for(players))
    return found


def _fits(game: Game[Any, Any], players: int, options: dict[str, Any]) -> bool:
    try:
        game.validate(players, game.options(options))
    except Exception:
        return False
    return True


def clause_texts(game_id: str) -> dict[str, str]:
    """Each ``{#anchor}`` of a rules file and the text of its clause (to the end of its
    paragraph or list item), emphasis stripped and spaces made single."""
    text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    out = {}
    for m in CLAUSE.finditer(text):
        rest = text[m.end():]
        end = re.search(r"\n\s*\n|\n\s*(?:[-*]|\d+\.) |\n#|\n\||\{#", rest)
        body = rest[: end.start() if end else len(rest)]
        out[m.group(1)] = " ".join(body.replace("*", "").replace("`", "").split())
    return out


def lesson_params() -> list[tuple[str, str]]:
    return [(g, kind) for g in GAMES for kind in sorted(_game(g).teacher.lessons)]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_teacher_for_its_own_page(game_id: str) -> None:
    teacher = _game(game_id).teacher
    assert teacher is not None and teacher.game_id == game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_of_legal_action_has_its_own_lesson(game_id: str) -> None:
    """A kind a seat may play that no lesson names would fall back to a general clause."""
    kinds = set(seen_kinds(game_id))
    missing = kinds - set(_game(game_id).teacher.lessons)
    assert not missing, f"no lesson for {sorted(missing)}"


@pytest.mark.parametrize(("game_id", "kind"), lesson_params())
def test_the_hint_of_each_kind_shows_its_label_and_clause(game_id: str, kind: str) -> None:
    """Where ``kind`` is legal, the seat's hints list it: its label, the number of ways,
    its clause (anchor, quote, link to the rules page) and a summary naming it."""
    game = _game(game_id)
    assert kind in seen_kinds(game_id), f"{kind} is never legal in random play: a lesson for nothing?"
    state, seat, _at = seen_kinds(game_id)[kind]
    hints = game.hints(state, seat)
    lesson = game.teacher.lessons[kind]
    entry = next(m for m in hints["may"] if m["kind"] == kind)
    ways = sum(a["type"] == kind for a in game.legal(state, seat))
    assert entry["label"] == lesson.label and entry["ways"] == ways
    assert entry["clause"] == {"anchor": lesson.clause.anchor, "quote": lesson.clause.quote,
                               "href": f"/games/{game_id}/rules#{lesson.clause.anchor}"}
    assert lesson.label[0].lower() + lesson.label[1:] in hints["summary"] or hints["summary"].startswith(
        f"You may {lesson.label[0].lower()}")
    assert hints["rules"][kind] == entry["clause"]
    json.dumps(hints)


def _clauses(game_id: str) -> list[Clause]:
    teacher = _game(game_id).teacher
    return [teacher.fallback, *(lesson.clause for lesson in teacher.lessons.values())]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_clause_an_action_relies_on_has_its_anchor_and_quotes_it(game_id: str) -> None:
    """The anchor is on the rules page (in the file and as an id in the HTML), and the
    quote is the clause's own words."""
    texts = clause_texts(game_id)
    page = rules_html(game_id)
    for clause in _clauses(game_id):
        assert clause.anchor in texts, f"docs/rules/{game_id}.md has no {{#{clause.anchor}}}"
        assert f'id="{clause.anchor}"' in page
        assert " ".join(clause.quote.split()) in texts[clause.anchor], \
            f"{clause.anchor}: the quote is not the clause's words:\n{clause.quote}\n---\n{texts[clause.anchor]}"


def test_anchors_are_unique_on_each_page() -> None:
    for game_id in GAMES:
        text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
        anchors = CLAUSE.findall(text)
        assert len(anchors) == len(set(anchors)), game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_hints_only_in_teach_mode_and_never_for_spectators(game_id: str) -> None:
    game = _game(game_id)
    state, seat, _at = next(iter(seen_kinds(game_id).values()))
    assert game.hints(state, None) is None
    views = game.taught(state, {seat: game.view(state, seat), None: game.view(state, None)})
    assert views[seat]["hints"] == game.hints(state, seat) and "hints" not in views[None]
    plain = game.setup(list(state.players), game.options({}), 1, 0)
    assert game.hints(plain, seat) is None and game.suggest(plain, seat, 0, 1) is None
    assert game.taught(plain, {seat: game.view(plain, seat)}) == {seat: game.view(plain, seat)}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_suggestion_is_a_legal_move_of_the_normal_bot_explained(game_id: str) -> None:
    """At the first state of every kind, the suggestion (if the bot would not wait) is one
    of the seat's legal moves, with a reason in words and the clause of its kind."""
    game = _game(game_id)
    suggested = 0
    for state, seat, at in seen_kinds(game_id).values():
        tip = game.suggest(state, seat, at, seed=7)
        assert tip is not None and tip["reason"]
        if tip["action"] is None:
            continue
        suggested += 1
        legal = game.legal(state, seat)
        assert tip["action"] in legal or tip["action"]["type"] in {a["type"] for a in legal}
        lesson = game.teacher.lesson(tip["action"]["type"])
        assert tip["label"] == lesson.label and tip["clause"]["anchor"] == lesson.clause.anchor
        assert tip["reason"].startswith(lesson.label)
        assert tip == game.suggest(state, seat, at, seed=7), "the same seed suggests the same"
    assert suggested, "the bot suggested nothing at all"


def test_summary_lists_the_choices_in_plain_words() -> None:
    assert summary(["Draw again", "Try the Utensil deck", "Retreat to bed"]) == \
        "You may draw again, try the Utensil deck or retreat to bed."
    assert summary(["Throw the dice"]) == "You may throw the dice."
    assert summary([]).startswith("Nothing to do")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_suggestion_knows_no_more_than_the_seat(game_id: str) -> None:
    """A state and its re-deals for the seat (what the seat cannot tell apart) get the same
    suggestion: it is decided on the seat's own input, never on the true state."""
    game = _game(game_id)
    rng = Rng(5)
    compared = 0
    for state, seat, at in list(seen_kinds(game_id).values())[:5]:
        tip = game.suggest(state, seat, at, seed=3)
        for _ in range(2):
            other = game.determinize(state, seat, rng)
            assert game.suggest(other, seat, at, seed=3) == tip, f"seat {seat} was told more than it knows"
            compared += 1
    assert compared
