"""The officer's evening walked as a person would, keyboard where a person types: draws typed
into the round-robin grid, a win typed into the calculator, a new event's kind following
the date, and a pasted round naming players not in the event yet."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.models import Event, Game

from ..factories import EventFactory, MemberFactory, officer_user
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_five_draws_typed_into_the_grid_are_five_draws(page, alice, bob, carol, dave):
    officer_user()
    event = EventFactory(name="Winter round robin", kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    log_in(page, f"/officer/events/{event.pk}/grid/")
    page.get_by_label("Alice Archer v Bob Brown").focus()
    for _ in range(5):  # the row's cells, then the next rows', as Tab goes
        page.keyboard.press("=")
        page.keyboard.press("Tab")
    page.keyboard.press("1")
    page.get_by_role("button", name="Save the crosstable").click()
    page.wait_for_url(f"**/officer/events/{event.pk}/**")
    results = sorted(event.games.values_list("result", flat=True))
    assert results.count(Game.Result.DRAW) == 5 and len(results) == 6


def test_the_calculators_result_box_takes_the_digit_one(page, alice):
    page.goto("/calculator/")
    box = page.locator("#id_g-0-result")
    box.focus()
    page.keyboard.press("1")
    assert box.input_value() == "1"
    page.keyboard.press("=")
    assert box.input_value() == "0.5"


def test_the_new_events_kind_follows_the_date_typed(page):
    officer_user()
    saturday = dt.date(2026, 11, 7)
    for week in (1, 2):
        EventFactory(kind=Event.Kind.ROUND_ROBIN, start_date=saturday - dt.timedelta(weeks=week))
    for week in (1, 2, 3):
        EventFactory(
            kind=Event.Kind.CLUB_NIGHT, start_date=dt.date(2026, 11, 3) - dt.timedelta(weeks=week)
        )
    log_in(page, "/officer/events/add/")
    kind = page.get_by_label("Kind")
    page.get_by_label("Start date").fill("2026-11-10")  # a Tuesday: club nights
    assert kind.input_value() == Event.Kind.CLUB_NIGHT
    page.get_by_label("Start date").fill("2026-11-14")  # a Saturday: round robins
    assert kind.input_value() == Event.Kind.ROUND_ROBIN


def test_a_pasted_round_enters_the_players_it_names_in_one_click(page, alice, bob):
    officer_user()
    carol = MemberFactory(member_number="C3", name="Carol Chen")
    dave = MemberFactory(member_number="D4", name="Dave Dunn")
    event = EventFactory(name="Tuesday night", rounds=2)
    event.entries.create(member=alice)
    log_in(page, f"/officer/events/{event.pk}/paste/")
    page.get_by_label("Pairings and results").fill("A1 - B2 1-0\nC3 - D4 =")
    page.get_by_role("button", name="Preview").click()
    offer = page.locator("#not-entered")
    assert offer.get_by_role("listitem").all_inner_texts() == [
        "Bob Brown (B2)",
        "Carol Chen (C3)",
        "Dave Dunn (D4)",
    ]
    offer.get_by_role("button", name="Enter them and preview").click()
    page.get_by_role("heading", name="Preview: round 1, nothing saved yet").wait_for()
    assert set(event.players.all()) == {alice, bob, carol, dave}
