"""The public pages in Chromium: the list sorts, filters and searches; a member's chart draws."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.models import Game

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club_history(rated_event, current_season, alice, bob, carol, dave):
    """A small club's autumn: four regulars, two juniors and a member in arrears."""
    year = dt.date.today().year
    junior = MemberFactory(name="Jun Junior", born=dt.date(year - 14, 5, 5), region="North")
    young = MemberFactory(name="Yara Young", gender="F", born=dt.date(year - 11, 2, 2))
    unpaid = MemberFactory(name="Una Unpaid", region="South")
    for member in (alice, bob, carol, dave, junior, young):
        paid_up(member, current_season)
    players = [alice, bob, carol, dave, junior, young, unpaid]
    results = [Game.Result.WHITE_WIN, Game.Result.DRAW, Game.Result.BLACK_WIN]
    for week in range(4):
        day = dt.date(year, 9, 1) + dt.timedelta(weeks=week)
        games = [
            (1, players[i], players[(i + week + 1) % 7], results[(i + week) % 3 if i else 0])
            for i in range(0, 6, 2)
        ]
        rated_event(games, date=day, name=f"Club night {week + 1}")
    return players


def test_a_member_sorts_filters_and_searches_the_list_then_opens_a_member(page, club_history):
    page.goto("/ratings/")
    assert page.get_by_role("heading", name="Rating list").is_visible()
    assert page.get_by_text("Una Unpaid").count() == 0

    page.get_by_role("link", name="Name").click()
    page.wait_for_url("**sort=name**")
    names = page.locator("table.rating-list tbody tr td:nth-child(2)").all_inner_texts()
    assert names == sorted(names)

    page.get_by_label("Women only").check()
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**women=on**")
    names = page.locator("table.rating-list tbody tr td:nth-child(2)").all_inner_texts()
    assert set(names) == {"Alice Archer", "Carol Chen", "Yara Young"}

    page.get_by_role("link", name="Clear").click()
    page.get_by_label("Name").fill("jun")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**name=jun**")
    page.get_by_role("link", name="Jun Junior").click()
    page.wait_for_url("**/members/**")
    assert page.get_by_role("heading", name="Jun Junior").is_visible()
    chart = page.locator("svg.rating-chart")
    assert chart.is_visible()
    assert chart.locator("circle.point").count() >= 2
    assert "Rating history of Jun Junior" in chart.locator("title").first.text_content()


DUNS = ("Dave Dunn", "Jun Junior", "Yara Young")  # "un" finds them, and Una Unpaid


def test_the_public_pages_read_on_a_phone(phone_page, club_history):
    phone_page.goto("/ratings/")
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways
    phone_page.goto(f"/members/{club_history[0].member_number}/")
    assert phone_page.locator("svg.rating-chart circle.point").count() >= 2
    phone_page.goto("/calculator/")
    phone_page.get_by_role("button", name="Add a game").click()
    assert phone_page.locator(".game-row").count() == 4  # added in place, no reload
    # The search box offers published members as one types; never Una, who is unpaid.
    phone_page.locator("#id_p-member").press_sequentially("un")
    # A selector, not wait_for_function: the page's CSP refuses evaluating a string.
    phone_page.wait_for_selector("#member-options option", state="attached")
    offered = phone_page.locator("#member-options option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    assert offered == [f"{m.name} ({m.member_number})" for m in club_history if m.name in DUNS]
    phone_page.locator("#id_p-member").fill(offered[0])
    phone_page.locator("#id_g-0-rating").fill("1600")
    phone_page.locator("#id_g-0-result").select_option("1")
    # The answer is a new page: wait for it (is_visible asks at once, and on a busy
    # machine would ask the page before it).
    with phone_page.expect_navigation():
        phone_page.get_by_role("button", name="Work it out").click()
    assert phone_page.locator(".outcome").is_visible()


def test_the_list_the_member_page_and_a_report_print_cleanly(page, club_history):
    for url in ("/ratings/", f"/members/{club_history[0].member_number}/", "/reports/top/"):
        page.goto(url)
        page.emulate_media(media="print")
        assert not page.locator("nav.navbar").is_visible()
        assert not page.locator("form.filters").is_visible()
        page.emulate_media(media="screen")
