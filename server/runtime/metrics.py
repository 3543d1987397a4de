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
        self.latency = Histogram(
            "potluck_action_latency_seconds",
            "From receiving an action to its commit and every socket's message being queued.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
            registry=self.registry,
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)
