"""Teach mode for Rival Restaurants and SPORKS Out: each kind of action, the clause of the
rules page that allows it, and what it gains or risks (data for
``server.engine.teaching.Teacher``)."""

from __future__ import annotations

from typing import Any

from server.engine.teaching import Clause, Lesson, Teacher

from .cards import CUISINE_BONUS

GAME_ID = "rival-restaurants"

AUCTION = Clause("rr-auction", "a card claimed by two or more chefs goes to an auction among them: the first bid "
                               "is at least the card's price, each later bid at least $100 more than the high bid")
BUY = Clause("rr-buy", "When claims at your market are settled, buy any free counter card at your own location at "
                       "its price, or the top face-down card of its shelf, blind, at the market's price")
ISLAND = Clause("rr-island", "The Island has no counter: there you buy upgrades, action cards ($200 each, from the "
                             "top of the deck, Designed price) and dump garbage at $100 each.")
OFFER = Clause("rr-barter", "Barter with anyone, anywhere: offer another chef any mix of ingredients, money, "
                            "recipes, action cards, garbage and upgrades for any mix of theirs")
ANSWER = Clause("rr-barter", "They accept or decline; you may withdraw. An accepted offer is carried out whole, "
                             "only if both sides still hold what they offered — otherwise it falls through.")
DECLARE = Clause("rr-declare", "Declare: every chef secretly declares the recipe they cook — at most one a day (two "
                               "with the Second Stove or Overtime) — with any specials added to it, then serves; "
                               "serving with nothing declared is a pass.")
POWERS = Clause("rr-powers", "Chef powers, level rewards, upgrades, specials and action cards all work the same way: "
                             "each does something at a named moment of the day")
CLAIM = Clause("rr-claim", "Claim first. At a market, each chef first claims one counter card (or makes no claim). "
               "You must be able to pay its price.")

LESSONS = {
    "choose_restaurant": Lesson("Choose your restaurant", Clause(
        "rr-choose", "On Day 1, before anything else (before the first income), every chef secretly chooses one "
                     "restaurant of the match's pool"),
        "Its cuisine earns +1 popularity per recipe of it; a restaurant chosen by several goes to one drawn at random."),
    "move": Lesson("Pick a location", Clause(
        "rr-move", "Move: every chef secretly picks one of the 7 locations. You may change your pick until "
                   "everyone has picked; then all picks are revealed together."),
        "Go where the ingredients of your recipes are sold; the Island sells upgrades and action cards."),
    "claim": Lesson("Claim a counter card", CLAIM,
                    "Claimed by you alone, it is yours at its price; claimed by several, it goes to an auction."),
    "no_claim": Lesson("Make no claim", CLAIM, "You keep your money for buying and bartering."),
    "bid": Lesson("Bid in the auction", AUCTION, "The last bidder standing pays the high bid and takes the card."),
    "pass": Lesson("Pass in the auction", AUCTION, "You are out of this auction and keep your money."),
    "buy": Lesson("Buy a counter card", BUY, "The ingredient is yours at its price, face up."),
    "buy_shelf": Lesson("Buy the top shelf card blind", BUY, "The market's price for a card you have not seen."),
    "runner_buy": Lesson("Buy with your runner", Clause(
        "rr-runner", "The runner has the location's powers: at a market you may buy free counter cards there "
                     "once claims there are settled"),
        "A second chef shopping: no location-based discount for the runner."),
    "buy_upgrade": Lesson("Buy an upgrade", ISLAND, "An upgrade works every day from now on."),
    "buy_action": Lesson("Buy an action card ($200)", ISLAND, "The top card of the action deck, to play later."),
    "dump": Lesson("Dump garbage ($100 each)", ISLAND, "Each garbage you hold costs 1 popularity on every dish."),
    "offer": Lesson("Offer a barter", OFFER, "They see it and may accept; at most 4 open offers at a time."),
    "accept": Lesson("Accept the barter", ANSWER, "Both sides change hands whole, if both still hold them."),
    "decline": Lesson("Decline the barter", ANSWER, "Nothing changes hands."),
    "withdraw": Lesson("Withdraw your offer", ANSWER, "The offer is gone before it is answered."),
    "done": Lesson("Say done for the day's market", Clause(
        "rr-done", "Done. Saying done ends your market day: your open claim is waived, you pass in auctions where "
                   "you are not the high bidder, and your offers are withdrawn or declined."),
        "The market ends early once every chef has said done."),
    "cook": Lesson("Declare a recipe to cook", DECLARE,
                   "Popularity += its points + cuisine bonus + specials − 1 per garbage you already hold."),
    "serve": Lesson("Serve (what you declared, or nothing)", DECLARE,
                    "Declarations are revealed when everyone has served; serving with nothing declared is a pass."),
    "play": Lesson("Play an action card", POWERS, "It does what it says at its moment; one action card a day."),
    "power": Lesson("Use a power", POWERS, "Your chef's, restaurant's or SPORK's power, at its moment."),
    "box_bid": Lesson("Bid for the Snackle Box", Clause(
        "rr-box-bid", "Bidding: every chef bids in secret for the whole box, with money in hand."),
        "The single highest bid pays and takes everything in the box; a tie for the top means nobody gets it."),
    "squad_chef": Lesson("Choose today's chef", Clause(
        "rr-squad-chef", "Today's chef. Every day, just before MONEY and MOVE (after the Action Auction with "
                         "SPORKS Out), each player secretly chooses today's chef from the squad"),
        "Only today's chef's power works today."),
}



def _dish(view: dict[str, Any], me: dict[str, Any], recipe: str) -> str | None:
    """What cooking ``recipe`` scores before specials and powers (the rules' formula)."""
    found = next((r for r in me["recipes"] if r["id"] == recipe), None)
    if found is None:
        return None
    restaurant = me.get("restaurant") or {}
    bonus = CUISINE_BONUS if found["cuisine"] == restaurant.get("cuisine") else 0
    score = found["points"] + bonus - me["garbage"]
    parts = f"{found['points']} points" + (f" + {bonus} cuisine bonus" if bonus else "") + \
        (f" − {me['garbage']} for your garbage" if me["garbage"] else "")
    return (f"{found['name']}: {parts} = {score:+d} popularity (before specials and powers), "
            f"then {found['garbage']} garbage.")


def stakes(view: dict[str, Any], kind: str, actions: list[dict[str, Any]]) -> str | None:
    """The popularity a recipe would score now (points, cuisine bonus, garbage held), and
    what garbage costs, from the seat's own chef in its view."""
    you = view.get("you")
    players = view.get("players") or []
    if not isinstance(you, int) or not 0 <= you < len(players):
        return None
    me = players[you]
    if kind == "cook":
        dishes = [d for d in (_dish(view, me, a.get("recipe")) for a in actions) if d]
        return " ".join(dict.fromkeys(dishes)) or None
    if kind == "dump" and me["garbage"]:
        return f"You hold {me['garbage']} garbage: each costs 1 popularity on every dish you cook."
    return None


TEACHER = Teacher(GAME_ID, LESSONS, Clause("rr-day", "A day has three phases."), stakes)
