"""Every officer page, opened in a real browser by a visitor, asks for the login first."""

import pytest

from ratings.models import Game

from ..web.test_officer_access import officer_urls

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_is_sent_to_the_login_page_from_every_officer_page(
    page, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    urls = list(officer_urls(event, alice))
    assert urls
    for url in urls:
        page.goto(url)
        assert page.url.endswith(f"/accounts/login/?next={url}"), url
        assert page.get_by_role("heading", name="Officer log in").is_visible(), url
