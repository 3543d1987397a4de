"""A Snollygoster bot that plays its Hidden Agenda.

It sees only what its seat sees: the ``view`` of its seat, its ``legal`` actions, and
``determinize``d samples of the state for what it cannot see (how likely an unknown Food
is to be unsafe). It reads other players' tags through a trust it keeps per player —
lowered by every lie proven on the table or against what it knows itself — and tags
honestly or deceptively as its agenda rewards. Its choices come after a human-like
pause (``Decision.at_ms``), counted from the moment the situation arose, so a plan is
stable however often it is asked.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from server.engine import Action, Bot, Decision, Game, Rng, SampleBot
from server.engine.bots import NORMAL, at_level
from server.engine.errors import IllegalAction
from server.engine.playout import Stalled, next_move
from server.engine.rollouts import win_share

from .cards import HUNGER, POD_FUEL

Json = dict[str, Any]


@dataclass(frozen=True)
class Profile:
    """How an agenda plays: its tagging (``honest``, ``liar``: always the opposite,
    ``poisoner``: unsafe called safe), where it puts unsafe Food, and how it treats the
    escape pod (``eager``, ``stowaway``: only as a passenger, ``never``)."""

    tagging: str = "honest"
    poisons: bool = False
    pod: str = "eager"
    pod_size: str = "small"  # small: just the fuel needed; large: everyone who can come
    inspects: float = 0.6  # how keen it is to inspect
    feeds: bool = False  # pays Fuel to make others eat Food it knows is unsafe


PROFILES: dict[str, Profile] = {
    "captain": Profile(),
    "medic": Profile(pod_size="large"),
    "inspector": Profile(inspects=1.0),
    "provider": Profile(),
    "survivor": Profile(),
    "sleuth_c": Profile(),
    "sleuth_r": Profile(),
    "snollygoster": Profile(tagging="liar", inspects=1.0),
    "saboteur": Profile(tagging="poisoner", poisons=True, feeds=True),
    "trojan": Profile(pod="stowaway"),
    "doomsayer": Profile(tagging="poisoner", poisons=True, pod="never"),
    "hoarder": Profile(),
}

BASE_TRUST = 0.75
STOWAWAY_PATIENCE = 8  # rounds
FEED_RESERVE = 4  # a poisoner pays for a meal only with this much Fuel (it wants a seat too)


class SnollygosterBot(SampleBot):
    def __init__(self, game: Game[Any, Any], rng: Rng, think_ms: tuple[int, int] = (1200, 3500),
                 answer_ms: tuple[int, int] = (500, 2000), samples: int = 6) -> None:
        self.game, self.salt, self.rng = game, rng.next64(), rng
        self.think_ms, self.answer_ms, self.samples = think_ms, answer_ms, samples
        self._plans: dict[Any, Decision | None] = {}  # the plan for the current situation
        self.memory = Memory()

    # ---- the contract --------------------------------------------------------------------------
    def play(self, state: Any, seat: int, now_ms: int) -> Decision | None:
        self.memory.observe(state)
        legal = self.game.legal(state, seat)
        if not legal:
            return None
        key = (repr(legal), self._public(state))
        if key not in self._plans:
            self._plans = {key: self._paced(self._plan(state, seat, legal), now_ms)}
        plan = self._plans[key]
        return None if plan is None else Decision(plan.action, max(now_ms, plan.at_ms))

    def _paced(self, plan: Decision | None, seen_ms: int) -> Decision | None:
        """A watchable pace: a move comes at least the quickest pause after the bot first
        saw its situation, even when the situation began long before (an Action stage in
        which the bot has played already), so bots never race through turns."""
        if plan is None:
            return None
        return Decision(plan.action, max(plan.at_ms, seen_ms + self.answer_ms[0]))

    def _plan(self, state: Any, seat: int, legal: list[Action]) -> Decision | None:
        v = self.game.view(state, seat)
        anchor, quick = self._anchor(v)
        rng = Rng(zlib.crc32(repr((self.salt, seat, anchor, v["turn_no"], len(legal))).encode()))
        action = self.mind(self.game, state, seat, v, legal, rng, self.samples, self.memory).choose()
        if action is None:
            return None
        lo, hi = self.answer_ms if quick else self.think_ms
        return Decision(action, anchor + rng.randint(lo, hi))

    @staticmethod
    def mind(*args: Any) -> "Mind":
        """The mind that makes one decision (the hard bot's looks further)."""
        return Mind(*args)

    @staticmethod
    def _public(state: Any) -> tuple[Any, ...]:
        """What anyone at the table can see changing: a new situation to think about."""
        w, e = state.window, state.eating
        return (state.phase, state.step, state.step_since, state.turn_no,
                w and (w.play.seat, w.play.card, tuple(w.chain), w.deadline),
                e and (e.eater, e.food, e.remaining, e.deadline), len(state.eaten), len(state.tags),
                tuple(len(f) for f in state.fuel), tuple(len(x) for x in state.stashes),
                tuple(state.quarantined), tuple(state.dead), len(state.offers), len(state.guesses))

    @staticmethod
    def _anchor(v: Json) -> tuple[int, bool]:
        """When the situation began (ms), and whether it only wants a quick answer."""
        eating = v["eating"]
        opened = v["window"] or (eating if eating and eating["food"] is not None else None)
        if opened:
            return opened["deadline"] - v["timers"]["window_ms"], True
        return v["since"], False


class Mind:
    """One decision, from what the seat knows."""

    def __init__(self, game: Game[Any, Any], state: Any, seat: int, v: Json, legal: list[Action],
                 rng: Rng, samples: int, memory: "Memory") -> None:
        self.game, self.state, self.seat, self.v, self.legal, self.rng = game, state, seat, v, legal, rng
        self.samples, self.memory = samples, memory
        self.me = v["players"][seat]
        self.agenda = v["agenda"]["id"] if v["agenda"] else "captain"
        self.profile = PROFILES.get(self.agenda, Profile())
        self.trust = self._trust()
        self._risk: dict[int, float] | None = None

    def has(self, kind: str) -> list[Action]:
        return [a for a in self.legal if a["type"] == kind]

    def best(self, options: list[Action], value: Any) -> Action:
        """The option of highest ``value``; equals by the bot's coin, never by seat order
        (``legal`` lists seats low to high: ``max`` alone would favour the first)."""
        return max(options, key=lambda a: (value(a), self.rng.random()))

    def least(self, options: list[Action], value: Any) -> Action:
        return min(options, key=lambda a: (value(a), self.rng.random()))

    # ---- what it believes ------------------------------------------------------------------------
    def _trust(self) -> list[float]:
        """How far each player's tags are believed: lies proven on the table or against
        what this seat knows itself cut it; proven truths raise it a little."""
        trust = [BASE_TRUST] * len(self.v["players"])
        for e in self.v["eaten"]:
            if e["tag"]:
                by, claim = e["tag"]
                trust[by] = trust[by] * 0.35 if claim != e["kind"] else min(0.95, trust[by] + 0.05)
        for p in self.v["players"]:
            for f in p["stash"]:
                tag, known = f["tag"], f["you_know"]
                if tag and known and tag["by"] != self.seat and tag["claim"] != known:
                    trust[tag["by"]] = min(trust[tag["by"]], 0.1)
        trust[self.seat] = 1.0
        return trust

    def prior(self) -> dict[int, float]:
        """Chance each Food on the table is unsafe, from determinized samples."""
        if self._risk is None:
            foods = [f["id"] for p in self.v["players"] for f in p["stash"]]
            counts = dict.fromkeys(foods, 0)
            for _ in range(self.samples):
                d = self.game.determinize(self.state, self.seat, self.rng)
                for f in foods:
                    counts[f] += d.kinds[f] == "unsafe"
            self._risk = {f: (c + 0.5) / (self.samples + 1) for f, c in counts.items()}
        return self._risk

    def risk(self, food: Json) -> float:
        """Chance this Food is unsafe, reading its tag with the tagger's trust."""
        if food["you_know"]:
            return 1.0 if food["you_know"] == "unsafe" else 0.0
        p = self.prior()[food["id"]]
        if food["tag"]:
            t = self.trust[food["tag"]["by"]]
            if food["tag"]["claim"] == "unsafe":
                p = t * p / (t * p + (1 - t) * (1 - p))
            else:
                p = (1 - t) * p / ((1 - t) * p + t * (1 - p))
        return p

    def food(self, food_id: int) -> Json:
        return next(f for p in self.v["players"] for f in p["stash"] if f["id"] == food_id)

    # ---- choosing --------------------------------------------------------------------------------
    def choose(self) -> Action | None:
        v = self.v
        if v["phase"] == "seed":
            return self.seed()
        if v["phase"] == "guess":
            return self.guess()
        if v["window"]:
            return self.answer_card()
        eating = v["eating"]
        if eating and eating["food"] is not None:
            return self.answer_meal(eating)
        for pick in (self.launch, self.leave_quarantine, self.trade_reply):
            action = pick()
            if action:
                return action
        step = v["step"]
        if self.has("end_actions"):
            return self.action_stage()
        if step == "event" and self.has("keep"):
            return self.keep()
        if step == "tag" and self.has("tag"):
            return self.tag()
        if self.has("eat"):
            return self.least(self.has("eat"), lambda a: self.risk(self.food(a["food"])))
        return None

    # setup
    def seed(self) -> Action:
        """Honest agendas hide safe Food where it is needed; poisoners put unsafe Food in
        other players' stashes."""
        options = self.legal
        players = self.v["players"]
        if self.profile.poisons:
            bad = [a for a in options if a["kind"] == "unsafe" and a["stash"] != self.seat]
            if bad:
                return self.least(bad, lambda a: len(players[a["stash"]]["stash"]))
        good = [a for a in options if a["kind"] == "safe"]
        return self.least(good, lambda a: len(players[a["stash"]]["stash"]) - (a["stash"] == self.seat))

    # the response window
    def answer_card(self) -> Action:
        w = self.v["window"]
        deny = self.has("denied")
        if not deny:
            return {"type": "pass"}
        want = self.want_card(w)
        if want is not None and want != w["stands"]:
            return deny[0]
        return {"type": "pass"}

    def want_card(self, w: Json) -> bool | None:
        """Whether this seat wants the card in the window to take effect (``None``: it
        does not care enough to spend a Denied)."""
        card, by, args = w["card"], w["by"], w["args"]
        spare = sum(1 for c in self.v["hand"] if c["card"] == "denied") >= 2
        if card == "launch":
            aboard = by == self.seat or self.seat in args["passengers"]
            if self.profile.pod == "never":
                return False
            return aboard
        if by == self.seat:
            return True
        if card in ("steal", "lockout") and args.get("target") == self.seat:
            return False
        if card == "antidote" and self.profile.poisons:
            food = self._food_or_none(args["food"])
            if food and food["you_know"] == "unsafe":
                return False
        if card == "inspect" and spare and self.profile.poisons:
            food = self._food_or_none(args["food"])
            if food and food["you_know"] == "unsafe" and food["placed_by"] == self.seat:
                return False
        return None

    def _food_or_none(self, food_id: int) -> Json | None:
        return next((f for p in self.v["players"] for f in p["stash"] if f["id"] == food_id), None)

    def answer_meal(self, eating: Json) -> Action | None:
        """Acknowledge a Food about to be eaten — or save it with an Antidote (your own
        meal, or an honest agenda protecting another from a likely unsafe one)."""
        food = self._food_or_none(eating["food"])
        antidotes = [a for a in self.has("antidote") if a["food"] == eating["food"]]
        if food and antidotes and not food["antidote"]:
            mine = eating["eater"] == self.seat
            danger = self.risk(food)
            if (mine and danger > 0.45) or (not mine and not self.profile.poisons and danger > 0.8):
                return antidotes[0]
        if eating["eater"] == self.seat:
            return None
        return {"type": "pass"} if self.has("pass") else None

    # any time
    def launch(self) -> Action | None:
        """Launch when the agenda wants the pod to go: the smallest pod that flies (the
        Medic: the biggest), trusted passengers first."""
        options = self.has("launch")
        if not options or self.profile.pod == "never":
            return None
        if self.profile.pod == "stowaway" and self.v["round"] < STOWAWAY_PATIENCE and self.me["stash"]:
            return None  # the Trojan Horse waits to be taken along, for a while
        if self.profile.pod_size == "large":
            return self.best(options, lambda a: len(a["passengers"]))
        return self.least(options, lambda a: (len(a["passengers"]), -sum(self.trust[p] for p in a["passengers"])))

    def leave_quarantine(self) -> Action | None:
        if not self.has("leave_quarantine"):
            return None
        holds_launch = any(c["card"] == "launch" for c in self.v["hand"])
        return self.has("leave_quarantine")[0] if holds_launch or self.me["fuel"] >= 4 else None

    def trade_reply(self) -> Action | None:
        """Take gifts; sell a Food for Fuel when there are others to eat (a poisoner
        gladly sells one it knows is unsafe); refuse to hand over Fuel for nothing."""
        for a in self.has("accept"):
            offer = next(o for o in self.v["offers"] if o["by"] == a["by"] and o["to"] == self.seat)
            if offer["want_fuel"] == 0 and offer["want_food"] is None:
                return a
            if offer["want_food"] is not None and offer["give_fuel"] >= offer["want_fuel"] + 1:
                food = self.food(offer["want_food"])
                keep_enough = len(self.me["stash"]) >= 2
                if (self.profile.poisons and food["you_know"] == "unsafe") or \
                        (keep_enough and food["you_know"] != "safe"):
                    return a
        declines = self.has("decline")
        return declines[0] if declines else None

    # my turn
    def action_stage(self) -> Action:
        for pick in (self.inspect, self.steal, self.feed, self.lockout, self.butt_in, self.buy_food):
            action = pick()
            if action:
                return action
        return {"type": "end_actions"}

    def inspect(self) -> Action | None:
        options = self.has("inspect")
        if not options or self.rng.random() > self.profile.inspects:
            return None
        stash_of = {f["id"]: p["seat"] for p in self.v["players"] for f in p["stash"]}

        def order(a: Action) -> tuple[int, float]:
            own = stash_of[a["food"]] == self.seat
            want_own = self.profile.tagging == "honest"
            known = self.food(a["food"])["you_know"] is not None
            return (0 if own == want_own else 1) + 2 * known

        return self.least(options, order)

    def tag(self) -> Action:
        """Tag by the agenda: the truth, its opposite, or unsafe called safe."""
        food = self.food(self.v["inspecting"])
        truth = food["you_know"] or "safe"
        lie = "unsafe" if truth == "safe" else "safe"
        claim = {"honest": truth, "liar": lie, "poisoner": "safe"}[self.profile.tagging]
        return {"type": "tag", "claim": claim}

    def steal(self) -> Action | None:
        fuel = [a for a in self.has("steal") if a["what"] == "fuel"]
        if not fuel:
            return None
        players = self.v["players"]
        return self.best(fuel, lambda a: players[a["target"]]["fuel"])

    def feed(self) -> Action | None:
        """A poisoner pays 1 Fuel to make someone eat a Food it knows is unsafe."""
        if not self.profile.feeds or self.me["fuel"] < FEED_RESERVE:
            return None
        bad = [a for a in self.has("feed") if self.food(a["food"])["you_know"] == "unsafe"
               and not self.food(a["food"])["antidote"]]
        return self.rng.choice(bad) if bad else None

    def lockout(self) -> Action | None:
        options = self.has("lockout")
        if not options or self.rng.random() < 0.5:
            return None
        players = self.v["players"]
        if self.profile.poisons:
            return self.best(options, lambda a: players[a["target"]]["fuel"])
        suspect = self.least(options, lambda a: self.trust[a["target"]])
        return suspect if self.trust[suspect["target"]] < 0.5 else None

    def butt_in(self) -> Action | None:
        if self.has("butt_in") and self.me["fuel"] < 5 and len(self.me["stash"]) >= 2:
            return self.has("butt_in")[0]
        return None

    def buy_food(self) -> Action | None:
        """An empty stash with Fuel to spare: offer 1 Fuel for the least risky Food."""
        if self.me["stash"] or self.me["fuel"] < 2 or self.me["quarantined"]:
            return None
        offers = [a for a in self.has("offer") if a.get("want_food") is not None and a["give_fuel"] == 1]
        if not offers:
            return None
        return self.least(offers, lambda a: self.risk(self.food(a["want_food"])))

    def keep(self) -> Action:
        return self.best(self.has("keep"), self.keep_value)

    def keep_value(self, a: Action) -> float:
        """What keeping this card (and putting a Food there) is worth to this agenda."""
        card = self.v["drawn"]["cards"][a["card"]]["card"]
        me, players = self.me, self.v["players"]
        if card == "fuel":
            return 4.0 if me["fuel"] < 5 else -0.5
        if card in HUNGER:
            short = len(me["stash"]) < HUNGER[card]
            return -10.0 if short else -1.5 * HUNGER[card] - sum(self.risk(f) for f in me["stash"])
        if card == "ransom":
            return 3.0 if "target" in a and me["fuel"] < 5 else 0.0
        stash = a.get("stash")
        if stash is None:
            return 0.0
        size = len(players[stash]["stash"])
        if card == "safe":
            own = 3.0 - len(me["stash"]) if stash == self.seat else 1.0 + 0.3 * (3 - size)
            return own + (2.0 if self.agenda == "provider" and stash != self.seat else 0)
        if self.profile.poisons:
            return 3.5 - self.trust[stash] if stash != self.seat and not players[stash]["quarantined"] else -1.0
        return 0.5 - self.trust[stash] if stash != self.seat else 0.2

    # the end
    def guess(self) -> Action:
        """A Sleuth guesses only where the table gave a player away."""
        open_seats = {a["seat"] for a in self.has("guess")}
        for seat, name in self.clues().items():
            if seat in open_seats:
                return {"type": "guess", "seat": seat, "agenda": name}
        return {"type": "done"}

    def clues(self) -> dict[int, str]:
        """Behaviour only one agenda shows: calling safe Food unsafe (Snollygoster),
        paying to make someone eat unsafe Food (Saboteur), denying a Launch that would
        have taken you along (Doomsayer), taking more passengers than the pod needs
        (Medic); and, worth a guess, putting unsafe Food in others' stashes (a Saboteur
        if it launched, else as likely a Doomsayer: the Saboteur is the better bet)."""
        v, found = self.v, {}
        for food, feeder in self.memory.fed.items():
            if any(e["food"] == food and e["kind"] == "unsafe" for e in v["eaten"]):
                found[feeder] = "Saboteur"
        for seat in self.poisoners():
            found.setdefault(seat, "Saboteur")
        for seat in self.memory.refused_pod:
            found[seat] = "Doomsayer"
        launch = v["escape_pod"]["launch"]
        if launch and roomy(launch):
            found[launch["by"]] = "Medic"
        for e in v["eaten"]:
            if e["tag"] and e["tag"][1] == "unsafe" and e["kind"] == "safe":
                found[e["tag"][0]] = "Snollygoster"
        found.pop(self.seat, None)
        return found

    def poisoners(self) -> set[int]:
        """Players seen putting unsafe Food into another player's stash."""
        seen = {e["placed_by"] for e in self.v["eaten"]
                if e["kind"] == "unsafe" and e["placed_by"] not in (None, e["eater"])}
        for p in self.v["players"]:
            seen |= {f["placed_by"] for f in p["stash"]
                     if f["you_know"] == "unsafe" and f["placed_by"] not in (None, p["seat"])}
        return seen


def roomy(launch: Json) -> bool:
    """Could a passenger have stayed behind with the pod still flying?"""
    fuel, pod = launch["fuel"], launch["pod"]
    total = sum(fuel.values())
    need = POD_FUEL.get(len(pod) - 1, 0)
    return len(pod) > 1 and any(total - fuel[p] >= need for p in pod if p != launch["by"])


class Memory:
    """What a bot has watched happen at the table (all of it public): who paid to make
    whom eat which Food, and who denied a Launch that would have taken them along."""

    def __init__(self) -> None:
        self.fed: dict[int, int] = {}
        self.refused_pod: set[int] = set()

    def observe(self, state: Any) -> None:
        eating = state.eating
        if eating is not None and eating.by is not None and eating.food is not None:
            self.fed[eating.food] = eating.by
        w = state.window
        if w is not None and w.play.card == "launch":
            pod = {w.play.seat, *w.play.args["passengers"]}
            self.refused_pod.update(p for p in w.chain[0::2] if p in pod)




# ---- hard: foresight where the game ends ----------------------------------------------------

FORESIGHT_SAMPLES = 24  # worlds dealt to judge a Launch: cheap, each ends the game at once
LAUNCH_BAR = 0.9  # launch only a pod this likely to win; otherwise wait for a better one
LET_STAND_BAR = 0.6  # deny another's Launch that would take this seat along unless it wins this often
# Cards the hard bot discards when it has nothing better to do, to draw Launch and Denied
# sooner (by agenda; "": any other). Agendas scoring tags keep Inspect.
JUNK = {"": {"lockout", "butt_in", "inspect", "antidote"}, "inspector": {"lockout", "butt_in", "antidote"},
        "snollygoster": {"lockout", "butt_in", "antidote"}}


class Foresight(Mind):
    """The normal bot's mind, except where a Launch would end the game: it judges each pod
    by the scores it would bring, over worlds dealt from what this seat knows (the others'
    agendas, the unseen Food), and launches, lets a Launch stand or denies it by that
    judgement instead of by its agenda's habit."""

    def launch(self) -> Action | None:
        options = self.has("launch")
        if not options:
            return None
        shares = {i: self.share_if_it_stands(a) for i, a in enumerate(options)}
        best = max(shares, key=lambda i: (shares[i], -len(options[i]["passengers"]), self.rng.random()))
        return options[best] if shares[best] >= self.launch_bar() else None

    def launch_bar(self) -> float:
        """How sure of winning a Launch must make it: ``LAUNCH_BAR`` at two players, the
        same multiple of a fair share at bigger tables, and less as the round limit nears
        (in its last third, everyone's death draws near)."""
        players = len(self.v["players"])
        left = 1 - self.v["round"] / self.v["round_limit"]
        return LAUNCH_BAR * 2 / players * min(1.0, 3 * left)

    def want_card(self, w: Json) -> bool | None:
        if w["card"] != "launch" or w["by"] == self.seat:
            return super().want_card(w)
        if not w["stands"]:
            return False
        return self.share_if_it_stands(None) >= LET_STAND_BAR

    def action_stage(self) -> Action:
        """The normal bot's plays; then it discards what will not get the pod off the planet
        (or stop another's), to draw Launch and Denied sooner."""
        action = super().action_stage()
        if action["type"] != "end_actions":
            return action
        junk = [a for a in self.has("discard") if a["card"] in JUNK.get(self.agenda, JUNK[""])]
        return junk[0] if junk else action

    def share_if_it_stands(self, launch: Action | None) -> float:
        """This seat's chance to win if ``launch`` (or the Launch in the window) stands."""
        total = 0.0
        for _ in range(FORESIGHT_SAMPLES):
            world = self.game.determinize(self.state, self.seat, self.rng)
            total += ended(self.game, world, self.seat, launch, self.v["since"], self.rng)
        return total / FORESIGHT_SAMPLES


def ended(game: Game[Any, Any], world: Any, seat: int, launch: Action | None, now: int, rng: Rng) -> float:
    """``seat``'s share of the win in ``world`` once ``launch`` is played (``None``: the Launch
    already in the window) and everyone lets it stand; Sleuths then guess as the normal bot."""
    try:
        if launch is not None:
            world, _ = game.apply(world, seat, launch, now)
        while world.window is not None:
            world, _ = game.apply(world, world.window.waiting[0], {"type": "pass"}, now)
    except IllegalAction:
        return 0.0
    bots = [SnollygosterBot(game, rng.fork(), samples=1).play for _ in world.players]
    for _ in range(40):  # the Sleuths' guesses
        share = win_share(game, world, seat)
        if share is not None:
            return share
        try:
            mover, action, now = next_move(game, world, bots, now, rng)
            world, _ = game.apply(world, mover, action, now)
        except (IllegalAction, Stalled):
            break
    return 0.0


class HardSnollygosterBot(SnollygosterBot):
    """The normal bot with foresight at the end of the game (``Foresight``)."""

    @staticmethod
    def mind(*args: Any) -> Mind:
        return Foresight(*args)


def bot_at(game: Any, rng: Rng, level: str = NORMAL, **params: Any) -> Bot:
    """This game's bot at ``level``: ``easy`` slips now and then, ``hard`` looks ahead."""
    return at_level(level, rng, lambda r: SnollygosterBot(game, r, **params),
                    lambda r: HardSnollygosterBot(game, r, **params))


__all__ = ["PROFILES", "SnollygosterBot", "HardSnollygosterBot", "bot_at"]

