"""Deleting an imported event offers to delete the members its import brought in, and no one
else: each listed, unticked, deleted only when the officer ticks them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Event, Member, Season

from ..factories import GameFactory, paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(alice):
    """A TRF import: Alice (a member already) and three new players it created."""
    event = Event(
        name="Spring Open",
        start_date=dt.date(2026, 3, 7),
        end_date=dt.date(2026, 3, 8),
        rounds=2,
        kind=Event.Kind.SWISS,
    )
    players = {
        1: alice,
        2: Member(member_number="N2", name="Nadia New"),
        3: Member(member_number="N3", name="Neil New"),
        4: Member(member_number="N4", name="Nora New", is_guest=True),
    }
    games = [(1, 1, 2, "1-0", True), (1, 3, 4, "0-1", True), (2, 2, 3, "1/2-1/2", True)]
    return services.trf_import(event=event, games=games, players=players)


def delete_page(client, event):
    return client.get(reverse("admin:ratings_event_delete", args=[event.pk]))


def delete(client, event, *ticked: Member):
    return client.post(
        reverse("admin:ratings_event_delete", args=[event.pk]),
        {"post": "yes", "delete_members": [m.pk for m in ticked]},
        follow=True,
    )


def offered(response) -> list[str]:
    return [m.name for m in response.context["brought_in"]]


def test_the_delete_page_offers_the_members_the_import_created(admin_client, imported):
    assert offered(delete_page(admin_client, imported)) == ["Nadia New", "Neil New", "Nora New"]


def test_the_members_offered_are_unticked(admin_client, imported):
    page = delete_page(admin_client, imported).content.decode()
    assert 'name="delete_members"' in page
    assert "checked" not in page.split("Members this event brought in")[1].split("</fieldset>")[0]


def test_a_member_who_was_here_before_the_event_is_not_offered(admin_client, imported):
    assert "Alice Archer" not in offered(delete_page(admin_client, imported))


def test_a_new_player_who_has_played_in_another_event_since_is_not_offered(
    admin_client, imported, bob
):
    neil = Member.objects.get(member_number="N3")
    GameFactory(white=neil, black=bob, result="1-0")
    assert "Neil New" not in offered(delete_page(admin_client, imported))


def test_a_new_player_who_has_since_paid_a_subscription_is_not_offered(
    admin_client, imported, current_season
):
    paid_up(Member.objects.get(member_number="N2"), current_season)
    assert "Nadia New" not in offered(delete_page(admin_client, imported))


def test_deleting_with_none_ticked_keeps_every_member(admin_client, imported):
    delete(admin_client, imported)
    assert not Event.objects.filter(pk=imported.pk).exists()
    assert Member.objects.filter(member_number__in=["N2", "N3", "N4"]).count() == 3


def test_deleting_deletes_the_ticked_members_with_the_event_and_no_one_else(
    admin_client, imported, alice
):
    nadia, nora = Member.objects.filter(member_number__in=["N2", "N4"]).order_by("name")
    response = delete(admin_client, imported, nadia, nora)
    assert not Event.objects.filter(pk=imported.pk).exists()
    left = set(Member.objects.values_list("member_number", flat=True))
    assert left == {alice.member_number, "N3"}
    assert "Also deleted 2 members the event brought in" in response.content.decode()


def test_a_member_not_offered_is_kept_even_if_ticked_by_hand(admin_client, imported, alice):
    delete(admin_client, imported, alice)
    assert Member.objects.filter(pk=alice.pk).exists()


def test_a_deleted_member_is_in_the_audit_trail_with_who_and_why(admin_client, imported):
    nadia = Member.objects.get(member_number="N2")
    delete(admin_client, imported, nadia)
    gone = Member.history.filter(id=nadia.pk, history_type="-").get()
    assert gone.history_user.username == "admin"
    assert gone.history_change_reason == "brought in by Spring Open; deleted with it"


# -- What the import gave a member does not keep them; what the officer gave them since does.


@pytest.fixture
def imported_on_the_web(admin_client, alice):
    """The club night TRF imported on the officer's page, the file's ratings ticked and the
    new members paid tonight: its winner is Alice (a member already), Jane Doe a new member
    the import created with the file's 1400 and this season paid."""
    from .test_officer_import import CLUB_NIGHT, confirm, upload

    upload(admin_client, CLUB_NIGHT, name="club.trf")
    confirm(admin_client, m1=alice.member_number, p2="new", use_ratings="on", new_paid="on")
    return Event.objects.get(name="Club night")


def test_a_new_player_the_import_gave_a_rating_and_a_paid_season_is_offered(
    admin_client, imported_on_the_web
):
    jane = Member.objects.get(name="Jane Doe")
    assert (jane.initial_rating, jane.subscriptions.count()) == (1400, 1)
    assert offered(delete_page(admin_client, imported_on_the_web)) == ["Jane Doe"]


def test_deleting_the_imported_event_with_its_new_player_ticked_deletes_them_and_no_one_else(
    admin_client, imported_on_the_web, alice, bob
):
    jane = Member.objects.get(name="Jane Doe")
    delete(admin_client, imported_on_the_web, jane)
    assert not Event.objects.filter(pk=imported_on_the_web.pk).exists()
    assert set(Member.objects.values_list("pk", flat=True)) == {alice.pk, bob.pk}


def test_a_new_player_whose_rating_the_officer_set_since_is_not_offered(
    admin_client, imported_on_the_web
):
    jane = Member.objects.get(name="Jane Doe")
    jane.initial_rating = 1550
    jane.save()
    assert offered(delete_page(admin_client, imported_on_the_web)) == []


def test_a_new_player_given_a_rating_since_the_import_is_not_offered(admin_client, imported):
    nadia = Member.objects.get(member_number="N2")
    nadia.initial_rating, nadia.initial_games = 1650, 12
    nadia.save()
    assert "Nadia New" not in offered(delete_page(admin_client, imported))


def test_a_new_player_who_paid_another_season_since_is_not_offered(
    admin_client, imported_on_the_web, current_season
):
    jane = Member.objects.get(name="Jane Doe")
    paid_up(jane, Season.for_day(current_season.end + dt.timedelta(days=1)))
    assert offered(delete_page(admin_client, imported_on_the_web)) == []


def test_a_player_added_on_the_events_page_and_paid_tonight_is_offered(
    admin_client, officer_client, alice
):
    event = Event.objects.create(
        name="Club night", start_date=dt.date(2026, 3, 3), end_date=dt.date(2026, 3, 3)
    )
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "Vera Visitor", "quick-initial_rating": "1320", "quick-paid_tonight": "on"},
    )
    vera = Member.objects.get(name="Vera Visitor")
    assert (vera.brought_in_by, vera.subscriptions.count()) == (event, 1)
    assert offered(delete_page(admin_client, event)) == ["Vera Visitor"]
