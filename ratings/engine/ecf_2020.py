"""ecf-2020: the English Chess Federation's rating method in force from July 2020.

Rules: ratings are worked out month by month. At the start of a month a player is fully
rated (a full rating and a game in the last 36 months), partially rated (likewise with a
partial rating) or new (anyone else who plays that month, returning players included).
New and partially rated players get a performance ("P") rating: their average opponent
plus dp from the performance table, over all their games plus one draw against a dummy
opponent rated by title, age, lapsed rating or current full rapid rating; 10 games
(dummy excluded) make it a full rating. Fully rated players get an Elo-style ("K")
rating: per game the D offset (from the rating difference table, sign restored) plus a
score offset of +10/0/-10, times K / 20, where K is 20 (40 for an improving junior),
capped at 700 / games this month; plus an adjustment A + old x B; never below 100.
Three passes: P ratings "A" (pass 1), P ratings "B" using the other new and partial
players' "A" (pass 2), then K ratings using their "B" (pass 3); fully rated opponents
always count at their start-of-month rating.

Here: the parameters, the periods, the list's display and the month's three passes.
Where a player stands at the start of the month (category, dummy opponent, what they
bring in) is ecf_standing.py; the exact arithmetic on the offset table ecf_offsets.py;
the tables are data (ecf_tables.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from fractions import Fraction
from itertools import repeat
from operator import add
from typing import Any, NamedTuple

from .base import (
    BroughtInField,
    EngineError,
    Event,
    EventResult,
    GameLine,
    Marker,
    PlayerChange,
    PlayerState,
    RatingSystem,
    StatusChange,
    day_words,
    games_words,
    with_changes,
)
from .ecf_offsets import (
    PADDED_OFFSETS,
    cents,
    fits_padded_table,
    k_lines,
    p_lines,
    plain,
    round_ratio,
)
from .ecf_parameters import PARAMETERS
from .ecf_standing import (
    FULL,
    NEW,
    NO_PRIOR,
    PARTIAL,
    EcfState,
    Prior,
    brought_in_category,
    category_at,
    dummy_rating,
    is_junior,
)
from .ecf_standing import prior as prior_of
from .ecf_tables import D_MAX, D_OFFSET_FIFTHS, D_OFFSET_SIGNED, DP_BY_P
from .ecf_words import (
    BREAKDOWN_SHAPES,
    DETAIL_LABELS,
    LINE_LABELS,
    SIGNED_LINE_FIGURES,
)
from .months import month_start, months_before

#: PlayerChange.detail["pass"]: which calculation gave the player's new rating.
PASS_P = "P"
PASS_K = "K"

_DAY_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}")


def _rated(
    state: EcfState,
    rating: float,
    games: int,
    category: str,
    avg_opp: float,
    points: float,
    last_played: date,
) -> EcfState:
    """``state`` with the fields a month changes replaced."""
    return with_changes(
        state,
        rating=rating,
        games=games,
        category=category,
        avg_opp=avg_opp,
        points=points,
        last_played=last_played,
    )


class _PRating(NamedTuple):
    rating: int
    total_games: int  # dummy included
    total_cents: int  # opponents' ratings, dummy included
    half_points: int  # dummy draw included
    p100: int  # average score x 100, rounded
    dp: int
    used: int  # this month's games counted (all of them except pass-1 exclusions)


class Ecf2020(RatingSystem[EcfState]):
    id = "ecf-2020"
    title = "ECF rating (method from July 2020)"
    has_floor = True
    period_based = True
    #: A game adds offsets (D and score), not an expected score.
    per_game_expected = False
    parameters = PARAMETERS
    state_type = EcfState
    detail_labels = DETAIL_LABELS
    line_labels = LINE_LABELS
    signed_line_figures = SIGNED_LINE_FIGURES
    breakdown_shapes = BREAKDOWN_SHAPES

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        super().__init__(params)
        p = self.params
        # Exact decimal values: 0.01 means one hundredth, not its binary neighbour.
        self._adj_a = Fraction(repr(float(p["adjustment_a"])))
        self._adj_b = Fraction(repr(float(p["adjustment_b"])))
        titles_from = p["title_defaults_from"]
        #: The first month whose dummies use the title defaults (None: every month).
        self._titles_from = None if titles_from is None else date.fromisoformat(titles_from)

    def dummy_rating(self, player: EcfState, first: date) -> float:
        """The dummy opponent's rating for a P-rated player in the month starting ``first``
        (``ecf_standing.dummy_rating`` under this system's parameters)."""
        return dummy_rating(player, first, self.params, self._titles_from)

    @classmethod
    def check_params(cls, params: Mapping[str, object], path: str = "params") -> list[str]:
        problems = super().check_params(params, path)
        titles_from = params.get("title_defaults_from")
        if isinstance(titles_from, str):
            try:
                if not _DAY_TEXT.fullmatch(titles_from):
                    raise ValueError(titles_from)
                date.fromisoformat(titles_from)
            except ValueError:
                problems.append(f"{path}.title_defaults_from: must be a date, YYYY-MM-DD")
        return problems

    # -- periods -----------------------------------------------------------------------

    def period_of(self, day: date) -> str:
        return f"{day.year:04d}-{day.month:02d}"

    def period_bounds(self, label: str) -> tuple[date, date]:
        first = month_start(label)
        if first is None:
            raise EngineError([f"period: {label!r} is not a month (YYYY-MM)"])
        following = months_before(first, -1)
        return first, following - timedelta(days=1)

    def _period_start(self, label: str | None, events: Sequence[Event]) -> date:
        """The first day of the month being rated: the label's, else the earliest event's."""
        first = month_start(label) if label is not None else None
        if first is None:
            earliest = min((e.date for e in events), default=date.min)
            first = earliest.replace(day=1)
        return first

    # -- the player's standing -----------------------------------------------------------

    brought_in_fields = (
        BroughtInField(
            "category",
            "ECF category brought in",
            "ECF category",
            (("full", "Full"), ("partial", "Partial")),
            "The category of the rating brought in (blank: from its games).",
            needs_games=True,
        ),
    )
    # A category weighs the games behind the figure: with none, a new player.
    brought_in_needs_games = True
    reads_rapid_list = True
    #: "Effective for over-the-board ratings on 1st July 2020 and for online ratings on
    #: the 1st September 2021" (the method's own words).
    online_rated_from = date(2021, 9, 1)
    reads_player_details = frozenset(("born", "title"))
    period_reach = "performance"

    def event_share(
        self, detail: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]
    ) -> float | None:
        """A fully rated player's month is the sum of its games' increments (rounded
        once, plus any adjustment): an event's part is its own games' increments. A P
        rating is worked out over the month's games together, with no part an event's."""
        if detail.get("pass") != PASS_K:
            return None
        increments = [line.get("increment") for line in lines]
        if not increments or any(not isinstance(i, int | float) for i in increments):
            return None
        return float(sum(increments))  # type: ignore[arg-type]

    def legend(self) -> tuple[Marker, ...]:
        mark = str(self.params.get("partial_mark", "P"))
        return (
            Marker("1540", "full", "a full rating"),
            Marker(
                f"1540{mark}",
                "partial",
                "a partial rating: based on fewer games than a full rating needs",
            ),
        )

    def brought_in(
        self, state: PlayerState, *, standing: str | None = None, since: date | None = None
    ) -> EcfState:
        """A rating brought in is current from ``since``: of the category given, or the
        one its games make it; with no figure or no games, a new player."""
        state = self.own_state(state)
        if state.rating is None or not state.games:
            return state
        category = standing or brought_in_category(state.rating, state.games)
        return with_changes(state, category=category, last_played=since)

    @classmethod
    def list_params(cls, params: Mapping[str, object], time_class: str) -> dict[str, object]:
        """A list rates its own time control (defaults lowered for rapid and blitz),
        whatever the stored parameters say."""
        return {**params, "time_control": time_class}

    @classmethod
    def list_param_problems(cls, params: Mapping[str, object], time_class: str) -> list[str]:
        given = params.get("time_control")
        if given not in ("standard", "rapid", "blitz") or given == time_class:
            return []  # left out, the list's own, or refused as no time control at all
        return [
            f"time_control: this list rates {time_class} play, so it cannot be {given!r}: "
            f"leave it out (the list sets it) or set it to {time_class!r}."
        ]

    def rated_by_performance(self, player: EcfState, label: str) -> bool:
        """Whether the month ``label`` rates ``player`` by performance ("P": new or
        partially rated at its start) rather than by K, from their state before it."""
        first = self._period_start(label, ())
        window_start = months_before(first, int(self.params["activity_months"]))
        return category_at(player, window_start) != FULL

    def lapses_on(self, player: EcfState) -> date | None:
        """The first day of the first month whose activity window opens after the
        player's last game: from then a game rates them as a new player. None while no
        last game is known (a rating with none counts as current)."""
        if player.last_played is None:
            return None
        months = int(self.params["activity_months"])
        return months_before(player.last_played.replace(day=1), -(months + 1))

    def status_changes(self, player: EcfState, *, today: date) -> tuple[StatusChange, ...]:
        """A full or partial rating lapses on ``lapses_on`` unless its holder plays a
        rated game before then (played after it, they are rated as a new player); a
        partial rating is full once its games reach ``full_games``. A new player's, or one
        lapsed already, has no change to come until they play."""
        if player.rating is None or player.category not in (FULL, PARTIAL):
            return ()
        lapse = self.lapses_on(player)
        if lapse is not None and lapse <= today:
            return ()
        changes = []
        if lapse is not None:
            words = (
                f"unrated from {day_words(lapse)} unless a rated game is played before "
                "then (the rating lapses: a game after it is rated as a new player's)"
            )
            changes.append(StatusChange("lapsed", words, lapse, None))
        if player.category == PARTIAL:
            more = max(1, int(self.params["full_games"]) - player.games)
            changes.append(
                StatusChange(FULL, f"a full rating after {games_words(more)}", None, more)
            )
        return tuple(changes)

    def display(self, player: EcfState) -> str:
        if player.rating is None or player.category is None:
            return ""
        rating = player.rating
        shown = str(int(rating) if rating == int(rating) else round_ratio(cents(rating), 100))
        if player.category == PARTIAL:
            shown += str(self.params["partial_mark"])
        return shown

    def expected_score(self, player: EcfState, opponent: EcfState) -> float | None:
        """The score at which a K rating stays where it is, on average.

        A game moves a K rating by (D offset + score offset) x K / 20: with the score
        offset +s for a win, 0 for a draw and -s for a loss, that is 2 s (S - E) x K / 20
        with E = 1/2 - D offset / (2 s) (D = opponent's rating - own, whole; the offset
        signed, positive against a stronger opponent): from 0.08 to 0.92 with the
        documented figures. Only between two ECF ratings (full or partial); a new player
        has none.
        """
        s = int(self.params["score_offset"])
        if s <= 0 or player.category is None or opponent.category is None:
            return None
        if player.rating is None or opponent.rating is None:
            return None
        d = round_ratio(cents(opponent.rating) - cents(player.rating), 100)
        fifths = D_OFFSET_FIFTHS[min(abs(d), D_MAX)]
        offset = fifths / 5 if d >= 0 else -fifths / 5
        return min(1.0, max(0.0, 0.5 - offset / (2 * s)))

    # -- the calculations ----------------------------------------------------------------

    def _p_rating(
        self,
        prior: Prior,
        opponents: list[str],
        scores: list[float],
        ratings: dict[str, float],
        dummy: float,
        left_out: set[str] | None = None,
    ) -> _PRating:
        """P rating: average opponent (dummy included) + dp of the average score.

        Games against the opponents in ``left_out`` (pass 1, ``exclude``) do not count.
        """
        if left_out and not left_out.isdisjoint(opponents):
            kept = [(o, s) for o, s in zip(opponents, scores, strict=True) if o not in left_out]
            opponents = [o for o, _ in kept]
            scores = [s for _, s in kept]
        opp_total = sum(map(ratings.__getitem__, opponents))
        games = prior.games + len(opponents) + 1
        total_cents = prior.total_cents + cents(opp_total) + cents(dummy)
        half_points = prior.half_points + round(sum(scores) * 2) + 1
        # p x 100 = half_points x 50 / games, rounded half up to a whole number.
        p100 = round_ratio(half_points * 100, 2 * games)
        dp = DP_BY_P[p100]
        rating = round_ratio(total_cents + dp * 100 * games, 100 * games)
        rating = max(rating, int(self.params["minimum_rating"]))
        return _PRating(rating, games, total_cents, half_points, p100, dp, len(opponents))

    def rate_period(
        self, players: dict[str, EcfState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        p = self.params
        first = self._period_start(period, events)
        window_start = months_before(first, int(p["activity_months"]))
        minimum = int(p["minimum_rating"])
        full_games = int(p["full_games"])

        # Each player's games this month, in the order given, and for each event the run
        # of each player's games in it: (player, first, last + 1), players in the order
        # they first appear in the event.
        opponents: dict[str, list[str]] = {}
        scores: dict[str, list[float]] = {}
        rounds: dict[str, list[int | None]] = {}
        runs: list[list[tuple[str, int, int]]] = []
        last_day: dict[str, date] = {}
        for event in events:
            starts: dict[str, int] = {}
            for game in event.games:
                a, b, score, number = game.a, game.b, game.score, game.round
                if a not in starts:
                    if a not in opponents:
                        opponents[a], scores[a], rounds[a] = [], [], []
                    starts[a] = len(opponents[a])
                if b not in starts:
                    if b not in opponents:
                        opponents[b], scores[b], rounds[b] = [], [], []
                    starts[b] = len(opponents[b])
                opponents[a].append(b)
                scores[a].append(score)
                rounds[a].append(number)
                opponents[b].append(a)
                scores[b].append(1.0 - score)
                rounds[b].append(number)
            runs.append([(pid, at, len(opponents[pid])) for pid, at in starts.items()])
            day = event.date
            for pid in starts:
                if pid not in last_day or last_day[pid] < day:
                    last_day[pid] = day

        before = {pid: players[pid] for pid in opponents}
        category = {pid: category_at(state, window_start) for pid, state in before.items()}
        p_rated = [pid for pid, c in category.items() if c != FULL]
        k_rated = [pid for pid, c in category.items() if c == FULL]
        dummy = {pid: self.dummy_rating(before[pid], first) for pid in p_rated}
        prior = {
            pid: (NO_PRIOR if category[pid] == NEW else prior_of(before[pid])) for pid in p_rated
        }

        # Pass 1: P ratings "A". Full and partial opponents at their ratings before the
        # month; new opponents at their dummy rating, or left out.
        exclude = p["pass1_new_opponents"] == "exclude"
        rating1 = {pid: state.rating or 0.0 for pid, state in before.items()}
        new_players = {pid for pid in p_rated if category[pid] == NEW}
        for pid in new_players:
            rating1[pid] = dummy[pid]
        left_out = new_players if exclude else None
        pass_a = {
            pid: self._p_rating(
                prior[pid], opponents[pid], scores[pid], rating1, dummy[pid], left_out
            )
            for pid in p_rated
        }
        # Pass 2: P ratings "B", new and partial opponents at their "A".
        rating2 = {pid: state.rating or 0.0 for pid, state in before.items()}
        for pid in p_rated:
            rating2[pid] = float(pass_a[pid].rating)
        pass_b = {
            pid: self._p_rating(prior[pid], opponents[pid], scores[pid], rating2, dummy[pid])
            for pid in p_rated
        }
        # Pass 3: K ratings, new and partial opponents at their "B".
        rating3: dict[str, float] = {pid: state.rating or 0.0 for pid, state in before.items()}
        for pid in p_rated:
            rating3[pid] = float(pass_b[pid].rating)

        after: dict[str, EcfState] = {}
        detail: dict[str, dict[str, Any]] = {}
        # Each player's game lines this month: every line has the same fields (the K
        # ones, null on a P rated player's lines) and no ``change``.
        lines: dict[str, list[GameLine]] = {}
        for pid in p_rated:
            state, rated_a, rated_b = before[pid], pass_a[pid], pass_b[pid]
            played = len(opponents[pid])
            games = prior[pid].games + played
            opp_cents = rated_b.total_cents - cents(dummy[pid])  # prior games included
            half_points = rated_b.half_points - 1
            after[pid] = _rated(
                state,
                float(rated_b.rating),
                games,
                FULL if games >= full_games else PARTIAL,
                round_ratio(opp_cents, games) / 100,
                half_points / 2,
                last_day[pid],
            )
            detail[pid] = {
                "category_before": category[pid],
                "category_after": after[pid].category,
                "pass": PASS_P,
                "month_games": played,
                "month_points": (rated_b.half_points - prior[pid].half_points - 1) / 2,
                "dummy_rating": plain(dummy[pid]),
                "total_games": rated_b.total_games,
                "total_points": rated_b.half_points / 2,
                "avg_opp": round_ratio(rated_b.total_cents, rated_b.total_games) / 100,
                "p": rated_b.p100 / 100,
                "dp": rated_b.dp,
                "rating_a": rated_a.rating,
                "rating_b": rated_b.rating,
                "pass1_games_used": rated_a.used,
                "pass1_total_games": rated_a.total_games,
                "pass1_avg_opp": round_ratio(rated_a.total_cents, rated_a.total_games) / 100,
                "pass1_p": rated_a.p100 / 100,
                "pass1_dp": rated_a.dp,
            }
            lines[pid] = p_lines(opponents[pid], scores[pid], rounds[pid], rating2)

        score_fifths = int(p["score_offset"]) * 5
        offset_of = {1.0: score_fifths, 0.5: 0, 0.0: -score_fifths}
        signed = D_OFFSET_SIGNED
        last = 2 * D_MAX
        top = D_OFFSET_FIFTHS[D_MAX]
        # The offsets by C-level passes where every rating difference falls in the padded
        # table (always, but for absurd input ratings).
        table = PADDED_OFFSETS if fits_padded_table(rating3.values()) else None
        k_player, k_junior = int(p["k_player"]), int(p["k_junior"])
        cap = int(p["k_month_cap"])
        adjusting = bool(self._adj_a or self._adj_b)
        for pid in k_rated:
            state = before[pid]
            own = state.rating or 0.0
            theirs = list(map(rating3.__getitem__, opponents[pid]))
            # Each game's D offset in fifths of a point, from the signed table: index
            # D + 392, D rounded half up (int() floors the non-negative index).
            shift = D_MAX + 0.5 - own
            if table is not None:
                offsets = list(map(table.__getitem__, map(int, map(add, theirs, repeat(shift)))))
            else:
                offsets = [
                    signed[i]
                    if 0 <= (i := int(rating + shift)) <= last
                    else (top if i > 0 else -top)
                    for rating in theirs
                ]
            score_offsets = list(map(offset_of.__getitem__, scores[pid]))
            fifths = sum(offsets) + sum(score_offsets)
            points = sum(scores[pid])
            played = len(theirs)
            improving = fifths > 0
            k = k_junior if improving and is_junior(state, first, p) else k_player
            k_num, k_den = (cap, played) if k * played > cap else (k, 1)
            own_cents = cents(own)
            # New rating = old + fifths/5 x K/20 (+ adjustment), rounded half up.
            adjustment = 0.0
            if adjusting:
                old = Fraction(own_cents, 100)
                exact_adjustment = self._adj_a + old * self._adj_b
                exact = old + Fraction(fifths * k_num, 100 * k_den) + exact_adjustment
                new = math.floor(exact + Fraction(1, 2))
                adjustment = round(float(exact_adjustment), 2)
            else:
                new = round_ratio(own_cents * k_den + fifths * k_num, 100 * k_den)
            new = max(new, minimum)
            was = prior_of(state)
            games = was.games + played
            half_points = was.half_points + round(points * 2)
            after[pid] = _rated(
                state,
                float(new),
                games,
                FULL,
                round_ratio(was.total_cents + cents(sum(theirs)), games) / 100,
                half_points / 2,
                last_day[pid],
            )
            detail[pid] = {
                "category_before": FULL,
                "category_after": FULL,
                "pass": PASS_K,
                "month_games": played,
                "month_points": points,
                "player_k": k_num if k_den == 1 else round(k_num / k_den, 4),
                "improving": improving,
                "sum_offsets": fifths / 5,
                "adjustment": adjustment,
            }
            lines[pid] = k_lines(
                opponents[pid], scores[pid], rounds[pid], theirs, own, offsets, score_offsets,
                k_num, k_den,
            )  # fmt: skip

        # The breakdown, event by event: each player's lines for that event's games.
        shown_before = {pid: self.display(state) for pid, state in before.items()}
        shown_after = {pid: self.display(state) for pid, state in after.items()}
        results: list[EventResult] = []
        # Each change its own figures: the month's dict to a player's first change, a copy
        # to any later one (most players play one event a month).
        unhanded = dict(detail)
        for event, event_runs in zip(events, runs, strict=True):
            changes = []
            for pid, at, end in event_runs:
                figures = unhanded.pop(pid, None)
                changes.append(
                    PlayerChange(
                        pid,
                        before[pid].rating,
                        after[pid].rating,
                        shown_before[pid],
                        shown_after[pid],
                        lines[pid][at:end],
                        dict(detail[pid]) if figures is None else figures,
                    )
                )
            results.append(EventResult(id=event.id, period=period, changes=changes))

        players.update(after)
        return results
