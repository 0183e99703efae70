"""A TRF export carries FIDE's header lines, from the event and the club's settings, so a
federation's rating officer can take the file as it is."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.formats import trf
from ratings.formats.trf_export import event_to_trf
from ratings.models import ClubSettings

from ..factories import EventFactory, GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_details(club):
    ClubSettings.objects.filter(pk=club.pk).update(
        name="Riverside Chess Club",
        city="Wellington",
        federation="NZL",
        chief_arbiter="IA Jane Doe (4100001)",
        deputy_arbiters="Sam Roe\n\nKim Poe",
    )


def weekly_event(alice, bob, **fields):
    event = EventFactory(
        name="Autumn Cup",
        start_date=dt.date(2026, 3, 2),
        end_date=dt.date(2026, 3, 16),
        rounds=3,
        time_control="40/120, 60",
        **fields,
    )
    for round_ in (1, 2, 3):
        GameFactory(event=event, round=round_, white=alice, black=bob)
    event.entries.create(member=alice)
    event.entries.create(member=bob)
    return event


def header(text: str) -> dict[str, list[str]]:
    lines: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            lines.setdefault(line[:3], []).append(line[4:].rstrip())
    return lines


def test_the_header_has_fides_lines_from_the_club_and_the_event(club_details, alice, bob):
    lines = header(event_to_trf(weekly_event(alice, bob)))
    assert lines["012"] == ["Autumn Cup"]
    assert lines["022"] == ["Wellington"]
    assert lines["032"] == ["NZL"]
    assert (lines["042"], lines["052"]) == (["2026/03/02"], ["2026/03/16"])
    assert (lines["062"], lines["072"], lines["082"]) == (["2"], ["0"], ["0"])
    assert lines["092"] == ["Individual: Swiss-System"]
    assert lines["102"] == ["IA Jane Doe (4100001)"]
    assert lines["112"] == ["Sam Roe", "Kim Poe"]
    assert lines["122"] == ["40/120, 60"]


def test_round_dates_sit_under_their_rounds_and_read_back(club_details, alice, bob):
    text = event_to_trf(weekly_event(alice, bob))
    dated = next(line for line in text.splitlines() if line.startswith("132"))
    assert dated[91:99] == "26/03/02" and dated[101:109] == "26/03/09"
    assert trf.parse(text).round_dates == [
        dt.date(2026, 3, 2),
        dt.date(2026, 3, 9),
        dt.date(2026, 3, 16),
    ]


def test_an_event_whose_rounds_the_dates_do_not_tell_has_no_round_dates(club, alice, bob):
    event = weekly_event(alice, bob)
    event.end_date = dt.date(2026, 3, 10)
    event.save()
    assert "\\n132" not in event_to_trf(event)
    assert not any(line.startswith("132") for line in event_to_trf(event).splitlines())


def test_a_club_without_its_details_leaves_their_lines_out(club, alice, bob):
    lines = header(event_to_trf(weekly_event(alice, bob)))
    assert not {"022", "032", "102", "112"} & set(lines)
