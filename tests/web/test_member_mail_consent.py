"""A member's address and consent to club mail: the email on their record (form, members
file, admin), when and how they consented, the kinds of message they want, and the one
question every message asks (``member_may_be_mailed``)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from ratings.models import Member
from ratings.rules.mail import CLUB_NEWS, NEW_RATING, STATUS_CHANGE, member_may_be_mailed
from ratings.services import member_imports

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


def edit(client, member, **fields):  # type: ignore[no-untyped-def]
    data = {
        "member-name": member.name,
        "member-member_number": member.member_number,
        "member-initial_games": 0,
        "member-change_reason": "asked at the club",
    }
    data.update({f"member-{name}": value for name, value in fields.items()})
    return client.post(reverse("ratings:officer-member", args=[member.pk]), data)


def consented(member: Member, *kinds: str) -> Member:
    member.email = "alice@example.org"
    member.mail_consent_at = timezone.now()
    member.mail_consent_how = "in_person"
    member.mail_wanted = list(kinds)
    member.save()
    return member


# -- the officer's form ---------------------------------------------------------------------


def test_the_officer_records_an_address_and_consent_given_in_person(officer_client, alice):
    edit(
        officer_client,
        alice,
        email="alice@example.org",
        mail_consent="on",
        mail_consent_how="in_person",
        mail_wanted=[NEW_RATING, CLUB_NEWS],
    )
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert alice.mail_consent_at is not None
    assert alice.mail_consent_how == "in_person"
    assert alice.mail_wanted == [NEW_RATING, CLUB_NEWS]


def test_an_address_that_is_not_one_is_refused_beside_the_field(officer_client, alice):
    response = edit(officer_client, alice, email="alice at example")
    assert response.context["form"].errors["email"] == ["Enter a valid email address."]
    alice.refresh_from_db()
    assert alice.email == ""


def test_consent_without_an_address_is_refused_beside_the_consent(officer_client, alice):
    response = edit(officer_client, alice, mail_consent="on", mail_consent_how="signed_form")
    assert response.context["form"].errors["mail_consent"] == [
        "Consent to club mail needs an email address to send to."
    ]
    alice.refresh_from_db()
    assert alice.mail_consent_at is None


def test_consent_without_saying_how_it_was_given_is_refused_beside_the_field(
    officer_client, alice
):
    response = edit(officer_client, alice, email="alice@example.org", mail_consent="on")
    assert response.context["form"].errors["mail_consent_how"] == [
        "Say how the member gave their consent."
    ]
    alice.refresh_from_db()
    assert alice.mail_consent_at is None


def test_consent_withdrawn_clears_its_date_and_how(officer_client, alice):
    consented(alice, NEW_RATING)
    edit(officer_client, alice, email="alice@example.org")
    alice.refresh_from_db()
    assert alice.mail_consent_at is None
    assert alice.mail_consent_how == ""


def test_consent_keeps_the_date_it_was_given_when_the_record_is_saved_again(officer_client, alice):
    consented(alice, NEW_RATING)
    given = alice.mail_consent_at
    edit(
        officer_client,
        alice,
        email="alice@example.org",
        mail_consent="on",
        mail_consent_how="in_person",
        mail_wanted=[NEW_RATING],
    )
    alice.refresh_from_db()
    assert alice.mail_consent_at == given


def test_the_history_keeps_consent_given_and_withdrawn(officer_client, alice):
    consented(alice, NEW_RATING)
    edit(officer_client, alice, email="alice@example.org")
    given, withdrawn = alice.history.order_by("history_date")[1:3]
    assert given.mail_consent_at is not None
    assert withdrawn.mail_consent_at is None


# -- the record itself ----------------------------------------------------------------------


def test_the_database_refuses_consent_without_an_address(alice):
    alice.mail_consent_at = timezone.now()
    alice.mail_consent_how = "online"
    with pytest.raises(IntegrityError), transaction.atomic():
        alice.save()


def test_a_kind_of_message_the_club_does_not_send_is_refused(alice):
    alice.mail_wanted = ["horoscope"]
    with pytest.raises(Exception, match="Not a kind of club mail: horoscope"):
        alice.full_clean()


# -- who may be mailed ----------------------------------------------------------------------


def test_a_member_with_address_consent_and_the_kind_wanted_may_be_mailed(alice):
    assert member_may_be_mailed(consented(alice, NEW_RATING), NEW_RATING)


def test_a_member_is_not_mailed_a_kind_they_did_not_ask_for(alice):
    assert not member_may_be_mailed(consented(alice, NEW_RATING), STATUS_CHANGE)


def test_a_member_without_consent_is_not_mailed_whatever_they_want(alice):
    alice.email = "alice@example.org"
    alice.mail_wanted = [NEW_RATING]
    alice.save()
    assert not member_may_be_mailed(alice, NEW_RATING)


def test_a_member_without_an_address_is_not_mailed():
    member = Member(name="Nobody Known", mail_consent_at=timezone.now(), mail_wanted=[NEW_RATING])
    assert not member_may_be_mailed(member, NEW_RATING)


def test_asking_about_a_kind_the_club_does_not_send_is_a_slip(alice):
    with pytest.raises(ValueError, match="not a kind of club mail"):
        member_may_be_mailed(consented(alice, NEW_RATING), "horoscope")


# -- the members file -----------------------------------------------------------------------


def test_a_members_file_brings_in_addresses():
    member_imports.members_import(data="id,name,email\nE5,Erin Evans,erin@example.org\n")
    assert Member.objects.get(member_number="E5").email == "erin@example.org"


def test_a_members_file_with_an_address_that_is_not_one_is_refused_at_its_line():
    _rows, problems = member_imports.members_check("id,name,email\nE5,Erin Evans,erin@\n")
    assert [str(p) for p in problems] == ["line 2, email: 'erin@' is not an email address"]


def test_a_members_file_may_not_clear_the_address_of_a_member_who_consented(alice):
    consented(alice, NEW_RATING)
    _rows, problems = member_imports.members_check("id,name,email\nA1,Alice Archer,\n")
    assert [p.column for p in problems] == ["email"]
    assert "withdraw their consent on their record first" in problems[0].message


# -- the admin ------------------------------------------------------------------------------


def test_the_admin_offers_the_kinds_of_message_as_boxes(admin_client):
    member = MemberFactory()
    page = admin_client.get(reverse("admin:ratings_member_change", args=[member.pk]))
    form = page.context["adminform"].form
    assert [key for key, _ in form.fields["mail_wanted"].choices] == [
        NEW_RATING,
        STATUS_CHANGE,
        CLUB_NEWS,
    ]
