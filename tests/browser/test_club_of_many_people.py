"""A new club run by several people, in a real browser from an empty database: its
founder starts it at /start/ (and is its administrator), adds two members and a club
night, invites a tournament director for the night and a treasurer (each link read from
the test mailbox: the live server is this process, and the tests' task backend sends
each message once its request commits). The director enters the round and submits it,
and may change nothing more; the administrator rates it; the treasurer records a payment.
Each is refused what is not theirs. The treasurer forgets their password and resets it."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from ratings.models import Event, Member, Subscription

from .conftest import log_in_through_the_form

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-bishop-on-the-long-diagonal"
NEW_PASSWORD = "castles-queenside-at-last"


def log_in(page, username: str, password: str) -> None:
    log_in_through_the_form(page, username, password)
    assert page.get_by_role("button", name=f"Log out {username}").is_visible()


def mailed_link(to: str, path: str) -> str:
    """The one link to ``path`` in the newest message to ``to``."""
    message = [m for m in mail.outbox if m.to == [to]][-1]
    (link,) = re.findall(rf"https?://\S+{path}\S+", message.body)
    return link


def choose_password(page, link: str, password: str) -> None:
    page.context.clear_cookies()
    page.goto(link)
    page.locator("#id_new_password1").fill(password)
    page.locator("#id_new_password2").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Set the password").click()
    assert page.get_by_role("heading", name="Your new password is set").is_visible()


def start_the_club(page) -> None:
    page.goto("/")
    page.wait_for_url("**/start/")
    page.get_by_label("Club name").fill("Riverside Chess Club")
    page.get_by_label("Rating system").select_option("nz-club-elo")
    page.get_by_label("Your username").fill("ada")
    page.get_by_label("Your email (optional)").fill("ada@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the club").click()
    assert page.get_by_text("Riverside Chess Club is started").is_visible()


def add_member(page, name: str) -> None:
    page.goto("/officer/members/add/")
    page.locator("#id_name").fill(name)
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()


def invite(page, email: str, name: str, role: str, event: str | None = None) -> None:
    page.goto("/officer/people/")
    page.locator("#id_email").fill(email)
    page.locator("#id_name").fill(name)
    page.get_by_label(role).check()
    if event:
        page.get_by_label(event).check()
    with page.expect_navigation():
        page.get_by_role("button", name="Send the invitation").click()
    assert page.get_by_text(f"{email} is invited").is_visible()


def refused(page, path: str) -> bool:
    response = page.goto(path)
    return response is not None and response.status == 403


def test_a_new_club_is_run_by_its_administrator_a_director_and_a_treasurer(page) -> None:
    # The administrator starts the club, adds its members and a club night.
    start_the_club(page)
    add_member(page, "Aroha Tane")
    add_member(page, "Ben Carter")
    aroha, ben = Member.objects.order_by("member_number")
    page.goto("/officer/events/add/")
    page.locator("#id_name").fill("Tuesday club night")
    page.get_by_label("Rounds").fill("1")
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()
    night = Event.objects.get(name="Tuesday club night")

    invite(page, "dora@example.org", "Dora Diaz", "Tournament director", "Tuesday club night")
    invite(page, "tess@example.org", "Tess Tan", "Treasurer")
    choose_password(page, mailed_link("dora@example.org", "/accounts/invitation/"), PASSWORD)
    choose_password(page, mailed_link("tess@example.org", "/accounts/invitation/"), PASSWORD)

    # The director enters the night's players and its round, and submits it.
    log_in(page, "dora@example.org", PASSWORD)
    assert page.get_by_role("heading", name="Your events").is_visible()
    page.goto(f"/officer/events/{night.pk}/players/")
    page.get_by_label("Players").fill(f"{aroha.member_number}, {ben.member_number}")
    with page.expect_navigation():
        page.get_by_role("button", name="Add players").click()
    page.goto(f"/officer/events/{night.pk}/rounds/1/")
    page.get_by_label("Board 1 white").select_option(label=f"{aroha.member_number} · Aroha Tane")
    page.get_by_label("Board 1 black").select_option(label=f"{ben.member_number} · Ben Carter")
    page.get_by_label("Board 1 result").select_option("1-0")
    with page.expect_navigation():
        page.get_by_role("button", name="Save round 1").click()
    assert night.games.count() == 1
    page.goto(f"/officer/events/{night.pk}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Submit for rating").click()
    assert page.get_by_text("Submitted by Dora Diaz").is_visible()
    assert [m.to for m in mail.outbox if "submitted" in m.subject.lower()] == [["ada@example.org"]]
    # Submitted, the night is read-only to its director; rating and payments are not theirs.
    page.goto(f"/officer/events/{night.pk}/rounds/1/")
    alert = page.get_by_role("alert")
    assert alert.get_by_text("read-only until the ratings officer").is_visible()
    assert refused(page, f"/officer/events/{night.pk}/complete/")
    assert refused(page, f"/officer/members/{aroha.pk}/")
    assert refused(page, "/officer/people/")

    # The administrator finds it on their home and rates it; the director is told.
    log_in(page, "ada", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Tuesday club night")).first.click()
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm: complete and rate").click()
    night.refresh_from_db()
    assert night.stage == Event.RATED
    assert [m.to for m in mail.outbox if "is rated" in m.subject] == [["dora@example.org"]]

    # The treasurer records Ben's payment; rating, results and logins are not theirs.
    log_in(page, "tess@example.org", PASSWORD)
    assert page.get_by_role("heading", name="Members' subscriptions").is_visible()
    page.goto(f"/officer/members/{ben.pk}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Record payment").click()
    assert page.get_by_text("Ben Carter has paid for").is_visible()
    assert Subscription.objects.filter(member=ben).count() == 1
    assert refused(page, f"/officer/events/{night.pk}/complete/")
    assert refused(page, f"/officer/events/{night.pk}/rounds/1/")
    assert refused(page, "/officer/people/")

    # The treasurer forgets their password: the login page mails a link to a new one.
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    with page.expect_navigation():
        page.get_by_role("link", name="Forgotten your password?").click()
    page.get_by_label("Email").fill("tess@example.org")
    with page.expect_navigation():
        page.get_by_role("button", name="Send the link").click()
    assert page.get_by_role("heading", name="Check your email").is_visible()
    choose_password(page, mailed_link("tess@example.org", "/accounts/reset/"), NEW_PASSWORD)
    log_in(page, "tess@example.org", NEW_PASSWORD)
    assert page.get_by_role("heading", name="Members' subscriptions").is_visible()
