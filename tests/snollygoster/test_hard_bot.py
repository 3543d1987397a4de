"""The hard Snollygoster bot: the normal bot with foresight where a Launch ends the game.
(How much stronger it plays is measured, not asserted: ``bench.levels``, on the rules page.)"""

from __future__ import annotations

from server.engine import Rng
from server.engine.bots import ask
from server.games.snollygoster import GAME
from server.games.snollygoster.bot import HardSnollygosterBot, SnollygosterBot

from .helpers import act, set_fuel, set_hand, table

NOW = 20_000


def bots(s, seat: int, agenda: str) -> tuple[SnollygosterBot, HardSnollygosterBot]:
    s.agendas[seat] = agenda
    return SnollygosterBot(GAME, Rng(1)), HardSnollygosterBot(GAME, Rng(1))


def test_hard_bot_launches_alone_when_the_pod_surely_wins() -> None:
    s = table(2)
    me = s.turn
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 5)
    set_fuel(s, 1 - me, 4)
    _, hard = bots(s, me, "captain")
    assert ask(GAME, hard, s, me, NOW).action == {"type": "launch", "passengers": []}


def test_hard_bot_waits_rather_than_launch_a_pod_the_other_may_win() -> None:
    """A Trojan Horse scores nothing for its own Launch: taking a rival with as much Fuel
    along is a coin flip on the rival's agenda, which the normal bot takes and the hard
    one does not."""
    s = table(2)
    me = s.turn
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 4)
    set_fuel(s, 1 - me, 4)
    normal, hard = bots(s, me, "trojan")
    s.round_no = 9  # past the Trojan Horse's patience: the normal bot launches
    assert ask(GAME, normal, s, me, NOW).action == {"type": "launch", "passengers": [1 - me]}
    assert ask(GAME, hard, s, me, NOW).action["type"] != "launch"


def taken_along(my_fuel: int, rival_fuel: int):
    """Two players: the rival plays a Launch taking the player to move along; that player
    holds a Denied. Returns the state and the seat that answers."""
    s = table(2)
    me, rival = s.turn, 1 - s.turn
    set_hand(s, rival, ["launch"])
    set_fuel(s, rival, rival_fuel)
    set_fuel(s, me, my_fuel)
    s, _ = act(s, rival, {"type": "launch", "passengers": [me]})
    set_hand(s, me, ["denied"])
    return s, me


def test_hard_bot_denies_a_launch_that_takes_it_along_to_lose() -> None:
    s, me = taken_along(my_fuel=3, rival_fuel=5)
    normal, hard = bots(s, me, "hoarder")
    assert ask(GAME, normal, s, me, NOW).action == {"type": "pass"}
    assert ask(GAME, hard, s, me, NOW).action == {"type": "denied"}


def test_hard_bot_lets_a_launch_it_wins_stand() -> None:
    s, me = taken_along(my_fuel=5, rival_fuel=3)
    _, hard = bots(s, me, "survivor")
    assert ask(GAME, hard, s, me, NOW).action == {"type": "pass"}


def test_hard_bot_discards_what_will_not_fly_to_draw_launch_and_denied() -> None:
    s = table(2)
    me = s.turn
    set_hand(s, me, ["antidote", "denied", "launch"])
    normal, hard = bots(s, me, "captain")
    assert ask(GAME, normal, s, me, NOW).action == {"type": "end_actions"}
    assert ask(GAME, hard, s, me, NOW).action == {"type": "discard", "card": "antidote"}
    s, _ = act(s, me, {"type": "discard", "card": "antidote"})
    assert ask(GAME, hard, s, me, NOW).action == {"type": "end_actions"}  # Denied and Launch stay
