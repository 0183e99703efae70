"""nz-club-elo: a club's Elo ratings (the NZ club's rules).

Rules: expected score 1 / (1 + 10^((Rb - Ra) / 400)); K 32, or 16 once a player
has played more than 30 rated games; new players start at 1500; guests are fixed
at 1500; no rating below 1000; at most 32 points a game; ratings are worked out
after each rated event from the ratings before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

from .base import (
    GAME_ROW_FIELDS,
    Event,
    EventResult,
    Game,
    GameLine,
    GameRows,
    Parameter,
    PlayerChange,
    PlayerState,
    RatingSystem,
    round_half_up,
    state_copier,
    whole,
    with_changes,
)

_PAIR = attrgetter("a", "b")
_ROW = len(GAME_ROW_FIELDS)


class NzClubElo(RatingSystem):
    id = "nz-club-elo"
    title = "Club Elo (NZ club rules)"
    parameters = (
        Parameter("start_rating", 1500.0, "rating given to every new player", minimum=0),
        Parameter("guest_rating", 1500.0, "fixed rating used for guests", minimum=0),
        Parameter("k_new", 32.0, "K-factor until a player has passed k_games games", minimum=0),
        Parameter("k_established", 16.0, "K-factor once a player has passed k_games", minimum=0),
        Parameter(
            "k_games",
            30,
            "K drops once a player has played MORE than this many rated games",
            minimum=0,
        ),
        Parameter("floor", 1000.0, "no rating drops below this", minimum=0),
        Parameter("max_per_game", 32.0, "most a rating can move in one game", minimum=0),
        Parameter(
            "update",
            "event",
            "'event': every game of an event on the ratings before it (the text's "
            "'after each rated event'); 'game': ratings move after every game",
            choices=("event", "game"),
        ),
        Parameter("decimals", 2, "ratings are kept to this many decimal places", minimum=0),
    )

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        super().__init__(params)
        #: rating -> display: a player's display before an event is the one after the last.
        self._shown: dict[float | None, str] = {}

    def prepare(self, player: PlayerState) -> PlayerState:
        """Guests at the guest rating; anyone else never under the floor (start rating too)."""
        if player.guest:
            return with_changes(player, rating=float(self.params["guest_rating"]))
        floor = float(self.params["floor"])
        if player.rating is None:
            return with_changes(player, rating=max(floor, float(self.params["start_rating"])))
        if player.rating < floor:
            return with_changes(player, rating=floor)
        return player

    def display(self, player: PlayerState) -> str:
        return "" if player.rating is None else str(_whole(player.rating))

    def k_factor(self, games_played: int) -> float:
        p = self.params
        return float(p["k_established"] if games_played > p["k_games"] else p["k_new"])

    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        rate_event = self._rate_by_game if self.params["update"] == "game" else self._rate_event
        return [rate_event(players, event) for event in events]

    # The two ways of rating an event share their rules but not their code: the per-event
    # one is the default and the hot loop of a big history, so it avoids per-game function
    # calls (docs/performance.md). ``_rate_by_game`` is the plain version.

    def _rate_event(self, players: dict[str, PlayerState], event: Event) -> EventResult:
        """Every game on the ratings from before the event; K judged once per event."""
        p = self.params
        cap = float(p["max_per_game"])
        k_new = float(p["k_new"])
        k_established = float(p["k_established"])
        k_games = p["k_games"]
        floor = float(p["floor"])
        decimals = int(p["decimals"])
        games = event.games
        order = dict.fromkeys(chain.from_iterable(map(_PAIR, games)))
        states = {pid: players[pid] for pid in order}
        rating: dict[str, float] = {}
        k: dict[str, float] = {}
        guests: set[str] = set()
        for pid, state in states.items():
            rating[pid] = float(state.rating or 0.0)
            k[pid] = k_established if state.games > k_games else k_new
            if state.guest:
                guests.add(pid)
        # Game lines as plain values (GameRows): building two GameLines a game would cost
        # more than the rating. A line's detail is its K: one dict per K value in the event.
        k_detail = {value: {"k": value} for value in (k_new, k_established)}
        lines: dict[str, list[Any]] = {pid: [] for pid in order}
        delta = dict.fromkeys(order, 0.0)
        for game in games:
            a = game.a
            b = game.b
            s = game.score
            ra = rating[a]
            rb = rating[b]
            try:
                ea = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
            except OverflowError:  # a difference of over 120,000 points
                ea = 0.0
            eb = 1.0 - ea
            ka = k[a]
            kb = k[b]
            change_a = ka * (s - ea)
            try:
                sb = _OTHER_SIDE[s]
            except KeyError:  # a score other than 1, 0.5 or 0 (which callers rule out)
                sb = 1.0 - s
            change_b = kb * (sb - eb)
            if change_a > cap:
                change_a = cap
            elif change_a < -cap:
                change_a = -cap
            if change_b > cap:
                change_b = cap
            elif change_b < -cap:
                change_b = -cap
            if guests:
                if a in guests:
                    change_a = 0.0
                if b in guests:
                    change_b = 0.0
            delta[a] += change_a
            delta[b] += change_b
            # round(x, 4) and round(x, 2), without their cost where no tie is near: the
            # scaled value rounded to a whole number by float arithmetic (see _WHOLE)
            y = ea * 10000.0
            n = (y + _WHOLE) - _WHOLE
            ea4 = n / 10000.0 if -0.499 < y - n < 0.499 else round(ea, 4)
            y = eb * 10000.0
            n = (y + _WHOLE) - _WHOLE
            eb4 = n / 10000.0 if -0.499 < y - n < 0.499 else round(eb, 4)
            y = change_a * 100.0
            n = (y + _WHOLE) - _WHOLE if -1e12 < y < 1e12 else 0.0
            ca2 = n / 100.0 if -0.499 < y - n < 0.499 else round(change_a, 2)
            y = change_b * 100.0
            n = (y + _WHOLE) - _WHOLE if -1e12 < y < 1e12 else 0.0
            cb2 = n / 100.0 if -0.499 < y - n < 0.499 else round(change_b, 2)
            r = game.round
            # a line's values in the order of GAME_ROW_FIELDS
            lines[a] += (b, s, rb, ea4, ca2, r)
            lines[b] += (a, sb, ra, eb4, cb2, r)
        changes = []
        scale = _SCALES[decimals] if decimals < len(_SCALES) else 0.0
        shown = self._shown
        if len(shown) > 1_000_000:
            shown.clear()
        display = self.display
        for pid, state in states.items():
            old = rating[pid]
            values = lines[pid]
            played = len(values) // _ROW
            if pid in guests:
                new = old
            else:
                new = old + delta[pid]
                if new < floor:
                    new = floor
                # _round_half_up(new, decimals), inline: the scaled value rounded by float
                # arithmetic (see _WHOLE) where no tie is near.
                y = new * scale if scale else _FAR
                n = (y + _WHOLE) - _WHOLE if -1e12 < y < 1e12 else 0.0
                new = n / scale if -0.499 < y - n < 0.499 else round_half_up(new, decimals)
            moved = players[pid] = _moved(state, new, state.games + played)
            total = sum(values[3::_ROW])
            y = total * 10000.0  # _round(total, 4), inline as above
            n = (y + _WHOLE) - _WHOLE if -1e12 < y < 1e12 else 0.0
            detail = {
                "k": k[pid],
                "played": played,
                "score": sum(values[1::_ROW]),
                "expected": n / 10000.0 if -0.499 < y - n < 0.499 else round(total, 4),
            }
            if pid in guests:
                detail["guest"] = True
            shown_before = shown.get(state.rating)
            if shown_before is None:
                shown_before = shown[state.rating] = display(state)
            shown_after = shown.get(new)
            if shown_after is None:
                shown_after = shown[new] = display(moved)
            rows = GameRows(values, k_detail[k[pid]])
            changes.append(PlayerChange(pid, old, new, shown_before, shown_after, rows, detail))
        return EventResult(id=event.id, period=None, changes=changes)

    def _rate_by_game(self, players: dict[str, PlayerState], event: Event) -> EventResult:
        """``update: game``: games in round order, each moving the ratings at once."""
        p = self.params
        cap = float(p["max_per_game"])
        floor = float(p["floor"])
        decimals = int(p["decimals"])
        order = dict.fromkeys(chain.from_iterable(map(_PAIR, event.games)))
        before = {pid: players[pid] for pid in order}
        # K is judged before each game from the games played so far.
        played_so_far = {pid: state.games for pid, state in before.items()}
        k = {pid: self.k_factor(state.games) for pid, state in before.items()}
        current = {pid: float(state.rating or 0.0) for pid, state in before.items()}
        lines: dict[str, list[GameLine]] = {pid: [] for pid in order}
        for game in sorted(event.games, key=_round_key):
            ra = current[game.a]
            rb = current[game.b]
            ea = _expected(ra, rb)
            for pid, opp, own, theirs, score, expected in (
                (game.a, game.b, ra, rb, game.score, ea),
                (game.b, game.a, rb, ra, 1.0 - game.score, 1.0 - ea),
            ):
                k[pid] = self.k_factor(played_so_far[pid])
                played_so_far[pid] += 1
                change = max(-cap, min(cap, k[pid] * (score - expected)))
                if before[pid].guest:
                    change = 0.0  # a guest's rating never moves, not even to the floor
                else:
                    current[pid] = max(floor, own + change)
                lines[pid].append(
                    GameLine(
                        opponent=opp,
                        score=score,
                        opponent_rating=theirs,
                        expected=_round(expected, 4),
                        change=_round(change, 2),
                        round=game.round,
                        detail={"k": k[pid]},
                    )
                )
        changes = []
        for pid, state in before.items():
            old = float(state.rating or 0.0)
            new = old if state.guest else _round_half_up(current[pid], decimals)
            played = len(lines[pid])
            players[pid] = _moved(state, new, state.games + played)
            changes.append(
                PlayerChange(
                    player=pid,
                    before=old,
                    after=new,
                    display_before=self.display(state),
                    display_after=self.display(players[pid]),
                    games=lines[pid],
                    detail={
                        "k": k[pid],
                        "played": played,
                        "score": sum(line.score for line in lines[pid]),
                        "expected": _round(sum(line.expected or 0.0 for line in lines[pid]), 4),
                        **({"guest": True} if state.guest else {}),
                    },
                )
            )
        return EventResult(id=event.id, period=None, changes=changes)


def _round_key(game: Game) -> int:
    return game.round or 0


def _expected(own: float, opponent: float) -> float:
    """Elo's expected score, 1 / (1 + 10^((opponent - own) / 400))."""
    try:
        expected: float = 1.0 / (1.0 + 10.0 ** ((opponent - own) / 400.0))
    except OverflowError:  # a difference of over 120,000 points
        expected = 0.0
    return expected


