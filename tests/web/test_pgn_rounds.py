"""PGN as chess.com, lichess and pairing programs export it: a missing, '-' or '?' round."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.formats.tournament_files import pgn_events
from ratings.models import Event


def pgn(*games: tuple[str, str, str, str | None]) -> bytes:
    """Games of one event: (date, white, black, Round tag or None for none)."""
    text = []
    for day, white, black, round_ in games:
        tag = "" if round_ is None else f'[Round "{round_}"]\n'
        text.append(
            f'[Event "Online Swiss"]\n[Site "Chess.com"]\n[Date "{day}"]\n{tag}'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "1-0"]\n\n1-0\n'
        )
    return "\n".join(text).encode()


def rounds(data: bytes) -> tuple[list[tuple[int, int, int | None]], list[str]]:
    events, problems = pgn_events("f.pgn", data)
    assert not problems
    (event,) = events
    return [(r, w, b) for r, w, b, _res, _c in event.games], event.notes


@pytest.mark.parametrize("tag", ["-", "?", None])
def test_games_of_one_day_without_rounds_go_in_the_order_of_the_file(tag):
    data = pgn(
        ("2025.03.01", "ann", "bo", tag),
        ("2025.03.01", "cy", "di", tag),
        ("2025.03.01", "ann", "cy", tag),
        ("2025.03.01", "bo", "di", tag),
    )
    games, notes = rounds(data)
    assert [g[0] for g in games] == [1, 1, 2, 2]
    assert "4 games gave no round" in notes[0] and "placed in 2 rounds (1, 2)" in notes[0]


def test_games_on_several_dates_without_rounds_are_a_round_a_date():
    data = pgn(
        ("2025.03.08", "ann", "cy", "-"),
        ("2025.03.01", "ann", "bo", "-"),
        ("2025.03.01", "cy", "di", "-"),
    )
    games, notes = rounds(data)
    assert [g[0] for g in games] == [2, 1, 1]
    assert "one a date" in notes[0]


def test_games_with_rounds_keep_them_and_say_nothing():
    games, notes = rounds(pgn(("2025.03.01", "ann", "bo", "3")))
    assert [g[0] for g in games] == [3] and notes == []


def test_a_one_round_night_is_a_club_night_not_a_swiss():
    events, _ = pgn_events("f.pgn", pgn(("2025.03.01", "ann", "bo", "-")))
    assert events[0].kind == Event.Kind.CLUB_NIGHT


def test_a_round_that_is_not_one_is_still_refused():
    _events, problems = pgn_events("f.pgn", pgn(("2025.03.01", "ann", "bo", "x")))
    assert "'x' is not a round (1 to 99)" in problems[0]


@pytest.mark.django_db
def test_the_preview_shows_the_rounds_it_made(officer_client):
    data = pgn(
        ("2025.03.01", "Ann", "Bo", "-"),
        ("2025.03.01", "Cy", "Di", "-"),
        ("2025.03.01", "Ann", "Cy", "-"),
    )
    officer_client.post(
        reverse("ratings:officer-import"), {"file": SimpleUploadedFile("live.pgn", data)}
    )
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "3 games gave no round (Round missing, &#x27;-&#x27; or &#x27;?&#x27;)" in page
    assert "placed in 2 rounds (1, 2)" in page
