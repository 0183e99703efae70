"""nz-club-elo: a club's Elo ratings (the NZ club's rules).

Rules: expected score 1 / (1 + 10^((Rb - Ra) / 400)); K 32, or 16 once a player
has played more than 30 rated games; new players start at 1500; guests are fixed
at 1500; no rating below 1000; at most 32 points a game; ratings are worked out
after each rated event from the ratings before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from itertools import chain
from operator import attrgetter

from .base import (
    Event,
    EventResult,
    Game,
    GameLine,
    Marker,
    Parameter,
    PlayerChange,
    PlayerState,
    RatingSystem,
    StatusChange,
    games_words,
    round_half_up,
    with_changes,
)

_PAIR = attrgetter("a", "b")


class NzClubElo(RatingSystem[PlayerState]):
    id = "nz-club-elo"
    title = "Club Elo (NZ club rules)"
    has_floor = True
    #: Each game line has the Elo expected score its change is worked from.
    per_game_expected = True
    #: K, the development coefficient: the player's own, and a game's where it differs.
    detail_labels = {"k": "K", **RatingSystem.detail_labels}
    line_labels = {"k": "K"}
    parameters = (
        Parameter(
            "start_rating", 1500.0, "rating given to every new player", minimum=0, maximum=3000
        ),
        Parameter("guest_rating", 1500.0, "fixed rating used for guests", minimum=0, maximum=3000),
        Parameter(
            "k_new",
            32.0,
            "K-factor until a player has passed k_games games",
            minimum=0,
            maximum=100,
        ),
        Parameter(
            "k_established",
            16.0,
            "K-factor once a player has passed k_games",
            minimum=0,
            maximum=100,
        ),
        Parameter(
            "k_games",
            30,
            "K drops once a player has played MORE than this many rated games",
            minimum=0,
            maximum=1000,
        ),
        Parameter("floor", 1000.0, "no rating drops below this", minimum=0, maximum=3000),
        Parameter(
            "max_per_game", 32.0, "most a rating can move in one game", minimum=0, maximum=100
        ),
        Parameter(
            "update",
            "event",
            "'event': every game of an event on the ratings before it (the text's "
            "'after each rated event'); 'game': ratings move after every game",
            choices=("event", "game"),
        ),
        Parameter(
            "decimals", 2, "ratings are kept to this many decimal places", minimum=0, maximum=6
        ),
    )

    def prepare(self, player: PlayerState) -> PlayerState:
        """Guests at the guest rating; anyone else never under the floor (start rating too)."""
        player = super().prepare(player)
        if player.guest:
            return with_changes(player, rating=float(self.params["guest_rating"]))
        floor = float(self.params["floor"])
        if player.rating is None:
            return with_changes(player, rating=max(floor, float(self.params["start_rating"])))
        if player.rating < floor:
            return with_changes(player, rating=floor)
        return player

    def legend(self) -> tuple[Marker, ...]:
        return (Marker("1516", "rated", "the member's rating; every rated game counts at once"),)

    def status_changes(self, player: PlayerState, *, today: date) -> tuple[StatusChange, ...]:
        """The one change the text makes as a player goes on: K 32 until they have played
        more than ``k_games`` rated games, judged at the start of each event, then K 16 (the
        list shows no mark for it). A guest's rating never moves: no change."""
        if player.guest:
            return ()
        p = self.params
        more = int(p["k_games"]) + 1 - player.games
        if more <= 0 or p["k_established"] == p["k_new"]:
            return ()
        words = (
            f"established after {games_words(more)}: from the next event on, each game moves "
            f"the rating by up to {p['k_established']:g} points, not {p['k_new']:g}"
        )
        return (StatusChange("established", words, None, more),)

    def display(self, player: PlayerState) -> str:
        if player.rating is None:
            return ""
        return str(int(_round_half_up(player.rating, 0)))

    def expected_score(self, player: PlayerState, opponent: PlayerState) -> float | None:
        """The rules' own expectation, on the ratings the event is rated on."""
        return _expected(self._rating_used(player), self._rating_used(opponent))

    def _rating_used(self, player: PlayerState) -> float:
        if player.guest:
            return float(self.params["guest_rating"])
        return float(player.rating or 0.0)

    def k_factor(self, games_played: int) -> float:
        p = self.params
        return float(p["k_established"] if games_played > p["k_games"] else p["k_new"])

    @property
    def rates_players_apart(self) -> bool:
        # Rated on the ratings before the event, K from the games before it: each game's
        # change reads only its two players' states from before the event.
        return bool(self.params["update"] == "event")

    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        return [self._rate_event(players, event) for event in events]

    def _rate_event(self, players: dict[str, PlayerState], event: Event) -> EventResult:
        """Rate one event's games.

        ``update: event`` (the default): every game on the ratings from before the event,
        K judged once from the games before it. ``update: game``: games in round order,
        each moving the ratings at once, K judged before each game.
        """
        p = self.params
        cap = float(p["max_per_game"])
        floor = float(p["floor"])
        decimals = int(p["decimals"])
        by_game = p["update"] == "game"
        order = dict.fromkeys(chain.from_iterable(map(_PAIR, event.games)))
        before = {pid: players[pid] for pid in order}
        current = {pid: float(state.rating or 0.0) for pid, state in before.items()}
        played = {pid: state.games for pid, state in before.items()}  # so far
        k = {pid: self.k_factor(state.games) for pid, state in before.items()}
        moved = dict.fromkeys(order, 0.0)  # the event's changes, game by game
        lines: dict[str, list[GameLine]] = {pid: [] for pid in order}
        games = sorted(event.games, key=_round_key) if by_game else event.games
        for game in games:
            a, b = game.a, game.b
            rating_a, rating_b = current[a], current[b]
            expected_a = _expected(rating_a, rating_b)
            for pid, opponent, own, theirs, score, expected in (
                (a, b, rating_a, rating_b, game.score, expected_a),
                (b, a, rating_b, rating_a, 1.0 - game.score, 1.0 - expected_a),
            ):
                if by_game:
                    k[pid] = self.k_factor(played[pid])
                played[pid] += 1
                change = max(-cap, min(cap, k[pid] * (score - expected)))
                if before[pid].guest:
                    change = 0.0  # a guest's rating never moves, not even to the floor
                elif by_game:
                    current[pid] = max(floor, own + change)
                else:
                    moved[pid] += change
                line = GameLine(
                    opponent,
                    score,
                    theirs,
                    round(expected, 4),
                    round(change, 2),
                    True,
                    game.round,
                    {"k": k[pid]},
                )
                lines[pid].append(line)
        changes = []
        for pid, state in before.items():
            old = float(state.rating or 0.0)
            if state.guest:
                new = old
            else:
                new = current[pid] if by_game else max(floor, old + moved[pid])
                new = _round_half_up(new, decimals)
            players[pid] = with_changes(state, rating=new, games=played[pid])
            detail = {
                "k": k[pid],
                "played": len(lines[pid]),
                "score": sum(line.score for line in lines[pid]),
                "expected": round(sum(line.expected or 0.0 for line in lines[pid]), 4),
            }
            if state.guest:
                detail["guest"] = True
            changes.append(
                PlayerChange(
                    pid,
                    old,
                    new,
                    self.display(state),
                    self.display(players[pid]),
                    lines[pid],
                    detail,
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


def _round_half_up(value: float, ndigits: int) -> float:
    """``round_half_up(value, ndigits)``, fast away from ties.

    ``round_half_up`` goes through Decimal (a few microseconds); away from a tie, rounding
    the scaled value to a whole number and scaling back gives the same float (the division
    of two exact integers is correctly rounded), so only values within a hair of a tie
    take the exact road.
    """
    if ndigits < len(_SCALES) and -1e7 < value < 1e7:
        scale = _SCALES[ndigits]
        y = value * scale
        n = round(y)
        if -0.499 < y - n < 0.499:
            return n / scale
    return round_half_up(value, ndigits)


_SCALES = (1.0, 10.0, 100.0, 1000.0, 10000.0)
