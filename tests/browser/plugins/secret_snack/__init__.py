"""Secret Snack, a test-only game: players take turns to draw a snack card that only they
see (a private event), and the game ends after a few draws. Used by the browser tests
for private events, spectators, the generic renderer and the result screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from pydantic import Field

from server.engine import Action, Event, Game, Options, Result, Rng, State, private, public, require

SNACKS = ["Gem Biscuits", "Seasoned Seaweed", "Sliced Bread", "Kaya Toast", "Ice Cream", "Pork Floss"]


class SecretSnackOptions(Options):
    draws: int = Field(2, ge=1, le=6, title="Draws each", description="Snacks each player draws.")


@dataclass
class SecretSnackState(State):
    players: list[str]
    options: SecretSnackOptions
    rng: Rng
    deck: list[str]
    hands: list[list[str]] = field(default_factory=list)
    turn: int = 0


class SecretSnack(Game[SecretSnackState, SecretSnackOptions]):
    id = "secret-snack"
    name = "Secret Snack"
    pitch = "A test game: draw snacks nobody else may see."
    min_players = 2
    max_players = 3
    options_model = SecretSnackOptions

    def setup(self, players: Sequence[str], options: SecretSnackOptions, seed: int,
              now_ms: int = 0) -> SecretSnackState:
        self.check_players(len(players))
        rng = Rng(seed)
        return SecretSnackState(list(players), self.options(options), rng, rng.shuffled(SNACKS * 3),
                                [[] for _ in players])

    def _over(self, s: SecretSnackState) -> bool:
        return s.turn >= len(s.players) * s.options.draws

    def legal(self, state: SecretSnackState, seat: int) -> list[Action]:
        if self._over(state) or seat != state.turn % len(state.players):
            return []
        return [{"type": "draw"}]

    def apply(self, state: SecretSnackState, seat: int | None, action: Action,
              now_ms: int) -> tuple[SecretSnackState, list[Event]]:
        require(not self._over(state), "The game is over.")
        require(seat is not None and action == {"type": "draw"}, "Only draw is possible.")
        require(seat == state.turn % len(state.players), "It is not your turn.")
        s = state.clone()
        snack = s.deck.pop()
        s.hands[seat].append(snack)
        s.turn += 1
        who = s.players[seat]
        return s, [public("draw", f"{who} draws a snack."),
                   private(seat, "drew", f"You drew {snack}.", snack=snack)]

    def view(self, state: SecretSnackState, seat: int | None) -> dict[str, Any]:
        n = len(state.players)
        over = self._over(state)
        if over:
            prompt = "The game is over."
        elif seat == state.turn % n:
            prompt = "Draw a snack!"
        else:
            prompt = f"Waiting for {state.players[state.turn % n]} to draw."
        return {
            "game": self.id, "you": seat, "phase": "over" if over else "draw", "prompt": prompt,
            "players": [{"name": p, "score": len(state.hands[i])} for i, p in enumerate(state.players)],
            "hand": list(state.hands[seat]) if seat is not None else None,
        }

    def deadline(self, state: SecretSnackState) -> int | None:
        return None

    def determinize(self, state: SecretSnackState, seat: int, rng: Rng) -> SecretSnackState:
        s = state.clone()
        rng.shuffle(s.deck)
        return s

    def result(self, state: SecretSnackState) -> Result | None:
        if not self._over(state):
            return None
        scores = [float(len(h)) for h in state.hands]
        return Result(winners=list(range(len(scores))), scores=scores, reason="Everybody ate.")


GAME = SecretSnack()
