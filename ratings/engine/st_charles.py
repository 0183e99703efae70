"""st-charles: St. Charles Chess Club's CXR-style ratings, moved after every game.

Rules: 21 points are at risk in a decisive game. Players within 12 points of each other
win or lose exactly 21 and draw for no change; otherwise the opponent's rating minus your
own, divided by 25 and rounded to the nearest whole number (the shift), is added to +21
for a win, to -21 for a loss, and is the whole change for a draw. A winner gains at least
2, a loser loses at least 2, nobody gains or loses more than 41 in a game, and no rating
goes under 300. New players start at a tentative 400; a rating is official (shown without
the '*' marker) from 5 games. Ratings are whole numbers.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date

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
    whole,
    with_changes,
)

#: GameLine.detail["rule"]: which rule settled the game's change for this player.
WITHIN = "within-12"  # the players were within ``band`` points: +-at_risk, draws 0
FORMULA = "formula"  # at_risk +- the shift, no override needed
MIN_GAIN = "min-2"  # the winner's gain / loser's loss was raised to ``min_gain``
MAX_CHANGE = "max-41"  # the change was cut to ``max_change``
FLOOR = "floor"  # the rating stopped at ``floor``


def _round_key(game: Game) -> int:
    return game.round or 0


def _in_round_order(games: Sequence[Game]) -> Sequence[Game]:
    """Games by round, ties (and games without a round, taken as round 0) in list order."""
    last = 0
    for game in games:
        r = game.round or 0
        if r < last:
            return sorted(games, key=_round_key)  # stable
        last = r
    return games


class StCharles(RatingSystem[PlayerState]):
    id = "st-charles"
    title = "St. Charles (CXR-style, per game)"
    has_floor = True
    #: A game moves a rating by a band or a shift, never from an expected score.
    per_game_expected = False
    detail_labels = {**RatingSystem.detail_labels, "official": "Official"}
    #: Shift: (opponent - own) / 25; Rule: which rule settled the game's change.
    line_labels = {"shift": "Shift", "rule": "Rule"}
    rule_words = {
        WITHIN: "within the band",  # +-21 for a win, nothing for a draw
        FORMULA: "formula",
        MIN_GAIN: "minimum",  # the winner's gain or the loser's loss raised to the minimum
        MAX_CHANGE: "maximum",  # cut to the most a game may move
        FLOOR: "floor",
    }
    signed_line_figures = frozenset({"shift"})
    parameters = (
        Parameter(
            "start_rating",
            400,
            "tentative rating every new player starts on",
            minimum=0,
            maximum=3000,
        ),
        Parameter(
            "at_risk",
            21,
            "points won or lost in a decisive game before the shift",
            minimum=0,
            maximum=100,
        ),
        Parameter(
            "band",
            12,
            "players at most this many points apart win or lose exactly at_risk, and a "
            "draw between them changes nothing",
            minimum=0,
            maximum=400,
        ),
        Parameter(
            "divisor",
            25,
            "the shift is (opponent's rating - own rating) divided by this",
            minimum=1,
            maximum=1000,
        ),
        Parameter(
            "shift_rounding",
            "nearest",
            "'nearest': the shift is rounded to the nearest whole number, halves away "
            "from zero (the 12-point band is then exactly where it rounds to 0); "
            "'truncate': the fraction is dropped",
            choices=("nearest", "truncate"),
        ),
        Parameter(
            "min_gain",
            2,
            "a winner gains at least this and a loser loses at least this (not draws)",
            minimum=0,
            maximum=100,
        ),
        Parameter(
            "max_change",
            41,
            "nobody gains or loses more than this in one game (draws included)",
            minimum=0,
            maximum=200,
        ),
        Parameter("floor", 300, "no rating goes under this", minimum=0, maximum=3000),
        Parameter(
            "official_games",
            5,
            "a rating is official from this many games; until then the list shows it "
            "with the provisional_mark",
            minimum=0,
            maximum=1000,
        ),
        Parameter(
            "provisional_mark",
            "*",
            "appended to a rating on the list while it is not yet official",
            longest=3,
        ),
    )

    def prepare(self, player: PlayerState) -> PlayerState:
        """New players get the start rating; ratings are whole and never under the floor."""
        player = super().prepare(player)
        floor = int(self.params["floor"])
        if player.rating is None:
            rating = max(floor, int(self.params["start_rating"]))
        else:
            rating = max(floor, whole(player.rating))
        if isinstance(player.rating, float) and player.rating == rating:
            return player
        return with_changes(player, rating=float(rating))

    def legend(self) -> tuple[Marker, ...]:
        mark = str(self.params.get("provisional_mark", "*"))
        games = int(self.params.get("official_games", 5))
        return (
            Marker("412", "official", "an official rating"),
            Marker(
                f"412{mark}",
                "not yet official",
                f"not yet official: fewer than {games} rated game{'' if games == 1 else 's'}",
            ),
        )

    def status_changes(self, player: PlayerState, *, today: date) -> tuple[StatusChange, ...]:
        """Official from ``official_games`` rated games (the document's "not considered
        official until at least 5 club games"); after that, no further status: its "not
        very accurate until at least 10" is advice, not a rule the list shows."""
        official = int(self.params["official_games"])
        if player.games >= official:
            return ()
        more = official - player.games
        return (StatusChange("official", f"official after {games_words(more)}", None, more),)

    def display(self, player: PlayerState) -> str:
        rating = player.rating
        if rating is None:
            return ""
        shown = int(rating)
        if shown != rating:
            shown = whole(rating)
        if player.games < int(self.params["official_games"]):
            return f"{shown}{self.params['provisional_mark']}"
        return str(shown)

    def expected_score(self, player: PlayerState, opponent: PlayerState) -> float | None:
        """The score at which the rules leave a rating where it is, on average.

        A win moves the rating by at_risk + shift, a draw by shift and a loss by
        -at_risk + shift: that is 2 at_risk (S - E) with E = 1/2 - shift / (2 at_risk), a
        straight line in the rating difference (1/2 + d / 1050 with the documented
        figures), held to 0..1. The overrides (min-2, max-41, floor) are left out.
        """
        at_risk = int(self.params["at_risk"])
        if at_risk <= 0:
            return None
        diff = _whole_rating(opponent) - _whole_rating(player)
        shift = 0
        if abs(diff) > int(self.params["band"]):
            shift = _shift(
                diff, int(self.params["divisor"]), self.params["shift_rounding"] == "nearest"
            )
        return min(1.0, max(0.0, 0.5 - shift / (2 * at_risk)))

    def games_to_rate(self, event: Event, players: Collection[str]) -> tuple[Game, ...]:
        """A game is played on both players' ratings after their earlier games in the
        event, so a player's lines need every game before each of theirs that moved
        either player's rating, and so on back: the event's games from the last, keeping a
        game that one of ``players``, or a player of a game kept already, plays. In the
        order the event is rated in, so each game kept is played on the same ratings."""
        needed = set(players)
        kept = []
        for game in reversed(_in_round_order(event.games)):
            if game.a in needed or game.b in needed:
                kept.append(game)
                needed.add(game.a)
                needed.add(game.b)
        return tuple(reversed(kept))

    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        return [self._rate_event(players, event) for event in events]

    def _rate_event(self, players: dict[str, PlayerState], event: Event) -> EventResult:
        p = self.params
        at_risk = int(p["at_risk"])
        band = int(p["band"])
        divisor = int(p["divisor"])
        nearest = p["shift_rounding"] == "nearest"
        min_gain = int(p["min_gain"])
        cap = int(p["max_change"])
        floor = int(p["floor"])

        start: dict[str, int] = {}  # ratings before the event
        current: dict[str, int] = {}  # ratings now, after the games taken so far
        lines: dict[str, list[GameLine]] = {}
        for game in _in_round_order(event.games):
            a = game.a
            b = game.b
            score = game.score
            line_a = lines.get(a)
            if line_a is None:
                line_a = lines[a] = []
                ra = current[a] = start[a] = _whole_rating(players[a])
            else:
                ra = current[a]
            line_b = lines.get(b)
            if line_b is None:
                line_b = lines[b] = []
                rb = current[b] = start[b] = _whole_rating(players[b])
            else:
                rb = current[b]

            # a's change; b's is its negative (until the floor bites).
            diff = rb - ra
            if -band <= diff <= band:
                shift = 0
                rule = WITHIN
                change = at_risk if score == 1.0 else -at_risk if score == 0.0 else 0
            else:
                shift = _shift(diff, divisor, nearest)
                rule = FORMULA
                change = (
                    shift + at_risk if score == 1.0 else shift - at_risk if score == 0.0 else shift
                )
            # The overrides: min-2 binds wins and losses only, max-41 draws as well.
            if score == 1.0:
                if change < min_gain:
                    change = min_gain
                    rule = MIN_GAIN
            elif score == 0.0 and change > -min_gain:
                change = -min_gain
                rule = MIN_GAIN
            if change > cap:
                change = cap
                rule = MAX_CHANGE
            elif change < -cap:
                change = -cap
                rule = MAX_CHANGE

            new_a = ra + change
            change_a = change
            rule_a = rule
            if new_a < floor:
                new_a = floor
                change_a = floor - ra
                rule_a = FLOOR
            new_b = rb - change
            change_b = -change
            rule_b = rule
            if new_b < floor:
                new_b = floor
                change_b = floor - rb
                rule_b = FLOOR
            current[a] = new_a
            current[b] = new_b
            round_ = game.round
            detail_a = {"shift": shift, "rule": rule_a}
            detail_b = {"shift": -shift, "rule": rule_b}
            line_a.append(GameLine(b, score, rb, None, change_a, True, round_, detail_a))
            line_b.append(GameLine(a, 1.0 - score, ra, None, change_b, True, round_, detail_b))

        official = int(p["official_games"])
        mark = str(p["provisional_mark"])
        changes = []
        for pid, own_lines in lines.items():
            state = players[pid]
            old = start[pid]
            new = current[pid]
            played = len(own_lines)
            games = state.games + played
            players[pid] = with_changes(state, rating=float(new), games=games)
            changes.append(
                PlayerChange(
                    pid,
                    float(old),
                    float(new),
                    f"{old}{mark}" if state.games < official else str(old),
                    f"{new}{mark}" if games < official else str(new),
                    own_lines,
                    {
                        "played": played,
                        "score": sum(line.score for line in own_lines),
                        "official": games >= official,
                    },
                )
            )
        return EventResult(id=event.id, period=None, changes=changes)


def _shift(diff: int, divisor: int, nearest: bool) -> int:
    """(opponent's rating - own rating) / divisor as a whole number, in integers: to the
    nearest (halves away from zero) or truncated."""
    twice = 2 * divisor
    if diff >= 0:
        return (2 * diff + divisor) // twice if nearest else diff // divisor
    return -((divisor - 2 * diff) // twice if nearest else -diff // divisor)


def _whole_rating(state: PlayerState) -> int:
    """The (prepared, hence whole) rating as an int."""
    rating = state.rating
    assert rating is not None, "prepare() gives every player a rating"
    whole_rating = int(rating)
    return whole_rating if whole_rating == rating else whole(rating)
