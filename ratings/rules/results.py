"""The results vocabulary: every result the club records, and every way it is written.

One module, plain Python (no Django), so that the model (``Game.Result``), the round
page's menu, the pasted rounds and results files, the round-robin grid, the crosstable
and the tournament report files (reader and writer) all read the same words. A result
is stored as its code (``WHITE_WIN`` is ``"1-0"``), always from white's side.
"""

from __future__ import annotations

from collections.abc import Sequence

# -- the codes (the values of Game.Result, stored) ----------------------------------------

WHITE_WIN, DRAW, BLACK_WIN = "1-0", "1/2-1/2", "0-1"
WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT = "+/-", "-/+", "-/-"
# Scored but not rated: the game lasted less than a move, or the arbiter left it out
# (the W, D and L of a FIDE tournament report file).
WHITE_WIN_UNRATED, DRAW_UNRATED, BLACK_WIN_UNRATED = "1-0 nr", "1/2-1/2 nr", "0-1 nr"
BYE, HALF_BYE, ZERO_BYE = "bye", "half-bye", "zero-bye"

#: Every result, in the order the menus list them, with its name in full (the admin's).
LABELS: dict[str, str] = {
    WHITE_WIN: "1-0",
    DRAW: "½-½",
    BLACK_WIN: "0-1",
    WHITE_FORFEIT_WIN: "+/− (white wins by forfeit)",
    BLACK_FORFEIT_WIN: "−/+ (black wins by forfeit)",
    DOUBLE_FORFEIT: "−/− (both forfeit)",
    WHITE_WIN_UNRATED: "1-0 (not rated)",
    DRAW_UNRATED: "½-½ (not rated)",
    BLACK_WIN_UNRATED: "0-1 (not rated)",
    BYE: "Bye (1 point)",
    HALF_BYE: "Half-point bye",
    ZERO_BYE: "Absent (0 points)",
}
#: The round page's menu: the same results in the fewest words.
SHORT_LABELS: dict[str, str] = {
    WHITE_WIN: "1-0",
    DRAW: "½-½",
    BLACK_WIN: "0-1",
    WHITE_FORFEIT_WIN: "+/− forfeit",
    BLACK_FORFEIT_WIN: "−/+ forfeit",
    DOUBLE_FORFEIT: "−/− both forfeit",
    WHITE_WIN_UNRATED: "1-0 not rated",
    DRAW_UNRATED: "½-½ not rated",
    BLACK_WIN_UNRATED: "0-1 not rated",
    BYE: "Bye (1)",
    HALF_BYE: "Bye (½)",
    ZERO_BYE: "Absent (0)",
}

#: Results that were played over the board: the only ones a system rates.
PLAYED = (WHITE_WIN, DRAW, BLACK_WIN)
#: Results with both players there and scored as a game, but not rated.
UNRATED = (WHITE_WIN_UNRATED, DRAW_UNRATED, BLACK_WIN_UNRATED)
#: Forfeits: no game, a score all the same.
FORFEITS = (WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT)
#: Results with one player only.
BYES = (BYE, HALF_BYE, ZERO_BYE)
#: The played result each unrated one scores as.
UNRATED_OF = {WHITE_WIN: WHITE_WIN_UNRATED, DRAW: DRAW_UNRATED, BLACK_WIN: BLACK_WIN_UNRATED}
#: Points for white and black of each result (a bye's player is white).
POINTS: dict[str, tuple[float, float]] = {
    WHITE_WIN: (1.0, 0.0),
    DRAW: (0.5, 0.5),
    BLACK_WIN: (0.0, 1.0),
    WHITE_FORFEIT_WIN: (1.0, 0.0),
    BLACK_FORFEIT_WIN: (0.0, 1.0),
    DOUBLE_FORFEIT: (0.0, 0.0),
    WHITE_WIN_UNRATED: (1.0, 0.0),
    DRAW_UNRATED: (0.5, 0.5),
    BLACK_WIN_UNRATED: (0.0, 1.0),
    BYE: (1.0, 0.0),
    HALF_BYE: (0.5, 0.0),
    ZERO_BYE: (0.0, 0.0),
}
#: A result with the colours swapped (black's side as white's); a draw is its own.
FLIP: dict[str, str] = {
    WHITE_WIN: BLACK_WIN,
    BLACK_WIN: WHITE_WIN,
    WHITE_FORFEIT_WIN: BLACK_FORFEIT_WIN,
    BLACK_FORFEIT_WIN: WHITE_FORFEIT_WIN,
    WHITE_WIN_UNRATED: BLACK_WIN_UNRATED,
    BLACK_WIN_UNRATED: WHITE_WIN_UNRATED,
}


def result_words(result: str) -> str:
    """A result as the club writes it in a history of changes: "1–0", "½–½", "0–1" (an en
    dash, as on a score sheet), the others in the round page's fewest words."""
    return SHORT_LABELS.get(result, result).replace("-", "–")


