"""The club as many people, in a real browser: the administrator invites a tournament
director and a treasurer (their links read from the test mailbox: the live server is
this process), each chooses a password and logs in with their role; the director enters
their event's round and submits it; the officer finds it on their home and rates it.
The new pages pass axe on the way."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from ratings.models import Event
from ratings.services.accounts import administrator_create

from .conftest import log_in_through_the_form
from .test_accessibility import Findings, check

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-rook-on-the-seventh"


def log_in(page, username: str, password: str) -> None:
    log_in_through_the_form(page, username, password)


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


def accept(page, email: str, findings: Findings) -> None:
    (message,) = [m for m in mail.outbox if m.to == [email]]
    (link,) = re.findall(r"https?://\S+/accounts/invitation/\S+", message.body)
    page.context.clear_cookies()
    page.goto(link)
    assert page.get_by_role("heading", name="Welcome: choose your password").is_visible()
    check(page, f"the invitation of {email}", findings)
    page.locator("#id_new_password1").fill(PASSWORD)
    page.locator("#id_new_password2").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Set the password").click()
    assert page.get_by_role("heading", name="Your new password is set").is_visible()


def test_the_administrator_invites_a_director_who_submits_an_event_the_officer_rates(
    page, alice, bob
) -> None:
    administrator_create(username="ada", password=PASSWORD, email="ada@example.org")
    night = Event.objects.create(
        name="Tuesday club night", start_date="2026-03-03", end_date="2026-03-03", rounds=1
    )
    for member in (alice, bob):
        night.entries.create(member=member)
    findings = Findings()

    log_in(page, "ada", PASSWORD)
    invite(page, "dora@example.org", "Dora Diaz", "Tournament director", "Tuesday club night")
    check(page, "the people page", findings)
    invite(page, "tess@example.org", "Tess Tan", "Treasurer")

    accept(page, "tess@example.org", findings)
    log_in(page, "tess@example.org", PASSWORD)
    assert page.get_by_role("heading", name="Members' subscriptions").is_visible()
    assert page.goto(f"/officer/events/{night.pk}/").status == 403

    accept(page, "dora@example.org", findings)
    log_in(page, "dora@example.org", PASSWORD)
    assert page.get_by_role("heading", name="Your events").is_visible()
    page.goto(f"/officer/events/{night.pk}/rounds/1/")
    page.get_by_label("Board 1 white").select_option(label="A1 · Alice Archer")
    page.get_by_label("Board 1 black").select_option(label="B2 · Bob Brown")
    page.get_by_label("Board 1 result").select_option("1-0")
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("^Save")).click()
    assert night.games.count() == 1
    page.goto(f"/officer/events/{night.pk}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Submit for rating").click()
    assert page.get_by_text("Submitted by Dora Diaz").is_visible()
    assert page.goto(f"/officer/events/{night.pk}/complete/").status == 403

    log_in(page, "ada", PASSWORD)
    page.goto("/officer/")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Tuesday club night")).first.click()
    check(page, "a submitted event's rating preview", findings)
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm: complete and rate").click()
    night.refresh_from_db()
    assert night.stage == Event.RATED
    assert [m.to for m in mail.outbox if "is rated" in m.subject] == [["dora@example.org"]]
    assert findings.count() == 0, findings.report()
