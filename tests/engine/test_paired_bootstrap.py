"""The verdict's maths: a paired bootstrap of the per-game deviance difference, resampling
whole events, seeded; checked against the interval worked out here, step by step."""

from __future__ import annotations

import math
import random

import pytest

from ratings.engine.measures import BOOTSTRAP_SEED, deviance, paired_bootstrap

# A small constructed history: six events, each (games, [(expected A, expected B, score)]).
EVENTS = [
    [(0.70, 0.60, 1.0), (0.40, 0.50, 0.0), (0.55, 0.50, 0.5)],
    [(0.80, 0.65, 1.0), (0.30, 0.45, 0.0)],
    [(0.60, 0.55, 0.0), (0.65, 0.60, 1.0), (0.35, 0.40, 0.5), (0.50, 0.50, 1.0)],
    [(0.75, 0.60, 1.0)],
    [(0.20, 0.35, 0.0), (0.45, 0.50, 0.5), (0.90, 0.70, 1.0)],
    [(0.62, 0.58, 1.0), (0.38, 0.42, 0.0)],
]


def sums(column: int) -> list[float]:
    return [sum(deviance(game[column], game[2]) for game in event) for event in EVENTS]


def by_hand(resamples: int, level: float = 0.95) -> tuple[float, float, float]:
    """The same procedure, written out: draw 6 events with replacement, 1,000 times."""
    games = [len(event) for event in EVENTS]
    a, b = sums(0), sums(1)
    rng = random.Random(BOOTSTRAP_SEED)
    means = []
    for _ in range(resamples):
        drawn = rng.choices(range(len(EVENTS)), k=len(EVENTS))
        total_games = sum(games[i] for i in drawn)
        means.append(sum(a[i] - b[i] for i in drawn) / total_games)
    means = sorted(means)
    low = means[math.floor(0.025 * resamples)]  # the 25th of 1,000 (from 0)
    high = means[math.ceil(0.975 * resamples) - 1]  # the 975th
    mean = (sum(a) - sum(b)) / sum(games)
    return mean, low, high


def test_the_difference_is_the_mean_per_game_deviance_difference():
    games = [len(event) for event in EVENTS]
    difference = paired_bootstrap(games, sums(0), sums(1))
    every = [deviance(ea, s) - deviance(eb, s) for event in EVENTS for ea, eb, s in event]
    assert difference.mean == pytest.approx(sum(every) / len(every), abs=1e-12)
    assert (difference.games, difference.events) == (15, 6)


def test_the_interval_is_the_percentile_interval_of_1000_event_resamples():
    games = [len(event) for event in EVENTS]
    difference = paired_bootstrap(games, sums(0), sums(1))
    mean, low, high = by_hand(1000)
    assert (difference.mean, difference.low, difference.high) == pytest.approx((mean, low, high))
    assert difference.low <= difference.mean <= difference.high


def test_the_same_history_gives_the_same_interval():
    games = [len(event) for event in EVENTS]
    assert paired_bootstrap(games, sums(0), sums(1)) == paired_bootstrap(games, sums(0), sums(1))


def test_a_system_better_in_every_event_here_is_better_beyond_chance():
    games = [len(event) for event in EVENTS]
    difference = paired_bootstrap(games, sums(0), sums(1))
    assert difference.high < 0 and difference.beyond_chance


def test_systems_better_by_turns_are_within_chance():
    games = [len(event) for event in EVENTS]
    # A's expectations in the first three events, B's in the last three, and the other
    # way round: each is better half the time.
    first = sums(0)[:3] + sums(1)[3:]
    second = sums(1)[:3] + sums(0)[3:]
    difference = paired_bootstrap(games, first, second)
    assert difference.low < 0 < difference.high
    assert not difference.beyond_chance


def test_a_system_better_by_a_constant_is_better_beyond_chance():
    games = [len(event) for event in EVENTS]
    better = [s - 0.05 * n for s, n in zip(sums(1), games, strict=True)]
    difference = paired_bootstrap(games, better, sums(1))
    assert difference.mean == pytest.approx(-0.05)
    assert difference.high < 0 and difference.beyond_chance


def test_no_games_is_refused():
    with pytest.raises(ValueError, match="no games"):
        paired_bootstrap([], [], [])
