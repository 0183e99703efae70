"""In Chromium: the administrator keeps online rapid on a list of its own, and a visitor
reads the online rapid list on its own tab, the standard list beside it unchanged."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from ratings.models import Event, Game, RatingChange

from ..factories import paid_up
from .test_admin_corrections import _log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_online_rapid_kept_apart_gets_its_own_list_tab(
    page, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    day = timezone.localdate() - dt.timedelta(days=10)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=day)
    arena = rated_event(
        [(1, alice, bob, Game.Result.BLACK_WIN), (2, bob, alice, Game.Result.WHITE_WIN)],
        date=day + dt.timedelta(days=1),
        name="Lichess Rapid Arena",
        time_class="rapid",
        rate=False,
    )
    Event.objects.filter(pk=arena.pk).update(online=True)

    _log_in(page)
    page.goto("/admin/ratings/ratinglist/add/")
    page.get_by_label("Time class").select_option("rapid")
    page.get_by_label("Played online").check()
    page.get_by_label("Rated").select_option("own")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/admin/ratings/ratinglist/")
    lists = set(RatingChange.objects.values_list("time_class", flat=True))
    assert lists == {"standard", "online-rapid"}
    page.context.clear_cookies()  # from here on a visitor

    page.goto("/ratings/live/")
    assert "Alice Archer" in page.locator("table.rating-list tbody tr").first.inner_text()
    page.locator(".list-kinds").get_by_role("link", name="Online rapid list").click()
    page.wait_for_url(re.compile(r".*/ratings/live/\?list=online-rapid$"))
    assert page.get_by_role("heading", name="Online rapid rating list").is_visible()
    assert "Bob Brown" in page.locator("table.rating-list tbody tr").first.inner_text()
