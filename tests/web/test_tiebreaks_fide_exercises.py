"""Tie-breaks as FIDE works them: the exercises of Handbook C.07 (2023).

The tournaments are the files of FIDE's tie-break server (tests/data/trf/held-*.trf, read
as the club reads any TRF); the figures are the ones that server's tests expect for the
exercises in IA Mario Held's paper *Exercises in Tie-Breaking* (C.07-2023), under the
rules for unplayed rounds in force from 2023 (OttoMilvang/TieBreakServer,
tests/test_fide_held_individual_exercises.py: the figures only, the exercise numbers in
the test names).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ratings.formats import trf
from ratings.rules import results, tiebreaks

from ..conftest import TRF_FILES

SWISS_5 = TRF_FILES / "held-swiss-5.trf"
SWISS_9 = TRF_FILES / "held-swiss-9.trf"
ROUND_ROBIN = TRF_FILES / "held-round-robin.trf"


def standing(path: Path, codes: list[str], *, round_robin: bool = False) -> tiebreaks.Standing:
    """The file's players (by starting rank) ranked by points, then ``codes``."""
    tournament = trf.parse(path.read_bytes())
    games = [
        tiebreaks.Result(
            round=game.round,
            white=game.white,
            black=game.black,
            white_points=results.POINTS[game.result][0],
            black_points=results.POINTS[game.result][1],
            played=game.result in results.PLAYED + results.UNRATED,
        )
        for game in tournament.games()
    ]
    players = sorted(p.rank for p in tournament.players)
    ratings = {p.rank: p.rating for p in tournament.players}
    return tiebreaks.standing(
        players,
        games,
        codes,
        round_robin=round_robin,
        ratings=ratings,
        rounds=tournament.rounds,
    )


def figures(path: Path, code: str, *, round_robin: bool = False) -> dict[int, float | None]:
    return standing(path, [code], round_robin=round_robin).figures[code]


def places(path: Path, code: str, *, round_robin: bool = False) -> dict[int, int]:
    """Each player's place by points then ``code`` (a shared place as its number)."""
    found = standing(path, [code], round_robin=round_robin).places
    return {player: int(place.rstrip("=")) for player, place in found.items()}


def as_numbers(expected: dict[int, str]) -> dict[int, float | None]:
    return {p: None if v == "None" else float(v) for p, v in expected.items()}


# The Swiss of five rounds: every player's figure, as the exercises list them.
BH = {1: "12.5", 2: "13.0", 3: "15.5", 4: "15.0", 5: "8.5", 6: "12.0", 7: "14.5", 8: "13.5",
      9: "9.0", 10: "13.0", 11: "13.5", 12: "11.5", 13: "14.0", 14: "11.0", 15: "12.0",
      16: "12.5"}  # fmt: skip
BH_C1 = {1: "11.0", 2: "12.0", 3: "13.0", 4: "11.5", 5: "7.5", 6: "11.0", 7: "12.5", 8: "12.0",
         9: "7.5", 10: "11.5", 11: "12.0", 12: "9.5", 13: "12.0", 14: "9.0", 15: "11.0",
         16: "11.0"}  # fmt: skip
SB = {1: "8.00", 2: "9.50", 3: "10.50", 4: "9.75", 5: "4.25", 6: "6.50", 7: "3.25", 8: "5.25",
      9: "2.25", 10: "1.50", 11: "5.75", 12: "4.00", 13: "4.25", 14: "4.50", 15: "3.50",
      16: "7.25"}  # fmt: skip
SB_C1 = {1: "7.25", 2: "8.50", 3: "9.25", 4: "8.00", 5: "3.25", 6: "5.50", 7: "1.25", 8: "3.75",
         9: "2.25", 10: "0.00", 11: "4.25", 12: "4.00", 13: "4.25", 14: "3.00", 15: "2.50",
         16: "5.75"}  # fmt: skip
ARO = {1: "1820", 2: "1880", 3: "1940", 4: "1888", 5: "1690", 6: "1813", 7: "1760", 8: "1730",
       9: "1975", 10: "1880", 11: "1863", 12: "2050", 13: "1930", 14: "1800", 15: "1860",
       16: "1820"}  # fmt: skip
WIN = {1: "2", 2: "3", 3: "2", 4: "2", 5: "2", 6: "3", 7: "1", 8: "2", 9: "1", 10: "1", 11: "2",
       12: "2", 13: "1", 14: "2", 15: "2", 16: "3"}  # fmt: skip
