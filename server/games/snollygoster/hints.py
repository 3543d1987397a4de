"""Teach mode for Snollygoster: each kind of action, the clause of the rules page that
allows it, and what it gains or risks (data for ``server.engine.teaching.Teacher``)."""

from __future__ import annotations

from typing import Any

from server.engine.teaching import Clause, Lesson, Teacher

GAME_ID = "snollygoster"

ACTION = Clause("sg-action", "Action: play and/or discard as many cards as you like, in any order. Also in "
                             "this stage: make a player eat (below). End the stage when you are done.")
WINDOW = Clause("sg-window", "each other living player either passes or answers with Denied; a Denied may "
                             "itself be Denied, each restarting the window for everyone but its player.")
INSPECT = Clause("sg-inspect", "Inspect an untagged Food anywhere; you alone see it; then tag it safe or unsafe "
                               "with one of your five Tag cards — lie if you like.")
TRADES = Clause("sg-trades", "any living player may offer another a trade — some Fuel given and/or asked for, "
                             "and a Food from their stash given and/or one from the other's stash asked for; the "
                             "other accepts or declines (the offerer may withdraw).")
SLEUTH = Clause("sg-sleuth", "At the end, reveal this first and guess the agendas other players have not "
                             "revealed: +4 for each right guess, −2 for each wrong one.")

LESSONS = {
    "seed": Lesson("Seed a Food into a stash", Clause(
        "sg-seed", "choose a safe or unsafe Food from it and put it face down in any stash (at most 3 Food a "
                   "stash). Only you know what you seeded."),
        "Safe Food feeds whoever eats it; unsafe Food sends them into Quarantine. Only you know which."),
    "end_actions": Lesson("End your Action stage", ACTION, "Then comes your Event stage: draw 2, keep 1."),
    "discard": Lesson("Discard an Action card", ACTION, "Discards go face up; you draw back to 4 next turn."),
    "keep": Lesson("Keep one of the two Event cards", Clause(
        "sg-event", "Event: draw 2 Event cards, keep one and put the other on the bottom of the deck (only you "
                    "know what went under)."),
        "Fuel launches the pod; a Food goes face down into any stash; Hungry makes you eat."),
    "eat": Lesson("Eat a Food from your stash", Clause(
        "sg-eating", "Choose a Food from your stash. Everyone sees your choice and acknowledges it"),
        "Safe: nothing happens. Unsafe: Quarantine, unless an Antidote protects it. Tags say what others claim."),
    "pass": Lesson("Pass (let it stand)", WINDOW, "The card played stands unless someone answers with Denied."),
    "denied": Lesson("Play Denied", Clause(
        "sg-denied", "Cancel an Action card as it is played — even a Denied. It cannot cancel Event cards."),
        "Cancels the card just played (a Denied may itself be Denied)."),
    "antidote": Lesson("Play an Antidote on a Food", Clause(
        "sg-antidote", "Choose a face-down Food in any stash: if it is eaten this turn and is unsafe, it does "
                       "no harm."),
        "That Food cannot send anyone into Quarantine this turn."),
    "lockout": Lesson("Lock a player out", Clause(
        "sg-lockout", "Choose another player: until the start of your next turn they may not put Food into any "
                      "stash, take Food from one (Steal, trades), or Inspect."),
        "They can neither place, take nor inspect Food until your next turn."),
    "steal": Lesson("Steal (a pair of Steal cards)", Clause(
        "sg-steal", "Take 1 Fuel from another player, or one Food (unseen, with its tag) from another player's "
                    "stash into yours."),
        "One Fuel, or a Food unseen with its tag, comes to you."),
    "inspect": Lesson("Inspect a Food", INSPECT, "You alone learn whether it is safe; then you tag it (truly or not)."),
    "tag": Lesson("Tag the Food safe or unsafe", INSPECT,
                  "A public claim with your name: a lie proven when it is eaten costs you your whole hand."),
    "butt_in": Lesson("Butt In (an extra Event stage)", Clause(
        "sg-butt-in", "Butt in on the Event deck: take an extra Event stage now (draw 2, keep 1, the other to "
                      "the bottom), then carry on with your Action stage."),
        "One more Event card for you now."),
    "offer": Lesson("Offer a trade", TRADES, "Fuel and Food change hands only if the other accepts; 2 offers a turn."),
    "withdraw": Lesson("Withdraw your offer", TRADES, "The offer is gone before it is answered."),
    "accept": Lesson("Accept the trade", TRADES, "The Fuel and Food of the offer change hands now."),
    "decline": Lesson("Decline the trade", TRADES, "Nothing changes hands."),
    "feed": Lesson("Make a player eat (give 1 Fuel)", Clause(
        "sg-feed", "in your Action stage, give another player 1 Fuel and name a Food in their stash — they must "
                   "eat it now (with the usual acknowledgement and reveal)."),
        "Costs you 1 Fuel; they must eat the Food you named, safe or not."),
    "leave_quarantine": Lesson("Leave Quarantine (discard two Fuel)", Clause(
        "sg-quarantine", "Leave Quarantine by discarding two Fuel at any moment you could play a card."),
        "Costs two Fuel; you may take Food and board the pod again."),
    "launch": Lesson("Launch the escape pod", Clause(
        "sg-launch", "At any moment (not inside a window), if you hold Launch and are not in Quarantine, choose "
                     "passengers who are alive and not in Quarantine and whose Fuel, with yours, meets the table."),
        "If it stands the game ends: everyone aboard survives, everyone left behind counts as dead."),
    "guess": Lesson("Guess an agenda (Sleuth)", SLEUTH, "+4 for each right guess, −2 for each wrong one."),
    "done": Lesson("Stop guessing", SLEUTH, "No more guesses: no more points won or lost."),
}



def _known(food: dict[str, Any]) -> str:
    """What the seat knows of a Food in its view: what it saw, else the tag's claim."""
    if food["you_know"]:
        return f"Food #{food['id']}: you know it is {food['you_know']}"
    if food["tag"]:
        return f"Food #{food['id']}: tagged {food['tag']['claim']} by {food['tag']['by_name']}"
    return f"Food #{food['id']}: untagged"


def stakes(view: dict[str, Any], kind: str, actions: list[dict[str, Any]]) -> str | None:
    """Before a meal, what the seat knows of each Food it may eat; what Fuel a move costs."""
    players = view.get("players") or []
    you = view.get("you")
    if not isinstance(you, int) or not 0 <= you < len(players):
        return None
    if kind == "eat":
        foods = {f["id"]: f for p in players for f in p["stash"]}
        known = [_known(foods[a["food"]]) for a in actions if a.get("food") in foods][:4]
        return ("; ".join(known) + ". Unsafe Food means Quarantine, unless an Antidote protects it.") if known else None
    fuel = players[you]["fuel"]
    if kind == "feed":
        return f"Costs 1 of your {fuel} Fuel; they must eat the Food you name, safe or not."
    if kind == "leave_quarantine":
        return f"Costs 2 of your {fuel} Fuel; then you may take Food and board the pod again."
    return None


TEACHER = Teacher(GAME_ID, LESSONS, Clause(
    "sg-turn", "The player left of the dealer goes first; play goes clockwise (seat order)."), stakes)
