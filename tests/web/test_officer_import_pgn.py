"""The web import takes a PGN file too: the same preview and confirmation, one event at a time."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import Event, Game, Member

pytestmark = pytest.mark.django_db

PGN = Path(__file__).resolve().parent.parent / "data" / "pgn"
TWO = PGN / "two-events.pgn"
PREVIEW = reverse("ratings:officer-import-preview")


def upload(client, data=None, name="games.pgn", **fields):
    data = TWO.read_bytes() if data is None else data
    return client.post(
        reverse("ratings:officer-import"), {"file": SimpleUploadedFile(name, data), **fields}
    )


def confirm(client, **choices):
    form = client.get(PREVIEW).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data["rated"] = "on"
    data.update(choices)
    return client.post(PREVIEW, data)


def test_a_pgn_file_is_previewed_one_event_at_a_time(officer_client):
    assert upload(officer_client)["Location"] == PREVIEW
    preview = officer_client.get(PREVIEW)
    page = preview.content.decode()
    assert "This file holds 2 events" in page
    assert preview.context["form"]["name"].value() == "Eastvale Autumn Cup 2025"
    assert "4 players, 3 rounds, 6 games" in page
    assert not Event.objects.exists()


def test_confirming_each_event_of_a_pgn_file_imports_it_and_moves_to_the_next(officer_client):
    upload(officer_client)
    assert confirm(officer_client)["Location"] == PREVIEW
    assert officer_client.get(PREVIEW).context["form"]["name"].value() == "Southbank Rapid"
    response = confirm(officer_client)
    southbank = Event.objects.get(name="Southbank Rapid")
    assert response["Location"] == reverse("ratings:officer-event", args=[southbank.pk])
    eastvale = Event.objects.get(name="Eastvale Autumn Cup 2025")
    assert (eastvale.games.count(), southbank.games.count()) == (6, 3)
    assert Member.objects.count() == 4  # the second event matched the first one's new members
    first = eastvale.games.get(round=1, white__name="Mikhail Petrov")
    assert (first.black.name, first.result) == ("Ana Tuilagi", Game.Result.WHITE_WIN)
    assert Member.objects.get(name="Mikhail Petrov").fide_id == "4130545"


def test_an_event_of_the_file_is_chosen_from_the_preview_list(officer_client):
    upload(officer_client)
    preview = officer_client.get(PREVIEW + "?event=2")
    assert preview.context["form"]["name"].value() == "Southbank Rapid"


def test_the_officer_puts_every_game_of_a_pgn_file_in_one_named_event(officer_client):
    upload(officer_client, event_name="Autumn games")
    preview = officer_client.get(PREVIEW)
    assert "This file holds" not in preview.content.decode()
    assert preview.context["form"]["name"].value() == "Autumn games"
    confirm(officer_client)
    assert Event.objects.get().games.count() == 9


def test_a_pgn_game_without_a_result_is_refused_on_the_upload_page_by_its_number(
    officer_client,
):
    response = upload(officer_client, (PGN / "unfinished.pgn").read_bytes())
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["file"])
    assert "Game 4" in errors and "no result (*)" in errors
    assert not Event.objects.exists()


def test_a_file_named_pgn_without_games_is_refused(officer_client):
    response = upload(officer_client, b"just some text\n")
    assert "no games: not a PGN file" in " ".join(response.context["form"].errors["file"])


def test_a_pgn_file_is_recognised_by_its_headers_whatever_its_name(officer_client):
    upload(officer_client, name="games.txt")
    assert officer_client.get(PREVIEW).context["form"]["name"].value() == (
        "Eastvale Autumn Cup 2025"
    )
