"""A bye placeholder ("spielfrei", "BYE": the empty seat of an odd field) is no player."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from ratings.formats import trf
from ratings.models import Game, Member
from ratings.rules import results
from ratings.rules.names import is_bye_placeholder

from .test_fide_ids import player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name", ["spielfrei", "BYE", "Bye 2", "(frei)", "Freilos", "exempt", "Libre", "volno"]
)
def test_the_placeholders_programs_write_are_known(name):
    assert is_bye_placeholder(name)


@pytest.mark.parametrize("name", ["Byers, Tom", "Freiling, Anna", "Libre Calvo, Ana", "Pauzer"])
def test_players_whose_names_begin_like_one_are_players(name):
    assert not is_bye_placeholder(name)


ROUND_ROBIN = "\n".join(
    [
        "012 Vereinsmeisterschaft",
        "042 2025/10/07",
        player(1, "Müller, Hans", "", "   2 w 1     3 b 1"),
        player(2, "Schmidt, Eva", "", "   1 b 0  0000 - H"),
        player(3, "spielfrei", "", "   4 w -     1 w 0"),
        player(4, "Weber, Karl", "", "   3 b +     0 - -"),
    ]
)


def test_a_placeholder_in_a_trf_file_goes_and_games_against_it_are_byes():
    tournament = trf.parse(ROUND_ROBIN)
    assert [p.name for p in tournament.players] == ["Müller, Hans", "Schmidt, Eva", "Weber, Karl"]
    byes = [(g.round, g.white, g.result) for g in tournament.games() if g.is_bye]
    assert byes == [
        (1, 4, results.BYE),  # Weber's forfeit win over the empty seat
        (2, 1, results.BYE),  # Müller's win over it
        (2, 2, results.HALF_BYE),
        (2, 4, results.ZERO_BYE),
    ]
    assert "Line 5: 'spielfrei' is a bye placeholder" in tournament.warnings[0]


def test_a_placeholder_never_becomes_a_member(tmp_path):
    path = tmp_path / "rr.trf"
    path.write_text(ROUND_ROBIN + "\n")
    call_command("import_trf", "--create-missing", str(path), stdout=io.StringIO())
    assert sorted(Member.objects.values_list("name", flat=True)) == [
        "Eva Schmidt",
        "Hans Müller",
        "Karl Weber",
    ]


def test_a_pgn_game_against_bye_is_the_players_bye(tmp_path):
    path = tmp_path / "bye.pgn"
    path.write_text(
        '[Event "Club Cup"]\n[Site "Club"]\n[Date "2025.10.07"]\n[Round "1"]\n'
        '[White "Smith, Ann"]\n[Black "Jones, Bo"]\n[Result "1-0"]\n\n1-0\n\n'
        '[Event "Club Cup"]\n[Site "Club"]\n[Date "2025.10.07"]\n[Round "1"]\n'
        '[White "BYE"]\n[Black "Brown, Cy"]\n[Result "0-1"]\n\n0-1\n'
    )
    call_command("import_pgn", "--create-missing", str(path), stdout=io.StringIO())
    assert not Member.objects.filter(name__iexact="bye").exists()
    bye = Game.objects.get(black=None)
    assert (bye.white.name, bye.result) == ("Cy Brown", results.BYE)
