"""nscl: NSCL league ratings, worked out per meet (NSCL's rules).

Rules, per game, on the ratings from before the meet (d = the rating difference): the
higher-rated player beating the lower gains 20.8 - 0.052 d; the lower-rated player
beating the higher gains 20.8 + 0.052 d; in a draw the lower-rated player gains 0.052 d;
the other player always loses what this one gains, and no game is worth more than 42.
After the meet a player has gained the sum of those points; every point above 20 is
bonus 1, and a player under 1000 also gets bonus 2: 1% of (1000 - rating) per game
played. The new rating is the old one plus all of that, rounded to a whole number.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import (
    Event,
    EventResult,
    GameLine,
    Marker,
    Parameter,
    PlayerChange,
    PlayerState,
    RatingSystem,
    whole,
    with_changes,
)

#: GameLine.detail["rule"]: which of the document's three formulas the game used.
HIGHER_WINS = "higher-wins"  # also a win between equal ratings (both formulas agree)
LOWER_WINS = "lower-wins"
DRAW = "draw"

#: Points are added up in millionths, as whole numbers: exact for the documented
#: figures (20.8, 0.052, 42, 20, 0.01), so a total of 28.6 never turns into 28.59999.
UNIT = 1_000_000
HALF = UNIT // 2


def units(points: float) -> int:
    """``points`` in millionths of a point."""
    return round(points * UNIT)


def whole_units(value: int) -> int:
    """A number of millionths rounded to a whole number of points, halves away from zero."""
    if value >= 0:
        return (value + HALF) // UNIT
    return -((HALF - value) // UNIT)


class Nscl(RatingSystem[PlayerState]):
    id = "nscl"
    title = "NSCL (per meet, with bonus points)"
    #: A game's change follows one of three formulas by who won, not an expected score.
    per_game_expected = False
    detail_labels = {
        **RatingSystem.detail_labels,
        "gained": "Points gained",
        "after_games": "Rating after the games",
        "bonus1": "First bonus",
        "bonus2": "Second bonus",
    }
    #: Which of the three formulas settled the game's change.
    line_labels = {"rule": "Rule"}
    rule_words = {
        HIGHER_WINS: "higher rated wins",
        LOWER_WINS: "lower rated wins",
        DRAW: "draw",
    }
    parameters = (
        Parameter(
            "start_rating",
            750,
            "rating a new player starts on (the document gives none; 750 is its worked "
            "example's rating)",
            minimum=0,
            maximum=3000,
        ),
        Parameter(
            "win_points",
            20.8,
            "a win between equally rated players (the document's '21', exactly 20.8)",
            minimum=0,
            maximum=100,
        ),
        Parameter(
            "difference_share",
            0.052,
            "share of the rating difference added to or taken from win_points, and the "
            "whole change in a draw (the document's '5%', exactly 5.2%)",
            minimum=0,
            maximum=1,
        ),
        Parameter(
            "max_per_game",
            42.0,
            "most a player can win or lose in one game",
            minimum=0,
            maximum=200,
        ),
        Parameter(
            "win_minimum",
            0.0,
            "a win is worth at least this; it binds when the higher-rated player wins "
            "with a difference over 400, where the formula goes negative (null: no "
            "minimum, the winner then loses points)",
            nullable=True,
            minimum=-100,
            maximum=100,
        ),
        Parameter(
            "bonus1_threshold",
            20.0,
            "bonus 1: every point gained in a meet above this is a bonus point",
            minimum=0,
            maximum=1000,
        ),
        Parameter(
            "bonus2_limit",
            1000,
            "bonus 2 is for players rated under this; it pays bonus2_rate of the gap "
            "to it per game played",
            minimum=0,
            maximum=3000,
        ),
        Parameter(
            "bonus2_rate",
            0.01,
            "bonus 2 per game played, as a share of (bonus2_limit - rating)",
            minimum=0,
            maximum=1,
        ),
        Parameter(
            "bonus2_basis",
            "after-games",
            "the rating bonus 2 is judged on: 'after-games', the pre-meet rating plus "
            "the points gained, rounded (as the worked example does); 'before-meet', the "
            "rating the player started the meet on",
            choices=("after-games", "before-meet"),
        ),
    )

    def prepare(self, player: PlayerState) -> PlayerState:
        """New players get the start rating; ratings are whole numbers."""
        player = super().prepare(player)
        if player.rating is None:
            rating = int(self.params["start_rating"])
        else:
            rating = whole(player.rating)
        if isinstance(player.rating, float) and player.rating == rating:
            return player
        return with_changes(player, rating=float(rating))

    def legend(self) -> tuple[Marker, ...]:
        return (Marker("1516", "rated", "the member's rating; every rated game counts at once"),)

    def display(self, player: PlayerState) -> str:
        rating = player.rating
        if rating is None:
            return ""
        shown = int(rating)
        return str(shown if shown == rating else whole(rating))

    def expected_score(self, player: PlayerState, opponent: PlayerState) -> float | None:
        """The score at which the game points leave a rating where it is, on average.

        With d = own rating - opponent's, a win is worth win_points - share d, a draw
        -share d and a loss -(win_points + share d): that is 2 win_points (S - E) with
        E = 1/2 + share d / (2 win_points), a straight line (1/2 + d / 800 with the
        documented figures), held to 0..1. The bonus points and the caps are left out.
        """
        win_points = float(self.params["win_points"])
        if win_points <= 0:
            return None
        d = _whole_rating(player) - _whole_rating(opponent)
        share = float(self.params["difference_share"])
        return min(1.0, max(0.0, 0.5 + share * d / (2 * win_points)))

    @property
    def rates_players_apart(self) -> bool:
        # Every game is rated on the two players' ratings from before the meet, and the
        # bonuses on the player's own points, games and rating: nothing another game
        # moves. A new player starts on start_rating, whatever the meet's games.
        return True

    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        return [self._rate_event(players, event) for event in events]

    def _rate_event(self, players: dict[str, PlayerState], event: Event) -> EventResult:
        p = self.params
        base = units(p["win_points"])
        share = units(p["difference_share"])  # millionths of a point per rating point
        cap = units(p["max_per_game"])
        win_min = None if p["win_minimum"] is None else units(p["win_minimum"])

        before: dict[str, int] = {}  # pre-meet ratings: every game is rated on them
        gained: dict[str, int] = {}  # millionths of a point
        lines: dict[str, list[GameLine]] = {}
        for game in event.games:
            a = game.a
            b = game.b
            score = game.score
            line_a = lines.get(a)
            if line_a is None:
                line_a = lines[a] = []
                ra = before[a] = _whole_rating(players[a])
                gained[a] = 0
            else:
                ra = before[a]
            line_b = lines.get(b)
            if line_b is None:
                line_b = lines[b] = []
                rb = before[b] = _whole_rating(players[b])
                gained[b] = 0
            else:
                rb = before[b]

            # points: what a gains (b loses the same).
            if score == 0.5:
                rule = DRAW
                points = share * (rb - ra)  # the lower-rated player gains share * d
            else:
                # Rules 1 and 2 are one formula: the winner gains
                # win_points - share * (winner's rating - loser's rating).
                margin = ra - rb if score == 1.0 else rb - ra
                points = base - share * margin
                if margin >= 0:  # the higher-rated (or an equally rated) player won
                    rule = HIGHER_WINS
                    if win_min is not None and points < win_min:
                        points = win_min
                else:
                    rule = LOWER_WINS
                if score == 0.0:
                    points = -points
            if points > cap:
                points = cap
            elif points < -cap:
                points = -cap
            gained[a] += points
            gained[b] -= points
            round_ = game.round
            change = points / UNIT
            line_a.append(GameLine(b, score, rb, None, change, True, round_, {"rule": rule}))
            line_b.append(
                GameLine(a, 1.0 - score, ra, None, -change, True, round_, {"rule": rule})
            )

        threshold = units(p["bonus1_threshold"])
        limit = int(p["bonus2_limit"])
        rate = units(p["bonus2_rate"])
        after_games_basis = p["bonus2_basis"] == "after-games"
        changes = []
        for pid, own_lines in lines.items():
            state = players[pid]
            old = before[pid]
            total = gained[pid]
            played = len(own_lines)
            after_games = whole_units(old * UNIT + total)
            bonus1 = total - threshold if total > threshold else 0
            basis = after_games if after_games_basis else old
            bonus2 = played * rate * (limit - basis) if basis < limit else 0
            new = whole_units(old * UNIT + total + bonus1 + bonus2)
            players[pid] = with_changes(state, rating=float(new), games=state.games + played)
            changes.append(
                PlayerChange(
                    pid,
                    float(old),
                    float(new),
                    str(old),
                    str(new),
                    own_lines,
                    {
                        "gained": total / UNIT,
                        "after_games": after_games,
                        "bonus1": bonus1 / UNIT,
                        "bonus2": bonus2 / UNIT,
                        "played": played,
                        "score": sum(line.score for line in own_lines),
                    },
                )
            )
        return EventResult(id=event.id, period=None, changes=changes)


def _whole_rating(state: PlayerState) -> int:
    """The (prepared, hence whole) rating as an int."""
    rating = state.rating
    assert rating is not None, "prepare() gives every player a rating"
    whole_rating = int(rating)
    return whole_rating if whole_rating == rating else whole(rating)
