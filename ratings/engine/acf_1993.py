"""acf-1993: the Australian Chess Federation's ratings as its December 1993 booklet describes.

Rules: three rating periods a year (lists in April, August and December); players
are new, unrated, provisional or confirmed; a partially-rated player's rating is a
performance rating over all their rated games (Table 1); a confirmed player gains
K (Sa - Se) plus bonus points per tournament, with Se from Table 2 and opponents' ratings
held within 336 of the player's; games against players without a usable rating do not
count; every rating used within a period is the one it opened with. The readings taken
where the booklet is unclear or slips are in docs/rating-systems.md.

One module on purpose: one system's rules in one place, read against
the booklet; its tables are data (acf_tables.py), its settings acf_parameters.py, its
calendar of lists acf_lists.py, a player's standing acf_standing.py, and how its figures
are labelled and stored acf_words.py.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from .acf_lists import list_fed, list_month, list_period
from .acf_parameters import PARAMETERS
from .acf_standing import (
    CONFIRMED,
    NEW,
    PARTIALLY_RATED,
    PROVISIONAL,
    UNRATED,
    AcfState,
)
from .acf_tables import (
    DP_BY_PERCENT,
    HIGH_BY_DIFFERENCE,
    LOW_BY_DIFFERENCE,
    MAX_DIFFERENCE_INDEX,
    half_up,
    parse_bonus_rows,
    percentage,
)
from .acf_words import (
    BREAKDOWN_SHAPES,
    BROUGHT_IN_FIELDS,
    DETAIL_LABELS,
    LINE_LABELS,
    RATING_LINE_FIGURES,
)
from .base import (
    EngineError,
    Event,
    EventResult,
    FigureUsed,
    GameLine,
    Marker,
    PlayerChange,
    PlayerState,
    RatingSystem,
    StatusChange,
    games_words,
    with_changes,
)


def _rated(
    state: AcfState,
    status: str,
    rating: float | None,
    games: int,
    avg_opp: float | None,
    score: float | None,
) -> AcfState:
    """``state`` with its acf-1993 fields replaced."""
    return with_changes(
        state, status=status, rating=rating, games=games, avg_opp=avg_opp, score=score
    )


class _Side:
    """One player's rated games in one event: count, score, sum of ratings used, lines."""

    __slots__ = ("lines", "n", "s", "sr")

    def __init__(self) -> None:
        self.n = 0
        self.s = 0.0
        self.sr = 0.0
        self.lines: list[GameLine] = []


class _Period:
    """One player's period: the state before it, the state it opens with, the running totals."""

    __slots__ = ("before", "n", "opening", "reset", "s", "sr", "units")

    def __init__(self, before: AcfState, opening: AcfState) -> None:
        self.before = before
        self.opening = opening
        self.reset = before is not opening
        self.n = 0  # rated games in the period
        self.s = 0.0  # their score
        self.sr = 0.0  # the sum of the opponents' ratings (partially-rated players)
        self.units = 0  # confirmed: the sum of (Sa - Se) + bonus margin over events, hundredths


