"""In a real browser: an officer corrects a result in the admin and the list changes."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from ratings.models import Game, RatingRun, RatingState

from ..factories import paid_up
from .conftest import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct-horse-42"


def _log_in(page) -> None:
    """Ada, a superuser: her session given as a cookie (the admin's login form is
    Django's, not under test here); the admin page each test opens next would send a
    stranger to that form, where the test's first field is not found."""
    log_in_as(page, User.objects.create_superuser("ada", "ada@example.org", PASSWORD))


def test_a_result_corrected_in_the_admin_changes_the_published_list(
    page, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    game = event.games.get()
    page.goto("/ratings/")
    assert page.get_by_role("row", name=re.compile("Alice Archer.*1516")).is_visible()

    _log_in(page)
    page.goto(f"/admin/ratings/game/{game.pk}/change/")
    page.get_by_label("Result").select_option("0-1")
    page.get_by_label("Reason for the change").fill("colours swapped on the sheet")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/admin/ratings/game/")
    assert page.get_by_text("Ratings re-rated: 1 event,").is_visible()

    page.goto("/ratings/")
    assert page.get_by_role("row", name=re.compile("Alice Archer.*1484")).is_visible()
    assert page.get_by_role("row", name=re.compile("Bob Brown.*1516")).is_visible()
    assert RatingState.objects.get(member=alice).display == "1484"


def test_the_history_of_a_corrected_game_shows_who_changed_what(page, rated_event, alice, bob):
    game = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)]).games.get()
    _log_in(page)
    page.goto(f"/admin/ratings/game/{game.pk}/change/")
    page.get_by_label("Result").select_option("1/2-1/2")
    page.get_by_label("Reason for the change").fill("score sheet misread")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/admin/ratings/game/")
    page.goto(f"/admin/ratings/game/{game.pk}/history/")
    changes = page.locator("#change-history tbody tr").first
    assert "ada" in changes.inner_text()
    assert re.search(r"Result:\s*1–0\s*→\s*½–½", changes.inner_text())
    assert "score sheet misread" in changes.inner_text()


def test_the_admin_is_usable_on_a_phone(phone_page, rated_event, alice, bob):
    game = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)]).games.get()
    _log_in(phone_page)
    phone_page.goto(f"/admin/ratings/game/{game.pk}/change/")
    phone_page.get_by_label("Result").select_option("0-1")
    phone_page.get_by_label("Reason for the change").fill("colours swapped on the sheet")
    phone_page.get_by_role("button", name="Save", exact=True).click()
    phone_page.wait_for_url("**/admin/ratings/game/")
    assert phone_page.get_by_text("Ratings re-rated: 1 event,").is_visible()


def test_the_progress_page_follows_a_background_run_to_the_end(page, phone_page, officer):
    run = RatingRun.objects.create(
        reason="Rating system set to ecf-2020",
        system="ecf-2020",
        status=RatingRun.Status.RUNNING,
        progress=40,
        message="Rated 120 of 300 periods",
    )
    for browser_page in (phone_page, page):
        browser_page.context.add_cookies([_session_cookie(officer, browser_page)])
        browser_page.goto(f"/officer/runs/{run.pk}/")
        bar = browser_page.get_by_role("progressbar")
        assert bar.get_attribute("aria-valuenow") == "40"
        assert browser_page.get_by_text("Rated 120 of 300 periods").is_visible()
    RatingRun.objects.filter(pk=run.pk).update(
        status=RatingRun.Status.DONE, progress=100, message="", events_rated=300, seconds=7.5
    )
    bar = page.get_by_role("progressbar")
    # A selector, not wait_for_function: the page's CSP refuses evaluating a string.
    page.wait_for_selector("[role=progressbar][aria-valuenow='100']")
    assert page.get_by_text("Done", exact=True).is_visible()
    assert page.locator("[data-field=events_rated]").inner_text() == "300"
    assert bar.get_attribute("aria-valuenow") == "100"


def _session_cookie(user, browser_page):
    """Log ``user`` in without the login form: a session cookie for the live server."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    # The backend that logs a user in (django-axes' backend, first, only refuses).
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    url = browser_page.url if browser_page.url.startswith("http") else None
    base = url or browser_page.context._impl_obj._options.get("baseURL")
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": base}
