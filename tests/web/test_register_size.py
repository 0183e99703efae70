"""The officer's register counted (``register_size``): every current member, the guests
of them, and the financial members who are not guests. The whole register is counted as
the paid-up less those merged away or guests (``_whole_register_size``); a part of it
(a search, a member's share) in one query. Both say the same of any club."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ratings.models import Member, register_size
from ratings.models.members import _whole_register_size

from ..factories import MemberFactory, SeasonFactory, paid_up

pytestmark = pytest.mark.django_db


def counted_in_one_query() -> tuple[int, int, int]:
    """The whole register as a part of it is counted: in one query."""
    return register_size(Member.objects.in_order())


@pytest.fixture
def seasons():
    """Two seasons covering today (a calendar year and a winter one overlapping it)."""
    today = timezone.localdate()
    year = SeasonFactory(
        name="year", start=today - dt.timedelta(days=100), end=today + dt.timedelta(days=100)
    )
    winter = SeasonFactory(
        name="winter", start=today - dt.timedelta(days=10), end=today + dt.timedelta(days=10)
    )
    return year, winter


def test_a_member_paid_for_two_seasons_covering_today_is_counted_once(seasons):
    paid_up(MemberFactory(), *seasons)
    assert _whole_register_size(None) == (1, 0, 1) == counted_in_one_query()


def test_a_guest_who_paid_is_a_guest_not_a_financial_member(seasons):
    paid_up(MemberFactory(is_guest=True), seasons[0])
    assert _whole_register_size(None) == (1, 1, 0) == counted_in_one_query()


def test_a_record_merged_away_counts_for_nothing_though_it_paid(seasons):
    kept = paid_up(MemberFactory(), seasons[0])
    paid_up(MemberFactory(merged_into=kept), seasons[1])
    assert _whole_register_size(None) == (1, 0, 1) == counted_in_one_query()


def test_a_subscription_for_a_season_gone_by_makes_no_one_financial(seasons):
    gone = SeasonFactory(name="gone", start=dt.date(2001, 1, 1), end=dt.date(2001, 12, 31))
    paid_up(MemberFactory(), gone)
    MemberFactory()
    assert _whole_register_size(None) == (2, 0, 0) == counted_in_one_query()


def test_the_whole_register_is_counted_on_the_day_asked(seasons):
    paid_up(MemberFactory(), seasons[1])
    later = timezone.localdate() + dt.timedelta(days=50)  # the winter season is over
    assert (
        register_size(day=later)
        == (1, 0, 0)
        == register_size(Member.objects.in_order(), day=later)
    )
