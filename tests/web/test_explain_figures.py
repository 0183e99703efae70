"""How the engines' breakdown figures read on a page (ratings/pages/explain.py, no database)."""

from __future__ import annotations

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
