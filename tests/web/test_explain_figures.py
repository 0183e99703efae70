"""How the engines' breakdown figures read on a page (ratings/pages/explain.py, no database)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ratings.engine import Event, EventResult, Game, GameLine, PlayerChange, PlayerState
from ratings.engine.base import RatingSystem
from ratings.pages import explain


def test_a_line_figure_every_line_shares_with_the_breakdown_gets_no_column():
    lines = [{"opponent": "b", "k": 16.0}, {"opponent": "c", "k": 16.0}]
    assert explain.line_columns(lines, {"k": 16.0}) == []


def test_a_line_figure_that_changes_from_game_to_game_gets_a_column():
    lines = [{"opponent": "b", "k": 32.0}, {"opponent": "c", "k": 16.0}]
    assert explain.line_columns(lines, {"k": 16.0}) == ["k"]


def test_a_line_figure_no_line_has_gets_no_column():
    lines = [{"opponent": "b", "d": None, "increment": None}]
    assert explain.line_columns(lines, {}) == []


def test_the_columns_every_report_shows_are_not_repeated():
    line = {"opponent": "b", "score": 1, "opponent_rating": 1500, "expected": 0.5, "change": 8}
    assert explain.line_columns([{**line, "round": 1, "increment": 8}], {}) == []


def test_rules_read_as_words_and_offsets_carry_their_sign():
    assert explain.line_text("rule", "min-2") == "minimum"
    assert explain.line_text("rule", "lower-wins") == "lower rated wins"
    assert explain.line_text("score_offset", 10) == "+10"
    assert explain.line_text("d_offset", -8.4) == "-8.4"
    assert explain.line_text("d_offset", 0) == "0"


def test_a_held_rating_reads_whole_halves_up_as_the_rating_beside_it():
    assert explain.line_text("held_from", 1760.5) == "1761"
    assert explain.line_text("held_from", 1760.3) == "1760"


def test_the_breakdown_leaves_out_the_game_lines():
    detail = {"k": 16.0, "expected": 0.64, "games": [{"opponent": "b"}], "guest": True}
    assert explain.breakdown_items(detail) == [
        ("K", "16"),
        ("Expected score", "0.64"),
        ("Guest", "yes"),
    ]


def test_figures_keep_their_reading_order_whatever_order_the_database_kept_them_in():
    # PostgreSQL's jsonb gives a stored breakdown's keys sorted by length.
    stored = {"k": 16.0, "score": 4.0, "played": 7, "expected": 3.5}
    assert [label for label, _ in explain.breakdown_items(stored)] == [
        "K",
        "Games",
        "Score",
        "Expected score",
    ]
    lines = [{"rule": "formula", "shift": 4, "opponent": "b"}]
    assert explain.line_columns(lines, {}) == ["shift", "rule"]


# -- a system's own words, declared in its module alone -------------------------------------


class Spread(RatingSystem[PlayerState]):
    """A made-up system: each game moves a rating by a tenth of the gap to the opponent,
    and the breakdown gives the spread of the opponents' ratings."""

    id = "spread-test"
    title = "Spread (a test's own system)"
    detail_labels = {"spread": "Spread of opponents", **RatingSystem.detail_labels}
    line_labels = {"gap": "Gap to the opponent", "rule": "Rule"}
    rule_words = {"up": "gained on a stronger player", "down": "lost to a weaker one"}
    signed_line_figures = frozenset({"gap"})

    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        results = []
        for event in events:
            changes = []
            for game in event.games:
                sides = ((game.a, game.b, game.score), (game.b, game.a, 1 - game.score))
                for me, them, score in sides:
                    mine, theirs = players[me].rating or 1500.0, players[them].rating or 1500.0
                    gap = theirs - mine
                    rule = "plain"
                    if score == 1.0 and gap > 0:
                        rule = "up"
                    elif score == 0.0 and gap < 0:
                        rule = "down"
                    line = GameLine(them, score, theirs, detail={"gap": gap, "rule": rule})
                    after = mine + gap / 10 * (score - 0.5) * 2
                    changes.append(
                        PlayerChange(
                            me,
                            mine,
                            after,
                            f"{mine:g}",
                            f"{after:g}",
                            [line],
                            {"played": 1, "score": score, "spread": 0.0},
                        )
                    )
            results.append(EventResult(event.id, period, changes))
        return results

    def display(self, player: PlayerState) -> str:
        return f"{player.rating or 1500:g}"


def _spread_change() -> PlayerChange:
    game = Game("ann", "bob", 1.0, 1)
    result = Spread().rate(
        [PlayerState("ann", 1500.0, 10), PlayerState("bob", 1620.0, 10)],
        [Event("e1", date(2026, 3, 4), (game,))],
    )
    return next(c for c in result.events[0].changes if c.player == "ann")


def test_a_new_systems_own_figure_reads_under_the_label_its_module_gives() -> None:
    change = _spread_change()
    assert explain.breakdown_items(change.detail, Spread()) == [
        ("Spread of opponents", "0"),
        ("Games", "1"),
        ("Score", "1"),
    ]


def test_a_new_systems_game_line_figures_read_in_its_own_words() -> None:
    change = _spread_change()
    lines = [line.detail for line in change.games]
    system = Spread()
    columns = explain.line_columns(lines, change.detail, system)
    assert [explain.line_label(key, system) for key in columns] == ["Gap to the opponent", "Rule"]
    assert [explain.line_text(key, lines[0][key], system) for key in columns] == [
        "+120",
        "gained on a stronger player",
    ]


def test_a_system_reads_its_own_words_not_another_systems() -> None:
    # ecf-2020 names "avg_opp" "Average opponent"; a system that does not reads its key.
    assert explain.breakdown_items({"avg_opp": 1650, "spread": 2.0}, Spread()) == [
        ("Spread of opponents", "2"),
        ("Avg opp", "1650"),
    ]
    assert explain.line_text("rule", "min-2", Spread()) == "min-2"
