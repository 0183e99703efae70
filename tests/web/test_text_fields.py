"""Free text refuses control and invisible characters by the names' rule, wherever it comes
from (a form, a members CSV, a TRF header, a PGN tag); and what an import cuts or replaces
(a PGN event's name too long, a TRF date of 30 February) the preview and the command say."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from ratings.formats import trf
from ratings.formats.members_csv import members_read
from ratings.formats.tournament_files import pgn_events
from ratings.forms.publications import PublicationNoteForm
from ratings.models import ClubSettings, Event, rules
from ratings.rules.text import text_problem

from ..conftest import TRF_FILES

PGN = Path(__file__).resolve().parent.parent / "data" / "pgn"
RLO = "\u202e"  # the right-to-left override: text shown backwards
LONG_NAME = "Eastvale Autumn Cup " + "and the Southbank Rapid, " * 5 + "2025"


# -- the rule --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [f"North{RLO}", "G/90\x1b[31m", "North\nSouth", "a\u200bb"])
def test_one_line_of_text_refuses_control_and_invisible_characters(text):
    assert "control or invisible characters" in (text_problem(text) or "")


def test_a_note_of_several_lines_keeps_its_line_breaks_but_not_an_override():
    assert text_problem("Ratings to 30 June.\r\nThe winter period.\t(2026)", lines=True) is None
    assert "U+202E" in (text_problem(f"Ratings{RLO} to 30 June.\n", lines=True) or "")


def test_plain_text_in_any_script_is_accepted():
    assert text_problem("Île-de-France, Ōsaka, الرياض, 60+30") is None


# -- the record's fields -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_clubs_place_and_arbiters_refuse_hidden_characters():
    club = ClubSettings.load()
    club.city = f"Wellington{RLO}"
    club.deputy_arbiters = "First Deputy\nSecond Deputy\x07"
    with pytest.raises(ValidationError) as error:
        club.full_clean()
    assert set(error.value.message_dict) == {"city", "deputy_arbiters"}


def test_a_published_lists_note_refuses_an_escape_but_keeps_its_lines():
    assert PublicationNoteForm({"note": "Ratings to 30 June.\nThe winter period."}).is_valid()
    form = PublicationNoteForm({"note": "Ratings to 30 June.\x1b[2J"})
    assert not form.is_valid() and "control" in form.errors["note"][0]


def test_the_field_validators_are_the_rule():
    with pytest.raises(ValidationError):
        rules.validate_text("a\nb")
    rules.validate_lines("a\nb")


# -- files -------------------------------------------------------------------------------------


def test_a_members_csv_region_with_an_override_is_refused_at_its_line_and_column():
    rows, problems = members_read(f"id,name,region\nE1,Erin Evans,{RLO}htroN\n")
    assert rows == []
    assert [(p.line, p.column) for p in problems] == [(2, "region")]
    assert "U+202E" in problems[0].message


def trf_with(line: str, replacing: str) -> bytes:
    """The grandmommy's cup with ``line`` for ``replacing``; its 202 line left out (its
    tie-breaks, which the club does not know, are said on their own: test_trf.py)."""
    text = (TRF_FILES / "grandmommys-cup-2024.trf").read_text("utf-8")
    text = "".join(x for x in text.splitlines(keepends=True) if not x.startswith("202 "))
    assert replacing in text
    return text.replace(replacing, line, 1).encode()


@pytest.mark.parametrize(
    ("line", "replacing"),
    [
        (f"012 Grandmommy's Cup{RLO}", "012 Grandmommy's Cup"),
        (f"022 Te{RLO}st", "022 Test"),
    ],
)
def test_a_trf_header_with_an_override_is_refused_by_its_line(line, replacing):
    with pytest.raises(trf.TrfError) as error:
        trf.parse(trf_with(line, replacing))
    assert any(p.startswith("Line ") and "U+202E" in p for p in error.value.problems)


def test_a_pgn_event_tag_with_an_override_is_refused_by_its_game():
    data = (
        (PGN / "two-events.pgn")
        .read_text()
        .replace('[Event "Southbank Rapid"]', f'[Event "Southbank{RLO} Rapid"]')
    )
    _events, problems = pgn_events("games.pgn", data.encode())
    assert problems and all("Event: " in p and "U+202E" in p for p in problems)
    assert problems[0].startswith("games.pgn, game ")


# -- what an import cuts or replaces, said ---------------------------------------------------


def long_event_pgn(tmp_path: Path) -> Path:
    path = tmp_path / "long.pgn"
    path.write_text(
        (PGN / "two-events.pgn")
        .read_text()
        .replace('[Event "Eastvale Autumn Cup 2025"]', f'[Event "{LONG_NAME}"]')
    )
    return path


@pytest.mark.django_db
def test_import_pgn_says_it_cut_an_event_name_longer_than_the_record_keeps(tmp_path):
    assert len(LONG_NAME) > 120
    out = io.StringIO()
    call_command("import_pgn", "--create-missing", str(long_event_pgn(tmp_path)), stdout=out)
    cut = LONG_NAME[:120]
    assert Event.objects.filter(name=cut).exists()
    assert f"the event's name is {len(LONG_NAME)} characters: it is kept to its first 120" in (
        out.getvalue()
    )


@pytest.mark.django_db
def test_the_pgn_preview_says_it_cut_an_event_name(officer_client, tmp_path):
    data = long_event_pgn(tmp_path).read_bytes()
    officer_client.post(
        reverse("ratings:officer-import"), {"file": SimpleUploadedFile("long.pgn", data)}
    )
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert f"the event&#x27;s name is {len(LONG_NAME)} characters" in page


FEB_30 = ("042 2024/02/30", "042 2024/12/01")


def test_a_trf_start_date_of_30_february_replaced_by_the_round_dates_is_said():
    tournament = trf.parse(trf_with(*FEB_30))
    assert tournament.start == min(tournament.round_dates)
    assert tournament.warnings == [
        "Line 4: could not read the start date '2024/02/30'.",
        f"The start date is taken from the round dates (line 132): {tournament.start}.",
    ]


@pytest.mark.django_db
def test_import_trf_says_it_replaced_a_date_of_30_february(tmp_path):
    path = tmp_path / "feb30.trf"
    path.write_bytes(trf_with(*FEB_30))
    out = io.StringIO()
    call_command("import_trf", "--create-missing", "--dry-run", str(path), stdout=out)
    assert f"{path}: Line 4: could not read the start date '2024/02/30'." in out.getvalue()
    assert "The start date is taken from the round dates (line 132)" in out.getvalue()


@pytest.mark.django_db
def test_the_trf_preview_says_it_replaced_a_date_of_30_february(officer_client):
    officer_client.post(
        reverse("ratings:officer-import"),
        {"file": SimpleUploadedFile("feb30.trf", trf_with(*FEB_30))},
    )
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "The start date is taken from the round dates (line 132)" in page


def test_a_trf_event_name_or_time_control_too_long_is_cut_and_said_by_its_line():
    name, control = (
        "Grandmommy's Cup " + "x" * 110,
        "40 moves in 90 minutes, then 30 minutes, +30s",
    )
    data = trf_with(f"012 {name}", "012 Grandmommy's Cup").decode() + f"122 {control}\n"
    tournament = trf.parse(data)
    assert tournament.warnings == [
        f"Line 1: the event's name is {len(name)} characters: it is kept to its first 120, "
        f"{name[:120]!r} (change it after the import if that reads badly).",
        f"Line {data.count(chr(10))}: the time control is {len(control)} characters: it is "
        f"kept to its first 40, {control[:40]!r} (change it after the import if that reads "
        "badly).",
    ]


@pytest.mark.django_db
def test_import_trf_says_it_cut_an_event_name(tmp_path):
    path = tmp_path / "long.trf"
    path.write_bytes(trf_with("012 " + "Grandmommy's Cup " * 8, "012 Grandmommy's Cup"))
    out = io.StringIO()
    call_command("import_trf", "--create-missing", str(path), stdout=out)
    assert "Line 1: the event's name is 135 characters: it is kept to its first 120" in (
        out.getvalue()
    )
    assert len(Event.objects.get().name) == 120
