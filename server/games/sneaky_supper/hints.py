"""Teach mode for Sneaky Supper: each kind of action, the clause of the rules page that
allows it, and what it gains or risks — the Noise to bust, the points a Recipe or a card
scores (data for ``server.engine.teaching.Teacher``; the risks read only the seat's view)."""

from __future__ import annotations

from typing import Any

from server.engine.teaching import Clause, Lesson, Teacher

from .cards import BUST_NOISE

GAME_ID = "sneaky-supper"

DRAW_AGAIN = Clause("ss-draw-again", "After each card you may draw again or stop and Retreat. From your 2nd "
                                     "card on you may draw from the Utensil deck instead — once a turn.")
CAREFUL = Clause("ss-careful", "At any point of your turn, even at 4 Noise or more, spend a Careful token to "
                               "make one drawn card silent. If your tokens bring the Noise back under 4, carry "
                               "on. With no token — or if you choose not to use one — you are Busted.")
NOISE = Clause("ss-noise", "Add up the Noise of your drawn cards. At 4 or more you are Busted — unless you use "
                           "Careful tokens.")

LESSONS = {
    "draw": Lesson("Draw a Search card", DRAW_AGAIN,
                   "Another card may be a snack worth points, or Noise that busts you."),
    "draw_utensil": Lesson("Draw from the Utensil deck", DRAW_AGAIN,
                           "A Utensil for your Recipes for sure, but you do not know how loud it is."),
    "retreat": Lesson("Retreat to bed", DRAW_AGAIN,
                      "You keep what you drew (Accidents aside) and may cook and eat: no risk of a bust."),
    "careful": Lesson("Be careful (spend a token to silence a card)", CAREFUL,
                      "The card makes no Noise; a token left over is a point at the end."),
    "bust": Lesson("Accept the bust", CAREFUL,
                   "Everybody takes a share of your drawn cards, and you gain a Careful token."),
    "pick": Lesson("Take a card from the bust", Clause(
        "ss-bust-pick", "Starting with the player on your left, each player in turn order — you last — chooses "
                        "one of the drawn cards and takes it into their hand."),
        "Take the card worth most to you: points when eaten, or what your Recipes and Craving need."),
    "craving": Lesson("Complete your Craving", Clause(
        "ss-craving", "At any moment — also during other players' turns, e.g. right after taking a card from "
                      "someone's bust — if your hand (with the Secret Stash, and Mish-Mash if in play) holds "
                      "what your Craving asks for, discard those cards and score it. Then draw a new secret "
                      "Craving."),
        "It scores its points now, and you draw a new secret Craving."),
    "recipe": Lesson("Cook a Recipe", Clause(
        "ss-recipe", "Complete any number of available Recipes with cards in your hand: discard the "
                     "ingredients and keep the Recipe card for its points."),
        "The Recipe card keeps its points; the ingredients are spent."),
    "consume": Lesson("Eat one card", Clause(
        "ss-consume", "Consume one card: discard it and score the points on it."),
        "One card a turn scores the points printed on it."),
    "end_turn": Lesson("End your turn", Clause(
        "ss-end-turn", "Then end your turn. Designed: Recipes and the one card you eat may come in any order."),
        "Whatever you did not cook or eat stays in your hand (at most 4 cards)."),
    "discard": Lesson("Discard down to 4 cards", Clause(
        "ss-hand-limit", "Hand limit 4: the player whose turn ends keeps at most 4 cards (no limit after an "
                         "Overwhelming Success)."),
        "Keep the cards your Recipes and Craving need; the discards go face down."),
    "pass": Lesson("Pass (no Craving now)", Clause(
        "ss-last-call", "Designed — last call: after the last turn, players who might still complete their "
                        "Craving (with a card just taken from a bust, say) may do so, or pass, before the tally."),
        "The tally comes next: your Careful tokens score 1 point each."),
}


def _noise(view: dict[str, Any]) -> str:
    noise = view["floorplan"]["noise"]
    drawn = len(view["floorplan"]["path"])
    room = BUST_NOISE - noise
    if drawn == 0:
        return "Your first card is a must."
    if room <= 1:
        return f"Noise {noise} of {BUST_NOISE}: any card with Noise busts you (unless a Careful token silences it)."
    return (f"Noise {noise} of {BUST_NOISE}: a 1-Noise card is safe, a 3-Noise card busts you "
            "(unless a Careful token silences it).")


def _points(view: dict[str, Any], kind: str, actions: list[dict[str, Any]]) -> str:
    if kind == "recipe":
        names = {r["id"]: r for r in view["recipes"]}
        best = max((names[a["recipe"]] for a in actions if a["recipe"] in names), key=lambda r: r["points"])
        return f"{best['name']} scores {best['points']} points; the ingredients are spent."
    hand = {c["id"]: c for c in view["hand"] or []}
    best = max((hand[a["card"]] for a in actions if a["card"] in hand), key=lambda c: c["points"] or 0)
    return f"{best['name']} scores {best['points'] or 0} points (one card a turn)."


def stakes(view: dict[str, Any], kind: str, actions: list[dict[str, Any]]) -> str | None:
    """The Noise so far before a draw, the points of the best Recipe or card to eat."""
    if kind in ("draw", "draw_utensil"):
        return _noise(view)
    if kind == "retreat":
        return f"You keep the {len(view['floorplan']['path'])} cards drawn (Accidents aside): no risk of a bust."
    if kind in ("recipe", "consume") and actions:
        return _points(view, kind, actions)
    return None


TEACHER = Teacher(GAME_ID, LESSONS, NOISE, stakes)
