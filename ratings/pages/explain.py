"""The engine's breakdowns (a change's detail and its game lines' own figures) for readers.

The rating report, the officer's previews and the calculator show the same figures under
the same names, so a player can check a calculation by hand whichever page they are on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

#: The systems' breakdown keys (PlayerChange.detail) as a reader names them, in the order
#: a page lists them. The order is ours, not the engine's: PostgreSQL keeps a stored
#: breakdown (jsonb) with its keys sorted by length, so pages order them here.
DETAIL_LABELS = {
    # where the player stands: acf-1993's status, ecf-2020's category and calculation
    "status_before": "Status before",
    "status_after": "Status after",
    "reset": "Rating reset",
    "category_before": "Category before",
    "category_after": "Category after",
    "calculation": "Calculation",
    "pass": "Calculation",
    "k": "K",
    "player_k": "K",
    "improving": "Improving",
    # games and score
    "played": "Games",
    "score": "Score",
    "month_games": "Games this month",
    "month_points": "Points this month",
    "NG": "Games (NG)",
    "Sa": "Score (Sa)",
    "total_games": "Games in all",
    "total_points": "Points in all",
    "TS": "Total score (TS)",
    "expected": "Expected score",
    "official": "Official",
    "guest": "Guest",
    # nscl
    "gained": "Points gained",
    "after_games": "Rating after the games",
    "bonus1": "First bonus",
    "bonus2": "Second bonus",
    # acf-1993 and ecf-2020's working
    "dummy_rating": "Provisional rating",
    "AR": "Average opponent (AR)",
    "avg_opp": "Average opponent",
    "D": "Rating difference (D)",
    "D_table": "Difference in the table",
    "P": "Expected a game (P)",
    "Se": "Expected score (Se)",
    "BP": "Bonus points (BP)",
    "Ri": "Change (Ri)",
    "percentage": "Percentage",
    "p": "Score fraction (p)",
    "Dp": "Dp",
    "dp": "dp",
    "Rp": "Performance rating (Rp)",
    "rating_a": "Rating (first pass)",
    "rating_b": "Rating (second pass)",
    "pass1_games_used": "First pass: games used",
    "pass1_total_games": "First pass: games",
    "pass1_avg_opp": "First pass: average opponent",
    "pass1_p": "First pass: score fraction",
    "pass1_dp": "First pass: dp",
    "sum_offsets": "Sum of offsets",
    "adjustment": "Adjustment",
}
_DETAIL_ORDER = {key: n for n, key in enumerate(DETAIL_LABELS)}

#: A game line's own figures, beyond the columns every system shows (opponent, their
#: rating, score, expected score, change), as a column heading.
LINE_LABELS = {
    "k": "K",  # nz-club-elo
    "shift": "Shift",  # st-charles: (opponent - own) / 25
    "d": "D",  # ecf-2020: the rating difference as the offset table reads it
    "d_offset": "D offset",
    "score_offset": "Score offset",
    "rule": "Rule",  # st-charles, nscl: which rule settled the game's change
    "held_from": "Held from",  # acf-1993: the opponent's rating before the 336 rule
}
_LINE_ORDER = {key: n for n, key in enumerate(LINE_LABELS)}

#: The line columns every report already shows; the rest are a system's own.
_SHOWN_LINE_KEYS = frozenset(
    ("opponent", "score", "opponent_rating", "expected", "change", "increment", "rated", "round")
)

#: The engines' rule names (GameLine.detail["rule"]) in a reader's words.
RULE_WORDS = {
    "within-12": "within the band",  # st-charles: +-21 for a win, nothing for a draw
    "formula": "formula",
    "min-2": "minimum",  # the winner's gain or the loser's loss raised to the minimum
    "max-41": "maximum",  # cut to the most a game may move
    "floor": "floor",
    "higher-wins": "higher rated wins",  # nscl's three formulas
    "lower-wins": "lower rated wins",
    "draw": "draw",
}


def detail_label(key: str) -> str:
    return DETAIL_LABELS.get(key) or key.replace("_", " ").capitalize()


def detail_text(value: object) -> str:
    """A breakdown value for a reader: yes/no, a whole number, or at most two decimals."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


def breakdown_keys(detail: Mapping[str, Any]) -> list[str]:
    """The keys of a change's detail ``breakdown_items`` shows, in its order."""
    keys = sorted(detail, key=lambda key: _DETAIL_ORDER.get(key, len(_DETAIL_ORDER)))
    return [
        key for key in keys if isinstance(detail[key], int | float | str | None) and key != "games"
    ]


def breakdown_items(detail: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A change's detail as (label, text) pairs, in the order of ``DETAIL_LABELS``; lists
    and dicts (the game lines) are not figures."""
    return [(detail_label(key), detail_text(detail[key])) for key in breakdown_keys(detail)]


def line_columns(lines: Sequence[Mapping[str, Any]], detail: Mapping[str, Any]) -> list[str]:
    """The keys of a system's own game-line figures worth a column of their own.

    A key is left out where every line gives it the value the change's detail already
    shows (nz-club-elo's K, judged once an event), or where no line gives it a value.
    """
    keys: dict[str, None] = {}
    for line in lines:
        keys.update((key, None) for key in line if key not in _SHOWN_LINE_KEYS)
    columns = []
    for key in sorted(keys, key=lambda key: _LINE_ORDER.get(key, len(_LINE_ORDER))):
        values = [line.get(key) for line in lines]
        if all(value is None for value in values):
            continue
        if key in detail and all(value == detail[key] for value in values):
            continue
        columns.append(key)
    return columns


def line_label(key: str) -> str:
    return LINE_LABELS.get(key) or key.replace("_", " ").capitalize()


def line_text(key: str, value: object) -> str:
    """A game line's own figure: a rule in words, a signed offset, a plain number."""
    if key == "rule" and isinstance(value, str):
        return RULE_WORDS.get(value, value)
    if key == "held_from" and isinstance(value, int | float):
        # a rating, shown whole as the "their rating" column beside it shows the one used
        return str(Decimal(repr(value)).quantize(Decimal(1), ROUND_HALF_UP))
    if key in ("shift", "d_offset", "score_offset") and isinstance(value, int | float):
        text = detail_text(value)
        return "+" + text if value > 0 else text
    return detail_text(value)
