"""The officer's first day in a real browser: an empty database, the first-run page, two
members, an event entered and rated; and not one row of the demo club anywhere."""

import pytest
from django.contrib.auth.models import User

from ratings.demo.club import ADMIN, CLUB_NAME, HILLCREST, NAMES, OFFICER
from ratings.models import ClubSettings, Event, Member, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "knight-fork-1977"


def start_the_club(page) -> None:
    page.goto("/")
    page.wait_for_url("**/start/")
    assert page.get_by_role("heading", name="Start your club").is_visible()
    page.get_by_label("Club name").fill("Hillcrest Chess Club")
    page.get_by_label("Rating system").select_option("nz-club-elo")
    page.get_by_label("Season starts in").select_option(label="July")
    page.get_by_label("Time zone").select_option("Pacific/Auckland")
    page.get_by_label("Your username").fill("mere")
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password again").fill("not the same")
    page.get_by_role("button", name="Start the club").click()
    page.wait_for_load_state()
    # A slip is shown at its field, and nothing is made.
    assert page.locator(".invalid-feedback").get_by_text("The two passwords differ").is_visible()
    assert not User.objects.exists()
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Start the club").click()
    page.wait_for_url("**/officer/")


def test_a_club_starts_from_an_empty_database_and_rates_its_first_event(page, phone_page):
    assert not User.objects.exists() and not Member.objects.exists()
    phone_page.goto("/start/")

    start_the_club(page)
    assert page.get_by_text("Hillcrest Chess Club is started").is_visible()
    assert page.get_by_role("link", name="Hillcrest Chess Club").first.is_visible()

    page.get_by_role("link", name="New member").click()
    # The number is suggested: the club's first is 1, then 2.
    assert page.get_by_label("Member number").input_value() == "1"
    page.locator("#id_name").fill("Aroha Tane")
    page.get_by_role("button", name="Save and add another", exact=True).click()
    page.wait_for_load_state()
    assert page.get_by_label("Member number").input_value() == "2"
    page.locator("#id_name").fill("Ben Carter")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_load_state()
    assert list(Member.objects.order_by("member_number").values_list("member_number", "name")) == [
        ("1", "Aroha Tane"),
        ("2", "Ben Carter"),
    ]

    page.goto("/officer/events/add/")
    page.locator("#id_name").fill("First club night")
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/players/")
    page.get_by_label("Players").fill("1, 2")
    page.get_by_role("button", name="Add players").click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Enter round 1").click()
    page.wait_for_url("**/rounds/1/")
    event = Event.objects.get(name="First club night")

    # A slip first: a player against themselves, shown at the board, nothing saved.
    page.get_by_label("Board 1 white").select_option(label="1 · Aroha Tane")
    page.get_by_label("Board 1 black").select_option(label="1 · Aroha Tane")
    page.get_by_label("Board 1 result").select_option("1-0")
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_load_state()
    assert (
        page.locator(".invalid-feedback")
        .get_by_text("A player cannot play themselves.")
        .is_visible()
    )
    assert not event.games.exists()
    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(page.url)
    phone_page.get_by_label("Board 1 white").select_option(label="1 · Aroha Tane")
    phone_page.get_by_label("Board 1 black").select_option(label="1 · Aroha Tane")
    phone_page.get_by_label("Board 1 result").select_option("1-0")
    phone_page.get_by_role("button", name="Save round 1").click()
    phone_page.wait_for_load_state()
    assert (
        phone_page.locator(".invalid-feedback")
        .get_by_text("A player cannot play themselves.")
        .is_visible()
    )

    page.get_by_label("Board 1 black").select_option(label="2 · Ben Carter")
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_url(f"**/officer/events/{event.pk}/")
    page.get_by_role("link", name="Mark complete and rate…").click()
    page.get_by_role("button", name="Confirm: complete and rate").click()
    page.wait_for_url(f"**/events/{event.pk}/report/")
    rows = page.locator("table.report-table tbody tr")
    assert rows.count() == 2
    assert RatingChange.objects.filter(event=event).count() == 2
    winner = RatingChange.objects.get(event=event, member__name="Aroha Tane")
    loser = RatingChange.objects.get(event=event, member__name="Ben Carter")
    assert winner.after > loser.after

    # The club is the officer's own, and the demo left no trace in its database.
    club = ClubSettings.load()
    assert (club.name, club.time_zone, club.season_start_month) == (
        "Hillcrest Chess Club",
        "Pacific/Auckland",
        7,
    )
    assert club.name != CLUB_NAME
    assert list(User.objects.values_list("username", flat=True)) == ["mere"]
    assert not User.objects.filter(username__in=(OFFICER[0], ADMIN[0])).exists()
    demo_names = {name for name, _ in NAMES} | set(HILLCREST)
    assert not Member.objects.filter(name__in=demo_names).exists()
    assert Member.objects.count() == 2 and Event.objects.count() == 1

    page.goto("/start/")
    assert page.get_by_role("heading", name="Not found").is_visible()