def flipped(result: str) -> str:
    """``result`` seen from black's side (a draw, a double forfeit: the same)."""
    return FLIP.get(result, result)


# -- results files and pasted rounds -----------------------------------------------------

#: Every way a result may be written, in a results file or a pasted round: the result it
#: records, and its spellings, the usual one first. A played result followed by " nr"
#: (any of its spellings) is the same result scored but not rated.
SPELLINGS: dict[str, tuple[str, ...]] = {
    WHITE_WIN: ("1-0",),
    DRAW: ("½-½", "1/2-1/2", "0.5-0.5", "=-=", "=", "1/2"),
    BLACK_WIN: ("0-1",),
    WHITE_FORFEIT_WIN: ("+/-", "+:-", "1-0f"),
    BLACK_FORFEIT_WIN: ("-/+", "-:+", "0-1f"),
    DOUBLE_FORFEIT: ("-/-", "-:-"),
    BYE: ("bye",),
    HALF_BYE: ("half-bye", "½bye"),
    ZERO_BYE: ("zero-bye", "absent"),
}
for _played, _unrated in UNRATED_OF.items():
    SPELLINGS[_unrated] = tuple(f"{s} nr" for s in SPELLINGS[_played])

#: What a results file or a pasted round may say (in lower case), and the result it records.
READS: dict[str, str] = {
    spelling: result for result, spellings in SPELLINGS.items() for spelling in spellings
}


def read_result(text: str) -> str | None:
    """The result ``text`` records (any case, any spaces before "nr"), or None."""
    return READS.get(" ".join(text.split()).lower())


def allowed_results() -> str:
    """The spellings a result may take, for a message: the usual ones, then the others."""

    def words(results: Sequence[str], *, others: bool = True) -> str:
        out = []
        for result in results:
            usual, *rest = SPELLINGS[result]
            out.append(f"{usual} (or {', '.join(rest)})" if rest and others else usual)
        return ", ".join(out)

    return (
        f"{words(PLAYED)}; forfeits: {words(FORFEITS)}; "
        f"not rated: {words(UNRATED, others=False)} (any game result, then “nr”); "
        f"byes: {words(BYES)}"
    )


#: A PGN file's Result tag for the games it records (``*``, a game unfinished, is not one).
PGN: dict[str, str] = {"1-0": WHITE_WIN, "0-1": BLACK_WIN, "1/2-1/2": DRAW}

# -- one key a result, typed from a score sheet ------------------------------------------

#: The keys a result is typed with wherever results are typed (the round page, the
#: round-robin grid, the calculator): "1" a win, "0" a loss, "=" (or "5", "d", "½") a draw,
#: "+" and "-" the forfeits. Each page reads them as its own menu says the result (the
#: grid's "1" is the row player's win, the calculator's "=" half a point).
KEYS: dict[str, str] = {
    "1": WHITE_WIN,
    "0": BLACK_WIN,
    "=": DRAW,
    "5": DRAW,
    "d": DRAW,
    "½": DRAW,
    "+": WHITE_FORFEIT_WIN,
    "-": BLACK_FORFEIT_WIN,
}


def keyed(values: dict[str, str]) -> dict[str, str]:
    """The keys as a menu's values: ``values`` maps a result to the menu's value for it
    (a result the menu does not offer has no key there)."""
    return {key: values[result] for key, result in KEYS.items() if result in values}


# -- the round-robin grid and the crosstable ----------------------------------------------

#: A grid cell (the row player's score) as the result with the row player as white.
GRID_AS_WHITE = {
    "1": WHITE_WIN,
    "=": DRAW,
    "0": BLACK_WIN,
    "+": WHITE_FORFEIT_WIN,
    "-": BLACK_FORFEIT_WIN,
    "--": DOUBLE_FORFEIT,
}
WHITE_AS_GRID = {v: k for k, v in GRID_AS_WHITE.items()}
#: A crosstable's mark for a player's points in a game, and for a bye.
POINTS_MARK = {1.0: "1", 0.5: "½", 0.0: "0"}
BYE_MARK = {BYE: "bye 1", HALF_BYE: "bye ½", ZERO_BYE: "–"}

# -- FIDE tournament report files (FIDE Handbook C.04 Annex 2) ----------------------------

#: The result codes for (white, black) of each game.
TRF_CODES: dict[str, tuple[str, str]] = {
    WHITE_WIN: ("1", "0"),
    DRAW: ("=", "="),
    BLACK_WIN: ("0", "1"),
    WHITE_WIN_UNRATED: ("W", "L"),
    DRAW_UNRATED: ("D", "D"),
    BLACK_WIN_UNRATED: ("L", "W"),
    WHITE_FORFEIT_WIN: ("+", "-"),
    BLACK_FORFEIT_WIN: ("-", "+"),
    DOUBLE_FORFEIT: ("-", "-"),
}
#: The codes of the byes as the club writes them (with opponent 0000).
TRF_BYE_CODES: dict[str, str] = {BYE: "F", HALF_BYE: "H", ZERO_BYE: "Z"}
