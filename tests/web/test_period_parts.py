"""A period system's change is the period's, stored alike on each of its events: the event
page and the rating report give this event's part of it beside the period's, and every
event's part, so nobody reads the period's change as the event's (acf-1993 here)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Game

from ..factories import paid_up

pytestmark = pytest.mark.django_db

WIN = Game.Result.WHITE_WIN
DRAW = Game.Result.DRAW
LOSS = Game.Result.BLACK_WIN


@pytest.fixture
def three_nights(current_season, rated_event, alice, bob, carol):
    """The club rates by acf-1993; Alice (1800, confirmed) plays three events of period
    2026-08 (Mar-Jun): loses to Carol (1600), draws with Bob (1700), beats Bob; closed."""
    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 1800), (bob, 1700), (carol, 1600)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)
    nights = [
        rated_event([(1, alice, carol, LOSS)], name="March night", date=dt.date(2026, 3, 4)),
        rated_event([(1, alice, bob, DRAW)], name="April night", date=dt.date(2026, 4, 8)),
        rated_event([(1, alice, bob, WIN)], name="June night", date=dt.date(2026, 6, 24)),
    ]
    system = ClubSettings.load().engine()
    services.period_close(period=services.period_for(nights[0], system))
    return nights


def row_of(rows, name):
    return next(row for row in rows if row["member"].name == name)


def test_the_event_page_gives_the_events_part_beside_the_periods_change(client, three_nights):
    march = three_nights[0]
    response = client.get(reverse("ratings:event", args=[march.pk]))
    alice = row_of(response.context["players"], "Alice Archer")
    report = client.get(reverse("ratings:event-report", args=[march.pk])).context["rows"]
    assert alice["share"] == row_of(report, "Alice Archer")["detail"]["Ri"] < 0
    text = response.content.decode()
    assert "before → after this event" not in text
    share = f'{alice["share_text"]}</span> <span class="d-block small text-body-secondary'
    assert f"{share} period-share\">of the period's" in text


def test_the_event_page_names_the_periods_events_with_links(client, three_nights):
    march, april, june = three_nights
    text = client.get(reverse("ratings:event", args=[march.pk])).content.decode()
    assert "before → after rating period Mar–Jun 2026" in text
    assert f'href="{april.get_absolute_url()}">April night</a>' in text
    assert f'href="{june.get_absolute_url()}">June night</a>' in text


def test_the_report_gives_each_events_part_and_they_make_the_periods_change(client, three_nights):
    march = three_nights[0]
    response = client.get(reverse("ratings:event-report", args=[march.pk]))
    alice = row_of(response.context["rows"], "Alice Archer")
    parts = alice["parts"]
    assert [part["event"].name for part in parts] == ["March night", "April night", "June night"]
    assert [part["this"] for part in parts] == [True, False, False]
    assert alice["share"] == parts[0]["share"] < 0  # a loss to a lower-rated player
    assert round(sum(part["share"] for part in parts)) == alice["change"]
    text = response.content.decode()
    assert "event by event: <strong>this event " in text
    assert 'class="rating event-share change-down"' in text
