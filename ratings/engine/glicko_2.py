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
from operator import mul
from typing import Any, ClassVar

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
from .glicko_2_formulas import (
    SCALE,
    E,
    delta,
    deviation_of,
    expected,
    g,
    mu,
    mu_after,
    phi,
    phi_after,
    phi_star,
    rating_of,
    v,
    volatility_after,
)
from .glicko_words import DETAIL_LABELS, LINE_LABELS
from .months import month_start, months_before

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


@dataclass(frozen=True, slots=True)
class Rated:
    """One player's period, worked out: the new figures and the working."""

    mu: float
    phi: float
    sigma: float
    v: float
    delta: float


def rate_player(mu_: float, phi_: float, sigma: float, played: Played, tau: float) -> Rated:
    """Steps 3 to 7 for one player at (μ, φ, σ) who played ``played`` in the period
    (each game's E read at this μ)."""
    v_ = v(played.information)
    if math.isinf(v_):  # games that tell nothing (an E of exactly 0 or 1): φ* alone
        return Rated(mu_, phi_star(phi_, sigma), sigma, v_, 0.0)
    improvement = played.improvement()
    delta_ = delta(v_, improvement)
    sigma_ = volatility_after(sigma, delta_, phi_, v_, tau)
    phi_ = phi_after(phi_star(phi_, sigma_), v_)
    return Rated(mu_after(mu_, phi_, improvement), phi_, sigma_, v_, delta_)


class Played:
    """One player of a period as its games are read: their figures as it opened, what
    their opponents' games read of them, worked out once, and what steps 3 to 7 read of
    their own games, gathered game by game (``game``).

    Of each opponent's games: μ, g(φ) and g(φ)², and the RD and g(φ) their lines show
    (rounded). Of their own: Σ g(φj)² E(1 − E) (step 3's v, inverted, summed game by
    game as the document's sum runs), and each game's g(φj) and sj − E (Δ and μ′ read
    the sum of their products, each line its own), the score, and the game lines, all
    of them and by event."""

    __slots__ = (
        "g",
        "g2",
        "id",
        "idle",
        "information",
        "last_day",
        "lines",
        "mu",
        "phi",
        "score",
        "shown",
        "sigma",
        "state",
        "surprises",
        "weights",
    )

    def __init__(
        self, pid: str, state: GlickoState, idle: int, opened: tuple[float, float, float]
    ) -> None:
        self.id = pid
        self.state = state
        self.idle = idle
        self.mu, self.phi, self.sigma = opened
        self.g = g(self.phi)
        self.g2 = self.g**2
        #: What an opponent's line shows of this player: their RD and g(φ), rounded.
        self.shown = (round(deviation_of(self.phi), 2), round(self.g, 4))
        self.information = 0.0
        self.weights: list[float] = []
        self.surprises: list[float] = []
        self.score = 0.0
        self.lines: list[GameLine] = []
        self.last_day: date | None = None

    def game(self, opponent: Played, s_j: float, round_: int | None) -> GameLine:
        """A game against ``opponent``, scoring sj: its E (step 3), its parts of the
        sums, and its line."""
        e = expected(self.mu, opponent.mu, opponent.g)
        self.information += opponent.g2 * e * (1.0 - e)
        self.weights.append(opponent.g)
        self.surprises.append(s_j - e)
        self.score += s_j
        deviation_j, g_j = opponent.shown
        line = GameLine(
            opponent.id,
            s_j,
            opponent.state.rating,
            round(e, 4),
            None,
            True,
            round_,
            {"opponent_deviation": deviation_j, "g": g_j},
        )
        self.lines.append(line)
        return line

    def improvement(self) -> float:
        """Σ g(φj)(sj − E): the sum Δ and the new μ′ both read (steps 4 and 7)."""
        total: float = sum(map(mul, self.weights, self.surprises))
        return total


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
        met: dict[str, Played] = {}
        # Each event's players in the order they first play in it, with their lines of it.
        by_event: list[tuple[Event, dict[str, list[GameLine]]]] = []
        for event in events:
            own: dict[str, list[GameLine]] = {}
            for game in event.games:
                a, b = game.a, game.b
                player_a = met.get(a) or self._met(met, a, players[a], at)
                player_b = met.get(b) or self._met(met, b, players[b], at)
                line_a = player_a.game(player_b, game.score, game.round)
                line_b = player_b.game(player_a, 1.0 - game.score, game.round)
                own_a = own.get(a)
                if own_a is None:
                    own[a] = [line_a]
                else:
                    own_a.append(line_a)
                own_b = own.get(b)
                if own_b is None:
                    own[b] = [line_b]
                else:
                    own_b.append(line_b)
            day = event.date
            for pid in own:
                played = met[pid]
                if played.last_day is None or day > played.last_day:
                    played.last_day = day
            by_event.append((event, own))

        after: dict[str, tuple[GlickoState, str, str, dict[str, Any]]] = {}
        for pid, played in met.items():
            state, mu_, phi_, sigma = played.state, played.mu, played.phi, played.sigma
            guest = state.guest
            if guest:
                rated = Rated(mu_, phi_, sigma, math.nan, 0.0)
            else:
                rated = rate_player(mu_, phi_, sigma, played, tau)
            # Each game's part of μ′ − μ, φ′² g(φj)(sj − E), on the rating's scale.
            weight = SCALE * rated.phi * rated.phi
            for line, g_j, surprise in zip(
                played.lines, played.weights, played.surprises, strict=True
            ):
                line.change = round(0.0 if guest else weight * g_j * surprise, 2)
            count = len(played.lines)
            if guest:
                new = with_changes(state, games=state.games + count)
            else:
                new = with_changes(
                    state,
                    rating=rating_of(rated.mu),
                    deviation=deviation_of(rated.phi),
                    volatility=rated.sigma,
                    games=state.games + count,
                    last_played=played.last_day,
                )
            players[pid] = new
            detail: dict[str, Any] = {
                "played": count,
                "score": played.score,
                "inactive_periods": played.idle,
                "deviation_before": round(deviation_of(phi_), 2),
                "volatility_before": round(sigma, 6),
                "variance": round(rated.v, 4) if math.isfinite(rated.v) else None,
                "improvement": round(rated.delta, 4),
                "deviation_after": round(deviation_of(rated.phi), 2),
                "volatility_after": round(rated.sigma, 6),
            }
            if guest:
                detail["guest"] = True
            after[pid] = (new, self.display(state), self.display(new), detail)

        out: list[EventResult] = []
        for event, own in by_event:
            changes = []
            for pid, lines in own.items():
                new, shown_before, shown_after, detail = after[pid]
                changes.append(
                    PlayerChange(
                        pid,
                        met[pid].state.rating,
                        new.rating,
                        shown_before,
                        shown_after,
                        lines,
                        dict(detail),
                    )
                )
            out.append(EventResult(id=event.id, period=label, changes=changes))
        return out

    def _met(self, met: dict[str, Played], pid: str, state: GlickoState, at: int) -> Played:
        """A player first met in the period of index ``at``: their figures as it opened."""
        idle = self._periods_before(state, at) - 1
        played = met[pid] = Played(pid, state, idle, self._opened(state, idle))
        return played
