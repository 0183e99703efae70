"""Everything the club holds about one member, downloaded by the officer (JSON and CSV),
and a member erased at their request: who they were goes, from the record and its
history; their games stay, so no other member's rating moves."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Game, Member, RatingChange, RatingState

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db

ALICES = ("Alice Archer", "alice@example.org", "1990-04-05", "4100017", "North")


@pytest.fixture
def alice_played(rated_event, current_season, alice, bob, carol, dave):
    """Alice, with every personal field filled, played Bob and Carol; Bob and Carol
    played Dave after her, so her games reach members she never met."""
    alice.email = "alice@example.org"
    alice.mail_consent_at = timezone.now()
    alice.mail_consent_how = "signed_form"
    alice.mail_wanted = ["new_rating"]
    alice.born = dt.date(1990, 4, 5)
    alice.fide_id = "4100017"
    alice.save()
    paid_up(alice, current_season)
    for member, rating in ((alice, 1800), (bob, 1500), (carol, 1650), (dave, 1550)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, Game.Result.WHITE_WIN)],
        date=dt.date(2026, 3, 2),
    )
    rated_event(
        [(1, bob, dave, Game.Result.DRAW), (2, dave, carol, Game.Result.BLACK_WIN)],
        date=dt.date(2026, 4, 6),
        name="April night",
    )
    alice.refresh_from_db()
    return alice


def erase(client, member, **data):  # type: ignore[no-untyped-def]
    return client.post(reverse("ratings:officer-member-erase", args=[member.pk]), data)


def everyone_elses_ratings(member: Member) -> dict[int, tuple[float | None, ...]]:
    states = RatingState.objects.exclude(member=member)
    changes = RatingChange.objects.exclude(member=member)
    return {
        **{("state", s.member_id): (s.rating, s.games) for s in states},  # type: ignore[dict-item]
        **{("change", c.member_id, c.event_id): (c.before, c.after) for c in changes},  # type: ignore[dict-item]
    }


# -- everything held ------------------------------------------------------------------------


def test_the_json_download_holds_the_record_subscriptions_games_changes_and_history(
    officer_client, alice_played
):
    response = officer_client.get(
        reverse("ratings:officer-member-data-json", args=[alice_played.pk])
    )
    held = json.loads(response.content)
    assert held["record"]["email"] == "alice@example.org"
    assert held["record"]["born"] == "1990-04-05"
    assert len(held["subscriptions"]) == 1
    assert [g["opponent_number"] for g in held["games"]] == ["B2", "C3"]
    assert len(held["rating_changes"]) == 1
    assert held["history"][0]["change"] == "created"
    assert response["Content-Disposition"] == 'attachment; filename="member-A1-held.json"'


def test_the_csv_download_gives_every_field_a_line(officer_client, alice_played):
    response = officer_client.get(
        reverse("ratings:officer-member-data-csv", args=[alice_played.pk])
    )
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    by_field = {(r["section"], r["row"], r["field"]): r["value"] for r in rows}
    assert by_field[("record", "1", "fide_id")] == "4100017"
    assert by_field[("games", "2", "opponent")] == "Carol Chen"
    assert by_field[("rating_changes", "1", "event")] == "Club night"


def test_the_officers_member_page_offers_the_downloads_and_erasing(officer_client, alice):
    page = officer_client.get(reverse("ratings:officer-member", args=[alice.pk])).content.decode()
    for name in ("officer-member-data-json", "officer-member-data-csv", "officer-member-erase"):
        assert reverse(f"ratings:{name}", args=[alice.pk]) in page


# -- erasing ---------------------------------------------------------------------------------


def test_erasing_asks_why_and_changes_nothing_without_a_reason(officer_client, alice_played):
    response = erase(officer_client, alice_played, confirm="on")
    assert response.context["form"].errors["reason"] == ["This field is required."]
    alice_played.refresh_from_db()
    assert alice_played.name == "Alice Archer"


def test_erasing_asks_for_confirmation(officer_client, alice_played):
    response = erase(officer_client, alice_played, reason="asked to be removed")
    assert response.context["form"].errors["confirm"]
    alice_played.refresh_from_db()
    assert alice_played.email == "alice@example.org"


def test_an_erased_member_is_a_former_member_with_no_personal_details(
    officer_client, alice_played
):
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    alice = Member.objects.get(pk=alice_played.pk)
    assert alice.name == f"Former member {alice.pk}"
    assert alice.member_number == f"former-{alice.pk}"
    assert (alice.email, alice.born, alice.gender, alice.region, alice.fide_id) == (
        "",
        None,
        "",
        "",
        "",
    )
    assert alice.mail_consent_at is None and alice.mail_wanted == []


def test_no_version_of_the_record_in_the_history_keeps_who_they_were(officer_client, alice_played):
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    versions = Member.history.filter(id=alice_played.pk)
    held = " ".join(
        str(value)
        for version in versions
        for value in (
            version.name,
            version.email,
            version.born,
            version.fide_id,
            version.region,
            version.member_number,
        )
    )
    assert versions.count() >= 3
    for personal in ALICES:
        assert personal not in held
    assert "A1" not in held.split()


def test_the_erasure_is_in_the_history_with_its_reason_and_who(
    officer, officer_client, alice_played
):
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    last = Member.history.filter(id=alice_played.pk).latest("history_date")
    assert last.history_change_reason == "Erased: asked to be removed"
    assert last.history_user == officer


def test_an_erased_members_games_stay(officer_client, alice_played):
    games = (
        Game.objects.filter(white=alice_played).count()
        + Game.objects.filter(black=alice_played).count()
    )
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    assert (
        Game.objects.filter(white=alice_played).count()
        + Game.objects.filter(black=alice_played).count()
        == games
        == 2
    )


def test_no_other_members_rating_moves_when_everything_is_rated_again(
    officer_client, alice_played
):
    before = everyone_elses_ratings(alice_played)
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    services.ratings_rerate(
        services.RerateRequest(reason="everything rated again after an erasure")
    )
    assert everyone_elses_ratings(alice_played) == before
    assert len(before) == 3 + 5  # Bob, Carol, Dave; their five rating changes


def test_under_a_system_that_rates_with_age_the_birth_date_is_kept_and_said(
    officer_client, alice_played
):
    services.rating_system_set(system_id="ecf-2020")
    page = officer_client.get(reverse("ratings:officer-member-erase", args=[alice_played.pk]))
    assert "Kept, because the club's rating system rates their games with it" in (
        page.content.decode()
    )
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    alice = Member.objects.get(pk=alice_played.pk)
    assert alice.born == dt.date(1990, 4, 5) and alice.fide_id == ""


def test_a_merged_record_of_theirs_is_erased_with_them(officer_client, alice_played):
    duplicate = MemberFactory(member_number="A1-old", name="Alice Archer", region="North")
    Member.objects.filter(pk=duplicate.pk).update(merged_into=alice_played)
    erase(officer_client, alice_played, reason="asked to be removed", confirm="on")
    duplicate.refresh_from_db()
    assert duplicate.name == f"Former member {duplicate.pk}" and duplicate.region == ""
