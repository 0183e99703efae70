"""A merge in the runs log names both records by name and number: a duplicate usually
shares its name with the record kept."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import RatingRun

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_the_runs_log_names_a_merge_by_both_numbers(rated_event, officer_client, alice, bob):
    kept = MemberFactory(member_number="R1003", name="Ben Carter")
    duplicate = MemberFactory(member_number="R1020", name="Ben Carter")
    rated_event([(1, kept, alice, "1-0")], date=dt.date(2026, 2, 2))
    rated_event([(1, duplicate, bob, "0-1")], date=dt.date(2026, 2, 9))
    services.member_merge(source=duplicate, target=kept)
    reason = "Ben Carter (R1020) merged into Ben Carter (R1003)"
    assert RatingRun.objects.latest("pk").reason == reason
    assert reason in officer_client.get(reverse("ratings:runs")).content.decode()
