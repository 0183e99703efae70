"""acf-1993: the two tables and the bonus rows of the ACF ratings booklet (December 1993).

The tables are transcribed here row by row as the booklet prints them, in hundredths so no
float noise creeps into a lookup; the lookup lists the engine indexes by a whole number
are built from them below. tests/engine/test_acf_1993.py spot-checks the transcription.
Last, the booklet's arithmetic on them: halves rounded up, a score as a percentage, the
bonus rows as the system's parameter writes them.
"""

from __future__ import annotations

import math

#: Table 1, percentage score -> rating difference Dp, as printed: (P in hundredths, Dp).
#: 1.00 and .00 are printed as "-": no performance rating from an all-or-nothing score.
TABLE_1: tuple[tuple[int, int | None], ...] = (
    (100, None),
    (99, 677), (98, 589), (97, 538), (96, 501), (95, 470), (94, 444), (93, 422),
    (92, 401), (91, 383), (90, 366), (89, 351), (88, 336), (87, 322), (86, 309),
    (85, 296), (84, 284), (83, 273), (82, 262), (81, 251), (80, 240), (79, 230),
    (78, 220), (77, 211), (76, 202), (75, 193), (74, 184), (73, 175), (72, 166),
    (71, 158), (70, 149), (69, 141), (68, 133), (67, 125), (66, 117), (65, 110),
    (64, 102), (63, 95), (62, 87), (61, 80), (60, 72), (59, 65), (58, 57),
    (57, 50), (56, 43), (55, 36), (54, 29), (53, 21), (52, 14), (51, 7),
    (50, 0),
    (49, -7), (48, -14), (47, -21), (46, -29), (45, -36), (44, -43), (43, -50),
    (42, -57), (41, -65), (40, -72), (39, -80), (38, -87), (37, -95), (36, -102),
    (35, -110), (34, -117), (33, -125), (32, -133), (31, -141), (30, -149), (29, -158),
    (28, -166), (27, -175), (26, -184), (25, -193), (24, -202), (23, -211), (22, -220),
    (21, -230), (20, -240), (19, -251), (18, -262), (17, -273), (16, -284), (15, -296),
    (14, -309), (13, -322), (12, -336), (11, -351), (10, -366), (9, -383), (8, -401),
    (7, -422), (6, -444), (5, -470), (4, -501), (3, -538), (2, -589), (1, -677),
    (0, None),
)  # fmt: skip

#: Table 2, rating difference -> expected score, as printed: (from, to, H, L) in hundredths.
#: H is the higher-rated player's expected score, L the lower-rated player's.
#: ``to`` None is the open last row ("736+"). The printed rows 268-278 and 278-290
#: overlap at 278; ``_difference_lookup`` gives 278 to the first (see the docs).
TABLE_2: tuple[tuple[int, int | None, int, int], ...] = (
    (0, 3, 50, 50), (4, 10, 51, 49), (11, 17, 52, 48), (18, 25, 53, 47),
    (26, 32, 54, 46), (33, 39, 55, 45), (40, 46, 56, 44), (47, 53, 57, 43),
    (54, 61, 58, 42), (62, 68, 59, 41), (69, 76, 60, 40), (77, 83, 61, 39),
    (84, 91, 62, 38), (92, 98, 63, 37), (99, 106, 64, 36), (107, 113, 65, 35),
    (114, 121, 66, 34), (122, 129, 67, 33), (130, 137, 68, 32), (138, 145, 69, 31),
    (146, 153, 70, 30), (154, 162, 71, 29), (163, 170, 72, 28), (171, 179, 73, 27),
    (180, 188, 74, 26), (189, 197, 75, 25), (198, 206, 76, 24), (207, 215, 77, 23),
    (216, 225, 78, 22), (226, 235, 79, 21), (236, 245, 80, 20), (246, 256, 81, 19),
    (257, 267, 82, 18), (268, 278, 83, 17), (278, 290, 84, 16), (291, 302, 85, 15),
    (303, 315, 86, 14), (316, 328, 87, 13), (329, 344, 88, 12), (345, 357, 89, 11),
    (358, 374, 90, 10), (375, 391, 91, 9), (392, 411, 92, 8), (412, 432, 93, 7),
    (433, 456, 94, 6), (457, 484, 95, 5), (485, 517, 96, 4), (518, 559, 97, 3),
    (560, 619, 98, 2), (620, 735, 99, 1), (736, None, 100, 0),
)  # fmt: skip

