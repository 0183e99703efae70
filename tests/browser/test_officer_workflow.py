"""The officer's evening in a real browser: log in, add members, enter a round robin, rate it."""

import pytest
from django.contrib.auth.models import User

from ratings import engine
from ratings.models import Event, Game, Member, RatingChange

from ..factories import officer_user
from .conftest import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

NEW_MEMBERS = [
    ("Erin Evans", "E5"),
    ("Frank Fox", "F6"),
    ("Grace Green", "G7"),
    ("Hugo Hill", "H8"),
]
# The keys the officer types for the three boards of each round; "+" is a forfeit win.
RESULTS = {1: "1=0", 2: "01=", 3: "1+0", 4: "=10", 5: "011"}


def log_in(page, next_url="/officer/"):
    """Olivia, the officer, at ``next_url``: her session given as a cookie, for the tests
    whose subject is not the login (the evening below walks the form)."""
    log_in_as(page, User.objects.get(username="olivia"))
    page.goto(next_url)
    assert "/accounts/login/" not in page.url


def log_in_through_the_form(page, next_url="/officer/"):
    page.goto(next_url)
    page.wait_for_url("**/accounts/login/**")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{next_url}")


def test_an_officer_enters_and_rates_a_round_robin_from_scratch(page, alice, bob):
    officer_user()
    log_in_through_the_form(page)
    assert page.get_by_role("heading", name="Ratings officer").is_visible()

    page.get_by_role("link", name="New member").click()
    for i, (name, number) in enumerate(NEW_MEMBERS):
        page.locator("#id_name").fill(name)
        page.get_by_label("Member number").fill(number)
        last = i == len(NEW_MEMBERS) - 1
        page.get_by_role(
            "button", name="Save" if last else "Save and add another", exact=True
        ).click()
        page.wait_for_load_state()
    assert Member.objects.count() == 6

    page.goto("/officer/events/add/")
    page.locator("#id_name").fill("Spring round robin")
    page.get_by_label("Kind").select_option(label="Round robin")
    page.get_by_label("Rounds").fill("5")
    page.get_by_label("Time control").fill("60+10")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/players/")
    page.get_by_label("Players").fill("A1, Bob Brown, E5, F6, G7, H8")
    page.get_by_role("button", name="Add players").click()
    page.wait_for_load_state()
    assert page.get_by_text("6 players entered.").is_visible()

    page.get_by_role("link", name="Enter round 1").click()
    event = Event.objects.get(name="Spring round robin")
    for number, keys in RESULTS.items():
        page.wait_for_url(f"**/rounds/{number}/")
        assert page.get_by_role("heading", name=f"Round {number} of 5").is_visible()
        page.get_by_label("Board 1 result").focus()
        for key in keys:
            page.keyboard.press(key)
        page.keyboard.press("Enter")  # the focus is on the save button now
    page.wait_for_url(f"**/officer/events/{event.pk}/")
    assert event.games.count() == 15
    assert event.games.filter(result=Game.Result.WHITE_FORFEIT_WIN).count() == 1

    with page.expect_navigation():  # a new page: is_visible would ask the old one at once
        page.get_by_role("link", name="Mark complete and rate…").click()
    assert page.get_by_text("Preview: nothing is saved until you confirm.").is_visible()
    assert not RatingChange.objects.exists()
    page.get_by_role("button", name="Confirm: complete and rate").click()
    page.wait_for_url(f"**/events/{event.pk}/report/")

    expected = independent_run(event)
    rows = page.locator("table.report-table tbody tr")
    assert rows.count() == 6
    shown = {
        rows.nth(i).locator("td").nth(0).locator("a").inner_text(): rows.nth(i)
        .locator("td")
        .nth(3)
        .inner_text()
        for i in range(6)
    }
    assert shown == {m.name: expected[str(m.pk)] for m in event.players.all()}
    # Nobody has paid this season yet: the officer sees every rating, each marked unpublished.
    assert rows.locator(".badge", has_text="not published").count() == 6

    page.get_by_role("link", name="Crosstable").click()
    page.wait_for_url("**/crosstable/")
    assert page.locator("table.crosstable tbody tr").count() == 6


def independent_run(event: Event) -> dict[str, str]:
    """What the engine gives for the event's over-the-board games, each player new."""
    games = tuple(
        engine.Game(str(g.white_id), str(g.black_id), Game.POINTS[g.result][0], g.round)
        for g in event.games.filter(result__in=Game.PLAYED)
    )
    result = engine.rate(
        "nz-club-elo",
        players=[engine.PlayerState(id=str(m.pk)) for m in event.players.all()],
        events=[engine.Event(id="e", date=event.end_date, games=games)],
    )
    (event_result,) = result.events
    return {c.player: c.display_after for c in event_result.changes}


def test_a_bad_result_shows_its_message_and_saves_nothing(page, alice, bob, carol):
    officer_user()
    event = Event.objects.create(
        name="Tuesday club night", start_date="2026-03-03", end_date="2026-03-03", rounds=2
    )
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    page.get_by_label("Board 1 white").select_option(label="A1 · Alice Archer")
    page.get_by_label("Board 1 black").select_option(label="A1 · Alice Archer")
    page.get_by_label("Board 1 result").select_option("1-0")
    page.get_by_label("Board 2 white").select_option(label="B2 · Bob Brown")
    page.get_by_role("button", name="Save, then round 2").click()
    page.wait_for_load_state()
    beside_the_fields = page.locator(".invalid-feedback")
    assert beside_the_fields.get_by_text("A player cannot play themselves.").is_visible()
    assert beside_the_fields.get_by_text("Enter the result.").is_visible()
    summary = page.locator("[data-error-summary]")
    assert summary.get_by_text("A player cannot play themselves.").is_visible()
    assert page.get_by_label("Board 1 black").evaluate("e => e.classList.contains('is-invalid')")
    assert not event.games.exists()
