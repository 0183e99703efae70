"""A visitor reads an acf-1993 club in Chromium: the event report and the list write the
ACF's notation (1586p, Unr, a newcomer's games to go as "9 R") readably, once, explained."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from ratings import services

from ..factories import MemberFactory, brought_in, paid_up, pat_provisional
from ..web.test_period_display import close_period_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def acf_club(current_season, rated_event, alice, bob, carol):
    """acf-1993: three confirmed members, Pat provisional (8 games brought in), Nina new;
    the Autumn Cup played in rating period Mar–Jun 2026, and that period closed."""
    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 1800), (bob, 1700), (carol, 1600)):
        brought_in(member, rating, current_season)
    pat = pat_provisional(current_season)
    nina = paid_up(MemberFactory(name="Nina Newcomer"), current_season)
    games = [
        (1, alice, pat, "1/2-1/2"),
        (1, bob, nina, "1-0"),
        (2, nina, carol, "0-1"),
        (2, pat, bob, "1-0"),
    ]
    event = rated_event(
        games,
        name="Autumn Cup",
        date=dt.date(2026, 3, 2),
        rate=False,
    )
    close_period_of(event)
    return event


def row_of(page, name: str):
    return page.locator("tr", has=page.get_by_role("link", name=name, exact=True))


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_a_visitor_reads_the_acf_event_report(request, width, acf_club):
    page = request.getfixturevalue("phone_page" if width == "phone" else "page")
    page.goto(f"/events/{acf_club.pk}/report/")
    expect(page).to_have_title(re.compile(r"^Rating report · Autumn Cup · "))
    assert "Reading the rating" not in page.title()
    expect(page.locator(".period-change")).to_contain_text(
        "The change is the rating period's, not this event's."
    )
    pat = row_of(page, "Pat Provisional")
    expect(pat).to_contain_text("1586p")
    nina = row_of(page, "Nina Newcomer")
    expect(nina).to_contain_text("9 R")
    expect(nina).to_contain_text("Unr")
    legend = page.locator("section.legend")
    expect(legend).to_have_count(1)
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("a provisional rating")
    expect(legend).to_contain_text("not yet rated")


def test_a_visitor_reads_the_acf_list(page, acf_club):
    page.goto("/ratings/")
    pat = row_of(page, "Pat Provisional")
    expect(pat.locator("td.rating").nth(1)).to_have_text("1586p")
    nina = row_of(page, "Nina Newcomer")
    expect(nina).to_contain_text("Unr")
    expect(nina.locator("td").first).not_to_have_text(re.compile(r"\d"))  # no place yet
    legend = page.locator("section.legend")
    expect(legend).to_have_count(1)
    expect(legend).to_contain_text("a provisional rating: use it for seeding")
    expect(legend).to_contain_text("unrated: not yet qualified")


def test_a_visitor_filtering_the_acf_list_keeps_each_members_place(page, acf_club):
    page.goto("/ratings/")
    place = row_of(page, "Pat Provisional").locator("td").first.inner_text()
    page.get_by_label("Name").fill("pat")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**name=pat**")
    expect(row_of(page, "Pat Provisional").locator("td").first).to_have_text(place)
    assert place != "1"
