"""A publication in Chromium: the officer publishes, a correction follows, a visitor walks
the published list, the live list, the changes and a member's published ratings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ratings import services
from ratings.models import Game, Publication

from ..factories import officer_user, paid_up
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club(rated_event, seasons_of_the_last, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    for member in (alice, bob, carol, dave):  # on last month's list and today's
        paid_up(member, *seasons_of_the_last(30))
    return rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (1, carol, dave, Game.Result.DRAW)],
        date=timezone.localdate() - dt.timedelta(days=10),
    )


def test_an_officer_publishes_and_a_visitor_walks_the_publication(page, club, browser):
    officer_user()
    # The first list, published a month ago.
    services.list_publish(note="Last month", now=timezone.now() - dt.timedelta(days=30))
    # A correction: Alice lost. Then the officer publishes with a note.
    club.games.filter(white__member_number="A1").update(result=Game.Result.BLACK_WIN)
    services.ratings_rerate(services.RerateRequest(start=club, reason="correction"))
    log_in(page)
    page.get_by_role("link", name="Publish the list").click()
    page.wait_for_url("**/officer/publish/")
    page.get_by_label("Note").fill("Corrected: Bob beat Alice.")
    page.get_by_role("button", name="Publish the list").click()
    page.wait_for_selector("text=The list is published")
    assert Publication.objects.count() == 2
    page.context.clear_cookies()  # from here on a visitor

    page.goto("/ratings/")
    assert page.get_by_text("Corrected: Bob beat Alice.").is_visible()
    first = page.locator("table.rating-list tbody tr").first.inner_text()
    assert "Bob Brown" in first

    page.get_by_role("link", name="Live list").click()
    page.wait_for_url("**/ratings/live/")
    assert page.locator(".live-label").is_visible()

    page.goto("/ratings/")
    page.get_by_role("link", name="What changed since").click()
    page.wait_for_url("**/changes/")
    assert page.get_by_role("heading", name="Biggest rises").is_visible()
    assert "Bob Brown" in page.locator("table.rises").inner_text()
    assert "Alice Archer" in page.locator("table.falls").inner_text()
    assert page.locator("svg.changes-chart").is_visible()

    page.get_by_role("link", name="Every published list").click()
    page.wait_for_url("**/ratings/published/")
    assert page.locator("table.publications tbody tr").count() == 2

    # The older list still shows Alice on top, as it was published, and says it has moved.
    page.locator("table.publications tbody tr").nth(1).get_by_role("link").first.click()
    assert "Alice Archer" in page.locator("table.rating-list tbody tr").first.inner_text()
    assert page.locator(".live-moved").is_visible()

    page.goto("/members/A1/")
    assert page.get_by_role("heading", name="On the published lists").is_visible()
    assert page.locator(".published-ratings tbody tr").count() == 2


def test_the_publication_pages_read_on_a_phone(phone_page, club):
    services.list_publish(note="Last month", now=timezone.now() - dt.timedelta(days=30))
    club.games.filter(white__member_number="A1").update(result=Game.Result.BLACK_WIN)
    services.ratings_rerate(services.RerateRequest(start=club, reason="correction"))
    latest = services.list_publish(note="This month")
    page = phone_page
    page.goto("/ratings/")
    assert page.locator("table.rating-list").is_visible()
    page.goto(latest.get_absolute_url() + "changes/")
    assert page.locator("svg.changes-chart").is_visible()
    page.goto("/api/v1/docs/")
    assert page.get_by_role("heading", name="Club Ratings read API").is_visible()
