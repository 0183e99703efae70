"""Members: a searchable list, add and edit, subscriptions and financial status."""

import datetime as dt

import pytest
from django.urls import reverse

from ratings.models import Member, RatingChange, RatingRun, RatingState, Subscription

from ..factories import MemberFactory, SeasonFactory, paid_up

pytestmark = pytest.mark.django_db


def test_the_member_list_finds_members_by_name_or_number(officer_client, alice, bob):
    url = reverse("ratings:officer-members")
    by_name = officer_client.get(url, {"q": "archer"}).context["table"]
    by_number = officer_client.get(url, {"q": "b2"}).context["table"]
    assert [row.record.name for row in by_name.rows] == ["Alice Archer"]
    assert [row.record.name for row in by_number.rows] == ["Bob Brown"]


def test_the_member_list_is_in_name_order_and_sorts_by_rating_strongest_first(
    officer_client, rated_event, alice, bob
):
    rated_event([(1, bob, alice, "1-0")])
    MemberFactory(name="Aaron Newcomer")  # not rated yet: last by rating
    url = reverse("ratings:officer-members")
    by_name = officer_client.get(url).context["table"]
    by_rating = officer_client.get(url, {"sort": "rating"}).context["table"]
    assert [row.record.name for row in by_name.rows] == [
        "Aaron Newcomer",
        "Alice Archer",
        "Bob Brown",
    ]
    assert [row.record.name for row in by_rating.rows] == [
        "Bob Brown",
        "Alice Archer",
        "Aaron Newcomer",
    ]


def test_the_member_list_shows_fifty_members_a_page(officer_client):
    for _ in range(51):
        MemberFactory()
    url = reverse("ratings:officer-members")
    assert len(officer_client.get(url).context["table"].page.object_list) == 50
    assert len(officer_client.get(url, {"page": 2}).context["table"].page.object_list) == 1


def test_a_name_in_the_member_list_opens_the_members_record(officer_client, alice):
    page = officer_client.get(reverse("ratings:officer-members")).content.decode()
    assert f'href="{reverse("ratings:officer-member", args=[alice.pk])}"' in page


def test_a_search_keeps_the_lists_order(officer_client, alice):
    url = reverse("ratings:officer-members")
    page = officer_client.get(url, {"sort": "rating"}).content.decode()
    assert '<input type="hidden" name="sort" value="rating">' in page


def test_the_member_list_shows_who_is_in_arrears_today(officer_client, alice, bob, current_season):
    paid_up(alice, current_season)
    page = officer_client.get(reverse("ratings:officer-members")).content.decode()
    assert page.count('text-bg-success">Financial') == 1
    assert page.count('text-bg-warning">In arrears') == 1


def test_the_member_list_runs_a_fixed_number_of_queries(
    officer_client, django_assert_max_num_queries
):
    for _ in range(30):
        MemberFactory()
    with django_assert_max_num_queries(12):
        officer_client.get(reverse("ratings:officer-members"))


def test_an_officer_adds_a_member(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Erin Evans", "member_number": "E5", "initial_games": 0},
    )
    erin = Member.objects.get(member_number="E5")
    assert response["Location"] == reverse("ratings:officer-member", args=[erin.pk])


def test_a_member_number_in_use_is_refused_beside_the_field(officer_client, alice):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Another", "member_number": "A1", "initial_games": 0},
    )
    assert response.context["form"].errors["member_number"]
    assert Member.objects.count() == 1


@pytest.mark.parametrize(
    ("born", "message"),
    [
        ("2999-01-01", "A date of birth cannot be in the future."),
        ("1800-01-01", "A date of birth before 1900 is surely a slip."),
    ],
)
def test_an_impossible_date_of_birth_is_refused_beside_the_field(officer_client, born, message):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Erin Evans", "member_number": "E5", "initial_games": 0, "born": born},
    )
    assert response.context["form"].errors["born"] == [message]
    assert not Member.objects.exists()


def test_an_officer_edits_a_member(officer_client, alice):
    officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]),
        {
            "member-name": "Alice Archer-Smith",
            "member-member_number": "A1",
            "member-initial_games": 0,
        },
    )
    alice.refresh_from_db()
    assert alice.name == "Alice Archer-Smith"


def test_recording_a_paid_season_makes_the_member_financial(officer_client, alice, current_season):
    page = officer_client.get(reverse("ratings:officer-member", args=[alice.pk]))
    assert "In arrears" in page.content.decode()
    officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": current_season.pk, "paid_on": "2026-01-05", "amount": "40"},
    )
    page = officer_client.get(reverse("ratings:officer-member", args=[alice.pk]))
    assert "Financial" in page.content.decode()


