"""Nutty Noodles: the rules.

A round: the thrower throws the dice; everyone at once puts one Table token on the bowl
with exactly the thrown ingredients, choosing a table whose monster can eat it. The first
correct placement wins that monster; a wrong one puts its player out of the round.
Designed details (see ``docs/rules/nutty-noodles.md``): correct placements within
``tie_window_ms`` of the first count as simultaneous; after a tie the tied winner with
the fewest monsters throws next (then the earliest); a token put face down on the right
bowl is a ``takeaway`` claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Sequence

from pydantic import Field

from server.engine import (
    TIMEOUT,
    Action,
    Event,
    Game,
    IllegalAction,
    Options,
    Result,
    Rng,
    State,
    public,
    require,
    shallow,
)

from .cards import BLANK, BOWLS, DIE_FACES, INGREDIENT_NAMES, INGREDIENTS, MODES, MONSTERS, TARGET
from .cards import Mode, bowl_id, bowls_for, monsters_for
from . import parts



class NuttyNoodlesOptions(Options):
    mode: Literal["basic", "advanced"] = Field(
        "basic",
        title="Mode",
        description="Basic: 16 bowls, 3 tables, 2 dice. Advanced: 20 bowls, 4 tables, 3 dice.",
    )
    order_please: bool = Field(
        False, title="Order Please",
        description="You must serve the first monster, left to right, that can eat the bowl.",
    )
    panic_in_the_kitchen: bool = Field(
        False, title="Panic in the Kitchen", description="Bowls are scattered, not in a grid."
    )
    scrambled: bool = Field(
        False, title="Scrambled", description="Bowls show their harder-to-read side."
    )
    tie_window_ms: int = Field(
        250, ge=0, le=2000, title="Tie window (ms)",
        description="Correct placements this close to the first one are simultaneous.",
    )
    roll_timeout_ms: int = Field(
        8000, ge=1000, le=120_000, title="Throw timer (ms)",
        description="The dice are thrown for the thrower after this long.",
    )
    round_timeout_ms: int = Field(
        30_000, ge=3000, le=600_000, title="Round timer (ms)",
        description="If nobody serves correctly in this time, the dice are thrown again.",
    )
    # Off for programs (and the recorded corpus); the lobby proposes it to people
    ready_check: bool = Field(
        False, title="Ready check", json_schema_extra={"lobby_default": True},
        description="Before the first throw, everyone says they are ready (bots at once); after the "
                    "ready timer the game starts anyway.",
    )
    ready_timeout_ms: int = Field(
        60_000, ge=5_000, le=600_000, title="Ready timer (ms)",
        description="With the ready check: the game starts after this long even if somebody is not ready.",
    )


@dataclass
class Placement:
    seat: int
    bowl: str
    table: int | None  # None: face down, a takeaway claim
    at_ms: int
    correct: bool


@dataclass
class NuttyNoodlesState(State):
    players: list[str]
    options: NuttyNoodlesOptions
    rng: Rng
    bowls: list[str]  # grid order, row by row
    layout: list[dict[str, int]] | None  # Panic in the Kitchen: where each bowl lies
    tables: list[str | None]  # the monster at each table
    deck: list[str]  # face down; the top is the end of the list
    won: list[list[str]]
    thrower: int
    phase: str = "roll"  # ready | roll | race | closing | over
    ready: list[int] = field(default_factory=list)  # the ready check: seats that said they are ready
    phase_since: int = 0  # when the current phase began (ms)
    dice: list[str] = field(default_factory=list)
    target: str | None = None  # the bowl the dice ask for
    first_correct_ms: int | None = None
    placements: list[Placement] = field(default_factory=list)  # this throw's, kept until the next throw
    last_round: dict[str, Any] | None = None  # the last round's target and winners (its placements: above)
    rounds: int = 0  # rounds won by somebody
    throws: int = 0
    end_reason: str | None = None

    def clone(self) -> "NuttyNoodlesState":
        """A copy that ``apply`` may change: the mutable parts are copied, the rest shared
        (options, bowls, layout, placements and ready are never changed in place)."""
        s = shallow(self)
        s.rng = Rng(self.rng.state)
        s.tables, s.deck, s.placements = list(self.tables), list(self.deck), list(self.placements)
        s.won = [list(w) for w in self.won]
        return s

    @property
    def mode(self) -> Mode:
        return MODES[self.options.mode]

    @property
    def goal(self) -> int:
        return TARGET[len(self.players)]


# ---- pure helpers ------------------------------------------------------------------------

def throw_dice(rng: Rng, mode: Mode) -> tuple[list[str], int]:
    """Throw the mode's dice, again until they show ``min_distinct`` different ingredients.
    Returns the faces and how many throws it took."""
    attempts = 0
    while True:
        attempts += 1
        faces = [rng.choice(DIE_FACES) for _ in range(mode.dice)]
        if len(set(faces) - {BLANK}) >= mode.min_distinct:
            return faces, attempts


def bowl_for_dice(faces: Sequence[str]) -> str:
    """The bowl with exactly the ingredients shown; no ingredient at all means Miso Soup."""
    return bowl_id(set(faces) - {BLANK})


def eaters(state: NuttyNoodlesState, bowl: str) -> list[int]:
    """Tables, left to right, whose monster can eat ``bowl``."""
    return [
        t for t, m in enumerate(state.tables) if m is not None and MONSTERS[m].can_eat(BOWLS[bowl])
    ]


def is_correct(state: NuttyNoodlesState, bowl: str, table: int | None) -> bool:
    """Right bowl, and a monster that can eat it — the first one under Order Please; a
    face-down token is right only when every seated monster is allergic (a takeaway)."""
    if bowl != state.target:
        return False
    can_eat = eaters(state, bowl)
    if table is None:
        return not can_eat
    if table not in can_eat:
        return False
    return not state.options.order_please or table == can_eat[0]


def mistake(state: NuttyNoodlesState, bowl: str, table: int | None) -> str:
    """Why a placement is wrong, in the words a player needs (the placement is wrong)."""
    assert state.target is not None
    target = _bowl_name(state.target)
    if bowl != state.target:
        return f"the dice asked for {target}"
    can_eat = eaters(state, bowl)
    if table is None:
        return f"{_table_name(state, can_eat[0])} can eat {target}: a takeaway is only for a bowl nobody can eat"
    if table not in can_eat:
        monster = state.tables[table]
        assert monster is not None
        allergic = [INGREDIENT_NAMES[i] for i in INGREDIENTS if i in MONSTERS[monster].allergies & BOWLS[bowl].ingredients]
        return f"{MONSTERS[monster].name} is allergic to {' and '.join(allergic) or 'Miso Soup'}"
    return f"Order Please: {_table_name(state, can_eat[0])} is the first that can eat it"


def answer(state: NuttyNoodlesState) -> Action:
    """The correct placement for the current throw."""
    assert state.target is not None
    can_eat = eaters(state, state.target)
    if not can_eat:
        return {"type": "takeaway", "bowl": state.target}
    return {"type": "place", "table": can_eat[0], "bowl": state.target}


def scatter(rng: Rng, count: int, grid: tuple[int, int]) -> list[dict[str, int]]:
    """Panic in the Kitchen: each bowl gets a jittered spot (percent of the area) and a tilt."""
    cols, rows = grid
    cells = rng.shuffled([(c, r) for r in range(rows) for c in range(cols)])[:count]
    return [
        {
            "x": round((c + 0.5 + (rng.random() - 0.5) * 0.5) * 100 / cols),
            "y": round((r + 0.5 + (rng.random() - 0.5) * 0.5) * 100 / rows),
            "rot": rng.randint(-35, 35),
        }
        for c, r in cells
    ]


def _bowl_name(bowl: str) -> str:
    return BOWLS[bowl].name


def _table_name(state: NuttyNoodlesState, table: int) -> str:
    monster = state.tables[table]
    return f"{MONSTERS[monster].name} (table {table + 1})" if monster else f"table {table + 1}"


# ---- the game ----------------------------------------------------------------------------

class NuttyNoodles(Game[NuttyNoodlesState, NuttyNoodlesOptions]):
    id = "nutty-noodles"
    name = "Nutty Noodles"
    pitch = "Roll the dice, spot the bowl, feed a monster that isn't allergic — fastest chef wins."
    min_players = 2
    max_players = 4
    options_model = NuttyNoodlesOptions
    live_only = "it is a real-time race (everyone grabs at once), so it is played live only."
    # the option sets that change the rules (the contract tests play each); Panic in the
    # Kitchen and Scrambled change only how the bowls look, so they ride along with one
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "default": {},
        "advanced": {"mode": "advanced"},
        "order_please": {"order_please": True},
        "no_tie_window": {"tie_window_ms": 0},
        "ready_check": {"ready_check": True},
        "advanced_every_variant": {"mode": "advanced", "order_please": True, "panic_in_the_kitchen": True,
                                   "scrambled": True},
    }

    def setup(self, players: Sequence[str], options: NuttyNoodlesOptions, seed: int,
              now_ms: int = 0) -> NuttyNoodlesState:
        self.check_players(len(players))
        options = self.options(options)
        rng = Rng(seed)
        mode = MODES[options.mode]
        bowls = rng.shuffled(bowls_for(mode))
        layout = scatter(rng, len(bowls), mode.grid) if options.panic_in_the_kitchen else None
        deck = rng.shuffled(monsters_for(mode))
        tables: list[str | None] = [deck.pop() for _ in range(mode.tables)]
        return NuttyNoodlesState(
            players=list(players), options=options, rng=rng, bowls=bowls, layout=layout,
            tables=tables, deck=deck, won=[[] for _ in players],
            thrower=rng.below(len(players)), phase_since=now_ms,
            phase="ready" if options.ready_check else "roll",
        )

    # -- what may be done --
    def legal(self, state: NuttyNoodlesState, seat: int) -> list[Action]:
        """The lists and their actions are kept (``parts``): nobody may change them."""
        if state.phase == "ready":
            return [] if seat in state.ready else parts.READY
        if state.phase == "roll":
            return parts.ROLL if seat == state.thrower else []
        if state.phase in ("race", "closing") and not self._placed(state, seat):
            return parts.race(tuple(m is not None for m in state.tables), tuple(state.bowls))
        return []

    def deadline(self, state: NuttyNoodlesState) -> int | None:
        o = state.options
        if state.phase == "ready":
            return state.phase_since + o.ready_timeout_ms
        if state.phase == "roll":
            return state.phase_since + o.roll_timeout_ms
        if state.phase == "race":
            return state.phase_since + o.round_timeout_ms
        if state.phase == "closing":
            assert state.first_correct_ms is not None
            return state.first_correct_ms + o.tie_window_ms
        return None

    def apply(self, state: NuttyNoodlesState, seat: int | None, action: Action,
              now_ms: int) -> tuple[NuttyNoodlesState, list[Event]]:
        if self.screen(state, seat, action, now_ms):
            return self._timeout(state.clone(), now_ms)
        assert seat is not None
        kind = action["type"]
        if kind == "ready":
            require(state.phase == "ready", "The game has started already.")
            require(seat not in state.ready, "You said you are ready already.")
            s = state.clone()
            return s, self._ready(s, seat, now_ms)
        if kind == "roll":
            require(state.phase != "ready", "Wait until everyone is ready.")
            require(state.phase == "roll", "The dice are already on the table.")
            require(seat == state.thrower,
                    f"It is {state.players[state.thrower]}'s turn to throw the dice.")
            s = state.clone()
            return s, self._throw(s, now_ms, by=seat)
        if kind in ("place", "takeaway"):
            table, bowl = self._check_placement(state, seat, kind, action, now_ms)
            s = state.clone()
            return s, self._place(s, seat, table, bowl, now_ms)
        raise IllegalAction(f"Unknown action {kind!r}: Nutty Noodles knows ready, roll, place and takeaway.")

    def _check_placement(self, state: NuttyNoodlesState, seat: int, kind: str, action: Action,
                         now_ms: int) -> tuple[int | None, str]:
        """A token goes down while the round runs: until its timer, or once someone is right,
        until the tie window closes (the deadline's own millisecond still counts)."""
        require(state.phase != "ready", "Wait until everyone is ready and the dice are thrown.")
        require(state.phase in ("race", "closing"), "Wait for the dice to be thrown.")
        due = self.deadline(state)
        assert due is not None
        require(now_ms <= due, "Too late: the bowl has already been served." if state.phase == "closing"
                else "Too late: time is up for this round.")
        require(not self._placed(state, seat), "You have already placed a token this round.")
        bowl = action.get("bowl")
        require(isinstance(bowl, str) and bowl in state.bowls, "There is no such bowl on the table.")
        if kind == "takeaway":
            return None, bowl
        table = action.get("table")
        require(isinstance(table, int) and not isinstance(table, bool)
                and 0 <= table < len(state.tables), "There is no such table.")
        require(state.tables[table] is not None, f"No monster sits at table {table + 1}.")
        return table, bowl

    # -- transitions (on a fresh copy) --
    def _ready(self, s: NuttyNoodlesState, seat: int, now_ms: int) -> list[Event]:
        """The ready check: the game starts once everyone is ready."""
        s.ready = sorted([*s.ready, seat])
        events = [public("ready", f"{s.players[seat]} is ready.", seat=seat)]
        if len(s.ready) == len(s.players):
            events += self._start(s, now_ms, "Everyone is ready")
        return events

    def _start(self, s: NuttyNoodlesState, now_ms: int, why: str) -> list[Event]:
        s.phase, s.phase_since = "roll", now_ms
        return [public("start", f"{why}: {s.players[s.thrower]} throws first.")]  # the thrower: in the view

    def _throw(self, s: NuttyNoodlesState, now_ms: int, by: int | None) -> list[Event]:
        s.dice, attempts = throw_dice(s.rng, s.mode)
        s.target = bowl_for_dice(s.dice)
        s.throws += 1
        s.placements = []
        s.first_correct_ms = None
        s.phase, s.phase_since = "race", now_ms
        who = s.players[s.thrower] if by is not None else f"Time's up — the dice are thrown for {s.players[s.thrower]}"
        faces = ", ".join(INGREDIENT_NAMES.get(f, "blank") for f in s.dice)
        again = f" (after {attempts} throws)" if attempts > 1 else ""
        verb = " throws" if by is not None else ""
        return [public("roll", f"{who}{verb}: {faces}{again}.")]  # the dice and thrower: in the view

    def _place(self, s: NuttyNoodlesState, seat: int, table: int | None, bowl: str,
               now_ms: int) -> list[Event]:
        correct = is_correct(s, bowl, table)
        s.placements.append(Placement(seat, bowl, table, now_ms, correct))
        who = s.players[seat]
        target = "face down (takeaway)" if table is None else f"for {_table_name(s, table)}"
        # the bowl, the table and whether it was right are in the view's placement; why it was
        # wrong ends the sentence (after " — wrong: ", where the renderer finds it for the
        # placer's bubble)
        if correct:
            events = [public("place", f"{who} serves {_bowl_name(bowl)} {target} — right!", seat=seat)]
            if s.phase == "race":
                s.phase, s.first_correct_ms = "closing", now_ms
        else:
            events = [public("place", f"{who} serves {_bowl_name(bowl)} {target} — wrong: {mistake(s, bowl, table)}.",
                             seat=seat)]  # and is out of the round, as the rules say
        everyone_placed = len(s.placements) == len(s.players)
        if s.phase == "closing" and (everyone_placed or s.options.tie_window_ms == 0):
            events += self._resolve(s, now_ms)
        elif everyone_placed:
            events += self._again(s, now_ms, "Nobody served the right bowl")
        return events

    def _timeout(self, s: NuttyNoodlesState, now_ms: int) -> tuple[NuttyNoodlesState, list[Event]]:
        if s.phase == "ready":
            waited = [s.players[q] for q in range(len(s.players)) if q not in s.ready]
            return s, self._start(s, now_ms, f"Time's up — the game starts without waiting for {' and '.join(waited)}")
        if s.phase == "roll":
            return s, self._throw(s, now_ms, by=None)
        if s.phase == "race":
            return s, self._again(s, now_ms, "Time's up and nobody served the right bowl")
        return s, self._resolve(s, now_ms)

    def _again(self, s: NuttyNoodlesState, now_ms: int, why: str) -> list[Event]:
        """Nobody right: the round is repeated, the same player throws again."""
        s.last_round = {"target": s.target, "winners": []}
        s.phase, s.phase_since, s.target = "roll", now_ms, None
        return [public("again", f"{why}; {s.players[s.thrower]} throws again.")]

    def _resolve(self, s: NuttyNoodlesState, now_ms: int) -> list[Event]:
        """The first correct placement takes its table's monster (a takeaway: the top of the
        deck); others right within the tie window each take a monster from the deck."""
        assert s.first_correct_ms is not None
        window_end = s.first_correct_ms + s.options.tie_window_ms
        winners = [p for p in s.placements if p.correct and p.at_ms <= window_end]
        events: list[Event] = []
        if len(winners) > 1:
            names = " and ".join(s.players[p.seat] for p in winners)
            events.append(public("tie", f"Simultaneous! {names} all served correctly.",
                                 seats=[p.seat for p in winners]))
        gains: list[dict[str, Any]] = []
        for i, p in enumerate(winners):
            from_table = i == 0 and p.table is not None
            monster = s.tables[p.table] if from_table and p.table is not None else (s.deck.pop() if s.deck else None)
            if from_table and p.table is not None:
                s.tables[p.table] = None
            if monster is None:
                events.append(public("empty", f"The deck is empty: {s.players[p.seat]} gets no monster.", seat=p.seat))
                continue
            s.won[p.seat].append(monster)
            how = "" if from_table else " (takeaway from the deck)"
            events.append(public("win", f"{s.players[p.seat]} wins {MONSTERS[monster].name}{how}!",
                                 seat=p.seat, monster=monster, from_table=from_table))
            gains.append({"seat": p.seat, "monster": monster, "from_table": from_table})
        for t, m in enumerate(s.tables):
            if m is None and s.deck:
                s.tables[t] = s.deck.pop()
        s.rounds += 1
        s.last_round = {"target": s.target, "winners": gains}
        s.thrower = min(winners, key=lambda p: len(s.won[p.seat])).seat
        s.phase, s.phase_since, s.target, s.first_correct_ms = "roll", now_ms, None, None
        events += self._check_end(s)
        return events

    def _check_end(self, s: NuttyNoodlesState) -> list[Event]:
        """First to 7 / 6 / 5 monsters (2 / 3 / 4 players) wins; ties share the victory.
        Designed: with no monster left anywhere, the most monsters wins."""
        reached = [i for i, w in enumerate(s.won) if len(w) >= s.goal]
        if reached:
            s.end_reason = f"reached {s.goal} monsters"
        elif not s.deck and all(m is None for m in s.tables):
            s.end_reason = "no monsters left"
        else:
            return []
        s.phase = "over"
        result = self.result(s)
        assert result is not None
        names = " and ".join(s.players[w] for w in result.winners)
        return [public("game_over", f"{names} {'win' if len(result.winners) > 1 else 'wins'} the game!",
                       winners=result.winners)]

    @staticmethod
    def _placed(state: NuttyNoodlesState, seat: int) -> bool:
        """Whether ``seat`` has a token down in the race (after it, the placements shown are
        the last round's)."""
        return state.phase in ("race", "closing") and any(p.seat == seat for p in state.placements)

    # -- what each seat sees --
    def view(self, state: NuttyNoodlesState, seat: int | None) -> dict[str, Any]:
        return self._seat_view(self._table(state), state, seat)

    def views(self, state: NuttyNoodlesState, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """Everything but ``you`` and the prompt is the same for every seat: built once."""
        table = self._table(state)
        return {seat: self._seat_view(table, state, seat) for seat in seats}

    def _seat_view(self, table: dict[str, Any], state: NuttyNoodlesState, seat: int | None) -> dict[str, Any]:
        return {**table, "you": seat, "prompt": self._prompt(state, seat)}

    def _table(self, state: NuttyNoodlesState) -> dict[str, Any]:
        """What every seat and spectator sees: there is nothing hidden but the deck's order.
        ``throw`` is the last throw — its number, its dice, the tokens put down for it — until
        the next one replaces it whole (``phase`` says whether its race is on); who is out
        follows from its placements."""
        return {
            "game": self.id,
            "mode": state.options.mode,
            "variants": parts.variants(state.options.order_please, state.options.panic_in_the_kitchen,
                                       state.options.scrambled),
            "goal": state.goal,
            "phase": state.phase,
            "thrower": state.thrower,
            "round": state.rounds + 1,
            "players": parts.players(state.players, state.won, state.ready),
            "ingredients": parts.INGREDIENT_LIST,
            "bowls": parts.bowls(tuple(state.bowls)),
            "grid": parts.grid(state.options.mode),
            "layout": state.layout,
            "tables": parts.tables(tuple(state.tables)),
            "deck": len(state.deck),
            "throw": parts.throw(state.throws, tuple(state.dice),
                                 tuple((p.seat, p.bowl, p.table, p.correct) for p in state.placements)),
            "last_round": state.last_round,
        }

    def _prompt(self, state: NuttyNoodlesState, seat: int | None) -> str:
        if state.phase == "over":
            return "The game is over."
        if state.phase == "ready":
            waiting = [state.players[q] for q in range(len(state.players)) if q not in state.ready]
            if seat is not None and seat not in state.ready:
                return "Look over the table, then say you are ready: the dice are thrown when everyone is."
            return f"Waiting for {' and '.join(waiting)} to be ready."
        if state.phase == "roll":
            if seat == state.thrower:
                return "Throw the dice!"
            return f"Waiting for {state.players[state.thrower]} to throw the dice."
        if seat is None:
            return "Watching the race for the right bowl."
        mine = next((p for p in state.placements if p.seat == seat), None)
        if mine is None:
            whom = "the first monster, left to right," if state.options.order_please else "a monster"
            return f"Serve the bowl the dice show to {whom} that can eat it!"
        if mine.correct:
            return "Served — waiting for the round to end."
        return f"Out of this round: {mistake(state, mine.bowl, mine.table)}."

    def determinize(self, state: NuttyNoodlesState, seat: int, rng: Rng) -> NuttyNoodlesState:
        """The only hidden things are the order of the monster deck and the dice to come
        (the deck is sorted first, so the sample never depends on the true order)."""
        s = state.clone()
        s.deck = rng.shuffled(sorted(s.deck))
        s.rng = rng.fork()
        return s

    def result(self, state: NuttyNoodlesState) -> Result | None:
        if state.phase != "over":
            return None
        scores = [float(len(w)) for w in state.won]
        best = max(scores)
        winners = [i for i, sc in enumerate(scores) if sc == best]
        return Result(winners=winners, scores=scores,
                      reason=f"{' and '.join(state.players[w] for w in winners)}: {state.end_reason}.")

    def stats(self, state: NuttyNoodlesState) -> dict[str, float]:
        return {"rounds": state.rounds, "throws": state.throws}



__all__ = ["NuttyNoodles", "NuttyNoodlesOptions", "NuttyNoodlesState", "TIMEOUT", "answer"]