class Acf1993(RatingSystem[AcfState]):
    id = "acf-1993"
    title = "ACF ratings (December 1993 booklet)"
    period_based = True
    #: Se is the whole period's, against the average opponent: no game has its own.
    per_game_expected = False
    parameters = PARAMETERS
    state_type = AcfState
    detail_labels = DETAIL_LABELS
    line_labels = LINE_LABELS
    rating_line_figures = RATING_LINE_FIGURES
    breakdown_shapes = BREAKDOWN_SHAPES

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        super().__init__(params)
        rows = parse_bonus_rows(str(self.params["bonus_rows"]))
        #: The bonus margin by rated games in a tournament (None: no bonus), up to the last row.
        self._margins: list[int | None] = []
        for games in range(rows[-1][0] + 1 if rows else 1):
            margin = None
            for start, row_margin in rows:
                if games >= start:
                    margin = row_margin
            self._margins.append(margin)
        self._scale = 10.0 ** int(self.params["decimals"])

    @classmethod
    def check_params(cls, params: Mapping[str, object], path: str = "params") -> list[str]:
        problems = super().check_params(params, path)
        rows = params.get("bonus_rows")
        if isinstance(rows, str):
            try:
                parse_bonus_rows(rows)
            except ValueError as error:
                problems.append(f"{path}.bonus_rows: {error}")
        return problems

    # -- periods ---------------------------------------------------------------

    brought_in_fields = BROUGHT_IN_FIELDS
    # A provisional rating is the history of its games (NG, AR, TS): none, none to keep.
    brought_in_needs_games = True
    legend_on_report = True
    period_reach = "opponents"

    def event_share(
        self, detail: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]
    ) -> float | None:
        """A confirmed player's period change is K over 100 times the sum of the events'
        Sa - Se (and bonus), rounded once: each event's Ri is its part. A performance
        rating is worked out over the whole period's games, with no part an event's."""
        if detail.get("calculation") != "established":
            return None
        share = detail.get("Ri")
        return float(share) if isinstance(share, int | float) else None

    def opponent_figure(self, line: Mapping[str, Any]) -> FigureUsed | None:
        held = line.get("held_from")
        if not isinstance(held, int | float):
            return None
        cap = self.params["max_difference"] or 336
        return FigureUsed(
            word="held",
            words=f"held from {math.floor(held + 0.5)}",  # half up, as the column shows it
            why=(
                f"an opponent rated more than {cap:g} points above or below a confirmed "
                f"player counts as {cap:g} points from the player's rating (the {cap:g} rule); "
                "the rating they held is given with it"
            ),
        )

    def legend(self) -> tuple[Marker, ...]:
        return (
            Marker("1486", "confirmed", "a confirmed rating"),
            Marker(
                "1486p",
                "provisional",
                "a provisional rating: use it for seeding, it is still settling",
            ),
            Marker(
                "4 R",
                "not yet rated",
                "not yet rated: 4 more games to play before a rating is listed",
            ),
            Marker(
                "Unr",
                "unrated",
                "unrated: not yet qualified for a provisional or confirmed rating",
            ),
        )

    def brought_in(
        self, state: PlayerState, *, standing: str | None = None, since: date | None = None
    ) -> AcfState:
        """A status brought in with a rating is taken as given; without one the figure and
        games decide it (confirmed from ``confirm_games``)."""
        state = self.own_state(state)
        if standing and state.rating is not None:
            return with_changes(state, status=standing)
        return state

    def brought_in_missing(
        self, *, rating: float | None, games: int, standing: str | None = None
    ) -> str | None:
        """A confirmed rating stands on its own; any other needs the games behind it."""
        if standing == CONFIRMED:
            return None
        missing = super().brought_in_missing(rating=rating, games=games, standing=standing)
        return f"{missing} (or the status “{CONFIRMED}”)" if missing else None

    def period_name(self, label: str, start: date, end: date) -> str:
        """The booklet names a period by the list it feeds: "Jul–Oct 2026, December 2026
        list" (the label "2026-12" names that list's month)."""
        name = super().period_name(label, start, end)
        month = list_month(label)
        return f"{name}, {month:%B %Y} list" if month is not None else name

    def period_of(self, day: date) -> str:
        return list_fed(day)

    def period_bounds(self, label: str) -> tuple[date, date]:
        return list_period(label)

    # -- players ---------------------------------------------------------------

    def prepare(self, player: PlayerState) -> AcfState:
        """Check an input state and fill what the rules can work out from it (see the docs)."""
        player = super().prepare(player)
        status, rating, games = player.status, player.rating, player.games
        avg_opp, score = player.avg_opp, player.score
        if score is not None and not 0 <= score <= games:
            raise EngineError(
                [f"player {player.id!r}: score {score:g} must lie between 0 and games ({games})"]
            )
        history = avg_opp is not None and score is not None
        if status is None:
            if rating is not None:
                status = CONFIRMED if games >= self.params["confirm_games"] else PROVISIONAL
            elif games > 0 and history:
                status = UNRATED  # worked out from the history below
            else:
                status = NEW
        if status == CONFIRMED:
            if rating is None:
                raise EngineError([f"player {player.id!r}: a confirmed player needs a rating"])
            if player.status == CONFIRMED and avg_opp is None and score is None:
                return player
            return _rated(player, CONFIRMED, rating, games, None, None)
        if status == NEW or games == 0:
            if player.status == NEW and rating is None and avg_opp is None and score is None:
                return player
            return _rated(player, NEW, None, 0, None, None)
        if not history:
            if status == UNRATED or rating is None:
                raise EngineError(
                    [
                        f"player {player.id!r}: an {status} player with games needs avg_opp "
                        "and score" + ("" if status == UNRATED else " (or a rating)")
                    ]
                )
            # A provisional rating without its history: the one history that gives it back
            # is a 50 % score against opponents averaging the rating, kept (like every
            # rating and AR) to the decimals, so the history gives back the same figure.
            rating = half_up(rating, self._scale)
            return _rated(player, PROVISIONAL, rating, games, rating, games / 2)
        assert avg_opp is not None and score is not None
        status, rating = self.review(games, avg_opp, score)
        if status == CONFIRMED:
            return _rated(player, status, rating, games, None, None)
        return _rated(player, status, rating, games, avg_opp, score)

    def review(self, games: int, avg_opp: float, score: float) -> tuple[str, float | None]:
        """Status and rating of a partially-rated player from NG, AR and TS."""
        if games == 0:
            return NEW, None
        if not 0 < score < games or score / games < self.params["min_score"]:
            return UNRATED, None
        percent = min(99, max(1, percentage(score, games)))
        dp = DP_BY_PERCENT[percent]
        assert dp is not None
        rating = half_up(avg_opp + dp, self._scale)
        return (CONFIRMED if games >= self.params["confirm_games"] else PROVISIONAL), rating

    def display(self, player: AcfState) -> str:
        status, rating, games = player.status, player.rating, player.games
        publish = int(self.params["publish_games"])
        if status is None:
            if rating is None:
                status = NEW
            else:
                status = CONFIRMED if games >= self.params["confirm_games"] else PROVISIONAL
        if rating is not None and status == CONFIRMED:
            return str(int(half_up(rating)))
        if rating is not None and status == PROVISIONAL:
            return f"{int(half_up(rating))}p" if games >= publish else f"{publish - games} R"
        if status == UNRATED:
            return "Unr"
        return f"{publish} R"

    def status_changes(self, player: AcfState, *, today: date) -> tuple[StatusChange, ...]:
        """A partially-rated player's rating is listed (provisional, "1486p") once they
        have ``publish_games`` rated games, and confirmed at ``confirm_games``; a confirmed
        rating changes no more. Each is reviewed on the whole history when a period is
        rated, and only a score of more than none, less than all and at least
        ``min_score`` of the games earns a rating: the count is the fewest games that can
        do it. The next period opens first (a zero score starts again as new)."""
        state = self.period_opening(player)
        games, publish = state.games, int(self.params["publish_games"])
        confirm = int(self.params["confirm_games"])
        status = state.status
        if status is None:  # as ``display`` reads a state without one
            status = (
                NEW if state.rating is None else (CONFIRMED if games >= confirm else PROVISIONAL)
            )
        if status == CONFIRMED:
            return ()
        listed = status == PROVISIONAL and state.rating is not None and games >= publish
        more = confirm - games if listed else max(1, publish - games)
        to = CONFIRMED if games + more >= confirm else PROVISIONAL
        share = float(self.params["min_score"])
        words = f"a {to} rating listed after {games_words(more)}" + (
            "" if listed else f", if they score at least {share:.1%} of the points but not all"
        )
        return (StatusChange(to, words + " (at the end of the rating period)", None, more),)

    def usable_rating(self, player: AcfState) -> float | None:
        """The rating others are rated against: confirmed, or provisional and published."""
        if player.status == CONFIRMED or (
            player.status == PROVISIONAL and player.games >= self.params["publish_games"]
        ):
            return player.rating
        return None

    def expected_score(self, player: AcfState, opponent: AcfState) -> float | None:
        """Table 2's P, as Se takes it: the opponent's rating held within max_difference
        (the 336 rule), D = opponent's rating - own, rounded; L column when D >= 0, else H.

        Only between two usable ratings (confirmed, or provisional from publish_games):
        the rules count no other game, so they expect nothing of it.
        """
        own = self.usable_rating(player)
        theirs = self.usable_rating(opponent)
        if own is None or theirs is None:
            return None
        difference = theirs - own
        cap = self.params["max_difference"]
        if cap is not None:
            difference = max(-float(cap), min(float(cap), difference))
        difference = half_up(difference, self._scale)
        index = min(MAX_DIFFERENCE_INDEX, int(half_up(abs(difference))))
        table = LOW_BY_DIFFERENCE if difference >= 0 else HIGH_BY_DIFFERENCE
        return table[index] / 100

    def period_opening(self, player: AcfState) -> AcfState:
        if (
            self.params["reset_zero_score"]
            and player.score == 0
            and player.games > 0
            and player.status in PARTIALLY_RATED
        ):
            return _rated(player, NEW, None, 0, None, None)
        return player

    def _reset_zero_scores(self, players: dict[str, AcfState]) -> dict[str, AcfState]:
        """The booklet's reset, at the start of a period, for every player: a partially-rated
        player whose accumulated score is 0 starts again as new (NG, AR, TS cleared).

        Replaces their states in ``players`` and returns the states they had before.
        One pass over the players per period (a few ms for 20,000 players here): the
        first test, a score of exactly 0, is false for nearly everyone (confirmed and new
        players have none, provisional ones a positive one).
        """
        zero = [
            (pid, state)
            for pid, state in players.items()
            if state.score == 0 and state.games > 0 and state.status in PARTIALLY_RATED
        ]
        for pid, state in zero:
            players[pid] = _rated(state, NEW, None, 0, None, None)
        return dict(zero)

    # -- rating ----------------------------------------------------------------

    def rate_period(
        self, players: dict[str, AcfState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        # A period builds a GameLine per game and side and frees none of them: the cyclic
        # garbage collector would walk them over and over (nearly half the time of a big
        # history) to find nothing. It is switched off for the period, as it was before.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._rate_period(players, events, period)
        finally:
            if collecting:
                gc.enable()

    def _rate_period(
        self, players: dict[str, AcfState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        cap_param = self.params["max_difference"]
        cap = None if cap_param is None else float(cap_param)
        scale = self._scale
        # The period opens with the zero-score reset; ``reset_from``: the states it replaced.
        reset_from = self._reset_zero_scores(players) if self.params["reset_zero_score"] else {}
        # Every rating used in the period is the one it opened with.
        usable: dict[str, float] = {}
        established: dict[str, float] = {}
        for pid, state in players.items():
            rating = self.usable_rating(state)
            if rating is not None:
                usable[pid] = rating
                if state.status == CONFIRMED:
                    established[pid] = rating
        usable_get = usable.get
        established_get = established.get

        tallies: dict[str, _Period] = {}
        rated_events: list[tuple[Event, dict[str, _Side], dict[str, dict[str, Any]]]] = []
        for event in events:
            sides: dict[str, _Side] = {}
            for game in event.games:
                a, b, score, round_ = game.a, game.b, game.score, game.round
                rating_a, rating_b = usable_get(a), usable_get(b)
                own_a, own_b = established_get(a), established_get(b)
                self._take_side(sides, a, b, score, rating_b, own_a, cap, round_)
                self._take_side(sides, b, a, 1.0 - score, rating_a, own_b, cap, round_)
            details: dict[str, dict[str, Any]] = {}
            for pid, side in sides.items():
                tally = tallies.get(pid)
                if tally is None:
                    opening = players[pid]
                    before = reset_from.get(pid, opening)
                    tally = tallies[pid] = _Period(before, opening)
                own = established_get(pid)
                if own is not None:
                    details[pid] = self._established_event(tally, side, own)
                else:
                    details[pid] = self._performance_event(tally, side)
            rated_events.append((event, sides, details))

        # The period's end: new states, then one change per player and event.
        summary: dict[str, tuple[float | None, float | None, str, str, dict[str, Any]]] = {}
        for pid, tally in tallies.items():
            before, opening = tally.before, tally.opening
            own = established_get(pid)
            if own is not None:
                k = float(self.params["k"])
                rating = half_up(own + k * tally.units / 100, scale)
                after = _rated(opening, CONFIRMED, rating, opening.games + tally.n, None, None)
            elif tally.n:
                games = opening.games + tally.n
                avg_opp = self._accumulated_avg(opening, tally.sr, games)
                score = (opening.score or 0.0) + tally.s
                status, rating = self.review(games, avg_opp, score)
                if status == CONFIRMED:  # a confirmed player's history is not used again
                    after = _rated(opening, status, rating, games, None, None)
                else:
                    after = _rated(opening, status, rating, games, avg_opp, score)
            else:
                after = opening
            players[pid] = after
            shared: dict[str, Any] = {"status_before": before.status, "status_after": after.status}
            if tally.reset:
                shared["reset"] = True
            summary[pid] = (
                before.rating,
                after.rating,
                self.display(before),
                self.display(after),
                shared,
            )

        results: list[EventResult] = []
        for event, sides, details in rated_events:
            changes: list[PlayerChange] = []
            for pid, side in sides.items():
                rating_before, rating_after, shown_before, shown_after, shared = summary[pid]
                detail = dict(shared)
                detail.update(details[pid])
                changes.append(
                    PlayerChange(
                        pid,
                        rating_before,
                        rating_after,
                        shown_before,
                        shown_after,
                        side.lines,
                        detail,
                    )
                )
            results.append(EventResult(id=event.id, period=period, changes=changes))
        return results

    def _take_side(
        self,
        sides: dict[str, _Side],
        pid: str,
        opponent: str,
        score: float,
        rating: float | None,
        own: float | None,
        cap: float | None,
        round_: int | None,
    ) -> None:
        """One side of a game: the line of ``pid`` (confirmed at ``own``, else None)
        against ``opponent``, rated at ``rating`` (None: no usable rating, not rated)."""
        side = sides.get(pid)
        if side is None:
            side = sides[pid] = _Side()
        if rating is None:
            side.lines.append(GameLine(opponent, score, None, None, None, False, round_))
            return
        detail: dict[str, Any] = {}
        if own is not None and cap is not None and not own - cap <= rating <= own + cap:
            # the 336 rule: the line shows the rating used and the one held
            detail["held_from"] = rating
            rating = half_up(own + cap if rating > own else own - cap, self._scale)
        side.n += 1
        side.s += score
        side.sr += rating
        side.lines.append(GameLine(opponent, score, rating, None, None, True, round_, detail))

    def _accumulated_avg(self, opening: AcfState, new_sum: float, games: int) -> float:
        """AR over the old games and the new: (ARo NGo + SR) / (NGo + NG), to the decimals."""
        old_sum = (opening.avg_opp or 0.0) * opening.games
        return half_up((old_sum + new_sum) / games, self._scale)

    def _established_event(self, tally: _Period, side: _Side, own: float) -> dict[str, Any]:
        """A confirmed player's tournament: Ri = K (Sa - Se) + BP, Se = P(AR - Ro) NG."""
        n, sa = side.n, side.s
        tally.n += n
        tally.s += sa
        detail: dict[str, Any] = {"calculation": "established", "NG": n, "Sa": sa}
        if not n:
            detail.update(AR=None, D=None, P=None, Se=0.0, BP=0.0, Ri=0.0)
            return detail
        avg = half_up(side.sr / n, self._scale)
        difference = half_up(avg - own, self._scale)
        index = min(MAX_DIFFERENCE_INDEX, int(half_up(abs(difference))))
        # Opponents stronger (D >= 0): the player is the lower-rated one, column L.
        table = LOW_BY_DIFFERENCE if difference >= 0 else HIGH_BY_DIFFERENCE
        expected = table[index]
        excess = round(sa * 100) - expected * n  # Sa - Se, in hundredths
        margins = self._margins
        margin = margins[min(n, len(margins) - 1)]
        bonus = 0  # Sa - Se - margin, in hundredths, when above the bonus margin
        if margin is not None and excess > margin * 100:
            bonus = excess - margin * 100
        tally.units += excess + bonus
        k = float(self.params["k"])
        detail.update(
            AR=avg,
            D=difference,
            D_table=index,
            P=expected / 100,
            Se=expected * n / 100,
            BP=k * bonus / 100,
            Ri=k * (excess + bonus) / 100,
        )
        return detail

    def _performance_event(self, tally: _Period, side: _Side) -> dict[str, Any]:
        """A partially-rated player's tournament: the P-rating over all games so far."""
        tally.n += side.n
        tally.s += side.s
        tally.sr += side.sr
        opening = tally.opening
        games = opening.games + tally.n
        detail: dict[str, Any] = {
            "calculation": "performance",
            "played": side.n,
            "Sa": side.s,
            "NG": games,
        }
        if not games:
            detail.update(TS=0.0, AR=None, percentage=None, Dp=None, Rp=None)
            return detail
        avg = self._accumulated_avg(opening, tally.sr, games)
        score = (opening.score or 0.0) + tally.s
        percent = min(99, max(1, percentage(score, games))) if 0 < score < games else None
        dp = None if percent is None else DP_BY_PERCENT[percent]
        # Rp: the rating so far, None while the score earns none (under 1/15, or 100 %).
        _, rp = self.review(games, avg, score)
        detail.update(TS=score, AR=avg, percentage=percent, Dp=dp, Rp=rp)
        return detail
