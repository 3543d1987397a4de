"""The counts every action makes, kept in plain numbers, read as prometheus_client's own would."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from server.runtime.metrics import Latencies, Tally

BOUNDS = (0.001, 0.0025, 0.005, 1.0)
SECONDS = (0.0, 0.0005, 0.001, 0.0025, 0.003, 0.005, 0.0051, 1.0, 7.5)  # on the bounds, between and past them


def _samples(registry: CollectorRegistry) -> list[str]:
    """The exposition's sample lines, without the ``_created`` ones (the time of creation)."""
    return [line for line in generate_latest(registry).decode().splitlines()
            if not line.startswith("#") and "_created" not in line]


def test_latencies_are_exposed_as_prometheus_clients_histogram_would() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    latencies = Latencies("x_seconds", "x.", BOUNDS, ours)
    histogram = Histogram("x_seconds", "x.", buckets=BOUNDS, registry=theirs)
    for seconds in SECONDS:
        latencies.observe(seconds)
        histogram.observe(seconds)
    assert _samples(ours) == _samples(theirs)


def test_a_tally_is_exposed_as_prometheus_clients_counter_would() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    tally = Tally("x_done", "x.", "source", ("player", "bot"), ours)
    counter = Counter("x_done", "x.", ["source"], registry=theirs)
    for source in ("player", "bot", "player"):
        tally.counts[source] += 1
        counter.labels(source).inc()
    assert _samples(ours) == _samples(theirs)
