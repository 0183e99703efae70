"""The renewals page for a federation: 50 members a page, a search, renewed a page at a time."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings.models import Subscription

from ..factories import MemberFactory, SeasonFactory, paid_up

pytestmark = pytest.mark.django_db

RENEW = reverse("ratings:officer-renew")


@pytest.fixture
def last_season(current_season):
    return SeasonFactory(
        name="last",
        start=current_season.start - dt.timedelta(days=365),
        end=current_season.start - dt.timedelta(days=1),
    )


def members(count: int, season=None, start: int = 0) -> list:
    made = [
        MemberFactory(member_number=f"R{n:05d}", name=f"Renewer {n:05d}")
        for n in range(start, start + count)
    ]
    if season is not None:
        for member in made:
            paid_up(member, season)
    return made


def names(response) -> list[str]:
    return [m.name for m in response.context["rows"]]


def test_the_renewals_list_fifty_members_a_page(officer_client, current_season):
    members(55)
    assert len(names(officer_client.get(RENEW))) == 50
    assert len(names(officer_client.get(RENEW, {"page": 2}))) == 5
    assert officer_client.get(RENEW).context["page"].paginator.count == 55


def test_each_page_ticks_its_own_members_who_paid_last_season(
    officer_client, current_season, last_season
):
    paid = members(60, last_season)
    members(10, start=60)  # not paid last season: listed after
    second = officer_client.get(RENEW, {"page": 2})
    ticked = second.context["ticked"]
    shown = {str(m.pk): m for m in second.context["rows"]}
    assert ticked == {pk for pk, m in shown.items() if m.paid_before}
    assert ticked == {str(m.pk) for m in paid[50:]}


def renew(client, season, ticked, **query):
    url = RENEW + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    return client.post(
        url,
        {
            "season": str(season.pk),
            "paid_on": str(timezone.localdate()),
            "members": [m.pk for m in ticked],
        },
    )


def test_recording_a_page_records_its_ticked_members_only(
    officer_client, current_season, last_season
):
    paid = members(60, last_season)
    renew(officer_client, current_season, paid[50:55], page=2)
    renewed = Subscription.objects.filter(season=current_season)
    assert sorted(renewed.values_list("member__name", flat=True)) == [m.name for m in paid[50:55]]


def test_recording_a_page_returns_to_that_page_with_the_next_members_to_renew(
    officer_client, current_season, last_season
):
    paid = members(120, last_season)
    response = renew(officer_client, current_season, paid[50:100], page=2)
    assert response.status_code == 302
    after = officer_client.get(response["Location"])
    assert after.context["page"].number == 2
    assert names(after) == [m.name for m in paid[100:120]]


def test_the_renewals_find_a_member_by_name_or_number(officer_client, current_season):
    members(80)
    assert names(officer_client.get(RENEW, {"q": "renewer 00042"})) == ["Renewer 00042"]
    assert names(officer_client.get(RENEW, {"q": "R00071"})) == ["Renewer 00071"]


def count_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(RENEW, {"page": 2}).status_code == 200
    return len(queries)


def test_the_renewals_page_takes_the_same_queries_however_many_members(
    officer_client, current_season, last_season
):
    members(60, last_season)
    few = count_queries(officer_client)
    members(600, last_season, start=60)
    assert count_queries(officer_client) == few
