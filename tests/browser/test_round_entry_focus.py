"""Where the cursor goes on a round page: the first empty box, board after board, then Save."""

import pytest

from ratings.models import Event

from ..factories import EventFactory, officer_user
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def has_focus(locator) -> bool:
    return locator.evaluate("e => e === document.activeElement")


def swiss(*players) -> Event:
    event = EventFactory(name="Autumn Swiss", rounds=3)
    for member in players:
        event.entries.create(member=member)
    return event


def test_an_unpaired_round_starts_on_board_1s_white(page, alice, bob, carol, dave):
    officer_user()
    event = swiss(alice, bob, carol, dave)
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    assert has_focus(page.get_by_label("Board 1 white"))


def test_a_paired_round_starts_on_board_1s_result(page, alice, bob):
    officer_user()
    event = EventFactory(name="Summer round robin", kind=Event.Kind.ROUND_ROBIN, rounds=1)
    for member in (alice, bob):
        event.entries.create(member=member)
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    assert has_focus(page.get_by_label("Board 1 result"))


def test_a_result_on_an_unpaired_round_moves_on_to_the_next_boards_white(
    page, alice, bob, carol, dave
):
    officer_user()
    event = swiss(alice, bob, carol, dave)
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    page.get_by_label("Board 1 white").select_option(label="A1 · Alice Archer")
    page.get_by_label("Board 1 black").select_option(label="B2 · Bob Brown")
    page.get_by_label("Board 1 result").focus()
    page.keyboard.press("1")
    assert has_focus(page.get_by_label("Board 2 white"))


def test_the_last_boards_result_moves_on_to_the_save_button(page, alice, bob, carol, dave):
    officer_user()
    event = swiss(alice, bob, carol, dave)
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    page.get_by_label("Board 1 white").select_option(label="A1 · Alice Archer")
    page.get_by_label("Board 1 black").select_option(label="B2 · Bob Brown")
    page.get_by_label("Board 2 white").select_option(label="C3 · Carol Chen")
    page.get_by_label("Board 2 black").select_option(label="D4 · Dave Dunn")
    page.get_by_label("Board 2 result").focus()
    page.keyboard.press("=")
    assert has_focus(page.get_by_role("button", name="Save, then round 2"))
