"""glicko-2: Mark Glickman's Glicko-2 system, as his "Example of the Glicko-2 system"
(glicko.net/glicko/glicko2.pdf) sets it out.

Every player has a rating r, a rating deviation RD (how far the rating may be from the
player's strength) and a volatility σ (how erratic their results are). The games of a
rating period are rated together, on everyone's figures as the period opened: the steps
below are the document's, and each formula is written once, under Glickman's own name
for it (μ, φ, σ, g(φ), E, v, Δ, and the Illinois algorithm for σ′).

A player who does not play in a period keeps their rating and volatility, and their RD
grows: φ′ = √(φ² + σ²) for each such period (the document's "if the player does not
compete"). The state keeps the figures of the player's last rated period, dated by
``last_played``; the periods since are counted when the player is next met (as a player
or an opponent), which is the same as growing the RD period by period, since σ does not
change meanwhile. The RD never grows past a new player's (Glickman's Glicko: an RD of 350
is a player the system knows nothing about).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, ClassVar, NamedTuple

from .base import (
    DATE,
    NUMBER,
    EngineError,
    Event,
    EventResult,
    GameLine,
    Marker,
    Parameter,
    PlayerChange,
    PlayerState,
    RatingSystem,
    StateKind,
    StatusChange,
    day_words,
    whole,
    with_changes,
)
from .glicko_words import DETAIL_LABELS, LINE_LABELS
from .months import month_start, months_before

#: Step 2: the Glicko-2 scale is the rating's, less 1500, over 173.7178.
SCALE = 173.7178
CENTRE = 1500.0
#: Step 5: the convergence tolerance of the iteration for σ′ (the document's ε).
EPSILON = 0.000001

PROVISIONAL = "provisional"
ESTABLISHED = "established"


@dataclass(frozen=True, slots=True)
class GlickoState(PlayerState):
    """A player's glicko-2 standing: the rating deviation (RD) and volatility (σ), on
    the rating's own scale, as the player's last rated period left them, and the day of
    their last game, which dates that period."""

    # In the order the command line has always written them (last_played first).
    last_played: date | None = None
    deviation: float | None = None
    volatility: float | None = None

    kinds: ClassVar[Mapping[str, StateKind]] = {
        "deviation": NUMBER,
        "volatility": NUMBER,
        "last_played": DATE,
    }


# -- the document's formulas, each once ------------------------------------------------


def mu(r: float) -> float:
    """Step 2: μ = (r − 1500) / 173.7178."""
    return (r - CENTRE) / SCALE


def phi(rd: float) -> float:
    """Step 2: φ = RD / 173.7178."""
    return rd / SCALE


def rating_of(mu_: float) -> float:
    """Step 8: r′ = 173.7178 μ′ + 1500."""
    return SCALE * mu_ + CENTRE


def deviation_of(phi_: float) -> float:
    """Step 8: RD′ = 173.7178 φ′."""
    return SCALE * phi_


def g(phi_: float) -> float:
    """Step 3: g(φ) = 1 / √(1 + 3φ²/π²)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi_ * phi_ / (math.pi * math.pi))


