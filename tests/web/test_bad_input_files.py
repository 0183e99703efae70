"""The catalogue of bad inputs, continued: the files the management commands import.

The CSV imports (members, results) and the tournament files (TRF, PGN): each bad file
refused, the problem named at its line, and nothing saved (tests/web/test_bad_inputs.py
has the forms and pages, and the shared pieces).
"""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from .test_bad_inputs import CONTROL, HUGE, TRF_GOOD, ZERO_WIDTH, club, counts

pytestmark = pytest.mark.django_db

__all__ = ["club"]  # the fixture, shared with the forms' catalogue


# -- the CSV imports (management commands) -----------------------------------------------

MEMBERS_HEADER = "id,name,born,gender,region,title,fide_id,membership\n"

MEMBERS_CSV_CASES = {
    "a NUL in a name": ("E5,Erin\x00Evans,,,,,,\n", "line 2"),
    "a name of zero-width characters": (f"E5,{ZERO_WIDTH},,,,,,\n", "line 2, name"),
    "a name of control characters": (f"E5,{CONTROL},,,,,,\n", "line 2, name"),
    "a control character in a name": ("E5,Erin\x1b Evans,,,,,,\n", "line 2, name"),
    "a bad number": ("E 5,Erin Evans,,,,,,\n", "line 2"),
    "an id twice": ("E5,Erin Evans,,,,,,\nE5,Erin Evans,,,,,,\n", "line 3"),
    "born in year 1": ("E5,Erin Evans,0001-01-01,,,,,\n", "line 2, born"),
    "born in 9999": ("E5,Erin Evans,9999-12-31,,,,,\n", "line 2, born"),
    "born on 30 February": ("E5,Erin Evans,2000-02-30,,,,,\n", "line 2, born"),
    "a bad gender": ("E5,Erin Evans,,X,,,,\n", "line 2, gender"),
    "a bad title": ("E5,Erin Evans,,,,GMX,,\n", "line 2, title"),
    "a FIDE id huge": (f"E5,Erin Evans,,,,,{HUGE},\n", "line 2, fide_id"),
    "a bad membership": ("E5,Erin Evans,,,,,,paid\n", "line 2, membership"),
    "a quote never closed": ('E5,"Erin Evans,,,,,,\nE6,Finn,,,,,,\n', "line 2"),
    "a name too long": (f"E5,{'E' * 121},,,,,,\n", "line 2, name"),
}


@pytest.fixture
def write(tmp_path):  # type: ignore[no-untyped-def]
    def write(text: str) -> str:
        path = tmp_path / "file.csv"
        path.write_bytes(text.encode())
        return str(path)

    return write


def _command_refuses(command: str, path: str, message: str) -> None:
    before = counts()
    with pytest.raises(CommandError) as refusal:
        call_command(command, path, stdout=StringIO(), stderr=StringIO())
    assert message in str(refusal.value), str(refusal.value)
    assert counts() == before


@pytest.mark.parametrize("case", list(MEMBERS_CSV_CASES))
def test_import_members_refuses_a_bad_row_at_its_line(case, write, club) -> None:  # type: ignore[no-untyped-def]
    rows, message = MEMBERS_CSV_CASES[case]
    _command_refuses("import_members", write(MEMBERS_HEADER + rows), message)


RESULTS_HEADER = "event,date,round,white,black,result\n"
DAY = (timezone.localdate() - dt.timedelta(days=5)).isoformat()

