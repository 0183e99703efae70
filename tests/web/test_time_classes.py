"""Reading an event's time control class (standard, rapid, blitz) from its time control."""

from __future__ import annotations

import pytest

from ratings.time_classes import time_class_of


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90+30", "standard"),
        ("90'+30''", "standard"),
        ("100'x40mm + 50'x20mm + 30\" from move 1", "standard"),
        ("G/60", "standard"),
        ("45+15", "standard"),  # 45 minutes and 15 minutes of increments for 60 moves
        ("25+10", "rapid"),
        ("15 min + 10 sec", "rapid"),
        ("10+5", "rapid"),
        ("5+3", "blitz"),
        ("3'+2\"", "blitz"),
        ("10 min", "blitz"),
        ("Rapid, 25 minutes", "rapid"),
        ("Blitz", "blitz"),
        ("Classical", "standard"),
    ],
)
def test_the_time_for_sixty_moves_classes_a_time_control(text, expected):
    assert time_class_of(text) == expected


@pytest.mark.parametrize("text", ["", "moves/time, increment", "see the rules"])
def test_a_time_control_with_nothing_readable_gives_no_class(text):
    assert time_class_of(text) is None


# -- on the event -----------------------------------------------------------------------


@pytest.mark.django_db
def test_an_event_is_standard_unless_the_officer_says_otherwise(officer_client):
    from django.urls import reverse

    from ratings.models import Event

    form = {
        "name": "Rapid night",
        "kind": Event.Kind.SWISS,
        "start_date": "2026-03-02",
        "end_date": "2026-03-02",
        "rounds": 5,
        "time_control": "15+5",
        "time_class": "rapid",
        "rated": "on",
    }
    response = officer_client.post(reverse("ratings:officer-event-add"), form)
    assert response.status_code == 302
    assert Event.objects.get(name="Rapid night").time_class == "rapid"
    page = officer_client.get(Event.objects.get(name="Rapid night").get_absolute_url())
    assert '<span class="time-class">Rapid</span>' in page.content.decode()


@pytest.mark.django_db
def test_a_tournament_files_time_control_gives_its_events_class(tmp_path):
    import io

    from django.core.management import call_command

    from ratings.models import Event

    from ..conftest import TRF_FILES

    text = (TRF_FILES / "lichess-swiss-2020-05.trf").read_text(encoding="utf-8")
    lines = [("122 3+2" if line.startswith("122") else line) for line in text.splitlines()]
    blitz = tmp_path / "blitz.trf"
    blitz.write_text("\n".join(lines) + "\n", encoding="utf-8")
    call_command("import_trf", str(blitz), "--create-missing", stdout=io.StringIO())
    assert Event.objects.get().time_class == "blitz"


@pytest.mark.django_db
def test_the_web_import_offers_the_files_class_to_check(officer_client):
    from django.urls import reverse

    from ..conftest import TRF_FILES

    with (TRF_FILES / "trf26-team.trf").open("rb") as upload:
        response = officer_client.post(reverse("ratings:officer-import"), {"file": upload})
    preview = officer_client.get(response["Location"])
    assert preview.context["form"].initial["time_class"] == "standard"
