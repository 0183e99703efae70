"""Adding a member: the next free number in the club's own pattern is suggested."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import suggested_member_number

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


def numbered(*numbers: str, guest: bool = False) -> None:
    for number in numbers:
        MemberFactory(member_number=number, is_guest=guest)


def test_the_next_number_follows_the_clubs_pattern():
    numbered("R1001", "R1002", "R1062", "N0001")
    assert suggested_member_number() == "R1063"


def test_the_digits_keep_their_width():
    numbered("0098", "0099")
    assert suggested_member_number() == "0100"


def test_guests_numbers_are_not_the_clubs_pattern_but_are_never_suggested():
    numbered("101", "102")
    numbered("G0001", "G0002", "G0003", "103", guest=True)
    assert suggested_member_number() == "104"


def test_a_club_with_no_member_starts_at_one():
    assert suggested_member_number() == "1"


def test_the_add_member_form_offers_the_suggestion(officer_client):
    numbered("R1001", "R1002")
    page = officer_client.get(reverse("ratings:officer-member-add")).content.decode()
    assert 'value="R1003"' in page
    assert "R1003 is the next free number in the club's pattern" in page