# Fast equivalents of the exact rounding functions. ``round(x, n)`` and ``round_half_up``
# go through decimal strings (about a microsecond each); away from a tie, rounding the
# scaled value to a whole number and scaling back gives the same float (the division of
# two exact integers is correctly rounded), so only values within a hair of a tie take
# the slow, exact road.


def _round(value: float, ndigits: int) -> float:
    """``round(value, ndigits)`` (half to even), fast away from ties."""
    if ndigits <= 4 and -1e7 < value < 1e7:
        scale = _SCALES[ndigits]
        y = value * scale
        n = round(y)
        if -0.499 < y - n < 0.499:
            return n / scale
    return round(value, ndigits)


def _round_half_up(value: float, ndigits: int) -> float:
    """``round_half_up(value, ndigits)``, fast away from ties."""
    if ndigits <= 4 and -1e7 < value < 1e7:
        scale = _SCALES[ndigits]
        y = value * scale
        n = round(y)
        if -0.499 < y - n < 0.499:
            return n / scale
    return round_half_up(value, ndigits)


def _whole(value: float) -> int:
    """``whole(value)`` (halves away from zero), fast away from ties."""
    if -1e15 < value < 1e15:
        n = round(value)
        if -0.499 < value - n < 0.499:
            return n
    return whole(value)


_SCALES = (1.0, 10.0, 100.0, 1000.0, 10000.0)

#: b's score from a's (1 - a's), as one float object each: a big history's two million
#: game lines then share three score objects instead of holding a million more.
_OTHER_SIDE = {1.0: 0.0, 0.5: 0.5, 0.0: 1.0}

#: ``(y + _WHOLE) - _WHOLE`` is ``float(round(y))`` (halves to even) for ``|y| < 2**51``,
#: without a call: at 1.5 * 2**52 a float's step is 1, so the addition rounds ``y`` to a
#: whole number in the machine's own (round-half-even) arithmetic, and the subtraction is
#: exact. A whole float divides exactly as the int would, so the results are the same.
_WHOLE = 1.5 * 2.0**52
#: A scaled value that takes the exact road (no scale for that many decimals).
_FAR = 1e13

#: ``with_changes(state, rating=..., games=...)``, fast.
_moved = state_copier("rating", "games")
