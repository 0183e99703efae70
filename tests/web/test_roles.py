"""The club's people and their roles (ratings/rules/roles.py, asked in ratings/rules/access.py):
a tournament director enters their own events, a treasurer keeps the payments, the officer
keeps everything as before, the administrator runs the club."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from ratings.models import Event, Subscription
from ratings.rules.roles import ROLES
from ratings.services.accounts import (
    DIRECTOR,
    OFFICER,
    TREASURER,
    administrator_create,
    event_directors_set,
    role_give,
    role_groups_ensure,
)

from ..factories import EventFactory, paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_night(alice, bob, carol, dave):
    event = EventFactory(name="Club night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


@pytest.fixture
def other_night(alice, bob):
    event = EventFactory(name="Other night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob):
        event.entries.create(member=member)
    return event


@pytest.fixture
def director_client(client, club_night):
    dora = User.objects.create_user("dora", password="x")
    event_directors_set(event=club_night, users=[dora])
    client.force_login(dora)
    return client


@pytest.fixture
def treasurer_client(client):
    tess = role_give(user=User.objects.create_user("tess", password="x"), role=TREASURER)
    client.force_login(tess)
    return client


def a_round(*rows):  # type: ignore[no-untyped-def]
    data = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data.update({f"g-{i}-white": white.pk, f"g-{i}-black": black.pk, f"g-{i}-result": result})
    return data


def a_payment(season):  # type: ignore[no-untyped-def]
    return {"season": str(season.pk), "paid_on": str(timezone.localdate()), "amount": "20"}


# -- the roles' groups ----------------------------------------------------------------------


def test_every_roles_group_is_repaired_to_exactly_its_permissions():
    treasurers = Group.objects.get(name=ROLES[TREASURER].group)  # made by the migration
    treasurers.permissions.clear()
    role_groups_ensure()
    assert set(treasurers.permissions.values_list("codename", flat=True)) == {"keep_subscriptions"}


def test_a_director_and_a_treasurer_never_open_the_admin(client):
    dora = role_give(user=User.objects.create_user("dora", password="x"), role=DIRECTOR)
    tess = role_give(user=User.objects.create_user("tess", password="x"), role=TREASURER)
    assert not dora.is_staff and not tess.is_staff
    client.force_login(dora)
    assert client.get("/admin/")["Location"].startswith("/admin/login/")


def test_a_page_refused_names_the_role_it_needs_with_its_article(client):
    client.force_login(
        role_give(user=User.objects.create_user("otto", password="x"), role=OFFICER)
    )
    page = client.get(reverse("ratings:officer-people")).content.decode()
    assert "which is not an administrator&#x27;s login" in page


def test_a_login_sent_to_the_admin_without_its_rights_is_told_so_on_the_login_page(client):
    dora = role_give(user=User.objects.create_user("dora", password="x"), role=DIRECTOR)
    client.force_login(dora)
    page = client.get("/admin/", follow=True).content.decode()
    assert "You are logged in as <strong>dora</strong>, whose roles do not open that page" in page
    assert f'href="{reverse("ratings:officer-home")}"' in page


# -- a tournament director ------------------------------------------------------------------


def test_a_director_enters_a_round_of_their_event(director_client, club_night, alice, bob):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    response = director_client.post(url, a_round((alice, bob, "1-0")))
    assert response.status_code == 302
    assert list(club_night.games.values_list("white__name", "result")) == [("Alice Archer", "1-0")]


def test_a_director_is_refused_another_events_round(director_client, other_night, alice, bob):
    url = reverse("ratings:officer-round", args=[other_night.pk, 1])
    assert director_client.post(url, a_round((alice, bob, "1-0"))).status_code == 403
    assert not other_night.games.exists()


def test_a_director_may_not_rate_their_own_event(director_client, club_night):
    url = reverse("ratings:officer-event-complete", args=[club_night.pk])
    assert director_client.post(url).status_code == 403
    club_night.refresh_from_db()
    assert club_night.status == Event.Status.DRAFT


def test_a_director_may_not_publish_the_list(director_client):
    assert director_client.post(reverse("ratings:officer-publish")).status_code == 403


def test_a_director_may_not_record_a_payment(director_client, current_season, alice):
    url = reverse("ratings:officer-member-subscribe", args=[alice.pk])
    assert director_client.post(url, a_payment(current_season)).status_code == 403
    assert not alice.subscriptions.exists()


def test_a_director_enters_a_newcomer_at_the_door_but_records_no_payment(
    director_client, club_night
):
    director_client.post(
        reverse("ratings:officer-event-players", args=[club_night.pk]),
        {"quick-name": "Nina New", "quick-paid_tonight": "on"},
    )
    nina = club_night.players.get(name="Nina New")
    assert not nina.subscriptions.exists()


def test_a_directors_home_lists_their_events_only(director_client, club_night, other_night):
    page = director_client.get(reverse("ratings:officer-home")).content.decode()
    assert "Club night" in page and "Other night" not in page


def test_a_director_without_events_is_told_who_gives_them(client):
    dora = role_give(user=User.objects.create_user("dora", password="x"), role=DIRECTOR)
    client.force_login(dora)
    page = client.get(reverse("ratings:officer-home")).content.decode()
    assert "No event is yours yet: the club's administrator gives a director their events" in page


# -- a treasurer ----------------------------------------------------------------------------


def test_a_treasurer_records_a_payment(treasurer_client, current_season, alice):
    url = reverse("ratings:officer-member-subscribe", args=[alice.pk])
    response = treasurer_client.post(url, a_payment(current_season))
    assert response["Location"] == reverse("ratings:officer-member", args=[alice.pk])
    assert alice.is_financial_on()


def test_a_treasurer_takes_a_payment_back(treasurer_client, current_season, alice):
    payment = paid_up(alice, current_season).subscriptions.get()
    url = reverse("ratings:officer-subscription-remove", args=[alice.pk, payment.pk])
    treasurer_client.post(url, {"reason": "paid twice"})
    assert not Subscription.objects.filter(pk=payment.pk).exists()


def test_a_treasurer_reads_a_members_record_but_may_not_change_it(treasurer_client, alice):
    url = reverse("ratings:officer-member", args=[alice.pk])
    assert treasurer_client.get(url).status_code == 200
    assert treasurer_client.post(url, {"member-name": "Someone Else"}).status_code == 403
    alice.refresh_from_db()
    assert alice.name == "Alice Archer"


def test_a_treasurer_is_refused_results(treasurer_client, club_night, alice, bob):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    assert treasurer_client.post(url, a_round((alice, bob, "1-0"))).status_code == 403
    assert not club_night.games.exists()


# -- the officer and the administrator --------------------------------------------------------


def test_the_officer_enters_any_events_results_without_being_its_director(
    officer_client, club_night, alice, bob
):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    assert officer_client.post(url, a_round((alice, bob, "1-0"))).status_code == 302
    assert club_night.games.count() == 1


def test_the_administrator_is_the_clubs_ratings_officer_too():
    root = administrator_create(username="root", password="x")
    assert root.is_superuser
    assert set(root.groups.values_list("name", flat=True)) == {
        "Administrators",
        "Ratings officers",
    }