#: Bonus points, as printed: (from games, to games, margin). A player who played
#: ``from``-``to`` rated games in a tournament with Sa - Se above ``margin`` gains
#: K * (Sa - Se - margin). The booklet's last row reads "15"; it is the 16-or-more row.
BONUS_ROWS: tuple[tuple[int, int | None, int], ...] = (
    (6, 10, 1),
    (11, 15, 2),
    (16, None, 3),
)


def _percentage_lookup() -> list[int | None]:
    lookup: list[int | None] = [None] * 101
    for percent, dp in TABLE_1:
        lookup[percent] = dp
    return lookup


def _difference_lookup(column: int) -> list[int]:
    """H (column 2) or L (column 3) in hundredths for every whole difference 0..736.

    Index 736 stands for 736 and over.
    """
    lookup: list[int | None] = [None] * 737
    for row in TABLE_2:
        start, end = row[0], row[1]
        for difference in range(start, 737 if end is None else end + 1):
            if lookup[difference] is None:  # the earlier row keeps an overlapping figure
                lookup[difference] = row[column]
    missing = [d for d, value in enumerate(lookup) if value is None]
    assert not missing, f"Table 2 leaves out {missing}"
    return [value for value in lookup if value is not None]


#: Dp by whole percentage 0..100 (None at 0 and 100).
DP_BY_PERCENT: list[int | None] = _percentage_lookup()
#: H and L (hundredths) by whole rating difference 0..736; index 736 for anything above.
HIGH_BY_DIFFERENCE: list[int] = _difference_lookup(2)
LOW_BY_DIFFERENCE: list[int] = _difference_lookup(3)
MAX_DIFFERENCE_INDEX = len(HIGH_BY_DIFFERENCE) - 1


# -- the booklet's arithmetic on its tables ------------------------------------------

DEFAULT_BONUS_ROWS = ",".join(f"{start}:{margin}" for start, _, margin in BONUS_ROWS)


def half_up(value: float, scale: float = 1.0) -> float:
    """``base.round_half_up(value, log10(scale))`` without Decimal, for the per-player loops.

    Rounding the scaled value to 6 decimals first removes float noise, so halves go away
    from zero as on paper. It agrees with ``round_half_up`` on every figure the engine
    keeps (whole hundredths); it differs only within a millionth of a half, where it takes
    the half (1011.4999999999999 -> 1012, where ``round_half_up`` gives 1011).
    """
    scaled = round(value * scale, 6)
    if scaled >= 0:
        return math.floor(scaled + 0.5) / scale
    return -math.floor(0.5 - scaled) / scale


def percentage(score: float, games: int) -> int:
    """The score as a whole percentage, halves up (2.5 / 12 = 20.83 % -> 21)."""
    return math.floor(round(score * 100.0 / games, 6) + 0.5)


#: The most games and the widest margin a bonus row may name: far past the booklet's table
#: (16 games, margin 3), short of a row no tournament could reach.
BONUS_GAMES_MOST = 1000
BONUS_MARGIN_MOST = 100


def parse_bonus_rows(text: str) -> list[tuple[int, int]]:
    """``"6:1,11:2,16:3"`` -> [(6, 1), (11, 2), (16, 3)]: (from games, margin) rows."""
    rows: list[tuple[int, int]] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        games, sep, margin = part.partition(":")
        try:
            row = (int(games), int(margin))
        except ValueError:
            raise ValueError(f"{part!r} is not games:margin (whole numbers)") from None
        if not sep or row[0] < 1 or row[1] < 0:
            raise ValueError(f"{part!r} is not games:margin (games 1 or more, margin 0 or more)")
        # The system keeps a margin for every count of games up to the last row's.
        if row[0] > BONUS_GAMES_MOST or row[1] > BONUS_MARGIN_MOST:
            raise ValueError(
                f"{part!r}: games at most {BONUS_GAMES_MOST}, margin at most {BONUS_MARGIN_MOST}"
            )
        if rows and row[0] <= rows[-1][0]:
            raise ValueError("rows must go up in games")
        rows.append(row)
    return rows
