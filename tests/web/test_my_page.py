"""A member's own page, opened by the signed link mailed to them: their withheld rating to
them alone; a link out of date or no one's answered plainly; "send me my link" saying the
same whoever asks; unsubscribing in one request."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from ratings.models import MailMessage, Member
from ratings.rules.mail import CLUB_NEWS, NEW_RATING
from ratings.rules.member_links import (
    MY_PAGE_DAYS,
    my_page_token,
    unsubscribe_token,
)

from ..factories import paid_up, rating_state

pytestmark = pytest.mark.django_db

WITHHELD = "1777"


def consenting(member: Member, *kinds: str) -> Member:
    member.email = f"{member.member_number.lower()}@example.org"
    member.mail_consent_at = timezone.now()
    member.mail_consent_how = "in_person"
    member.mail_wanted = list(kinds or (NEW_RATING, CLUB_NEWS))
    member.save()
    return member


@pytest.fixture
def carol_in_arrears(carol):
    """Carol: rated 1777, in arrears, her rating withheld from the public."""
    rating_state(carol, rating=1777.0, display=WITHHELD, games=12, usable=True)
    return consenting(carol)


def my_page(client, member: Member):
    return client.get(reverse("ratings:my-page", args=[my_page_token(member)]))


def test_my_page_shows_a_member_their_withheld_rating(client, carol_in_arrears):
    page = my_page(client, carol_in_arrears)
    assert page.status_code == 200
    assert WITHHELD in page.content.decode()


def test_my_page_tells_a_member_in_arrears_who_to_pay(client, carol_in_arrears, club):
    club.subscriptions_paid_to = "the treasurer, Sam Lee, at any club night"
    club.save()
    body = my_page(client, carol_in_arrears).content.decode()
    assert "Subscriptions are paid to the treasurer, Sam Lee, at any club night." in body
    assert "published on the first list once your subscription" in body


def test_the_public_page_does_not_show_the_withheld_rating(client, carol_in_arrears):
    page = client.get(reverse("ratings:member", args=[carol_in_arrears.member_number]))
    assert WITHHELD not in page.content.decode()


def test_another_members_link_does_not_show_the_withheld_rating(
    client, carol_in_arrears, alice, current_season
):
    paid_up(consenting(alice), current_season)
    page = my_page(client, alice)
    assert page.status_code == 200
    assert WITHHELD not in page.content.decode()


def test_an_expired_link_says_so_and_offers_a_new_one(client, carol_in_arrears, monkeypatch):
    sent = timezone.now() - dt.timedelta(days=MY_PAGE_DAYS, minutes=1)
    with monkeypatch.context() as then:
        then.setattr(
            signing.TimestampSigner,
            "timestamp",
            lambda self: signing.b62_encode(int(sent.timestamp())),
        )
        token = my_page_token(carol_in_arrears)
    page = client.get(reverse("ratings:my-page", args=[token]))
    body = page.content.decode()
    assert page.status_code == 200
    assert "This link has expired" in body
    assert "Send me my link" in body
    assert WITHHELD not in body


def test_an_altered_link_opens_nothing(client, carol_in_arrears):
    token = my_page_token(carol_in_arrears)
    page = client.get(reverse("ratings:my-page", args=[token[:-2] + "xx"]))
    assert page.status_code == 200
    assert "This link does not open a page" in page.content.decode()
    assert WITHHELD not in page.content.decode()


def test_a_link_signed_for_another_purpose_opens_nothing(client, carol_in_arrears):
    # An unsubscribe link is the member's too, but not the key to their page.
    token = unsubscribe_token(carol_in_arrears)
    page = client.get(reverse("ratings:my-page", args=[token]))
    assert "This link does not open a page" in page.content.decode()


def test_a_link_sent_to_an_address_since_changed_opens_nothing(client, carol_in_arrears):
    token = my_page_token(carol_in_arrears)
    carol_in_arrears.email = "carol.new@example.org"
    carol_in_arrears.save()
    page = client.get(reverse("ratings:my-page", args=[token]))
    assert "This link does not open a page" in page.content.decode()


def ask(client, email: str, capture):
    with capture(execute=True):
        return client.post(reverse("ratings:my-page-ask"), {"email": email}, follow=True)


def test_the_home_page_leads_a_member_to_ask_for_their_link(client, officer):
    # Their own page opens only from a link: without this a member who lost the mail
    # had to know the address /me/. (The officer's login: a club started.)
    page = client.get(reverse("ratings:home")).content.decode()
    assert f'href="{reverse("ratings:my-page-ask")}"' in page


def test_send_me_my_link_answers_alike_for_a_known_and_an_unknown_address(
    client, carol_in_arrears, django_capture_on_commit_callbacks
):
    known = ask(client, carol_in_arrears.email, django_capture_on_commit_callbacks)
    unknown = ask(client, "nobody@example.org", django_capture_on_commit_callbacks)
    said = [
        re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page.content.decode())
        for page in (known, unknown)
    ]
    assert said[0] == said[1]
    assert "a link to their page is on its way" in said[0]


def test_send_me_my_link_mails_the_consenting_member_their_link(
    client, carol_in_arrears, django_capture_on_commit_callbacks
):
    ask(client, carol_in_arrears.email.upper(), django_capture_on_commit_callbacks)
    (message,) = mail.outbox
    assert message.to == [carol_in_arrears.email]
    link = re.search(r"http://testserver(/me/[^/\s]+/)", message.body).group(1)
    assert WITHHELD in client.get(link).content.decode()


def test_send_me_my_link_mails_no_one_without_consent(
    client, carol_in_arrears, django_capture_on_commit_callbacks
):
    carol_in_arrears.mail_consent_at = None
    carol_in_arrears.mail_consent_how = ""
    carol_in_arrears.save()
    ask(client, carol_in_arrears.email, django_capture_on_commit_callbacks)
    assert mail.outbox == []


def test_the_officer_sends_a_member_their_link(
    officer_client, carol_in_arrears, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        officer_client.post(
            reverse("ratings:officer-member-send-link", args=[carol_in_arrears.pk])
        )
    (message,) = mail.outbox
    assert message.to == [carol_in_arrears.email]
    assert "/me/" in message.body
    assert MailMessage.objects.get().kind == "my_page_link"


def test_unsubscribing_takes_one_post_with_no_csrf_token(carol_in_arrears):
    from django.test import Client

    mail_program = Client(enforce_csrf_checks=True)
    url = reverse("ratings:unsubscribe", args=[unsubscribe_token(carol_in_arrears, NEW_RATING)])
    answer = mail_program.post(url, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    carol_in_arrears.refresh_from_db()
    assert carol_in_arrears.mail_wanted == [CLUB_NEWS]


def test_unsubscribing_from_all_withdraws_every_kind(client, carol_in_arrears):
    client.post(reverse("ratings:unsubscribe", args=[unsubscribe_token(carol_in_arrears)]))
    carol_in_arrears.refresh_from_db()
    assert carol_in_arrears.mail_wanted == []


def test_opening_the_unsubscribe_link_only_asks_to_confirm(client, carol_in_arrears):
    url = reverse("ratings:unsubscribe", args=[unsubscribe_token(carol_in_arrears, NEW_RATING)])
    page = client.get(url)
    assert "Stop this mail" in page.content.decode()
    carol_in_arrears.refresh_from_db()
    assert NEW_RATING in carol_in_arrears.mail_wanted


def test_an_altered_unsubscribe_link_stops_nothing(client, carol_in_arrears):
    url = reverse("ratings:unsubscribe", args=[unsubscribe_token(carol_in_arrears) + "x"])
    page = client.post(url)
    assert page.status_code == 200
    assert "This link does not stop any mail" in page.content.decode()
    carol_in_arrears.refresh_from_db()
    assert carol_in_arrears.mail_wanted == [NEW_RATING, CLUB_NEWS]
