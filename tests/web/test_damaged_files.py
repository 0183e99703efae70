"""Damaged tournament files, on the web import and on the command line: a clear message
naming what is wrong, and nothing saved. (More TRF damage on the command line:
test_import_trf_command.py.)"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings.formats.tournament_files import MAX_FILE_BYTES
from ratings.models import Event, Game, Member

from ..conftest import TRF_FILES

pytestmark = pytest.mark.django_db

GROS = TRF_FILES / "gros-open-2010.trf"
PGN = Path(__file__).resolve().parent.parent / "data" / "pgn" / "two-events.pgn"
#: A file of 20 MB, built here (never committed): a real file padded to the size.
TWENTY_MB = 20 * 1_000_000


def nothing_saved() -> bool:
    return not (Event.objects.exists() or Member.objects.exists() or Game.objects.exists())


def upload(client, name: str, data: bytes):  # type: ignore[no-untyped-def]
    return client.post(reverse("ratings:officer-import"), {"file": SimpleUploadedFile(name, data)})


def upload_errors(client, name: str, data: bytes) -> str:  # type: ignore[no-untyped-def]
    response = upload(client, name, data)
    assert response.status_code == 200  # the upload page again, with the problem
    return " ".join(response.context["form"].errors["file"])


def gros_lines() -> list[bytes]:
    return GROS.read_bytes().splitlines(keepends=True)


def truncated_trf() -> bytes:
    lines = gros_lines()
    players = [i for i, line in enumerate(lines) if line.startswith(b"001")]
    return b"".join(lines[: players[len(players) // 2]])


def trf_with_player_line(change) -> bytes:  # type: ignore[no-untyped-def]
    lines = gros_lines()
    first = next(i for i, line in enumerate(lines) if line.startswith(b"001"))
    lines[first] = change(lines[first].decode("latin-1")).encode("latin-1")
    return b"".join(lines)


def bad_result(line: str) -> str:
    return line[:98] + {"1": "0", "0": "1"}.get(line[98], "1") + line[99:]


def unknown_player(line: str) -> str:
    return line[:91] + " 999" + line[95:]


def padded(data: bytes, size: int) -> bytes:
    return data + b"\n" * (size - len(data))


# -- the web import ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (truncated_trf(), "who has no player line"),
        (trf_with_player_line(bad_result), "disagrees"),
        (trf_with_player_line(unknown_player), "who has no player line"),
    ],
    ids=["truncated", "bad result", "unknown player number"],
)
def test_a_damaged_trf_upload_is_refused_naming_its_line(officer_client, data, message):
    errors = upload_errors(officer_client, "gros.trf", data)
    assert message in errors and "Line " in errors
    assert nothing_saved()


def test_a_trf_upload_in_utf_16_is_refused(officer_client):
    data = GROS.read_bytes().decode("latin-1").encode("utf-16")
    assert "The file is UTF-16 text: save it as UTF-8" in upload_errors(
        officer_client, "gros.trf", data
    )
    assert nothing_saved()


@pytest.mark.parametrize("name", ["big.trf", "big.pgn"])
def test_a_20_mb_upload_is_refused_before_it_is_read(officer_client, settings, name):
    source = GROS if name.endswith(".trf") else PGN
    errors = upload_errors(officer_client, name, padded(source.read_bytes(), TWENTY_MB))
    assert "The file is 20.0 MB: a tournament file may be at most 5 MB" in errors
    # Django kept the upload in a temporary file, not in memory; no request limit hit.
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE < TWENTY_MB
    assert nothing_saved()


def test_a_file_just_under_the_limit_is_read(officer_client):
    data = padded(GROS.read_bytes(), MAX_FILE_BYTES)
    response = upload(officer_client, "gros.trf", data)
    assert response["Location"] == reverse("ratings:officer-import-preview")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda t: t[: t.index("[Result", 900)], "no result (*)"),
        (lambda t: t.replace('[Result "0-1"]', '[Result "2-0"]', 1), "'2-0' is not a result"),
        (lambda t: t.replace('[Round "2"]', '[Round "two"]', 1), "'two' is not a round"),
        (lambda t: t.replace('[Date "2025.10.14"]', '[Date "14/10/2025"]', 1), "no date"),
    ],
    ids=["truncated", "bad result", "bad round", "bad date"],
)
def test_a_damaged_pgn_upload_is_refused_naming_the_game(officer_client, damage, message):
    data = damage(PGN.read_text()).encode()
    errors = upload_errors(officer_client, "games.pgn", data)
    assert message in errors and "Game " in errors
    assert nothing_saved()


def test_a_pgn_upload_in_utf_16_is_refused(officer_client):
    data = PGN.read_text().encode("utf-16")
    assert "UTF-16" in upload_errors(officer_client, "games.pgn", data)
    assert nothing_saved()


# -- the commands --------------------------------------------------------------------------


def refused(command: str, *args: str) -> str:
    with pytest.raises(CommandError) as error:
        call_command(command, "--create-missing", *args, stdout=io.StringIO())
    text = str(error.value)
    assert "nothing saved" in text
    return text


@pytest.mark.parametrize(("command", "source"), [("import_trf", GROS), ("import_pgn", PGN)])
def test_a_20_mb_file_is_refused_by_the_commands_before_it_is_read(tmp_path, command, source):
    path = tmp_path / ("big" + source.suffix)
    path.write_bytes(padded(source.read_bytes(), TWENTY_MB))
    assert f"{path}: the file is 20.0 MB" in refused(command, str(path))
    assert nothing_saved()


def test_a_truncated_pgn_is_refused_by_the_command_naming_the_game(tmp_path):
    text = PGN.read_text()
    path = tmp_path / "cut.pgn"
    path.write_text(text[: text.index("[Result", 900)])
    assert "no result (*)" in refused("import_pgn", str(path))
    assert nothing_saved()


def test_a_pgn_in_utf_16_is_refused_by_the_command(tmp_path):
    path = tmp_path / "utf16.pgn"
    path.write_bytes(PGN.read_text().encode("utf-16"))
    assert "UTF-16" in refused("import_pgn", str(path))
    assert nothing_saved()
