"""Wherever a page shows a system's markers ("4 R", "Unr", "1486p"), it explains them with
the system's legend: the officer's pages as the public ones."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Game

from ..factories import paid_up

pytestmark = pytest.mark.django_db


def markers_shown(text: str) -> set[str]:
    """The acf-1993 markers a page shows in a cell of its own."""
    return set(re.findall(r">\s*(\d+ R|Unr|\d+p)\s*<", text))


@pytest.fixture
def new_players(current_season, rated_event, alice, bob, carol):
    """acf-1993: Alice (1800, confirmed) beats Bob and draws with Carol, both new, in
    March; the period Mar-Jun 2026 is closed, so Bob and Carol are listed with markers.
    A July night, complete, waits for its period (Jul-Oct 2026), still open."""
    services.rating_system_set(system_id="acf-1993")
    alice.initial_rating, alice.initial_games = 1800, 30
    alice.save()
    for member in (alice, bob, carol):
        paid_up(member, current_season)
    march = rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (1, carol, alice, Game.Result.DRAW)],
        name="March night",
        date=dt.date(2026, 3, 4),
    )
    services.period_close(period=services.period_for(march, ClubSettings.load().engine()))
    july = rated_event(
        [(1, alice, bob, Game.Result.DRAW)],
        name="July night",
        date=dt.date(2026, 7, 8),
        rate=False,
    )
    return july


@pytest.mark.parametrize(
    "page",
    ["officer-members", "officer-event", "officer-event-complete"],
)
def test_an_officer_page_showing_markers_explains_them(officer_client, new_players, page):
    args = [] if page == "officer-members" else [new_players.pk]
    text = officer_client.get(reverse(f"ratings:{page}", args=args)).content.decode()
    assert markers_shown(text), "the page shows the system's markers"
    assert 'id="legend-title">Reading the rating</h2>' in text
    assert "not yet rated: " in text  # the legend's own words for "N R"
