"""ecf-2020's two lookup tables, as data, and the integer-indexed lists the engine uses.

``D_OFFSET_BANDS`` is the Elo rating difference table: a band of |D| (opponent's rating
minus the player's, as a whole number) and the offset it gives, from 0.0 to 8.4 in steps of
0.2. ``DP_BY_P`` is the Elo performance table: dp for an average score p of 0.00 to 1.00,
indexed by p x 100. Both are copied figure by figure from the ECF's page on its 2020 method.
"""

from __future__ import annotations

#: (lowest |D|, highest |D| or None for no upper end, offset), in the page's order.
D_OFFSET_BANDS: tuple[tuple[int, int | None, float], ...] = (
    (0, 3, 0.0),
    (4, 10, 0.2),
    (11, 17, 0.4),
    (18, 25, 0.6),
    (26, 32, 0.8),
    (33, 39, 1.0),
    (40, 46, 1.2),
    (47, 53, 1.4),
    (54, 61, 1.6),
    (62, 68, 1.8),
    (69, 76, 2.0),
    (77, 83, 2.2),
    (84, 91, 2.4),
    (92, 98, 2.6),
    (99, 106, 2.8),
    (107, 113, 3.0),
    (114, 121, 3.2),
    (122, 129, 3.4),
    (130, 137, 3.6),
    (138, 145, 3.8),
    (146, 153, 4.0),
    (154, 162, 4.2),
    (163, 170, 4.4),
    (171, 179, 4.6),
    (180, 188, 4.8),
    (189, 197, 5.0),
    (198, 206, 5.2),
    (207, 215, 5.4),
    (216, 225, 5.6),
    (226, 235, 5.8),
    (236, 245, 6.0),
    (246, 256, 6.2),
    (257, 267, 6.4),
    (268, 278, 6.6),
    (279, 289, 6.8),
    (290, 302, 7.0),
    (303, 315, 7.2),
    (316, 328, 7.4),
    (329, 344, 7.6),
    (345, 357, 7.8),
    (358, 374, 8.0),
    (375, 391, 8.2),
    (392, None, 8.4),
)

#: dp for p = 0.00, 0.01, ..., 1.00 (index = p x 100).
DP_BY_P: tuple[int, ...] = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383,  # 0.00 - 0.09
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251,  # 0.10 - 0.19
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,  # 0.20 - 0.29
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80,  # 0.30 - 0.39
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,  # 0.40 - 0.49
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,  # 0.50 - 0.59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,  # 0.60 - 0.69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,  # 0.70 - 0.79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,  # 0.80 - 0.89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,  # 0.90 - 0.99
    800,  # 1.00
)  # fmt: skip

#: The last |D| with a band of its own; any larger difference counts as this one.
D_MAX = 392


def _offset_fifths() -> tuple[int, ...]:
    """The D offset for |D| = 0 ... D_MAX in fifths of a point (8.4 -> 42), exact integers."""
    table: list[int | None] = [None] * (D_MAX + 1)
    for low, high, offset in D_OFFSET_BANDS:
        for d in range(low, (D_MAX if high is None else high) + 1):
            assert table[d] is None, f"|D| = {d} is in two bands"
            table[d] = round(offset * 5)
    assert all(v is not None for v in table), "a gap in the D offset bands"
    return tuple(v for v in table if v is not None)


#: D offset in fifths of a point, indexed by min(|D|, D_MAX).
D_OFFSET_FIFTHS: tuple[int, ...] = _offset_fifths()

#: The D offset with its sign restored, in fifths, indexed by D + D_MAX for D in
#: -D_MAX ... D_MAX: a stronger opponent (D > 0) gives a positive offset.
D_OFFSET_SIGNED: tuple[int, ...] = tuple(
    -D_OFFSET_FIFTHS[-d] if d < 0 else D_OFFSET_FIFTHS[d] for d in range(-D_MAX, D_MAX + 1)
)

assert len(DP_BY_P) == 101