WON = {1: "2", 2: "3", 3: "2", 4: "2", 5: "2", 6: "2", 7: "1", 8: "2", 9: "0", 10: "1", 11: "1",
       12: "0", 13: "1", 14: "2", 15: "2", 16: "3"}  # fmt: skip


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("BH", BH),  # exercises 1-4
        ("BH/C1", BH_C1),  # exercises 5-8
        ("SB", SB),  # exercises 11-12
        ("SB/C1", SB_C1),  # exercise 13
        ("ARO", ARO),  # exercise 17
        ("WIN", WIN),  # exercise 27
        ("WON", WON),  # exercise 28
    ],
    ids=["BH", "BH-C1", "SB", "SB-C1", "ARO", "WIN", "WON"],
)
def test_each_swiss_figure_is_fides(code: str, expected: dict[int, str]) -> None:
    assert figures(SWISS_5, code) == as_numbers(expected)


def test_a_bye_and_a_forfeit_count_against_a_dummy_with_the_players_own_score() -> None:
    """Exercise 2-4: David's half-point bye and Nick's withdrawal (two zero-point byes at
    the end, counted as draws in his opponents' Buchholz)."""
    found = figures(SWISS_5, "BH")
    assert (found[4], found[12], found[1]) == (15.0, 11.5, 12.5)


def test_cut_1_leaves_out_a_voluntarily_unplayed_round_first() -> None:
    """Exercise 6: Jessica's half-point bye is cut, not her weakest opponent."""
    assert figures(SWISS_5, "BH/C1")[9] == 7.5


def test_median_buchholz_leaves_out_the_lowest_and_the_highest_opponent() -> None:
    """Not among the exercises: worked from the Buchholz parts above. Bruno's opponents
    scored 1, 1½, 3½, 3½, 3½ (BH 13): without 1 and one 3½, 8.5. David's half-point bye
    (his dummy, 3½) is cut first as the lowest, then one 3½ as the highest: 15 - 7 = 8."""
    found = figures(SWISS_5, "BH/M1")
    assert (found[2], found[4]) == (8.5, 8.0)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("SB", {1: 9.25, 2: 6.25, 3: 6.25, 4: 4.25, 5: 3.25, 6: 2.25}),  # exercise 14
        ("SB/C1", {1: 9.25, 2: 4.75, 3: 4.75, 4: 4.25, 5: 3.25, 6: 1.50}),  # exercise 15
    ],
    ids=["SB", "SB-C1"],
)
def test_a_round_robins_forfeit_counts_against_the_opponent_due(
    code: str, expected: dict[int, float]
) -> None:
    assert figures(ROUND_ROBIN, code, round_robin=True) == expected


def test_direct_encounter_ranks_a_round_robin() -> None:
    """Exercise 26."""
    assert places(ROUND_ROBIN, "DE", round_robin=True) == {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}


@pytest.mark.parametrize(
    "expected",
    [
        {1: 2, 3: 2, 4: 2, 16: 2},  # exercise 23
        {5: 7, 8: 7, 11: 7},  # exercise 24
    ],
    ids=["exercise-23", "exercise-24"],
)
def test_direct_encounter_leaves_tied_who_have_not_all_met(expected: dict[int, int]) -> None:
    found = places(SWISS_5, "DE")
    assert {p: found[p] for p in expected} == expected


def test_direct_encounter_ranks_the_nine_round_swiss() -> None:
    """Exercise 25: the four on 6 points all met (Franck 2nd, Alyx and David 3rd, Bruno
    5th); the others level on points had not all met."""
    expected = {1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9, 11: 13, 12: 14,
                13: 16, 14: 9, 15: 9, 16: 6}  # fmt: skip
    assert places(SWISS_9, "DE") == expected


def test_the_tie_breaks_rank_in_turn_and_the_level_share_a_place() -> None:
    """The Swiss of five rounds by Buchholz Cut-1, Buchholz, Sonneborn-Berger: Bruno alone
    on 4; of the four on 3.5 Charline (BH-C1 13.0), then David (11.5), then Alyx and
    Stephan, level on BH-C1 (11.0) and on Buchholz (12.5), by Sonneborn-Berger (8.00
    against 7.25)."""
    found = standing(SWISS_5, ["BH/C1", "BH", "SB"])
    assert found.order[:5] == [2, 3, 4, 1, 16]
    assert [found.places[p] for p in found.order[:5]] == ["1", "2", "3", "4", "5"]
