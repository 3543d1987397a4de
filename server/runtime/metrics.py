"""Prometheus metrics of one runtime, in their own registry (several apps may share a
process in tests)."""

from __future__ import annotations

from typing import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self, live_matches: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        self.live_matches = Gauge("potluck_live_matches", "Matches held in memory by this process.",
                                  registry=self.registry)
        self.live_matches.set_function(live_matches)
        self.sockets = Gauge("potluck_sockets", "Open WebSocket connections.", registry=self.registry)
        self.actions = Counter("potluck_actions_applied", "Actions committed by this process.",
                               ["source"], registry=self.registry)
        self.rejected = Counter("potluck_actions_rejected", "Actions refused (illegal, stale, late).",
                                ["code"], registry=self.registry)
        self.conflicts = Counter("potluck_seq_conflicts", "Appends that lost a race for a seq.",
                                 registry=self.registry)
        self.owned = Gauge("potluck_matches_owned",
                           "Running matches this process drives (holds the lease of: timers, bots, stand-ins).",
                           registry=self.registry)
        self.taken_over = Counter("potluck_leases_taken_over", "Leases taken from a process that died.",
                                  registry=self.registry)
        self.avoided = Counter("potluck_duplicate_work_avoided",
                               "Timers and bot turns left to the match's owner by this process.",
                               ["kind"], registry=self.registry)
        self.refused = Counter("potluck_duplicate_work_refused",
                               "Timeouts and bot moves this process made that another process had already "
                               "logged (refused by the seq).", ["kind"], registry=self.registry)
        for kind in ("timeout", "bot"):  # shown at 0 from the start
            self.avoided.labels(kind)
            self.refused.labels(kind)
        # the children counted on every action, looked up once (``labels`` takes a lock)
        self.applied = {source: self.actions.labels(source) for source in ("player", "bot", "timeout")}
        self.latency = Histogram(
            "potluck_action_latency_seconds",
            "From receiving an action to its commit and every socket's message being queued.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
            registry=self.registry,
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)
