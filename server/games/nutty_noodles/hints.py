"""Teach mode for Nutty Noodles: each kind of action, the clause of the rules page that
allows it, and what it gains or risks (data for ``server.engine.teaching.Teacher``)."""

from __future__ import annotations

from typing import Any

from server.engine.teaching import Clause, Lesson, Teacher

from .cards import BLANK, INGREDIENT_NAMES

GAME_ID = "nutty-noodles"

FIRST_CORRECT = Clause("nn-first-correct", "The first correct placement wins the monster at that table. "
                                           "A wrong placement — wrong bowl, or a monster that cannot eat it "
                                           "— puts you out of the round; the others play on.")

LESSONS = {
    "ready": Lesson("Say you are ready", Clause(
        "nn-ready", "with the ready check (a match option, proposed by the lobby) nobody throws the first "
                    "dice until everyone has said they are ready"),
        "The dice are thrown once everyone is ready: look the monsters' allergies over first."),
    "roll": Lesson("Throw the dice", Clause(
        "nn-throw", "The thrower throws the dice; after the first round the player who won the last "
                    "monster throws."),
        "The race starts the moment the dice land; wait too long and they are thrown for you."),
    "place": Lesson("Serve the bowl to a table", Clause(
        "nn-place", "Put one of your Table tokens on that bowl: the token of a table whose monster can eat "
                    "it (a monster eats any bowl without its allergies; a Miso-allergic monster refuses "
                    "only the Miso Soup)."),
        "The first correct serve wins that table's monster; a wrong one puts you out of the round."),
    "takeaway": Lesson("Serve it as a Takeaway (face down)", Clause(
        "nn-takeaway", "If every seated monster is allergic to the bowl, the first player to put a token "
                       "face down on the right bowl (\"Takeaway\" in the game) wins the top monster of the deck."),
        "Only right when no seated monster can eat the bowl; otherwise it puts you out of the round."),
}


def stakes(view: dict[str, Any], kind: str, actions: list[dict[str, Any]]) -> str | None:
    """In the race: the ingredients the dice ask for (what the seat sees on the table)."""
    if kind not in ("place", "takeaway"):
        return None
    dice = sorted({INGREDIENT_NAMES.get(d, d) for d in view["throw"]["dice"] if d != BLANK})
    asked = " + ".join(dice) if dice else "no ingredient: the Miso Soup"
    return (f"The dice ask for exactly {asked}. The first correct serve wins a monster; "
            "a wrong bowl or an allergic monster puts you out of this round.")


TEACHER = Teacher(GAME_ID, LESSONS, FIRST_CORRECT, stakes)
