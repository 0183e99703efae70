"""Reading an event's time control class (standard, rapid, blitz) from its time control."""

from __future__ import annotations

import pytest

from ratings.rules.time_classes import time_class_and_why, time_class_of


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
        ("40/120, 60", "standard"),  # 120 minutes for the first 40 moves, not "40"
        ("40/6000+30:20/3000+30:1500+30", "standard"),  # PGN's TimeControl, in seconds
        ("300+3", "blitz"),  # the same, 5 minutes and 3 seconds
        ("1h30 + 30s", "standard"),
        ("5 plus 0", "blitz"),
        ("Schnellschach 15 min", "rapid"),
        # FIDE's notations, as tournament files write them.
        ("90/40+30", "standard"),  # 90 minutes for 40 moves, then 30: not 40 for 90
        ("120/40", "standard"),
        ("40/90+30/30", "standard"),
        ("15 min. + 10 s.", "rapid"),
        ("3 min. + 2 s.", "blitz"),
        ("5400/40+30:1800+30", "standard"),  # PGN's TimeControl, time first
        ("20/10+5", "rapid"),  # 10 minutes for 20 moves, then 5: 15 minutes
    ],
)
def test_the_time_for_sixty_moves_classes_a_time_control(text, expected):
    assert time_class_of(text) == expected


@pytest.mark.parametrize("text", ["", "moves/time, increment", "see the rules"])
def test_a_time_control_with_nothing_readable_gives_no_class(text):
    assert time_class_of(text) is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Mai 5 Plus 0 Turnier", "blitz"),
        ("Blitzschach 5 Plus 0", "blitz"),
        ("Blitzschachturnier", "blitz"),
        ("Lightning night", "blitz"),
        ("Open rapide de Paris", "rapid"),
        ("Torneo de partidas rápidas", "rapid"),
        ("Torneo relámpago", "blitz"),
        ("Schnellschach-Open", "rapid"),
        ("Tournoi classique", "standard"),
        ("Club night 25 min", "rapid"),
    ],
)
def test_a_name_in_english_german_french_or_spanish_gives_the_class(name, expected):
    found = time_class_and_why("", name)
    assert found is not None and found[0] == expected


def test_a_name_with_only_a_year_or_a_round_gives_no_class():
    assert time_class_and_why("", "Club Championship 2024 round 5") is None


def test_the_time_control_wins_over_the_name_and_says_why():
    time_class, why = time_class_and_why("40/120, 60", "Rapid Masters") or ("", "")
    assert time_class == "standard"
    assert why == (
        'the time control "40/120, 60": 120 minutes for the first 40 moves, then 60 minutes '
        "= 180 minutes for 60 moves, standard (60 minutes or more)"
    )


@pytest.mark.parametrize(
    ("text", "how"),
    [
        ("90/40+30", "90 minutes for the first 40 moves, then 30 minutes = 120 minutes"),
        (
            "40/90+30/30",
            "90 minutes for the first 40 moves, then 30 minutes, + 60 × 30 seconds = 150 minutes",
        ),
        ("15 min. + 10 s.", "15 minutes + 60 × 10 seconds = 25 minutes"),
        (
            "5400/40+30:1800+30",
            "90 minutes for the first 40 moves, then 30 minutes, + 60 × 30 seconds = 150 minutes",
        ),
    ],
)
def test_fides_notations_are_read_period_by_period_for_sixty_moves(text, how):
    assert how + " for 60 moves" in time_class_and_why(text, "")[1]


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


@pytest.mark.django_db
def test_the_preview_shows_the_class_read_and_why_and_the_officer_may_change_it(officer_client):
    from django.urls import reverse

    from ratings.models import Event

    from .test_officer_import import TRF, confirm, upload

    upload(officer_client, TRF / "lichess-swiss-2020-05.trf", "lichess.trf")
    preview = officer_client.get(reverse("ratings:officer-import-preview"))
    assert preview.context["form"]["time_class"].value() == "blitz"
    assert "Read as blitz: the event&#x27;s name &quot;Mai 5 Plus 0 Turnier&quot;" in (
        preview.content.decode()
    )
    confirm(officer_client, time_class="rapid")
    assert Event.objects.get().time_class == "rapid"
