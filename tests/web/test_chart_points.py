"""The rating chart draws a history: never a lone dot, never one point drawn twice."""

import datetime as dt

import pytest

from ratings.presentation.charts import Point, rating_history_svg

from ..factories import paid_up


def test_one_point_is_no_chart():
    assert str(rating_history_svg([Point(dt.date(2026, 3, 2), 1500, "x")], title="t")) == ""


@pytest.mark.django_db
def test_a_one_night_events_before_and_after_are_two_points(
    client, rated_event, alice, bob, current_season
):
    paid_up(alice, current_season)
    alice.initial_rating, alice.initial_games = 1600, 30
    alice.save()
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 3, 2))
    chart = str(client.get(alice.get_absolute_url()).context["chart"])
    assert chart.count('<circle class="point"') == 2
    assert "2026-03-01" in chart and "2026-03-02" in chart
