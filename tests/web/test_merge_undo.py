"""A merge can be undone: the duplicate is a member again with the games, entries and
payments the merge moved, both are re-rated as before, and the history says so in words."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Entry, Game, Member, MemberMerge, RatingRun, Subscription

from ..factories import MemberFactory, SeasonFactory, SubscriptionFactory
from .test_rerate import ratings_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def ben():
    return MemberFactory(member_number="R1003", name="Ben Carter")


@pytest.fixture
def ben_again():
    """The same man entered again under a new number, with his FIDE id and a payment."""
    return MemberFactory(member_number="R1020", name="Ben Carter", fide_id="3200015")


@pytest.fixture
def history(rated_event, ben, ben_again, alice, bob):
    rated_event([(1, ben, alice, "1-0")], date=dt.date(2026, 2, 2))
    rated_event(
        [(1, ben_again, bob, "0-1"), (2, alice, ben_again, "1/2-1/2")], date=dt.date(2026, 2, 9)
    )
    season = SeasonFactory()
    SubscriptionFactory(member=ben, season=season, amount=Decimal("60.00"))
    SubscriptionFactory(member=ben_again, season=season, amount=Decimal("55.00"))
    SubscriptionFactory(
        member=ben_again, season=SeasonFactory(start=dt.date(2025, 1, 1)), amount=Decimal("50.00")
    )


def held(member: Member) -> dict:
    return {
        "white": sorted(Game.objects.filter(white=member).values_list("pk", flat=True)),
        "black": sorted(Game.objects.filter(black=member).values_list("pk", flat=True)),
        "entries": sorted(Entry.objects.filter(member=member).values_list("event_id", flat=True)),
        "payments": sorted(
            Subscription.objects.filter(member=member).values_list("season__name", "amount")
        ),
    }


def test_undoing_a_merge_gives_back_the_games_entries_payments_and_ratings(
    history, ben, ben_again
):
    before = (held(ben), held(ben_again), ratings_now())
    services.member_merge(source=ben_again, target=ben)
    assert held(ben_again)["white"] == [] and held(ben)["payments"] != before[0]["payments"]
    services.member_merge_undo(merge=MemberMerge.objects.get())
    ben.refresh_from_db()
    ben_again.refresh_from_db()
    assert ben_again.merged_into is None
    assert ben.fide_id == ""  # the FIDE id the merge filled in went back with him
    assert (held(ben), held(ben_again), ratings_now()) == before


def test_a_merge_is_undone_from_the_kept_members_page(history, officer_client, ben, ben_again):
    services.member_merge(source=ben_again, target=ben)
    page = officer_client.get(reverse("ratings:officer-member", args=[ben.pk])).content.decode()
    assert "Ben Carter (R1020), merged" in page
    assert "2 games, 1 entry, 2 payments" in page
    merge = MemberMerge.objects.get()
    officer_client.post(reverse("ratings:officer-member-merge-undo", args=[ben.pk, merge.pk]))
    assert Member.objects.get(pk=ben_again.pk).merged_into is None
    page = officer_client.get(reverse("ratings:officer-member", args=[ben.pk])).content.decode()
    assert "Undo merge" not in page


def test_a_merge_undone_cannot_be_undone_twice(history, ben, ben_again):
    services.member_merge(source=ben_again, target=ben)
    merge = MemberMerge.objects.get()
    services.member_merge_undo(merge=merge)
    with pytest.raises(services.UndoRefused, match="undone already"):
        services.member_merge_undo(merge=merge)


def test_the_merged_records_history_reads_in_words(history, admin_client, ben, ben_again):
    services.member_merge(source=ben_again, target=ben)
    page = admin_client.get(
        reverse("admin:ratings_member_history", args=[ben_again.pk])
    ).content.decode()
    assert "pk=None" not in page
    assert "Ben Carter (R1003)" in page


def test_an_undo_posted_twice_at_once_is_done_once_and_the_second_is_told(history, ben, ben_again):
    """Two posts of "Undo merge" (a double click) each read the merge before either undid
    it: the second waits on the merge's row, finds it undone, and changes nothing."""
    services.member_merge(source=ben_again, target=ben)
    first, second = (MemberMerge.objects.select_related("kept", "removed").get() for _ in "12")
    services.member_merge_undo(merge=first)
    done = (
        MemberMerge.objects.get().undone_at,
        RatingRun.objects.count(),
        Member.history.count(),
        held(ben),
        held(ben_again),
    )
    with pytest.raises(services.UndoRefused, match=r"undone already.*nothing was changed"):
        services.member_merge_undo(merge=second)
    assert (
        MemberMerge.objects.get().undone_at,
        RatingRun.objects.count(),
        Member.history.count(),
        held(ben),
        held(ben_again),
    ) == done
