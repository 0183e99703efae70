"""Merging duplicates: the page says what survives and what it re-rates; so does the history."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Member

from ..factories import MemberFactory
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def garry():
    return MemberFactory(member_number="N0001", name="Garry Kasparov")


@pytest.fixture
def garry_again():
    """The same man entered again, with the FIDE id and title the first record lacks."""
    return MemberFactory(
        member_number="N0315", name="Garry Kasparov", fide_id="4100018", title="GM"
    )


@pytest.fixture
def nights(rated_event, garry, garry_again, alice, bob):  # type: ignore[no-untyped-def]
    rated_event([(1, garry, alice, "1-0")], date=dt.date(2026, 3, 2))
    rated_event([(1, alice, bob, "1/2-1/2")], date=dt.date(2026, 3, 9))
    rated_event([(1, garry_again, bob, "1-0")], date=dt.date(2026, 3, 16))


def _merge_page(client, *members):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("admin:ratings_member_changelist"),
        {"action": "merge_members", "_selected_action": [m.pk for m in members]},
    ).content.decode()


def test_the_merge_page_says_how_many_events_each_choice_re_rates(
    admin_client, nights, garry, garry_again
):
    page = _merge_page(admin_client, garry, garry_again)
    # Keeping N0001: from N0315's night on, and (its title copied) from N0001's own first.
    assert "Merging into N0001 re-rates 3 events" in page
    # Keeping N0315: from N0001's first night on.
    assert "Merging into N0315 re-rates 3 events" in page


def test_the_merge_page_shows_the_fields_that_survive(admin_client, nights, garry, garry_again):
    page = _merge_page(admin_client, garry, garry_again)
    assert "The record kept keeps its own name, member number, FIDE id, title" in page
    assert "4100018" in page and "GM" in page


def test_the_merge_page_says_what_a_choice_copies_into_the_record_kept(
    admin_client, nights, garry, garry_again
):
    page = _merge_page(admin_client, garry, garry_again)
    assert "Copies FIDE id 4100018 from N0315." in page
    assert "Copies FIDE title GM from N0315." in page


def test_merging_copies_the_fide_id_and_title_the_record_kept_lacks(nights, garry, garry_again):
    services.member_merge(source=garry_again, target=garry)
    garry.refresh_from_db()
    assert (garry.fide_id, garry.title) == ("4100018", "GM")


def test_merging_never_overwrites_what_the_record_kept_has(nights, garry, garry_again):
    garry.fide_id = "1"
    garry.save()
    services.member_merge(source=garry_again, target=garry)
    garry.refresh_from_db()
    assert (garry.fide_id, garry.title) == ("1", "GM")


def test_the_record_kept_records_the_merge_in_its_history(nights, garry, garry_again):
    services.member_merge(source=garry_again, target=garry)
    record = garry.history.latest()
    assert record.history_change_reason.startswith(
        "merged N0315 (Garry Kasparov) into this record"
    )


def test_the_duplicate_records_the_merge_in_its_history(nights, garry, garry_again):
    services.member_merge(source=garry_again, target=garry)
    record = Member.objects.get(pk=garry_again.pk).history.latest()
    assert record.merged_into_id == garry.pk
    assert "into Garry Kasparov (N0001)" in record.history_change_reason


def test_the_merge_in_the_admin_names_the_admin_in_the_kept_record_s_history(
    admin_client, admin_user, nights, garry, garry_again
):
    admin_client.post(
        reverse("admin:ratings_member_changelist"),
        {
            "action": "merge_members",
            "_selected_action": [garry.pk, garry_again.pk],
            "keep": garry.pk,
        },
    )
    assert garry.history.latest().history_user == admin_user


def test_a_change_of_rating_system_is_one_row_of_the_settings_history(admin_client):
    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    rows = club.history.count()
    data = {**admin_form(admin_client.get(url)), "rating_system": "st-charles"}
    admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert club.history.count() == rows + 1
    record = club.history.latest()
    assert record.rating_system == "st-charles"
    assert [c.field for c in record.diff_against(record.prev_record).changes] == ["rating_system"]
