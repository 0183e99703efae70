"""The members told when a list is published: each consenting member listed gets their
rating, its change and their place; a consenting member in arrears, a note that theirs is
kept; no one else anything; and never twice for one publication."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import MailMessage, Member
from ratings.rules.mail import CLUB_NEWS, NEW_RATING

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db

SITE = "https://club.test/"


def consenting(member: Member, *kinds: str, email: str | None = None) -> Member:
    member.email = email or f"{member.member_number.lower()}@example.org"
    member.mail_consent_at = timezone.now()
    member.mail_consent_how = "in_person"
    member.mail_wanted = list(kinds or (NEW_RATING,))
    member.save()
    return member


@pytest.fixture
def night(rated_event, current_season, alice, bob, carol, dave):
    """Alice, Bob and Dave paid up and listed, Carol rated but in arrears; Alice and Carol
    asked for mail when a list is published, Bob gave consent to club news only, Dave none."""
    for member in (alice, bob, dave):
        paid_up(member, current_season)
    consenting(alice)
    consenting(bob, CLUB_NEWS)
    consenting(carol)
    rated_event(
        [(1, alice, bob, "1-0"), (1, carol, dave, "1-0"), (2, alice, carol, "1-0")],
        date=dt.date(2026, 3, 2),
    )
    return alice, bob, carol, dave


def publish(capture, **kwargs):
    with capture(execute=True):
        return services.list_publish_telling_members(site=SITE, **kwargs)


def to(address: str) -> list:
    return [message for message in mail.outbox if message.to == [address]]


def test_each_consenting_listed_member_is_mailed_their_rating_and_place(
    night, django_capture_on_commit_callbacks
):
    alice = night[0]
    publication = publish(django_capture_on_commit_callbacks)
    entry = publication.entries.get(member=alice)
    (message,) = to(alice.email)
    assert f"Your rating: {entry.display}" in message.body
    assert f"Your place: {entry.rank} of {publication.size}" in message.body


def test_the_mail_gives_the_change_since_the_list_before(
    night, rated_event, django_capture_on_commit_callbacks
):
    alice, bob = night[0], night[1]
    first = publish(django_capture_on_commit_callbacks)
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 4, 6), name="April")
    mail.outbox.clear()
    second = publish(django_capture_on_commit_callbacks)
    before = first.entries.get(member=alice).display
    after = second.entries.get(member=alice).display
    change = int(after) - int(before)
    assert change > 0
    (message,) = to(alice.email)
    assert f"Your rating: {after} (+{change} since the list of" in message.body
    assert f"when it was {before})" in message.body


def test_a_consenting_member_in_arrears_is_told_their_rating_is_kept(
    night, django_capture_on_commit_callbacks
):
    carol = night[2]
    publication = publish(django_capture_on_commit_callbacks)
    assert not publication.entries.filter(member=carol).exists()
    (message,) = to(carol.email)
    assert "your rating is kept" in message.body
    assert "once your subscription is recorded" in message.body
    # Not the figure itself: a mail is not the place for a withheld rating.
    assert carol.rating_states.get(time_class="standard").display not in message.subject


def test_members_without_consent_to_this_kind_get_nothing(
    night, django_capture_on_commit_callbacks
):
    alice, bob, carol, _dave = night
    publish(django_capture_on_commit_callbacks)
    assert sorted(address for message in mail.outbox for address in message.to) == sorted(
        [alice.email, carol.email]
    )
    assert not to(bob.email)


def test_a_publication_is_mailed_once(night, django_capture_on_commit_callbacks):
    alice = night[0]
    publication = publish(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.publication_mail_send(publication=publication, site=SITE)
    assert again == 0
    assert len(to(alice.email)) == 1
    assert (
        MailMessage.objects.filter(key=f"publication:{publication.pk}:member:{alice.pk}").count()
        == 1
    )


def test_the_messages_are_read_in_a_few_queries_however_many_members(
    night, current_season, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    for n in range(20):
        consenting(
            paid_up(MemberFactory(initial_rating=1500 + n, initial_games=30), current_season)
        )
    services.ratings_rerate(services.RerateRequest(reason="new members"))
    publication = services.list_publish()
    with django_assert_max_num_queries(8):
        letters = services.member_mail.publication_letters(publication=publication, site=SITE)
    assert len(letters) == 22


def test_every_message_carries_a_one_click_unsubscribe_and_the_members_page(
    night, django_capture_on_commit_callbacks
):
    alice = night[0]
    publish(django_capture_on_commit_callbacks)
    (message,) = to(alice.email)
    link = re.fullmatch(r"<(.+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    assert link.startswith(SITE.rstrip("/") + "/me/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.search(r"https://club\.test/me/[^/\s]+/", message.body)


def test_the_officer_sees_how_many_messages_publishing_sends_before_publishing(
    night, officer_client
):
    page = officer_client.get(reverse("ratings:officer-publish"))
    body = page.content.decode()
    assert "2 messages" in body
    assert "1 to a member listed" in body and "1 to a member rated but withheld" in body
    assert "Alice Archer" in body and "Carol Chen" in body
    assert "Bob Brown" not in body.split("mail-preview")[1].split("</section>")[0]
    assert not MailMessage.objects.exists()
    assert not services.publication_latest()


def test_the_officers_publish_queues_the_messages(
    night, officer_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        officer_client.post(reverse("ratings:officer-publish"), {"note": ""})
    assert len(mail.outbox) == 2
