"""The published list's figures (its size, the regions of its filter): counted by the
rating run as it leaves the list, and kept with the public pages' version for the list's
first reader (``list_figures_keep``); any other change to what the public reads, or a new
day, has the list counted again."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from ratings import services
from ratings.models import Game, PublicPagesVersion
from ratings.pages import reports
from ratings.pages.reports import published_list_size

from ..factories import paid_up

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """What is counted from here on: "size", "regions"."""
    calls: list[str] = []
    size, regions = reports.published_list_size, reports.published_regions

    def size_counted(**kwargs):
        calls.append("size")
        return size(**kwargs)

    def regions_counted(*args, **kwargs):
        calls.append("regions")
        return regions(*args, **kwargs)

    monkeypatch.setattr(reports, "published_list_size", size_counted)
    monkeypatch.setattr(reports, "published_regions", regions_counted)
    return calls


def list_read(client) -> tuple[int, list[str]]:
    """The list's size and the regions of its filter, as its page gives them."""
    response = client.get(LIST)
    regions = [value for value, _ in response.context["filter"].form["region"].field.choices]
    return response.context["table"].paginator.count, [r for r in regions if r]


def kept_figures() -> dict | None:
    return PublicPagesVersion.objects.get(pk=1).list_figures


def test_the_first_reader_after_a_rating_run_reads_what_the_run_counted(
    client, current_season, rated_event, alice, bob, counted
):
    paid_up(alice, current_season), paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    counted.clear()
    assert list_read(client) == (2, ["North", "South"])
    assert counted == []


def test_a_payment_after_the_run_has_the_list_counted_again(
    client, current_season, rated_event, alice, bob, counted
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    paid_up(bob, current_season)
    counted.clear()
    assert list_read(client) == (2, ["North", "South"])
    assert sorted(counted) == ["regions", "size"]


def test_renewals_at_the_start_of_a_season_have_the_list_counted_again(
    client, current_season, rated_event, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    services.subscriptions_renew(members=[bob], season=current_season)
    assert list_read(client) == (2, ["North", "South"])


def test_figures_kept_on_another_day_are_not_read(client, current_season, rated_event, alice, bob):
    paid_up(alice, current_season), paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    PublicPagesVersion.objects.filter(pk=1).update(
        list_figures={"day": "2001-01-01", "lists": {"standard": [99, 99]}, "regions": ["X"]}
    )
    assert list_read(client) == (2, ["North", "South"])


@pytest.mark.django_db(transaction=True)
def test_a_run_keeps_the_figures_it_counted_when_its_transaction_commits(
    current_season, rated_event, alice, bob
):
    paid_up(alice, current_season), paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    figures = kept_figures()
    assert figures["lists"]["standard"] == list(published_list_size(time_class="standard"))
    assert figures["regions"] == ["North", "South"]


@pytest.mark.django_db(transaction=True)
def test_a_change_after_the_run_in_the_same_transaction_clears_the_kept_figures(
    current_season, rated_event, alice, bob
):
    paid_up(alice, current_season)
    with transaction.atomic():
        rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
        paid_up(bob, current_season)
    assert kept_figures() is None
