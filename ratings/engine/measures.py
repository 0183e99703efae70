"""How well a rating system predicts: the measures of the public rating competitions.

Pure functions and one streaming tally, no Django: the comparison of systems feeds a
``MeasureTally`` game by game, in date order, and keeps only sums, so a million games
cost no more memory than the players of one month.

- **Binomial deviance** (the Deloitte/FIDE chess rating challenge's measure, 2011): per
  game, -(y log10 E + (1 - y) log10 (1 - E)), y the score, E the expected score held
  to 0.01..0.99 (an expectation of 0 or 1 would make one upset cost without bound);
  the mean over games. Everyone-equal (E = 1/2) scores log10 2 = 0.30103 on any game.
- **Player-month RMSE** (the Kaggle "Elo versus the rest of the world" contest, 2010):
  per player per month, the sum of their expected scores against the sum of their
  actual scores; the root of the mean squared difference over player-months. Expected
  scores are not held here.
- **Calibration**: the expected score against the score actually made, in bins of
  expected score, each game counted from both sides.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

#: Expected scores are held to this range for the deviance.
CLIP_LOW = 0.01
CLIP_HIGH = 0.99
_log10 = math.log10
#: Bins of the calibration chart (expected score 0-0.1, 0.1-0.2, ...).
BINS = 10


def month_key(day: date) -> int:
    """A month as one whole number (year x 12 + month - 1), in date order."""
    return day.year * 12 + day.month - 1


def month_of_key(key: int) -> date:
    """The first day of the month ``month_key`` gave."""
    return date(key // 12, key % 12 + 1, 1)


def clip(expected: float) -> float:
    return min(CLIP_HIGH, max(CLIP_LOW, expected))


def deviance(expected: float, score: float) -> float:
    """One game's binomial deviance (base 10), the expectation held to 0.01..0.99."""
    e = clip(expected)
    return -(score * math.log10(e) + (1.0 - score) * math.log10(1.0 - e))


def mean_deviance(games: Iterable[tuple[float, float]]) -> float | None:
    """Mean deviance of (expected, score) pairs; None for none."""
    total = 0.0
    n = 0
    for expected, score in games:
        total += deviance(expected, score)
        n += 1
    return total / n if n else None


def player_month_rmse(sums: Iterable[tuple[float, float]]) -> float | None:
    """RMSE over player-months of (sum of expected scores, sum of actual scores)."""
    total = 0.0
    n = 0
    for expected, actual in sums:
        total += (expected - actual) ** 2
        n += 1
    return math.sqrt(total / n) if n else None


def bin_of(expected: float, bins: int = BINS) -> int:
    """The calibration bin of an expected score: [0, 0.1) is 0 ... [0.9, 1] is 9."""
    return min(bins - 1, max(0, int(expected * bins)))


@dataclass
class Bin:
    """One calibration bin: how many sides fell in it, their expected and actual scores."""

    low: float
    high: float
    count: int = 0
    expected: float = 0.0
    actual: float = 0.0

    @property
    def mean_expected(self) -> float | None:
        return self.expected / self.count if self.count else None

    @property
    def mean_actual(self) -> float | None:
        return self.actual / self.count if self.count else None


def calibration(sides: Iterable[tuple[float, float]], bins: int = BINS) -> list[Bin]:
    """(expected, score) sides in bins of expected score."""
    result = [Bin(i / bins, (i + 1) / bins) for i in range(bins)]
    for expected, score in sides:
        b = result[bin_of(expected, bins)]
        b.count += 1
        b.expected += expected
        b.actual += score
    return result


@dataclass(frozen=True)
class Measures:
    """A system's figures over the whole history and over its last 12 months."""

    games: int
    deviance: float | None
    player_months: int
    rmse: float | None
    recent_games: int
    recent_deviance: float | None
    recent_player_months: int
    recent_rmse: float | None
    #: games the system had an expectation for (the others counted at 1/2)
    expected_games: int
    calibration: list[Bin]


@dataclass
class _Sums:
    games: int = 0
    deviance: float = 0.0
    player_months: int = 0
    squares: float = 0.0


