"""An officer page, opened in a real browser by a visitor, asks for the login first."""

import pytest
from django.urls import reverse

from ratings.models import Game

from ..web.test_officer_access import officer_urls

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_is_sent_to_the_login_page_from_an_officer_page_and_a_download(
    page, rated_event, alice, bob
):
    """Every officer page's redirect, and the login page it leads to, is checked through
    the test client (test_officer_access.py, 51 pages); the browser follows two: the
    officer's home and a download (a member's held data as CSV), which it must not take
    for a file. (All 51 in the browser were 9.7 s of a run's time.)"""
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    every = list(officer_urls(event, alice))
    home = reverse("ratings:officer-home")
    download = next(url for url in every if url.endswith("/held.csv"))
    assert home in every
    for url in (home, download):
        page.goto(url)
        assert page.url.endswith(f"/accounts/login/?next={url}"), url
        assert page.get_by_role("heading", name="Officer log in").is_visible(), url
