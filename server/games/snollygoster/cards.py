"""Snollygoster components, as data.

From the rulebook and the public card guide (``/work/shared/rules/FACTS.md``): the Action
cards Inspect, Launch, Antidote and Denied, a card that bars a player from the stashes
(ours: *Lockout*), Steal (played as a pair) and Butt In; the Event cards Fuel, safe and
unsafe Food, Hungry, Starving and Ransom; 5 Tag cards per character; Hidden Agendas with
Comrade or Rogue printed on each, among them *Sleuth* and *Trojan Horse*.

**Designed** (marked so on ``docs/rules/snollygoster.md``): every count, the texts of
Lockout, Steal, Butt In and Ransom, the escape pod's fuel table, the six characters and
their tags, and the agenda list with its scoring. A published list would replace these
as data, without a code change.
"""

from __future__ import annotations

from dataclasses import dataclass

COMRADE, ROGUE = "Comrade", "Rogue"
TEAMS: tuple[str, str] = (COMRADE, ROGUE)

HAND_SIZE = 4  # Draw: "until you have four cards in your hand"
STASH_SIZE = 3  # "It holds up to three Food Cards."
FUEL_CAP = 5  # "Each player can hold up to a maximum of five fuel."
QUARANTINE_EXIT_FUEL = 2  # "place a pair of Fuel Cards in the discard pile"
FEED_FUEL = 1  # "give a player one fuel to eat any one food from their stash"
SEEDS_PER_PLAYER = 2  # "Pass the Event Deck around twice."
TAGS_PER_CHARACTER = 5


@dataclass(frozen=True)
class Card:
    """A card type: its id, name, how many are in the deck and what it does."""

    id: str
    name: str
    count: int
    text: str
    any_time: bool = False  # playable at any moment, not only in your Action stage
    designed: bool = False  # its text (not only its count) is ours


# ---- the Action deck (counts designed) -----------------------------------------------------
ACTION_CARDS: dict[str, Card] = {c.id: c for c in (
    Card("inspect", "Inspect", 10,
         "Action stage: look at an untagged Food in any stash, put it back face down and tag "
         "it safe or unsafe with one of your Tag cards. You may lie."),
    Card("launch", "Launch", 5,
         "Any time: launch the escape pod with the passengers you choose (they cannot "
         "refuse). Everyone aboard must together hold the fuel the pod needs for that many "
         "people. A successful launch ends the game; whoever stays behind counts as dead.",
         any_time=True),
    Card("antidote", "Antidote", 4,
         "Any time: choose a face-down Food in any stash. If it is eaten this turn and it is "
         "unsafe, it does no harm.", any_time=True),
    Card("denied", "Denied", 8,
         "Any time: cancel an Action card as it is played — even a Denied. It cannot cancel "
         "Event cards.", any_time=True),
    Card("lockout", "Lockout", 3,
         "Action stage: choose another player. Until the start of your next turn they may "
         "not put Food into any stash, take Food from one, or Inspect.", designed=True),
    Card("steal", "Steal", 6,
         "Action stage, played as a pair: take 1 Fuel from another player, or one Food "
         "(unseen, tag and all) from another player's stash into yours.", designed=True),
    Card("butt_in", "Butt In", 4,
         "Action stage: butt in on the Event deck — take an extra Event stage now (draw 2, "
         "keep 1, the other to the bottom), then carry on with your Action stage.",
         designed=True),
)}

# ---- the Event deck (counts designed; at least 12 of each Food so that every seat can
# always choose either kind while seeding, which keeps that choice secret) -----------------
FOOD_KINDS: tuple[str, str] = ("safe", "unsafe")
HUNGER: dict[str, int] = {"hungry": 1, "starving": 2}  # how many foods the card makes you eat

EVENT_CARDS: dict[str, Card] = {c.id: c for c in (
    Card("fuel", "Fuel", 14, "Keep it by your tags (at most 5). Fuel launches the pod."),
    Card("safe", "Food (safe)", 16, "Put it face down in anyone's stash (at most 3 a stash)."),
    Card("unsafe", "Food (unsafe)", 12,
         "Put it face down in anyone's stash. Whoever eats it goes into Quarantine."),
    Card("hungry", "Hungry", 12, "Show it: eat 1 Food from your stash."),
    Card("starving", "Starving", 4, "Show it: eat 2 Foods from your stash, one after the other."),
    Card("ransom", "Ransom", 4,
         "Show it and name another player who has Fuel: they give you 1 Fuel.", designed=True),
)}

# ---- the escape pod (designed): the least fuel everyone aboard must hold together ---------
POD_FUEL: dict[int, int] = {1: 5, 2: 8, 3: 10, 4: 12, 5: 14, 6: 16}


@dataclass(frozen=True)
class Character:
    """A crew member: a colour for the table and five Tag cards, each with a line for its
    safe side and one for its unsafe side (designed)."""

    id: str
    name: str
    color: str
    tags: tuple[tuple[str, str], ...]


