"""Every officer page opens in Chromium at phone and desktop widths."""

import datetime as dt

import pytest

from ratings.models import Event, Game

from ..conftest import TRF_FILES
from ..factories import EventFactory, officer_user, paid_up
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def evening(rated_event, current_season, alice, bob, carol, dave):
    paid_up(alice, current_season)
    rated = rated_event(
        [
            (1, alice, bob, Game.Result.WHITE_WIN),
            (1, carol, dave, Game.Result.DRAW),
            (2, bob, carol, Game.Result.BLACK_FORFEIT_WIN),
            (2, dave, alice, Game.Result.BLACK_WIN),
        ],
        name="Autumn rapid",
        date=dt.date(2026, 3, 2),
    )
    draft = EventFactory(name="Club championship", kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol, dave):
        draft.entries.create(member=member)
    officer_user()
    return rated, draft


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_the_officer_pages_read_well(request, width, evening, alice):
    rated, draft = evening
    page = request.getfixturevalue("phone_page" if width == "phone" else "page")
    log_in(page)
    pages = {
        "home": "/officer/",
        "members": "/officer/members/?q=a",
        "member": f"/officer/members/{alice.pk}/",
        "events": "/officer/events/",
        "event": f"/officer/events/{draft.pk}/",
        "event-edit": f"/officer/events/{rated.pk}/edit/",
        "players": f"/officer/events/{draft.pk}/players/",
        "round": f"/officer/events/{draft.pk}/rounds/1/",
        "grid": f"/officer/events/{draft.pk}/grid/",
        "complete": f"/officer/events/{draft.pk}/complete/",
        "periods": "/officer/periods/",
        "report": f"/events/{rated.pk}/report/",
        "crosstable": f"/events/{rated.pk}/crosstable/",
    }
    for url in pages.values():
        response = page.goto(url)
        assert response.status == 200, url
        assert page.locator("h1").count() == 1, url

    page.goto(f"/officer/events/{draft.pk}/paste/")
    page.get_by_label("Pairings and results").fill("A1 - B2 1-0\nCarol Chen - D4 ½-½")
    page.get_by_role("button", name="Preview").click()
    # The preview is a new page: wait for it (is_visible asks at once, and on a busy
    # machine the click's page may still be the form).
    page.get_by_text("Preview: round 1, nothing saved yet").wait_for(state="visible")

    page.goto("/officer/import/")
    page.get_by_label("Tournament report file (TRF)").set_input_files(
        str(TRF_FILES / "lichess-swiss-2020-05.trf")
    )
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_url("**/import/preview/")
    assert page.get_by_text("13 players, 10 rounds").is_visible()
