"""Event reports and crosstables are public: everyone who played is named, but only the
ratings the published list shows are shown. Members in arrears and guests are rated,
not published. Officers see every rating."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Game, RatingChange

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(rated_event, current_season, alice, bob):  # type: ignore[no-untyped-def]
    """Alice (paid up, 1500) beats Bob (in arrears, 1900) and draws with Gus (a guest)."""
    paid_up(alice, current_season)
    bob.initial_rating = 1900
    bob.save()
    gus = MemberFactory(member_number="G1", name="Gus Guest", is_guest=True)
    return rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (2, gus, alice, Game.Result.DRAW)], rounds=2
    )


def ratings_of(event, name):  # type: ignore[no-untyped-def]
    """What a player's rating change shows: before and after."""
    change = RatingChange.objects.get(event=event, member__name=name)
    return change.display_before, change.display_after


def report(client, event) -> str:  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:event-report", args=[event.pk])).content.decode()


def crosstable(client, event) -> str:  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:event-crosstable", args=[event.pk])).content.decode()


def test_the_report_shows_a_published_members_rating(client, night):
    before, after = ratings_of(night, "Alice Archer")
    page = report(client, night)
    assert "Alice Archer" in page and before in page and after in page


def test_the_report_names_a_member_in_arrears_but_not_their_rating(client, night):
    before, after = ratings_of(night, "Bob Brown")
    page = report(client, night)
    assert "Bob Brown" in page
    assert before not in page and after not in page
    assert "rating not published" in page


def test_the_report_names_a_guest_but_not_their_rating(client, night):
    page = report(client, night)
    assert "Gus Guest" in page
    assert page.count("rating not published") == 2  # Bob's and Gus's


def test_the_report_gives_no_breakdown_for_an_unpublished_player(client, night):
    rows = {
        r["member"].name: r
        for r in client.get(reverse("ratings:event-report", args=[night.pk])).context["rows"]
    }
    bob = rows["Bob Brown"]
    assert bob["hidden"] and bob["games"] == []
    assert (bob["before"], bob["after"], bob["change"], bob["expected"]) == (None,) * 4


def test_the_report_withholds_an_unpublished_opponents_rating_from_the_game_lines(client, night):
    rows = client.get(reverse("ratings:event-report", args=[night.pk])).context["rows"]
    alice = next(r for r in rows if r["member"].name == "Alice Archer")
    assert [g["opponent_rating"] for g in alice["games"]] == [None, None]


def test_the_report_withholds_what_would_give_an_unpublished_opponents_rating_away(client, night):
    # With Alice's own published rating, an expected score or a game's change against
    # Bob would let anyone work out Bob's rating; so would her total expected score.
    rows = client.get(reverse("ratings:event-report", args=[night.pk])).context["rows"]
    alice = next(r for r in rows if r["member"].name == "Alice Archer")
    assert [(g["expected"], g["change"]) for g in alice["games"]] == [(None, None)] * 2
    assert alice["expected"] is None


def test_an_officer_sees_the_expected_scores_against_unpublished_opponents(officer_client, night):
    rows = officer_client.get(reverse("ratings:event-report", args=[night.pk])).context["rows"]
    alice = next(r for r in rows if r["member"].name == "Alice Archer")
    assert None not in [g["expected"] for g in alice["games"]]
    assert alice["expected"] is not None


def test_the_crosstable_names_unpublished_players_but_not_their_ratings(client, night):
    page = crosstable(client, night)
    for name in ("Bob Brown", "Gus Guest"):
        assert name in page
        assert ratings_of(night, name)[1] not in page
    assert ratings_of(night, "Alice Archer")[1] in page


def test_an_officer_sees_every_rating_in_the_report_marked_when_unpublished(officer_client, night):
    page = report(officer_client, night)
    for name in ("Bob Brown", "Gus Guest"):
        assert ratings_of(night, name)[1] in page
    assert page.count("not published</span>") == 2
    assert "1900" in page  # Bob's rating on Alice's game line


def test_an_officer_sees_every_rating_in_the_crosstable(officer_client, night):
    page = crosstable(officer_client, night)
    for name in ("Alice Archer", "Bob Brown", "Gus Guest"):
        assert ratings_of(night, name)[1] in page
