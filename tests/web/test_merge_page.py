"""The merge page lists every field a merge will copy into the record kept, before the
officer confirms: what ``services.merge_fills`` copies is what the page says."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Member

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


def merge_page(client, *members) -> str:
    return client.post(
        reverse("admin:ratings_member_changelist"),
        {"action": "merge_members", "_selected_action": [m.pk for m in members]},
    ).content.decode()


def copies_listed(page: str, number: str) -> list[str]:
    """The fields the page says keeping ``number`` copies into it."""
    found = re.search(
        rf"Copies into {number}:\s*<ul class=\"merge-copies\">(.*?)</ul>", page, re.S
    )
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


@pytest.fixture
def bare():
    """The record to keep: a name and a number, nothing else."""
    return MemberFactory(member_number="K1", name="Kim Lee")


@pytest.fixture
def full():
    """The duplicate, with everything a merge can copy."""
    return MemberFactory(
        member_number="K2",
        name="Kim Lee",
        fide_id="3200015",
        title="FM",
        born=dt.date(1990, 5, 17),
        initial_rating=1850,
        initial_games=42,
        brought_in={"status": "confirmed"},
    )


def test_the_merge_page_lists_every_field_copied_into_the_record_kept(admin_client, bare, full):
    page = merge_page(admin_client, bare, full)
    assert copies_listed(page, "K1") == [
        "FIDE id: 3200015 (from K2)",
        "FIDE title: FM (from K2)",
        "Date of birth: 17 May 1990 (from K2)",
        "Initial rating: 1850 (from K2)",
        "Initial games: 42 (from K2)",
        "Standing brought in: ACF status brought in: Confirmed (from K2)",
    ]


def test_the_merge_page_lists_exactly_what_the_merge_then_copies(admin_client, bare, full):
    page = merge_page(admin_client, bare, full)
    listed = len(copies_listed(page, "K1"))
    before = {f: getattr(bare, f) for f in services.MERGE_FILLED_FIELDS}
    services.member_merge(source=full, target=bare)
    bare.refresh_from_db()
    changed = [f for f in services.MERGE_FILLED_FIELDS if getattr(bare, f) != before[f]]
    changed += [f for f in services.BROUGHT_IN_FIELDS if getattr(bare, f) == getattr(full, f)]
    assert listed == len(changed)


def test_the_merge_page_says_when_keeping_a_record_copies_nothing(admin_client, bare, full):
    page = merge_page(admin_client, bare, full)
    # Kept, the full record lacks nothing the bare one could give it.
    assert "Copies nothing into K2: it keeps its own fields." in page
    assert copies_listed(page, "K2") == []


def test_the_merge_page_names_every_field_a_merge_may_copy(admin_client, bare, full):
    page = merge_page(admin_client, bare, full)
    for field in (*services.MERGE_FILLED_FIELDS, *services.BROUGHT_IN_FIELDS):
        assert str(Member._meta.get_field(field).verbose_name) in page