def E(mu_: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(μ, μj, φj) = 1 / (1 + exp(−g(φj)(μ − μj)))."""
    return expected(mu_, mu_j, g(phi_j))


def expected(mu_: float, mu_j: float, g_j: float) -> float:
    """E with the opponent's g(φj) worked out already: a period reads each opponent's
    g(φj) in every game against them, and each game's E in four formulas."""
    exponent = -g_j * (mu_ - mu_j)
    if exponent > 700:  # a difference no rating list holds; exp would overflow
        return 0.0
    return 1.0 / (1.0 + math.exp(exponent))


class Result(NamedTuple):
    """One game as the formulas read it: the opponent's μj and φj, the score sj, and
    what steps 3 to 7 read of them, worked out once: g(φj), and E(μ, μj, φj) at the
    player's μ as the period opened (the one μ every formula of the period reads). A
    named tuple: a period makes two a game, and a frozen dataclass costs twice as much
    to make."""

    mu_j: float
    phi_j: float
    s_j: float
    g_j: float
    e: float


def result_of(
    mu_: float, mu_j: float, phi_j: float, s_j: float, g_j: float | None = None
) -> Result:
    """The game of a player at ``mu_`` against an opponent at (μj, φj), scoring sj."""
    g_j = g(phi_j) if g_j is None else g_j
    return Result(mu_j, phi_j, s_j, g_j, expected(mu_, mu_j, g_j))


def v(results: Sequence[Result]) -> float:
    """Step 3: the estimated variance of the rating from the game outcomes alone,
    v = [Σ g(φj)² E(1 − E)]⁻¹."""
    total = 0.0
    for r in results:
        total += r.g_j**2 * r.e * (1.0 - r.e)
    return 1.0 / total if total > 0 else math.inf


def improvement_sum(results: Sequence[Result]) -> float:
    """Σ g(φj)(sj − E): the sum Δ and the new μ′ both read (steps 4 and 7)."""
    return sum(r.g_j * (r.s_j - r.e) for r in results)


def delta(v_: float, results: Sequence[Result]) -> float:
    """Step 4: the estimated improvement, Δ = v Σ g(φj)(sj − E)."""
    return v_ * improvement_sum(results)


def volatility_after(sigma: float, delta_: float, phi_: float, v_: float, tau: float) -> float:
    """Step 5: the new volatility σ′, by the Illinois algorithm (a regula falsi that
    halves the stale end's value), to the document's tolerance ε."""
    a = math.log(sigma * sigma)
    phi2, delta2, tau2 = phi_ * phi_, delta_ * delta_, tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v_ - ex) / (2.0 * (phi2 + v_ + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v_:
        big_b = math.log(delta2 - phi2 - v_)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def phi_star(phi_: float, sigma: float) -> float:
    """Step 6: the pre-period deviation, φ* = √(φ² + σ′²); also a whole period without
    games (the document's "if the player does not compete", with σ unchanged)."""
    return math.sqrt(phi_ * phi_ + sigma * sigma)


def phi_after(phi_star_: float, v_: float) -> float:
    """Step 7: φ′ = 1 / √(1/φ*² + 1/v)."""
    return 1.0 / math.sqrt(1.0 / (phi_star_ * phi_star_) + 1.0 / v_)


def mu_after(mu_: float, phi_after_: float, results: Sequence[Result]) -> float:
    """Step 7: μ′ = μ + φ′² Σ g(φj)(sj − E)."""
    return mu_ + phi_after_ * phi_after_ * improvement_sum(results)


@dataclass(frozen=True, slots=True)
class Rated:
    """One player's period, worked out: the new figures and the working."""

    mu: float
    phi: float
    sigma: float
    v: float
    delta: float


def rate_player(
    mu_: float, phi_: float, sigma: float, results: Sequence[Result], tau: float
) -> Rated:
    """Steps 3 to 7 for one player at (μ, φ, σ) who played ``results`` in the period
    (each game's E read at this μ)."""
    v_ = v(results)
    if math.isinf(v_):  # games that tell nothing (an E of exactly 0 or 1): φ* alone
        return Rated(mu_, phi_star(phi_, sigma), sigma, v_, 0.0)
    delta_ = delta(v_, results)
    sigma_ = volatility_after(sigma, delta_, phi_, v_, tau)
    phi_ = phi_after(phi_star(phi_, sigma_), v_)
    return Rated(mu_after(mu_, phi_, results), phi_, sigma_, v_, delta_)


# -- the system ------------------------------------------------------------------------


PARAMETERS = (
    Parameter(
        "tau",
        0.5,
        "the system constant τ: how far the volatility can change (Glickman: 0.3 to 1.2; "
        "smaller keeps ratings steadier)",
        minimum=0.2,
        maximum=1.2,
    ),
    Parameter(
        "start_rating", 1500.0, "a new player's rating (Glickman: 1500)", minimum=0, maximum=3000
    ),
    Parameter(
        "start_deviation",
        350.0,
        "a new player's RD (Glickman: 350); no RD grows past it",
        minimum=30,
        maximum=500,
    ),
    Parameter(
        "start_volatility",
        0.06,
        "a new player's volatility σ (Glickman: 0.06)",
        minimum=0.01,
        maximum=0.2,
    ),
    Parameter(
        "brought_in_deviation",
        200.0,
        "the RD of a rating brought in from outside",
        minimum=30,
        maximum=500,
    ),
    Parameter(
        "provisional_deviation",
        110.0,
        "a rating is provisional while its RD is above this",
        minimum=0,
        maximum=500,
    ),
    Parameter(
        "period_months",
        1,
        "the length of a rating period in months (Glickman: long enough for 10 to 15 "
        "games a player)",
        choices=(1, 2, 3, 4, 6, 12),
    ),
)


class Glicko2(RatingSystem[GlickoState]):
    id = "glicko-2"
    title = "Glicko-2 (Glickman's example)"
    period_based = True
    #: Each game line has E, the expected score the formulas read.
    per_game_expected = True
    #: A player's period reads their own figures and their opponents' (μj, φj) as it
    #: opened, nothing else: a correction's ripple rates a later period again only for
    #: the changed members and their opponents, not whole.
    period_reach = "opponents"
    parameters = PARAMETERS
    state_type = GlickoState
    detail_labels = DETAIL_LABELS
    line_labels = LINE_LABELS

    # -- periods -----------------------------------------------------------------

    def _months(self) -> int:
        return int(self.params["period_months"])

    def _index(self, day: date) -> int:
        """The period ``day`` falls in, counted from year 0."""
        return (day.year * 12 + day.month - 1) // self._months()

    def period_of(self, day: date) -> str:
        first = self._index(day) * self._months()
        return f"{first // 12:04d}-{first % 12 + 1:02d}"

    def period_bounds(self, label: str) -> tuple[date, date]:
        first = month_start(label)
        if first is None or (first.month - 1) % self._months():
            raise EngineError(
                [f"period: {label!r} is not a glicko-2 period (YYYY-MM, its first month)"]
            )
        return first, months_before(first, -self._months()) - timedelta(days=1)

    def _label_index(self, label: str) -> int:
        """The index (``_index``) of period ``label``."""
        start, _ = self.period_bounds(label)
        return self._index(start)

    def _periods_since(self, player: GlickoState, label: str) -> int:
        """Periods from the player's last rated one to ``label``'s (1: the next one); 1 for
        a player never rated, whose figures are taken as current."""
        return self._periods_before(player, self._label_index(label))

    def _periods_before(self, player: GlickoState, at: int) -> int:
        """``_periods_since`` the period of index ``at`` (worked out once a period)."""
        if player.last_played is None:
            return 1
        return max(1, at - self._index(player.last_played))

    # -- players -----------------------------------------------------------------

    def prepare(self, player: PlayerState) -> GlickoState:
        """Step 1: an unrated player starts at 1500, RD 350, σ 0.06; a rating brought in
        without an RD takes ``brought_in_deviation``."""
        player = super().prepare(player)
        p = self.params
        if player.deviation is not None and player.deviation <= 0:
            raise EngineError([f"players.{player.id}.deviation: must be above 0"])
        if player.volatility is not None and player.volatility <= 0:
            raise EngineError([f"players.{player.id}.volatility: must be above 0"])
        changes: dict[str, Any] = {}
        if player.rating is None:
            changes["rating"] = float(p["start_rating"])
            if player.deviation is None:
                changes["deviation"] = float(p["start_deviation"])
        elif player.deviation is None:
            changes["deviation"] = float(p["brought_in_deviation"])
        if player.volatility is None:
            changes["volatility"] = float(p["start_volatility"])
        return with_changes(player, **changes) if changes else player

    def opening(self, player: GlickoState, label: str) -> tuple[float, float, float]:
        """μ, φ and σ as period ``label`` opens: the RD grown by each period without
        games since the player's last (never past a new player's)."""
        return self._opened(player, self._periods_since(player, label) - 1)

    def _opened(self, player: GlickoState, idle: int) -> tuple[float, float, float]:
        """``opening`` after ``idle`` periods without games."""
        sigma = float(player.volatility or self.params["start_volatility"])
        phi_ = phi(float(player.deviation or self.params["start_deviation"]))
        if idle:
            phi_ = min(
                math.sqrt(phi_ * phi_ + idle * sigma * sigma),
                max(phi_, phi(float(self.params["start_deviation"]))),
            )
        return mu(float(player.rating or self.params["start_rating"])), phi_, sigma

    def deviation_on(self, player: GlickoState, day: date) -> float:
        """The player's RD as the period holding ``day`` opens."""
        return deviation_of(self.opening(player, self.period_of(day))[1])

    # -- what the system says about itself ----------------------------------------

    def _provisional(self, player: GlickoState) -> bool:
        deviation = player.deviation
        if deviation is None:
            deviation = float(self.params["start_deviation"])
        return deviation > float(self.params["provisional_deviation"])

    def display(self, player: GlickoState) -> str:
        if player.rating is None:
            return ""
        shown = str(whole(player.rating))
        return shown + "p" if self._provisional(player) else shown

    def legend(self) -> tuple[Marker, ...]:
        limit = f"{float(self.params['provisional_deviation']):g}"
        return (
            Marker(
                "1500",
                ESTABLISHED,
                f"an established rating: its rating deviation is {limit} or less",
            ),
            Marker(
                "1500p",
                PROVISIONAL,
                f"a provisional rating: its rating deviation is above {limit}, so it may be "
                "far from the player's strength",
            ),
        )

    def status_changes(self, player: GlickoState, *, today: date) -> tuple[StatusChange, ...]:
        """An established rating turns provisional on the first day of the period whose
        opening RD, grown by the periods without games, is above the limit. How many games
        make a provisional rating established depends on the results: no change is said."""
        if player.rating is None or player.last_played is None or self._provisional(player):
            return ()
        sigma = float(player.volatility or self.params["start_volatility"])
        limit = phi(float(self.params["provisional_deviation"]))
        ceiling = phi(float(self.params["start_deviation"]))
        phi_ = phi(float(player.deviation or 0.0))
        if limit >= ceiling:
            return ()
        # Idle periods until φ² + idle σ² > limit²; the first period opening with that many.
        idle = math.floor((limit * limit - phi_ * phi_) / (sigma * sigma)) + 1
        index = self._index(player.last_played) + idle + 1
        first = index * self._months()
        on = date(first // 12, first % 12 + 1, 1)
        words = f"provisional from {day_words(on)} unless the member plays a rated game first"
        return (StatusChange(PROVISIONAL, words, on=on),)

    def expected_score(self, player: GlickoState, opponent: GlickoState) -> float | None:
        """E: the player's μ against the opponent's μ and φ, as step 3 reads them."""
        if player.rating is None or opponent.rating is None:
            return None
        return E(
            mu(player.rating),
            mu(opponent.rating),
            phi(float(opponent.deviation or self.params["start_deviation"])),
        )

    def event_share(
        self, detail: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]
    ) -> float | None:
        """μ′ − μ is φ′² Σ g(φj)(sj − E): each game's term is its line's change, so an
        event's part is the sum of its lines'."""
        changes = [line.get("change") for line in lines if line.get("rated", True)]
        if any(c is None for c in changes):
            return None
        return round(sum(float(c) for c in changes if c is not None), 2)

    # -- rating ------------------------------------------------------------------

    def rate_period(
        self, players: dict[str, GlickoState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        """Steps 1 to 8 for every player of the period, on everyone's figures as it
        opened; a guest is an opponent whose figures never move."""
        label = period or self.period_of(min(e.date for e in events))
        at = self._label_index(label)
        tau = float(self.params["tau"])
        idle: dict[str, int] = {}  # each player's periods without games before this one
        opened: dict[str, tuple[float, float, float]] = {}
        g_of: dict[str, float] = {}  # each player's g(φ) as the period opened
        # What each player's opponents' lines show of them: their RD and g(φ), rounded.
        shown: dict[str, tuple[float, float]] = {}
        results: dict[str, list[Result]] = {}
        lines: dict[str, list[tuple[str, GameLine]]] = {}
        last_day: dict[str, date] = {}
        for event in events:
            for game in event.games:
                for pid in (game.a, game.b):
                    if pid not in opened:
                        idle[pid] = self._periods_before(players[pid], at) - 1
                        opened[pid] = self._opened(players[pid], idle[pid])
                        g_of[pid] = g(opened[pid][1])
                        shown[pid] = (
                            round(deviation_of(opened[pid][1]), 2),
                            round(g_of[pid], 4),
                        )
                    last_day[pid] = max(last_day.get(pid, event.date), event.date)
                for pid, opp, score in (
                    (game.a, game.b, game.score),
                    (game.b, game.a, 1.0 - game.score),
                ):
                    mu_j, phi_j, _ = opened[opp]
                    result = result_of(opened[pid][0], mu_j, phi_j, score, g_of[opp])
                    results.setdefault(pid, []).append(result)
                    deviation_j, g_j = shown[opp]
                    line = GameLine(
                        opp,
                        score,
                        players[opp].rating,
                        round(result.e, 4),
                        None,
                        True,
                        game.round,
                        {"opponent_deviation": deviation_j, "g": g_j},
                    )
                    lines.setdefault(pid, []).append((event.id, line))

        before = {pid: players[pid] for pid in opened}
        detail: dict[str, dict[str, Any]] = {}
        displays: dict[str, tuple[str, str]] = {}  # each player's figures shown before, after
        for pid, (mu_, phi_, sigma) in opened.items():
            state = before[pid]
            if state.guest:
                rated = Rated(mu_, phi_, sigma, math.nan, 0.0)
            else:
                rated = rate_player(mu_, phi_, sigma, results[pid], tau)
            # Each game's part of μ′ − μ, φ′² g(φj)(sj − E), on the rating's scale.
            weight = SCALE * rated.phi * rated.phi
            for (_, line), r in zip(lines[pid], results[pid], strict=True):
                part = 0.0 if state.guest else weight * r.g_j * (r.s_j - r.e)
                line.change = round(part, 2)
            played = len(results[pid])
            if state.guest:
                players[pid] = with_changes(state, games=state.games + played)
            else:
                players[pid] = with_changes(
                    state,
                    rating=rating_of(rated.mu),
                    deviation=deviation_of(rated.phi),
                    volatility=rated.sigma,
                    games=state.games + played,
                    last_played=last_day[pid],
                )
            detail[pid] = {
                "played": played,
                "score": sum(r.s_j for r in results[pid]),
                "inactive_periods": idle[pid],
                "deviation_before": round(deviation_of(phi_), 2),
                "volatility_before": round(sigma, 6),
                "variance": round(rated.v, 4) if math.isfinite(rated.v) else None,
                "improvement": round(rated.delta, 4),
                "deviation_after": round(deviation_of(rated.phi), 2),
                "volatility_after": round(rated.sigma, 6),
            }
            if state.guest:
                detail[pid]["guest"] = True
            displays[pid] = (self.display(state), self.display(players[pid]))

        out: list[EventResult] = []
        for event in events:
            changes = []
            for pid in dict.fromkeys(p for game in event.games for p in (game.a, game.b)):
                own = [line for event_id, line in lines[pid] if event_id == event.id]
                changes.append(
                    PlayerChange(
                        pid,
                        before[pid].rating,
                        players[pid].rating,
                        *displays[pid],
                        own,
                        dict(detail[pid]),
                    )
                )
            out.append(EventResult(id=event.id, period=label, changes=changes))
        return out