RESULTS_CSV_CASES = {
    "self-pairing": (f"Autumn,{DAY},1,A1,A1,1-0\n", "line 2"),
    "a player twice in a round": (
        f"Autumn,{DAY},1,A1,B2,1-0\nAutumn,{DAY},1,C3,a1,1-0\n",
        "line 3",
    ),
    "an unknown member": (f"Autumn,{DAY},1,A1,Z9,1-0\n", "line 2"),
    "a bad result": (f"Autumn,{DAY},1,A1,B2,2-0\n", "line 2"),
    "a bye with black": (f"Autumn,{DAY},1,A1,B2,bye\n", "line 2"),
    "a game without black": (f"Autumn,{DAY},1,A1,,1-0\n", "line 2"),
    "the year 1": ("Autumn,0001-01-01,1,A1,B2,1-0\n", "line 2"),
    "the year 9999": ("Autumn,9999-12-31,1,A1,B2,1-0\n", "line 2"),
    "31 April": ("Autumn,2026-04-31,1,A1,B2,1-0\n", "line 2"),
    "round 0": (f"Autumn,{DAY},0,A1,B2,1-0\n", "line 2"),
    "round 100": (f"Autumn,{DAY},100,A1,B2,1-0\n", "line 2"),
    "round huge": (f"Autumn,{DAY},{HUGE},A1,B2,1-0\n", "line 2"),
    "round a fraction": (f"Autumn,{DAY},1.5,A1,B2,1-0\n", "line 2"),
    "a NUL in an event name": (f"Aut\x00umn,{DAY},1,A1,B2,1-0\n", "line 2"),
    "an event name of zero-width characters": (f"{ZERO_WIDTH},{DAY},1,A1,B2,1-0\n", "line 2"),
    "a control character in an event name": (f"Autumn\x1b,{DAY},1,A1,B2,1-0\n", "line 2"),
    "an event already recorded": (f"Club night,{DAY},1,A1,B2,1-0\n", "line 2"),
    "a quote never closed": (f'"Autumn,{DAY},1,A1,B2,1-0\nAutumn,{DAY},2,A1,B2,1-0\n', "line 2"),
}


@pytest.mark.parametrize("case", list(RESULTS_CSV_CASES))
def test_import_results_refuses_a_bad_row_at_its_line(case, write, club) -> None:  # type: ignore[no-untyped-def]
    rows, message = RESULTS_CSV_CASES[case]
    _command_refuses("import_results", write(RESULTS_HEADER + rows), message)


# -- the tournament-file commands ---------------------------------------------------------

PGN_GAME = (
    '[Event "Autumn"]\n[Site "Club"]\n[Date "{day}"]\n[Round "1"]\n'
    '[White "{white}"]\n[Black "Brown, Bob"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
)

FILE_COMMAND_CASES = {
    "import_trf: a control character": (
        "import_trf",
        "file.trf",
        TRF_GOOD.replace("Autumn", "Aut\x1bumn"),
        "Line 1: holds a control character",
    ),
    "import_trf: a name written backwards": (
        "import_trf",
        "file.trf",
        TRF_GOOD.replace("Archer, Alice", "Archer,\u202eAlice"),
        "Line 4: the player's name",
    ),
    "import_pgn: a player named in zero-width characters": (
        "import_pgn",
        "file.pgn",
        PGN_GAME.format(day=DAY.replace("-", "."), white=ZERO_WIDTH),
        "White: A name must contain letters",
    ),
    "import_pgn: a control character in a name": (
        "import_pgn",
        "file.pgn",
        PGN_GAME.format(day=DAY.replace("-", "."), white="Archer,\x1b Alice"),
        "White: A name cannot hold control",
    ),
    "import_pgn: the year 9999": (
        "import_pgn",
        "file.pgn",
        PGN_GAME.format(day="9999.12.31", white="Archer, Alice"),
        "more than a year ahead",
    ),
}


@pytest.mark.parametrize("case", list(FILE_COMMAND_CASES))
def test_the_tournament_file_commands_refuse_a_bad_file_naming_the_line(  # type: ignore[no-untyped-def]
    case, tmp_path, club
) -> None:
    command, name, text, message = FILE_COMMAND_CASES[case]
    path = tmp_path / name
    path.write_bytes(text.encode())
    args = ["--create-missing"]
    before = counts()
    with pytest.raises(CommandError) as refusal:
        call_command(command, str(path), *args, stdout=StringIO(), stderr=StringIO())
    assert message in str(refusal.value), str(refusal.value)
    assert counts() == before