@dataclass
class MeasureTally:
    """The measures, summed game by game in date order (months never go back).

    ``recent_from``: the first month (``month_key``) of the recent figures. A game
    without an expectation (None) counts at 1/2, as a system that knows nothing
    would predict, and is left out of the calibration.
    """

    recent_from: int
    bins: int = BINS
    _all: _Sums = field(default_factory=_Sums)
    _recent: _Sums = field(default_factory=_Sums)
    _expected_games: int = 0
    _bins: list[Bin] = field(default_factory=list)
    _month: int | None = None
    #: the open month's sums: player -> [expected, actual]
    _open: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._bins = [Bin(i / self.bins, (i + 1) / self.bins) for i in range(self.bins)]

    def add(self, month: int, a: str, b: str, expected: float | None, score: float) -> None:
        """Player ``a``'s expected score and score against ``b`` in a game of ``month``."""
        if month != self._month:
            if self._month is not None and month < self._month:
                raise ValueError("games must come in date order")
            self._close_month()
            self._month = month
        if expected is None:
            expected = 0.5
        else:
            self._expected_games += 1
            bins = self._bins
            top = self.bins - 1
            for side_expected, side_score in ((expected, score), (1.0 - expected, 1.0 - score)):
                i = int(side_expected * self.bins)
                b_ = bins[0 if i < 0 else top if i > top else i]
                b_.count += 1
                b_.expected += side_expected
                b_.actual += side_score
        # deviance(expected, score), inlined: this runs once per game of the history
        e = CLIP_LOW if expected < CLIP_LOW else CLIP_HIGH if expected > CLIP_HIGH else expected
        d = -(score * _log10(e) + (1.0 - score) * _log10(1.0 - e))
        sums = self._all
        sums.games += 1
        sums.deviance += d
        if month >= self.recent_from:
            sums = self._recent
            sums.games += 1
            sums.deviance += d
        here = self._open
        sa = here.get(a)
        if sa is None:
            here[a] = [expected, score]
        else:
            sa[0] += expected
            sa[1] += score
        sb = here.get(b)
        if sb is None:
            here[b] = [1.0 - expected, 1.0 - score]
        else:
            sb[0] += 1.0 - expected
            sb[1] += 1.0 - score

    def _close_month(self) -> None:
        if self._month is None or not self._open:
            return
        squares = sum((e - s) ** 2 for e, s in self._open.values())
        count = len(self._open)
        recent = self._month >= self.recent_from
        for sums in (self._all, self._recent) if recent else (self._all,):
            sums.player_months += count
            sums.squares += squares
        self._open = {}

    def result(self) -> Measures:
        """The measures of every game added (closes the open month)."""
        self._close_month()
        a, r = self._all, self._recent
        return Measures(
            games=a.games,
            deviance=a.deviance / a.games if a.games else None,
            player_months=a.player_months,
            rmse=math.sqrt(a.squares / a.player_months) if a.player_months else None,
            recent_games=r.games,
            recent_deviance=r.deviance / r.games if r.games else None,
            recent_player_months=r.player_months,
            recent_rmse=math.sqrt(r.squares / r.player_months) if r.player_months else None,
            expected_games=self._expected_games,
            calibration=[Bin(b.low, b.high, b.count, b.expected, b.actual) for b in self._bins],
        )


# -- is the difference more than chance? -------------------------------------------------

#: Resamples of the paired bootstrap, and its seed: the same history gives the same interval.
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 27
#: The interval's level: 95 %.
BOOTSTRAP_LEVEL = 0.95


@dataclass(frozen=True)
class Difference:
    """The mean per-game deviance of one system minus another's over the same games, with
    its bootstrap interval (``low``..``high``); negative: the first predicted better."""

    mean: float
    low: float
    high: float
    games: int
    events: int

    @property
    def beyond_chance(self) -> bool:
        """The interval leaves out 0: the difference is more than chance on these games."""
        return self.high < 0 or self.low > 0


def paired_bootstrap(
    games: list[int],
    first: list[float],
    second: list[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = BOOTSTRAP_LEVEL,
) -> Difference:
    """How far two systems' deviance per game differ, resampling whole events.

    ``games[i]``, ``first[i]``, ``second[i]``: event i's rated games and each system's
    deviance summed over them. Games of one event share its players' ratings, so they
    are not independent draws: each resample draws as many events as there are, with
    replacement, and takes (sum of first − sum of second) / games over them, paired (the
    same events for both systems). The interval is the percentile one: the resampled
    differences' ``(1 − level) / 2`` and ``(1 + level) / 2`` quantiles, the k-th smallest
    for k = floor(q × resamples) (lower) and ceil(q × resamples) − 1 (upper), from 0.
    """
    n = len(games)
    total = sum(games)
    if not n or not total:
        raise ValueError("no games to compare")
    differences = [a - b for a, b in zip(first, second, strict=True)]
    rng = random.Random(seed)
    population = range(n)
    means = []
    for _ in range(resamples):
        drawn = rng.choices(population, k=n)
        played = sum(games[i] for i in drawn)
        means.append(sum(differences[i] for i in drawn) / played if played else 0.0)
    means.sort()
    tail = (1.0 - level) / 2.0
    low = means[math.floor(tail * resamples)]
    high = means[math.ceil((1.0 - tail) * resamples) - 1]
    return Difference(sum(differences) / total, low, high, total, n)
