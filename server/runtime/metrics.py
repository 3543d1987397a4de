"""Prometheus metrics of one runtime, in their own registry (several apps may share a
process in tests).

What every action counts (``applied``, ``latency``) is kept in plain numbers, changed only
on the event loop's thread, and read by the registry when it is scraped: prometheus_client's
own counters and histograms take a lock for each count, which cost more than the count."""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from typing import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString


class Metrics:
    def __init__(self, live_matches: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        self.live_matches = Gauge("potluck_live_matches", "Matches held in memory by this process.",
                                  registry=self.registry)
        self.live_matches.set_function(live_matches)
        self.sockets = Gauge("potluck_sockets", "Open WebSocket connections.", registry=self.registry)
        self.applied = Tally("potluck_actions_applied", "Actions committed by this process.", "source",
                             ("player", "bot", "timeout"), self.registry)
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
        self.latency = Latencies(
            "potluck_action_latency_seconds",
            "From receiving an action to its commit and every socket's message being queued.",
            (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0), self.registry)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class Tally:
    """A counter by one label whose values are known beforehand: ``counts[value] += 1``."""

    def __init__(self, name: str, doc: str, label: str, values: Iterable[str], registry: CollectorRegistry) -> None:
        self.name, self.doc, self.label = name, doc, label
        self.counts = dict.fromkeys(values, 0)
        registry.register(self)

    def collect(self) -> list[Metric]:
        family = CounterMetricFamily(self.name, self.doc, labels=[self.label])
        for value, count in self.counts.items():
            family.add_metric([value], count)
        return [family]


class Latencies:
    """A histogram of seconds (``observe``), with the buckets' upper bounds given."""

    def __init__(self, name: str, doc: str, bounds: Iterable[float], registry: CollectorRegistry) -> None:
        self.name, self.doc, self.bounds = name, doc, tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # by bucket, the last one past every bound
        self.sum = 0.0
        registry.register(self)

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1  # the first bound at or above it
        self.sum += seconds

    def collect(self) -> list[Metric]:
        bounds = [*map(floatToGoString, self.bounds), "+Inf"]
        return [HistogramMetricFamily(self.name, self.doc, buckets=list(zip(bounds, accumulate(self.counts))),
                                      sum_value=self.sum)]
