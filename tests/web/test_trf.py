"""The TRF reader on every real file in tests/data/trf, and on the ways files bend the format."""

import datetime as dt

import pytest

from ratings.formats import trf
from ratings.models import Game

from ..conftest import TRF_FILES

TRF = TRF_FILES


def read(name: str) -> trf.Tournament:
    return trf.parse((TRF / name).read_bytes())


def pairings(tournament: trf.Tournament, round_: int) -> set[tuple[int, int | None, str]]:
    return {(g.white, g.black, g.result) for g in tournament.games() if g.round == round_}


def test_every_real_file_is_read_without_warnings():
    files = sorted(TRF.glob("*.trf"))
    assert len(files) >= 12
    for path in files:
        tournament = trf.parse(path.read_bytes())
        assert tournament.players, path.name
        # (tie-breaks the club does not know are said: the grandmommy's cup's, below)
        assert [w for w in tournament.warnings if "tie-breaks" not in w] == [], path.name


def test_gros_open_2010_a_52_player_crlf_swiss_with_forfeits_and_half_byes():
    gros = read("gros-open-2010.trf")
    assert (gros.name, len(gros.players), gros.rounds) == ("XX Open Internacional de Gros", 52, 9)
    assert (gros.start, gros.end) == (dt.date(2010, 9, 24), dt.date(2010, 10, 2))
    mirzoev = gros.player(1)
    assert (mirzoev.name, mirzoev.rating, mirzoev.fide_id, mirzoev.title) == (
        "Mirzoev Azer",
        2527,
        "13400304",
        "GM",
    )
    assert {(1, 26, "1-0"), (13, 39, "+/-"), (42, 16, "-/+")} <= pairings(gros, 1)
    assert (39, None, "half-bye") in pairings(gros, 2)


def test_grandmommys_cup_2024_a_249_player_team_swiss_with_the_2026_era_header():
    cup = read("grandmommys-cup-2024.trf")
    assert (len(cup.players), cup.rounds, len(cup.teams)) == (249, 14, 100)
    assert (cup.start, cup.end) == (dt.date(2024, 12, 1), dt.date(2024, 12, 14))
    assert cup.player(1).fide_id == "70123454321"
    assert {(2, 24, "1/2-1/2"), (3, None, "zero-bye"), (59, None, "bye")} <= pairings(cup, 1)


def test_grandmommys_cup_2024_names_its_tie_breaks_as_not_kept():
    """Its 202 line names TRF-2026 team tie-breaks the club does not reckon: each is said,
    none kept, and the event ranks by its kind's default."""
    cup = read("grandmommys-cup-2024.trf")
    assert cup.tie_breaks == ()
    (said,) = [w for w in cup.warnings if "tie-breaks" in w]
    assert said.startswith("Line 19: the tie-breaks EDET/P, EMGSB/C1/P, BH:MP/C1/P, MPvGP")
    assert "are not kept" in said and "its kind's default" in said


HEADER = "012 Open\n001    1      A\n"


def test_a_202_line_gives_the_tie_breaks_the_club_knows_in_its_order():
    tournament = trf.parse("202 sb, BH-C1 WIN\n" + HEADER)
    assert (tournament.tie_breaks, tournament.warnings) == (("SB", "BH/C1", "WIN"), [])


def test_a_212_line_gives_them_after_its_points_when_there_is_no_202():
    assert trf.parse("212 PTS DE SB\n" + HEADER).tie_breaks == ("DE", "SB")
    assert trf.parse("202 BH\n212 PTS DE SB\n" + HEADER).tie_breaks == ("BH",)


def test_a_tie_break_the_club_does_not_know_is_named_not_kept_and_the_others_kept():
    tournament = trf.parse("202 BH/C1 KS SB\n" + HEADER)
    assert tournament.tie_breaks == ("BH/C1", "SB")
    assert tournament.warnings == [
        "Line 1: the tie-breaks KS are not kept (not ones the club knows, listed twice, or "
        "past the 5 an event has): the event ranks players level on points by BH/C1, SB."
    ]


def test_trf26_team_comment_lines_team_records_and_a_shifted_birth_date():
    team = read("trf26-team.trf")
    assert (team.name, len(team.players), team.rounds, team.teams) == (
        "Test Team Tournament",
        2,
        5,
        ["Russia"],
    )
    kasparov = team.player(1)
    assert (kasparov.name, kasparov.fide_id, kasparov.born, kasparov.federation) == (
        "Kasparov, Garry",
        "4100018363",
        "1963/04/13",
        "RUS",
    )
    assert pairings(team, 1) == {(1, 2, "1-0")}


def test_dutch_2025_c5_six_players_with_an_unplayed_round():
    dutch = read("dutch-2025-c5.trf")
    assert (len(dutch.players), dutch.rounds) == (6, 3)
    assert pairings(dutch, 1) == {(1, 4, "1-0"), (3, 6, "1-0"), (5, 2, "0-1")}
    assert (4, None, "zero-bye") in pairings(dutch, 3)


