"""What members get, in a real browser: the officer records two members' consent to club
mail on their records and publishes the list; the test mailbox (the live server is this
process, and the tests' task backend sends each message once the publication commits)
holds one message per consenting listed member, with their rating and place, and one note
to the consenting member in arrears. That member's link opens their own page with their
withheld rating, which neither an anonymous reader nor another member's link shows.
One POST to a message's List-Unsubscribe link (RFC 8058) stops that mail."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.utils import timezone

from ratings.models import Member, Publication
from ratings.rules.mail import NEW_RATING

from ..factories import officer_user, paid_up
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club(rated_event, current_season, alice, bob, carol, dave):
    """Alice, Bob and Dave paid up; Carol rated (above everyone, so her figure is no one
    else's) but in arrears. Bob asked for the new
    rating mail at the club night (his consent recorded by the factory), Dave for none."""
    for member in (alice, bob, dave):
        paid_up(member, current_season)
    bob.email, bob.mail_consent_at, bob.mail_consent_how = (
        "bob@example.org",
        timezone.now(),
        "in_person",
    )
    bob.mail_wanted = [NEW_RATING]
    bob.save()
    rated_event(
        [(1, alice, bob, "1-0"), (1, carol, dave, "1-0"), (2, carol, alice, "1-0")],
        date=timezone.localdate() - dt.timedelta(days=7),
    )
    return alice, bob, carol, dave


def record_consent(page, member: Member, email: str) -> None:
    page.goto(f"/officer/members/{member.pk}/")
    page.locator("#id_member-email").fill(email)
    page.get_by_label("Consents to club mail").check()
    page.get_by_label("Consent given").select_option(label="signed form")
    page.get_by_label("My new rating when a list is published").check()
    page.get_by_label("Reason for the change").fill("Consent form signed at the club")
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()
    member.refresh_from_db()
    assert member.mail_consent_at is not None and member.email == email


def letter_to(address: str):
    (message,) = [m for m in mail.outbox if m.to == [address]]
    return message


def my_page_link(message) -> str:
    (link,) = re.findall(r"https?://\S+/me/(?!unsubscribe/)\S+/", message.body)
    return link


def test_members_are_told_of_a_publication_and_only_the_member_sees_their_withheld_rating(
    page, club
) -> None:
    alice, bob, carol, dave = club
    officer_user()
    log_in(page)
    record_consent(page, alice, "alice@example.org")
    record_consent(page, carol, "carol@example.org")

    page.goto("/officer/publish/")
    assert page.locator(".mail-count").inner_text() == "3 messages"
    with page.expect_navigation():
        page.get_by_role("button", name="Publish the list").click()
    assert page.get_by_text("The list is published").is_visible()

    publication = Publication.objects.get()
    assert sorted(address for m in mail.outbox for address in m.to) == [
        "alice@example.org",
        "bob@example.org",
        "carol@example.org",
    ]
    for member in (alice, bob):
        entry = publication.entries.get(member=member)
        body = letter_to(member.email).body
        assert f"Your rating: {entry.display}" in body
        assert f"Your place: {entry.rank} of {publication.size}" in body
    carols = letter_to("carol@example.org")
    assert "your rating is kept" in carols.body
    withheld = carol.rating_states.get(time_class="standard").display
    assert withheld not in carols.body
    others = {m.rating_states.get(time_class="standard").display for m in (alice, bob, dave)}
    assert withheld not in others and int(withheld) % 10  # on no chart's axis either

    # Carol's link shows her withheld rating to her alone.
    page.context.clear_cookies()
    page.goto(my_page_link(carols))
    assert page.locator(".own-rating").inner_text() == withheld
    assert page.locator(".withheld-own").is_visible()
    page.goto(f"/members/{carol.member_number}/")
    assert withheld not in page.locator("main").inner_text()
    page.goto(my_page_link(letter_to("alice@example.org")))
    assert (
        page.locator(".own-rating").inner_text() == publication.entries.get(member=alice).display
    )
    assert withheld not in page.locator("main").inner_text()

    # Alice's mail program unsubscribes her in one POST, with no form of ours.
    unsubscribe = letter_to("alice@example.org").extra_headers["List-Unsubscribe"].strip("<>")
    assert letter_to("alice@example.org").extra_headers["List-Unsubscribe-Post"] == (
        "List-Unsubscribe=One-Click"
    )
    answer = page.request.post(
        unsubscribe,
        data="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert answer.ok
    alice.refresh_from_db()
    assert NEW_RATING not in alice.mail_wanted
    bob.refresh_from_db()
    assert bob.mail_wanted == [NEW_RATING]  # his own wish stands
