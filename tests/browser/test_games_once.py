"""Every game once, in Chromium: a TRF imported twice, the second time renamed, is caught
at its preview and refused without a reason, so its games are rated once."""

import pytest
from django.db.models import Count

from ratings.models import Event, Game, RatingChange

from ..conftest import TRF_FILES
from ..factories import officer_user
from .test_accessibility import Findings, check
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)

LICHESS = TRF_FILES / "lichess-swiss-2020-05.trf"


def upload(page):
    page.goto("/officer/import/")
    page.get_by_label("Tournament report file (TRF)").set_input_files(str(LICHESS))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_url("**/import/preview/")
    # A Lichess file reads as online, which the club does not rate: this club played its
    # Swiss in the hall and paired it on Lichess, so it says so at the preview.
    page.get_by_label("Over the board").check()


def test_a_trf_imported_twice_renamed_is_caught_and_its_games_rated_once(page):
    officer_user()
    log_in(page)
    upload(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Import: create the event").click()
    first = Event.objects.get()
    with page.expect_navigation():
        page.get_by_role("link", name="Mark complete and rate…").click()
    page.get_by_role("button", name="Confirm: complete and rate").click()
    page.wait_for_url(f"**/events/{first.pk}/report/")
    games = Game.objects.count()
    rated = dict(RatingChange.objects.values_list("member", "after"))

    upload(page)
    warning = page.locator(".duplicate-games")
    assert warning.get_by_text("These games are already recorded.").is_visible()
    assert warning.get_by_role("link", name=first.name).get_attribute("href") == (
        f"/officer/events/{first.pk}/"
    )
    findings = Findings()  # the warning and the reason asked pass axe as every page does
    check(page, "import preview, games recorded", findings)
    page.get_by_label("Name").fill("Mai 5 Plus 0, renamed")
    with page.expect_navigation():
        page.get_by_role("button", name="Import: create the event").click()
    reason = page.get_by_label("Why these games are to be recorded again")
    assert reason.get_attribute("aria-invalid") == "true"
    assert page.locator(".invalid-feedback").get_by_text("Open that event").is_visible()
    check(page, "import refused, no reason", findings)
    assert findings.count() == 0, findings.report()
    # Nothing saved: one event, its games once, each player's rating changed once.
    assert Event.objects.count() == 1 and Game.objects.count() == games
    per_member = RatingChange.objects.values("member").annotate(n=Count("pk"))
    assert {row["n"] for row in per_member} == {1}
    assert dict(RatingChange.objects.values_list("member", "after")) == rated
