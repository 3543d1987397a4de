"""Teach mode: what a seat may do now and why, in the rules' own words.

A match with the option ``teach: true`` gives each seat's view a ``hints`` member: the seat's
legal actions grouped by kind, each group in plain words with the clause of the rules page
that allows it (its anchor on ``/games/<id>/rules`` and the rule quoted), and what the
choice risks or gains where the rules make it plain. Every game answers the same way: it
gives a ``Teacher`` its lessons (data: action kind → label, clause, gain) and, if it likes,
a ``stakes`` function that reads the seat's view for the risk of the moment.

Hints are made from the seat's **view and legal actions only**, so they cannot say more than
the seat may know (the leak test checks it anyway, comparing the hints of a state and of its
re-deals). A suggestion ("What would you do?") is the game's normal bot deciding on the
seat's ``BotInput``, like every bot, and explained by the same lessons.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Mapping

from .actions import Action

View = dict[str, Any]
# (view, kind, the legal actions of that kind) -> a sentence on what it risks or gains now
Stakes = Callable[[View, str, list[Action]], "str | None"]


@dataclass(frozen=True)
class Clause:
    """A clause of a rules page: its anchor (``{#anchor}`` in ``docs/rules/<game>.md``) and
    the rule, quoted word for word from that clause."""

    anchor: str
    quote: str


@dataclass(frozen=True)
class Lesson:
    """What the rules say of one kind of action: its name in plain words (``label``, an
    imperative: "Draw again"), the clause that allows it, and what it gains or risks in
    general (``gain``; a game's ``stakes`` may say more for the moment at hand)."""

    label: str
    clause: Clause
    gain: str = ""


@dataclass(frozen=True)
class Teacher:
    """One game's teacher: its lessons by action kind, the clause that explains a refusal
    when no lesson covers the kind tried, and the risk of the moment (``stakes``)."""

    game_id: str
    lessons: Mapping[str, Lesson]
    fallback: Clause
    stakes: Stakes | None = None

    def href(self, clause: Clause) -> str:
        return f"/games/{self.game_id}/rules#{clause.anchor}"

    def clause_json(self, clause: Clause) -> dict[str, str]:
        return {"anchor": clause.anchor, "quote": clause.quote, "href": self.href(clause)}

    def lesson(self, kind: str) -> Lesson:
        """The lesson of ``kind``; an unknown kind gets the fallback clause (a test makes
        sure every kind a game lists has its own lesson)."""
        found = self.lessons.get(kind)
        return found if found is not None else Lesson(kind.replace("_", " ").capitalize(), self.fallback)

    def hints(self, view: View, legal: list[Action]) -> dict[str, Any]:
        """The seat's hints: ``may`` (one entry per kind of legal action, in the order the
        game lists them: label, how many ways, clause, gain and the risk of the moment),
        ``summary`` (one sentence: "You may draw again or retreat to bed."), and ``rules``
        (the clause of every kind, so that a refusal names its clause)."""
        kinds: dict[str, list[Action]] = {}
        for action in legal:
            kinds.setdefault(str(action.get("type")), []).append(action)
        may = []
        for kind, actions in kinds.items():
            lesson = self.lesson(kind)
            stake = self.stakes(view, kind, actions) if self.stakes is not None else None
            may.append({"kind": kind, "label": lesson.label, "ways": len(actions),
                        "clause": self.clause_json(lesson.clause), "gain": lesson.gain, "stake": stake})
        return {"may": may, "summary": summary([m["label"] for m in may]), "rules": self.rules}

    @cached_property
    def rules(self) -> dict[str, Any]:
        """Every kind's clause (and the fallback's, under ``""``), made once: the same
        object in every view, so a patch never carries it twice."""
        return {**{kind: self.clause_json(lesson.clause) for kind, lesson in self.lessons.items()},
                "": self.clause_json(self.fallback)}

    def reason(self, view: View, action: Action) -> str:
        """One line on why ``action`` is a good move now, in the game's terms."""
        kind = str(action.get("type"))
        lesson = self.lesson(kind)
        stake = self.stakes(view, kind, [action]) if self.stakes is not None else None
        why = stake or lesson.gain or lesson.clause.quote
        return f"{lesson.label} — {why[0].lower()}{why[1:]}" if why else lesson.label

    def suggestion(self, view: View, action: Action | None) -> dict[str, Any]:
        """The JSON of a suggested ``action`` (``None``: the bot would wait)."""
        if action is None:
            return {"action": None, "label": "Wait", "reason": "Nothing needs doing yet: watch the table.",
                    "clause": None}
        lesson = self.lesson(str(action.get("type")))
        return {"action": action, "label": lesson.label, "reason": self.reason(view, action),
                "clause": self.clause_json(lesson.clause)}


def summary(labels: list[str]) -> str:
    """"You may draw again, try the Utensil deck or retreat to bed." (or that you wait)."""
    if not labels:
        return "Nothing to do right now: wait for the others (or for the clock)."
    words = [labels[0]] + [label[0].lower() + label[1:] for label in labels[1:]]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"You may {listed[0].lower()}{listed[1:]}."
