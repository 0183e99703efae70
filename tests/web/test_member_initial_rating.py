"""A member's initial rating and games: a rating from 0 to 3500, games from 0."""

import pytest
from django.urls import reverse

from ratings.models import Member

pytestmark = pytest.mark.django_db

ADD = reverse("ratings:officer-member-add")


def add(client, **fields):  # type: ignore[no-untyped-def]
    return client.post(ADD, {"name": "Erin Evans", "member_number": "E5", **fields})


def test_a_negative_initial_rating_is_refused_beside_the_field(officer_client):
    response = add(officer_client, initial_rating="-5", initial_games=10)
    assert response.context["form"].errors == {"initial_rating": ["A rating cannot be below 0."]}
    assert not Member.objects.exists()


def test_an_initial_rating_above_3500_is_refused_beside_the_field(officer_client):
    response = add(officer_client, initial_rating="15000", initial_games=10)
    assert response.context["form"].errors == {"initial_rating": ["A rating is at most 3500."]}
    assert not Member.objects.exists()


def test_an_initial_rating_from_0_to_3500_is_kept(officer_client):
    add(officer_client, initial_rating="3500", initial_games=10)
    assert Member.objects.get().initial_rating == 3500


def test_negative_initial_games_are_refused_beside_the_field(officer_client):
    response = add(officer_client, initial_rating="1500", initial_games=-1)
    assert response.context["form"].errors == {
        "initial_games": ["Games played cannot be below 0."]
    }
    assert not Member.objects.exists()


def test_editing_a_member_to_a_negative_initial_rating_keeps_the_old_one(officer_client, alice):
    response = officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]),
        {
            "member-name": "Alice Archer",
            "member-member_number": "A1",
            "member-initial_rating": "-5",
            "member-initial_games": 0,
        },
    )
    assert response.context["form"].errors == {"initial_rating": ["A rating cannot be below 0."]}
    alice.refresh_from_db()
    assert alice.initial_rating is None