CHARACTERS: dict[str, Character] = {c.id: c for c in (
    Character("nacho", "Astro Nacho", "#e8a33d", (
        ("Crunchy!", "Soggy."), ("Orbit-approved", "Black hole"), ("Cheesy good", "Cheesy bad"),
        ("Nom", "Nope"), ("Ship it", "Space it"))),
    Character("kimchi", "Commander Kimchi", "#d64541", (
        ("Fermented fine", "Fermented foul"), ("Green light", "Red alert"), ("Eat up", "Hands off"),
        ("Trust me", "Trust me"), ("Spicy safe", "Spicy doom"))),
    Character("dumpling", "Dr. Dumpling", "#f3e3b5", (
        ("Clinically safe", "Contagious"), ("Prescribed", "Contraindicated"), ("Healthy", "Sickly"),
        ("All clear", "Biohazard"), ("Doctor's orders", "Malpractice"))),
    Character("lox", "Lieutenant Lox", "#f08c7a", (
        ("Fresh catch", "Fishy"), ("Smooth sailing", "Man overboard"), ("Safe harbour", "Shipwreck"),
        ("Aye", "Nay"), ("Catch of the day", "Bottom feeder"))),
    Character("pickle", "Professor Pickle", "#6aa84f", (
        ("Peer-reviewed", "Retracted"), ("Dill-licious", "Dill-eterious"), ("Proven", "Disproven"),
        ("Eureka", "Uh-oh"), ("Control group", "Test subject"))),
    Character("saffron", "Sergeant Saffron", "#f6c343", (
        ("At ease", "Incoming!"), ("Mission ready", "Mission abort"), ("Cleared", "Condemned"),
        ("Affirmative", "Negative"), ("Rations", "Rotten"))),
)}


@dataclass(frozen=True)
class Agenda:
    """A Hidden Agenda card: its team mark, what it says, and how it scores.

    ``rule`` names a scoring rule in ``scoring.py`` and ``points`` is its rate.
    """

    id: str
    name: str
    team: str
    rule: str
    points: int
    text: str


SLEUTH_TEXT = ("At the end, reveal this first and guess the agendas other players have not revealed: +4 for "
               "each right guess, -2 for each wrong one.")  # one Sleuth on each side

# All designed except the two names the +2 pack makes public (Sleuth, Trojan Horse).
AGENDAS: dict[str, Agenda] = {a.id: a for a in (
    Agenda("captain", "Captain", COMRADE, "launched", 5,
           "+5 if you play the Launch that gets the pod off the planet."),
    Agenda("medic", "Medic", COMRADE, "passengers", 1,
           "+1 for every other player aboard the escape pod."),
    Agenda("inspector", "Food Inspector", COMRADE, "honest_tags", 1,
           "+1 for each of your tags that is true, -1 for each that is false (checked at the "
           "end, on eaten Food and on Food still in the stashes)."),
    Agenda("provider", "Provider", COMRADE, "safe_given", 2,
           "+2 for each safe Food you placed that another player ate or still has in their "
           "stash at the end."),
    Agenda("survivor", "Survivor", COMRADE, "aboard", 3,
           "+3 if you leave on the escape pod."),
    Agenda("sleuth_c", "Sleuth", COMRADE, "sleuth", 4, SLEUTH_TEXT),
    Agenda("snollygoster", "Snollygoster", ROGUE, "lies", 1,
           "+1 for each of your tags that is false (checked at the end, on eaten Food and on "
           "Food still in the stashes)."),
    Agenda("saboteur", "Saboteur", ROGUE, "poisoned", 2,
           "+2 each time another player goes into Quarantine from a Food you placed, and +1 for "
           "each unsafe Food you placed still in another player's stash at the end."),
    Agenda("trojan", "Trojan Horse", ROGUE, "stowaway", 3,
           "+3 if you leave on the escape pod without having played the Launch."),
    Agenda("doomsayer", "Doomsayer", ROGUE, "left_behind", 2,
           "+2 for every player, you included, who does not leave on the escape pod (at most "
           "+4), or +6 if nobody leaves the planet."),
    Agenda("hoarder", "Hoarder", ROGUE, "fuel_beyond_one", 1,
           "+1 for each Fuel beyond the first in front of you when the game ends."),
    Agenda("sleuth_r", "Sleuth", ROGUE, "sleuth", 4, SLEUTH_TEXT),
)}

AGENDA_NAMES: tuple[str, ...] = tuple(dict.fromkeys(a.name for a in AGENDAS.values()))


def deck(cards: dict[str, Card]) -> list[str]:
    """Every card of a deck by its type id, ``count`` copies each, in a fixed order."""
    return [c.id for c in cards.values() for _ in range(c.count)]


def pod_fuel(people: int) -> int:
    """The least fuel the people aboard must hold together for the pod to launch."""
    return POD_FUEL[people]


def rogue_counts(players: int) -> list[int]:
    """How many Rogues a team game may deal (designed): half the table; with an odd
    number of players a hidden coin decides which team gets the extra player."""
    return sorted({players // 2, players - players // 2})


def is_food(kind: str) -> bool:
    return kind in FOOD_KINDS
