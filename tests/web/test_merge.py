"""Merging duplicate member records: one person's games, entries and subscriptions as one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Entry, Game, Member, RatingChange, RatingState, Subscription

from ..factories import MemberFactory, SeasonFactory, SubscriptionFactory
from .test_rerate import full_rerate, ratings_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def michael():
    return MemberFactory(member_number="K1", name="Michael Kagan")


@pytest.fixture
def michael_again():
    """The same man, entered again at a later event under a new number."""
    return MemberFactory(member_number="K2", name="Michael Kagan")


@pytest.fixture
def history(rated_event, michael, michael_again, alice, bob, carol):
    rated_event(
        [(1, michael, alice, "1-0"), (2, bob, michael, "1/2-1/2")], date=dt.date(2026, 2, 2)
    )
    rated_event([(1, alice, bob, "0-1")], date=dt.date(2026, 2, 9))
    rated_event(
        [(1, michael_again, carol, "1-0"), (2, alice, michael_again, "0-1")],
        date=dt.date(2026, 2, 16),
    )
    rated_event([(1, carol, bob, "1-0"), (2, michael, alice, "0-1")], date=dt.date(2026, 2, 23))


def _merge_in_admin(client, keep, *members):
    return client.post(
        reverse("admin:ratings_member_changelist"),
        {
            "action": "merge_members",
            "_selected_action": [m.pk for m in members],
            "keep": keep.pk,
        },
        follow=True,
    )


def test_merging_moves_every_game_to_the_record_kept(history, michael, michael_again):
    services.member_merge(source=michael_again, target=michael)
    assert not Game.objects.filter(white=michael_again).exists()
    assert not Game.objects.filter(black=michael_again).exists()
    assert (
        Game.objects.filter(white=michael).count() + Game.objects.filter(black=michael).count()
        == 5
    )


def test_merging_marks_the_duplicate_merged_into_the_record_kept(history, michael, michael_again):
    services.member_merge(source=michael_again, target=michael)
    michael_again.refresh_from_db()
    assert michael_again.merged_into == michael
    assert not RatingState.objects.filter(member=michael_again).exists()
    assert not RatingChange.objects.filter(member=michael_again).exists()


def test_merging_re_rates_to_what_a_full_re_rate_gives(history, michael, michael_again):
    before = ratings_now()
    services.member_merge(source=michael_again, target=michael)
    after = ratings_now()
    assert after != before
    assert after == full_rerate()
    assert RatingState.objects.get(member=michael).games == 5


def test_an_entry_in_an_event_both_played_is_kept_once(rated_event, michael, michael_again, bob):
    event = rated_event([(1, michael, bob, "1-0"), (2, michael_again, bob, "1-0")])
    services.member_merge(source=michael_again, target=michael)
    players = Entry.objects.filter(event=event).values_list("member_id", flat=True)
    assert sorted(players) == sorted([michael.pk, bob.pk])


def test_a_subscription_for_a_season_both_paid_is_kept_once(michael, michael_again):
    both = SeasonFactory(name="2026")
    other = SeasonFactory(name="2025", start=dt.date(2025, 1, 1))
    SubscriptionFactory(member=michael, season=both)
    SubscriptionFactory(member=michael_again, season=both)
    SubscriptionFactory(member=michael_again, season=other)
    services.member_merge(source=michael_again, target=michael)
    assert sorted(
        Subscription.objects.filter(member=michael).values_list("season__name", flat=True)
    ) == [
        "2025",
        "2026",
    ]
    assert not Subscription.objects.filter(member=michael_again).exists()


def test_two_records_that_played_each_other_are_not_merged(rated_event, michael, michael_again):
    rated_event([(1, michael, michael_again, "1-0")])
    with pytest.raises(services.MergeRefused, match="played each other"):
        services.member_merge(source=michael_again, target=michael)
    assert Member.objects.get(pk=michael_again.pk).merged_into is None


def test_the_admin_action_asks_which_record_to_keep(admin_client, history, michael, michael_again):
    response = admin_client.post(
        reverse("admin:ratings_member_changelist"),
        {"action": "merge_members", "_selected_action": [michael.pk, michael_again.pk]},
    )
    assert response.status_code == 200
    assert b"Choose the record to keep" in response.content
    assert b'name="keep"' in response.content


def test_the_admin_action_merges_into_the_record_chosen(
    admin_client, history, michael, michael_again
):
    response = _merge_in_admin(admin_client, michael_again, michael, michael_again)
    assert b"Merged Michael Kagan (K1) into Michael Kagan (K2)" in response.content
    michael.refresh_from_db()
    assert michael.merged_into == michael_again
    assert ratings_now() == full_rerate()


def test_the_admin_action_refuses_a_merge_that_would_make_a_self_game(
    admin_client, rated_event, michael, michael_again
):
    rated_event([(1, michael, michael_again, "1/2-1/2")])
    response = admin_client.post(
        reverse("admin:ratings_member_changelist"),
        {"action": "merge_members", "_selected_action": [michael.pk, michael_again.pk]},
    )
    assert b"played each other" in response.content
    assert b'name="keep"' not in response.content
    response = _merge_in_admin(admin_client, michael, michael, michael_again)
    assert b"played each other" in response.content
    assert Member.objects.get(pk=michael_again.pk).merged_into is None


def test_the_merge_is_in_the_audit_trail_with_who_did_it(
    admin_client, admin_user, history, michael, michael_again
):
    _merge_in_admin(admin_client, michael, michael, michael_again)
    record = michael_again.history.latest()
    assert record.merged_into_id == michael.pk
    assert record.history_user == admin_user
    moved = Game.history.filter(history_change_reason__startswith="Merged").count()
    assert moved == 2


def test_the_member_form_in_the_admin_cannot_mark_a_record_merged(
    admin_client, history, michael, michael_again
):
    # Marking a duplicate by hand would leave its games behind: only the merge action may.
    page = admin_client.get(reverse("admin:ratings_member_change", args=[michael_again.pk]))
    assert 'name="merged_into"' not in page.content.decode()


def test_merging_a_member_who_brought_a_rating_into_one_who_did_not_keeps_it(
    rated_event, alice, bob
):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    duplicate = MemberFactory(name="Alice Archer", initial_rating=1900, initial_games=60)
    services.members_merge(sources=[duplicate], target=alice)
    alice.refresh_from_db()
    assert (alice.initial_rating, alice.initial_games) == (1900, 60)
    assert RatingState.objects.get(member=alice).rating > 1900
