"""In Chromium: the administrator keeps rapid on a list of its own, and a visitor reads
the rapid list, its tab beside the standard one, and a member's rapid chart."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from ratings.models import Game, RatingChange

from ..factories import paid_up
from .conftest import screenshot
from .test_admin_corrections import _log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_rapid_kept_apart_gets_its_own_list_tab_and_chart(
    page, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    day = timezone.localdate() - dt.timedelta(days=10)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=day)
    rated_event(
        [(1, alice, bob, Game.Result.BLACK_WIN), (2, bob, alice, Game.Result.WHITE_WIN)],
        date=day + dt.timedelta(days=1),
        name="Saturday Rapid",
        time_class="rapid",
    )
    page.goto("/ratings/live/")
    assert page.locator(".list-kinds").count() == 0  # one list: no tabs

    _log_in(page)
    page.goto("/admin/ratings/ratinglist/add/")
    page.get_by_label("Time class").select_option("rapid")
    page.get_by_label("Rated").select_option("own")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/admin/ratings/ratinglist/")
    assert set(RatingChange.objects.values_list("time_class", flat=True)) == {"standard", "rapid"}
    page.context.clear_cookies()  # from here on a visitor

    page.goto("/ratings/live/")
    tabs = page.locator(".list-kinds")
    assert tabs.get_by_role("link", name="Standard list").get_attribute("aria-current") == "page"
    standard_top = page.locator("table.rating-list tbody tr").first.inner_text()
    assert "Alice Archer" in standard_top
    tabs.get_by_role("link", name="Rapid list").click()
    page.wait_for_url(re.compile(r".*/ratings/live/\?list=rapid$"))
    assert page.get_by_role("heading", name="Rapid rating list").is_visible()
    rapid_top = page.locator("table.rating-list tbody tr").first.inner_text()
    assert "Bob Brown" in rapid_top
    screenshot(page, "rapid-list-desktop")

    page.get_by_role("link", name="Bob Brown").first.click()
    page.wait_for_url(re.compile(r".*/members/.*"))
    page.locator(".list-kinds").get_by_role("link", name="Rapid list").click()
    page.wait_for_url(re.compile(r".*\?list=rapid$"))
    assert page.locator("figure.chart").is_visible()
    screenshot(page, "member-rapid-desktop")
