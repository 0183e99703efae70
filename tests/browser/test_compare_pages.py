"""The comparison of systems in Chromium: the officer starts one, the progress page follows
it to the results (under the Content-Security-Policy), and members read it once published."""

import datetime as dt

import pytest

from ratings.engine import SYSTEMS
from ratings.models import Game

from ..factories import officer_user, paid_up
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club_nights(rated_event, current_season, alice, bob, carol, dave):
    for member in (alice, bob, carol, dave):
        paid_up(member, current_season)
    for week, result in enumerate((Game.Result.WHITE_WIN, Game.Result.DRAW), start=1):
        rated_event(
            [(1, alice, bob, result), (1, carol, dave, Game.Result.BLACK_WIN)],
            name=f"Club night {week}",
            date=dt.date(2026, 3, week * 7),
        )
    officer_user()


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_an_officer_compares_the_systems_and_members_read_it(request, width, club_nights, alice):
    page = request.getfixturevalue("phone_page" if width == "phone" else "page")
    log_in(page, "/officer/compare/")
    page.get_by_role("button", name="Compare the systems").click()
    # The test server runs the task at once: the progress page shows the results.
    page.wait_for_selector("#calibration")
    assert page.locator("svg.calibration-chart").count() == len(SYSTEMS)
    assert page.locator("svg.compare-chart polyline").count() >= 3
    page.get_by_role("button", name="Publish to members").click()
    page.wait_for_selector("text=Withdraw from members")
    page.context.clear_cookies()
    response = page.goto("/compare/")
    assert response.status == 200
    assert page.locator(".top-lists").get_by_text(alice.name).first.is_visible()
