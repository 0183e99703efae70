"""In Chromium: the administrator keeps rapid on a list of its own, and a visitor reads
the rapid list, its tab beside the standard one, and a member's rapid chart; the officer
moves an event to the rapid list on its form, and a visitor walks the rapid list's
publication."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from ratings import services
from ratings.models import Game, Publication, RatingChange, RatingList

from ..factories import officer_user, paid_up
from .test_admin_corrections import _log_in
from .test_officer_workflow import log_in

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

    page.get_by_role("link", name="Bob Brown").first.click()
    page.wait_for_url(re.compile(r".*/members/.*"))
    page.locator(".list-kinds").get_by_role("link", name="Rapid list").click()
    page.wait_for_url(re.compile(r".*\?list=rapid$"))
    assert page.locator("figure.chart").is_visible()


def test_an_event_moved_to_rapid_on_the_officers_form_reaches_the_rapid_lists_publication(
    page, rated_event, seasons_of_the_last, alice, bob, carol
):
    officer_user()
    for member in (alice, bob, carol):  # on the list of 15 days ago and today's
        paid_up(member, *seasons_of_the_last(15))
    services.rating_list_set(rating_list=RatingList(time_class="rapid", kept=RatingList.Kept.OWN))
    day = timezone.localdate() - dt.timedelta(days=20)
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, Game.Result.DRAW)],
        date=day,
        name="Saturday Rapid",
        time_class="rapid",
    )
    services.list_publish(
        note="The rapid list after Saturday Rapid",
        now=timezone.now() - dt.timedelta(days=15),
        time_class="rapid",
    )
    # Entered as a standard event; it was played at 25 minutes a side.
    quickplay = rated_event(
        [(1, bob, carol, Game.Result.WHITE_WIN), (2, bob, alice, Game.Result.WHITE_WIN)],
        date=day + dt.timedelta(days=10),
        name="Thursday Quickplay",
    )
    assert set(quickplay.rating_changes.values_list("time_class", flat=True)) == {"standard"}

    log_in(page, next_url=f"/officer/events/{quickplay.pk}/edit/")
    page.get_by_label("Time control").fill("25+5")
    page.get_by_label("Standard, rapid or blitz").select_option("rapid")
    page.get_by_label("Reason for the change").fill("Played at 25 minutes a side")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("button", name=re.compile(r"Confirm: save and re-rate")).click()
    page.wait_for_url(f"**/officer/events/{quickplay.pk}/")
    assert set(quickplay.rating_changes.values_list("time_class", flat=True)) == {"rapid"}

    page.goto("/officer/publish/?list=rapid")
    assert page.get_by_role("heading", name="Publish the rapid rating list").is_visible()
    page.get_by_label("Note").fill("Thursday Quickplay is rapid: moved to this list.")
    page.get_by_role("button", name="Publish the list").click()
    page.wait_for_selector("text=The rapid list is published")
    assert Publication.objects.filter(time_class="rapid").count() == 2
    page.context.clear_cookies()  # from here on a visitor

    page.goto("/ratings/")
    page.locator(".list-kinds").get_by_role("link", name="Rapid list").click()
    page.wait_for_url(re.compile(r".*/ratings/\?list=rapid$"))
    assert page.get_by_text("Thursday Quickplay is rapid: moved to this list.").is_visible()
    assert "Bob Brown" in page.locator("table.rating-list tbody tr").first.inner_text()

    page.get_by_role("link", name="What changed since").click()
    page.wait_for_url("**/changes/")
    assert "Bob Brown" in page.locator("table.rises").inner_text()
    assert page.locator("svg.changes-chart").first.is_visible()
    options = page.locator("#id_since option").all_inner_texts()
    assert len(options) == 1  # the rapid list's own publications only

    page.get_by_role("link", name="Bob Brown").first.click()
    page.wait_for_url(re.compile(r".*/members/B2/.*"))
    page.locator(".list-kinds").get_by_role("link", name="Rapid list").click()
    page.wait_for_url(re.compile(r".*\?list=rapid$"))
    assert page.locator(".published-ratings tbody tr").count() == 2
