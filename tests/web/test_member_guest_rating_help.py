"""The initial rating's help says when the club's system rates guests at a fixed rating."""

import pytest
from django.urls import reverse

from ratings.forms import MemberForm, QuickMemberForm

pytestmark = pytest.mark.django_db

FIXED = "guests are rated at a fixed 1500 whatever this says"


def test_under_nz_club_elo_the_help_says_guests_are_fixed_at_its_guest_rating(club):
    assert FIXED in MemberForm().fields["initial_rating"].help_text
    assert FIXED in QuickMemberForm().fields["initial_rating"].help_text


def test_the_help_follows_the_clubs_guest_rating(club):
    club.system_params = {"guest_rating": 1200}
    club.save()
    assert "a fixed 1200 " in MemberForm().fields["initial_rating"].help_text


def test_under_a_system_without_a_guest_rating_the_help_says_nothing_of_guests(club):
    club.rating_system = "st-charles"
    club.save()
    help_text = MemberForm().fields["initial_rating"].help_text
    assert help_text == "The member's rating before their first event here (blank: a new player)."


def test_the_member_page_shows_it(officer_client, club):
    response = officer_client.get(reverse("ratings:officer-member-add"))
    assert FIXED in response.content.decode()
