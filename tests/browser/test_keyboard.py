"""An officer who uses no mouse: the skip link, the new-event form and a round's results,
each sent with a mistake, corrected from the error summary and saved, by the keyboard alone
(Tab, Enter and typing)."""

from __future__ import annotations

import pytest

from ratings.models import Event, Game

from ..factories import EventFactory, officer_user
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def focused(page) -> dict[str, str]:
    return page.evaluate(
        """() => { const e = document.activeElement;
          return {id: e.id, tag: e.tagName, text: (e.textContent || '').trim(),
                  summary: e.hasAttribute('data-error-summary') ? 'yes' : ''}; }"""
    )


def tab_to(page, test, most: int = 60) -> None:
    """Tab until the focus is where test says: what a keyboard user reaches."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if test(focused(page)):
            return
    raise AssertionError(f"the keyboard never reached it; the focus is on {focused(page)}")


def describedby_text(page, element_id: str) -> str:
    return page.evaluate(
        """id => { const e = document.getElementById(id);
          return (e.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
            .map(ref => document.getElementById(ref).textContent.trim()).join(' '); }""",
        element_id,
    )


def test_the_first_tab_reaches_the_skip_link_which_jumps_past_the_menu(page):
    officer_user()
    log_in(page, "/officer/")
    page.keyboard.press("Tab")
    assert focused(page)["text"] == "Skip to the content"
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "content"


def test_a_new_event_by_keyboard_with_its_mistake_corrected(page):
    officer_user()
    log_in(page, "/officer/events/add/")
    tab_to(page, lambda f: f["id"] == "id_name")
    page.keyboard.type("Spring rapid")
    tab_to(page, lambda f: f["id"] == "id_rounds")
    page.keyboard.press("Control+a")
    page.keyboard.type("0")  # a mistake: no rounds
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert focused(page)["summary"] == "yes"
    assert page.get_by_label("Rounds").get_attribute("aria-invalid") == "true"
    assert describedby_text(page, "id_rounds")
    tab_to(page, lambda f: f["tag"] == "A" and "Rounds" in f["text"])
    page.keyboard.press("Enter")  # the summary's link takes the focus to the field
    assert focused(page)["id"] == "id_rounds"
    page.keyboard.press("Control+a")
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/players/" in url)  # the event made: its players next
    event = Event.objects.get(name="Spring rapid")
    assert event.rounds == 5


def test_a_round_by_keyboard_with_its_mistake_corrected(page, alice, bob, carol, dave):
    officer_user()
    event = EventFactory(name="Autumn Swiss", rounds=3)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    assert focused(page)["id"] == "id_g-0-white"
    page.keyboard.type("A1")  # the member number first: typing it picks the member
    page.keyboard.press("Tab")
    page.keyboard.type("A1")  # a mistake: Alice against herself
    page.keyboard.press("Tab")
    page.keyboard.type("1")  # white won; the cursor moves on to board 2
    tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"].startswith("Save"))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert focused(page)["summary"] == "yes"
    black = page.get_by_label("Board 1 black")
    assert black.get_attribute("aria-invalid") == "true"
    assert "cannot play themselves" in describedby_text(page, "id_g-0-black")
    assert not Game.objects.filter(event=event).exists()
    tab_to(page, lambda f: f["tag"] == "A" and "Board 1 black" in f["text"])
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "id_g-0-black"
    page.keyboard.type("B2")
    tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"].startswith("Save"))
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: f"/officer/events/{event.pk}/rounds/2/" in url)
    game = Game.objects.get(event=event, round=1)
    assert (game.white, game.black, game.result) == (alice, bob, Game.Result.WHITE_WIN)
