import pytest

from ratings.models import Game

from ..factories import paid_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_page_and_published_list_open_in_chromium(
    page, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    page.goto("/")
    assert page.get_by_role("link", name="See the rating list").is_visible()
    page.get_by_role("link", name="See the rating list").click()
    page.wait_for_url("**/ratings/")
    assert page.get_by_role("heading", name="Rating list").is_visible()
    assert page.get_by_role("cell", name="Alice Archer").is_visible()
    assert page.get_by_text("Bob Brown").count() == 0  # not paid up: rated, not published