def test_lichess_swiss_free_text_dates_and_byes_h_u_and_dash():
    lichess = read("lichess-swiss-2020-05.trf")
    assert (len(lichess.players), lichess.rounds) == (13, 10)
    assert lichess.start == lichess.end == dt.date(2020, 5, 29)
    assert lichess.player(1).rating is None
    round_one = pairings(lichess, 1)
    assert {(4, 9, "1-0"), (5, None, "half-bye"), (12, None, "bye")} <= round_one
    assert (5, None, "zero-bye") in pairings(lichess, 2)


def test_each_game_is_read_once_though_both_players_lines_hold_it():
    dutch = read("dutch-2025-c5.trf")
    played = [g for g in dutch.games() if g.black is not None]
    assert len(played) == len({(g.round, g.white, g.black) for g in played}) == 6


LINE = "001    1      {name:<33} 1800 NZL     1234567 1990/01/01  1.0    1     2 w 1"
OTHER = "001    2      {name:<33} 1700 NZL     7654321 1991/01/01  0.0    2     1 b 0"


def test_cr_only_line_ends_and_latin_1_names_are_read():
    text = "\r".join(["012 Café Open", LINE.format(name="Müller, Jürgen"), OTHER.format(name="B")])
    tournament = trf.parse(text.encode("latin-1"))
    assert tournament.name == "Café Open"
    assert tournament.player(1).name == "Müller, Jürgen"


def test_a_file_without_player_lines_is_refused():
    with pytest.raises(trf.TrfError):
        trf.parse(b"012 Nothing here\n")


@pytest.mark.parametrize(
    "text, day",
    [
        ("2024/12/01", dt.date(2024, 12, 1)),
        ("24/09/2010", dt.date(2010, 9, 24)),
        ("May 29, 2020", dt.date(2020, 5, 29)),
        ("2026-01-10", dt.date(2026, 1, 10)),
        ("sometime", None),
    ],
)
def test_dates_in_the_styles_pairing_programs_write(text, day):
    assert trf.parse_date(text) == day


def test_an_unreadable_date_is_a_warning_not_an_error():
    tournament = trf.parse(
        "042 last spring\n" + LINE.format(name="A") + "\n" + OTHER.format(name="B")
    )
    assert tournament.start is None
    assert tournament.warnings == ["Line 1: could not read the start date 'last spring'."]


# -- result codes (FIDE Handbook C.04 Annex 2: TRF16 and TRF-2026) ----------------------


def player_line(rank: int, name: str, *slots: str) -> str:
    """A player line with its round slots at column 92, one every 10 columns."""
    head = f"001 {rank:>4}      {name:<33} 1800 NZL {1234560 + rank:>11} 1990/01/01  0.0 {rank:>4}"
    return head.ljust(91) + "  ".join(slot.ljust(8) for slot in slots)


def two_players(first: list[str], second: list[str]) -> str:
    return "\n".join(
        ["012 Codes", player_line(1, "Ann", *first), player_line(2, "Ben", *second), "XXR 2"]
    )


@pytest.mark.parametrize(
    ("mine", "theirs", "result", "rated"),
    [
        ("1", "0", "1-0", True),
        ("=", "=", "1/2-1/2", True),
        ("0", "1", "0-1", True),
        # W D L: a game that lasted less than a move, scored but not rated.
        ("W", "L", "1-0 nr", False),
        ("D", "D", "1/2-1/2 nr", False),
        ("L", "W", "0-1 nr", False),
        # + -: forfeits, no game.
        ("+", "-", "+/-", False),
        ("-", "+", "-/+", False),
        ("-", "-", "-/-", False),
    ],
)
def test_each_game_code_gives_its_result_and_only_1_equals_0_are_rated(
    mine, theirs, result, rated
):
    tournament = trf.parse(two_players([f"   2 w {mine}"], [f"   1 b {theirs}"]))
    assert tournament.games() == [trf.TrfGame(1, 1, 2, result, True)]
    assert Game.Result(result) in Game.Result.values
    assert (result in Game.PLAYED) is rated
    assert Game.POINTS[result] == (trf.CODE_POINTS[mine], trf.CODE_POINTS[theirs])
    # The same game written from black's line first reads the same.
    swapped = trf.parse(two_players([f"   2 b {theirs}"], [f"   1 w {mine}"]))
    assert swapped.games() == [trf.TrfGame(1, 2, 1, result, True)]


def test_a_game_without_colours_takes_the_first_line_as_white():
    tournament = trf.parse(two_players(["   2 - 0"], ["   1   1"]))
    assert tournament.games() == [trf.TrfGame(1, 1, 2, "0-1", colours_known=False)]