def test_a_season_paid_twice_is_refused(officer_client, alice):
    season = SeasonFactory(name="2025", start=dt.date(2025, 1, 1), end=dt.date(2025, 12, 31))
    paid_up(alice, season)
    response = officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": season.pk, "paid_on": "2025-02-01"},
    )
    assert "Alice Archer has already paid for 2025." in response.content.decode()
    assert Subscription.objects.count() == 1


# -- a member's starting details are the engine's input ---------------------------------


def _member_data(client, member, **changes):  # type: ignore[no-untyped-def]
    """The member page's form as it stands, with ``changes`` (unprefixed field names)."""
    form = client.get(reverse("ratings:officer-member", args=[member.pk])).context["form"]
    data = {}
    for bound in form:
        value = bound.value()
        if value is True:
            data[bound.html_name] = "on"
        elif value is not None and value is not False:
            data[bound.html_name] = value
    data.update({f"member-{name}": value for name, value in changes.items()})
    return data


def test_a_new_starting_rating_for_a_rated_member_says_how_many_events_it_re_rates_first(
    officer_client, rated_event, alice, bob, carol
):
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 3, 2))
    rated_event([(1, bob, carol, "1-0")], date=dt.date(2026, 3, 9))
    url = reverse("ratings:officer-member", args=[alice.pk])
    response = officer_client.post(url, _member_data(officer_client, alice, initial_rating=1900))
    assert "re-rates 2 events" in response.content.decode()
    alice.refresh_from_db()
    assert alice.initial_rating is None


def test_confirming_a_new_starting_rating_re_rates_from_the_members_first_event(
    officer_client, rated_event, bob
):
    alice = MemberFactory(name="Alice Archer", initial_rating=1521, initial_games=30)
    night = rated_event([(1, alice, bob, "1-0")])
    runs = RatingRun.objects.count()
    data = _member_data(officer_client, alice, initial_rating=1900)
    officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]), {**data, "confirm": "1"}
    )
    assert RatingChange.objects.get(event=night, member=alice).before == 1900
    assert RatingState.objects.get(member=alice).rating > 1900
    assert RatingRun.objects.count() == runs + 1


def test_a_new_name_for_a_rated_member_saves_without_asking_or_re_rating(
    officer_client, rated_event, alice, bob
):
    rated_event([(1, alice, bob, "1-0")])
    runs = RatingRun.objects.count()
    url = reverse("ratings:officer-member", args=[alice.pk])
    response = officer_client.post(url, _member_data(officer_client, alice, name="Alice Smith"))
    assert response["Location"] == url
    assert Member.objects.get(pk=alice.pk).name == "Alice Smith"
    assert RatingRun.objects.count() == runs


def test_a_new_starting_rating_for_a_member_yet_to_play_shows_at_once(
    officer_client, rated_event, alice, bob, dave
):
    rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-member", args=[dave.pk])
    response = officer_client.post(url, _member_data(officer_client, dave, initial_rating=1700))
    assert response["Location"] == url
    assert RatingState.objects.get(member=dave).rating == 1700


def test_adding_a_member_with_a_namesake_warns_and_still_saves(officer_client, alice):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "alice archer", "member_number": "A9", "initial_games": 0},
        follow=True,
    )
    assert Member.objects.filter(member_number="A9").exists()
    shown = [str(m) for m in response.context["messages"]]
    assert any("Another member is also called alice archer (A1)" in m for m in shown)


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u200d\u2060\ufeff", "\x01\x02", "-- ."])
def test_a_name_without_letters_is_refused_beside_the_field(officer_client, name):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": name, "member_number": "E5", "initial_games": 0},
    )
    assert "must contain letters" in response.context["form"].errors["name"][0]
    assert not Member.objects.exists()


def test_a_guest_named_without_letters_is_refused_inside_the_event(officer_client):
    from ..factories import EventFactory

    event = EventFactory()
    response = officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "\u200b", "quick-is_guest": "on"},
    )
    assert "must contain letters" in response.content.decode()
    assert not Member.objects.exists()


def test_a_nul_character_in_a_form_field_is_refused_beside_the_field(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Erin\x00Evans", "member_number": "E5", "initial_games": 0},
    )
    assert response.context["form"].errors["name"] == ["Null characters are not allowed."]
    assert not Member.objects.exists()
