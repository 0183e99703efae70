"""The browser's own Print (Ctrl+P) of a list page prints every row the header counts, in
Chromium: a list of a few hundred carries its other rows, hidden on screen; a longer list's
page loads the whole list as printing starts (issue 41)."""

from __future__ import annotations

import pytest

from ratings import services

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = "table.rating-list tbody tr"


@pytest.fixture
def fifty_five(current_season):
    for n in range(55):
        member = MemberFactory(name=f"Player {n:03}")
        rating_state(member, rating=2000 - n, display=str(2000 - n), games=10)
        paid_up(member, current_season)  # the list's kept figures recounted, as on a payment


def visible_rows(page) -> int:
    return page.locator(ROWS).evaluate_all(
        "rows => rows.filter(row => row.getClientRects().length > 0).length"
    )


def test_the_published_list_prints_all_55_members_its_header_counts(page, fifty_five):
    services.list_publish(note="")
    page.goto("/ratings/")
    page.get_by_text("55 members listed").wait_for()
    assert visible_rows(page) == 50  # the screen shows its page
    page.emulate_media(media="print")
    assert visible_rows(page) == 55
    assert page.locator(ROWS).nth(54).inner_text().startswith("55")


def test_the_second_page_of_the_live_list_prints_the_whole_list_in_order(page, fifty_five):
    page.goto("/ratings/live/?page=2")
    assert visible_rows(page) == 5
    page.emulate_media(media="print")
    assert visible_rows(page) == 55
    places = [row.split("\t")[0] for row in page.locator(ROWS).all_inner_texts()]
    assert places == [str(n) for n in range(1, 56)]


def test_a_list_too_long_to_carry_is_loaded_whole_as_printing_starts(page, fifty_five, settings):
    settings.PRINT_WHOLE_LIST_ROWS = 20
    page.goto("/ratings/")
    page.emulate_media(media="print")
    assert visible_rows(page) == 50
    assert page.get_by_text("This prints the page shown: members 1–50 of 55").is_visible()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # as Ctrl+P does
    assert visible_rows(page) == 55
    assert not page.get_by_text("This prints the page shown").is_visible()
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    assert visible_rows(page) == 50  # the screen has its page back