@pytest.mark.parametrize(
    ("slot", "result"),
    [
        ("0000 - H", "half-bye"),
        ("0000 - F", "bye"),
        ("0000 - U", "bye"),
        ("0000 - Z", "zero-bye"),
        ("0000 -  ", "zero-bye"),  # a blank result is the same as Z
        ("        ", "zero-bye"),  # so is a blank slot (here followed by round 2)
        ("0000 - -", "zero-bye"),  # a forfeit against no one: absent
        ("       -", "zero-bye"),
        ("     - H", "half-bye"),
        ("0000 - +", "bye"),
        ("   0 - +", "bye"),
    ],
)
def test_each_bye_code_gives_its_bye_and_no_game(slot, result):
    tournament = trf.parse(two_players([slot, "   2 w 1"], ["0000 - U", "   1 b 0"]))
    assert [g for g in tournament.games() if g.round == 1] == [
        trf.TrfGame(1, 1, None, result),
        trf.TrfGame(1, 2, None, "bye"),
    ]
    assert result in Game.BYES and result not in Game.PLAYED
    assert [(g.white, g.black, g.result) for g in tournament.games() if g.round == 2] == [
        (1, 2, "1-0")
    ]


def test_trailing_blank_slots_are_no_rounds():
    tournament = trf.parse(two_players(["   2 w 1", "        "], ["   1 b 0"]))
    assert [(g.round, g.result) for g in tournament.games()] == [(1, "1-0")]


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        (
            ["   2 w 1"],
            ["   1 b 1"],
            "Line 2: Ann, round 1: the result '1' against Ben disagrees with '1' on line 3.",
        ),
        (
            ["   2 w W"],
            ["   1 b 0"],
            "Line 2: Ann, round 1: the result 'W' against Ben disagrees with '0' on line 3.",
        ),
        (
            ["   9 w 1"],
            ["0000 - U"],
            "Line 2: Ann, round 1: paired with 9, who has no player line.",
        ),
        (["   1 w 1"], ["0000 - U"], "Line 2: Ann, round 1: paired with themselves."),
        (
            ["   2 w 1"],
            ["0000 - U"],
            "Line 2: Ann, round 1: paired with Ben, but line 3 has no game in that round.",
        ),
        (
            ["   2 w 1"],
            ["   1 w 0"],
            "Line 2: Ann, round 1: both Ann and Ben (line 3) have white.",
        ),
        (["   2 x 1"], ["   1 b 0"], "Line 2: Ann, round 1: cannot read '   2 x 1'"),
        (["   2 w Q"], ["   1 b 0"], "Line 2: Ann, round 1: cannot read '   2 w Q'"),
        (["  A2 w 1"], ["   1 b 0"], "Line 2: Ann, round 1: cannot read '  A2 w 1'"),
        (["   2 w  "], ["   1 b  "], "Line 2: Ann, round 1: paired with 2 but no result"),
    ],
)
def test_lines_that_cannot_be_read_or_do_not_agree_are_refused_naming_the_line(
    first, second, message
):
    with pytest.raises(trf.TrfError) as error:
        trf.parse(two_players(first, second))
    assert message in str(error.value)


def test_a_starting_rank_twice_is_refused_naming_both_lines():
    text = "\n".join(
        ["012 Twice", player_line(1, "Ann"), player_line(2, "Ben"), player_line(2, "Cat")]
    )
    with pytest.raises(trf.TrfError, match=r"Line 4: starting rank 2 is already Ben's \(line 3\)"):
        trf.parse(text)


def test_a_player_line_without_a_name_is_refused():
    with pytest.raises(trf.TrfError, match="Line 3: a player line without a starting rank"):
        trf.parse("012 Nameless\n" + player_line(1, "Ann") + "\n001    2")


def test_every_problem_is_listed():
    text = two_players(["   2 w 1", "   7 b 1"], ["   1 b 1", "   1 w 0"])
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert len(error.value.problems) == 3
    assert str(error.value).startswith("The file cannot be imported (3 problems): Line 2:")


def test_a_nul_character_is_refused_naming_its_line():
    text = "\n".join(["012 Nul\x00 Open", player_line(1, "Ann"), player_line(2, "B\x00en")])
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert error.value.problems == [
        "Line 1: holds a NUL character (\\0): not a text line.",
        "Line 3: holds a NUL character (\\0): not a text line.",
    ]


def test_a_player_named_without_letters_is_refused_naming_the_line():
    text = "\n".join(["012 Blank", player_line(1, "Ann"), player_line(2, "\u200b\u200b")])
    with pytest.raises(trf.TrfError, match=r"Line 3: the player's name .* has no letters"):
        trf.parse(text)


def test_more_rounds_than_an_event_may_have_are_refused_naming_the_line():
    byes = ["0000 - H"] * 100
    text = "\n".join(["012 Marathon", player_line(1, "Ann", *byes), player_line(2, "Ben")])
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert error.value.problems == [
        "Line 2: Ann has results for 100 rounds: an event has at most 99."
    ]


def test_a_declared_round_count_over_the_limit_is_refused_naming_the_line():
    text = "\n".join(["012 Marathon", player_line(1, "Ann"), player_line(2, "Ben"), "XXR 150"])
    with pytest.raises(trf.TrfError, match=r"Line 4: 150 rounds: an event has at most 99\."):
        trf.parse(text)


def test_the_round_limit_is_the_events():
    from django.core.validators import MaxValueValidator

    from ratings.models import Event

    limits = [
        v.limit_value
        for v in Event._meta.get_field("rounds").validators
        if isinstance(v, MaxValueValidator)
    ]
    assert limits == [trf.MAX_ROUNDS]
