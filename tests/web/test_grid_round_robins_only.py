"""The crosstable grid is for round robins only: another event reached by its URL is told
so, and nothing is saved from there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Event

from ..factories import EventFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(alice, bob):  # type: ignore[no-untyped-def]
    event = EventFactory(name="Autumn Swiss", kind=Event.Kind.SWISS, rounds=4)
    for member in (alice, bob):
        event.entries.create(member=member)
    return event


def test_a_swiss_reached_by_the_grids_url_is_told_the_grid_is_for_round_robins(
    officer_client, swiss
):
    page = officer_client.get(reverse("ratings:officer-grid", args=[swiss.pk]))
    text = page.content.decode()
    assert "Autumn Swiss is a Swiss, not a round robin" in text
    assert reverse("ratings:officer-round", args=[swiss.pk, 1]) in text
    assert "crosstable-entry" not in text  # no grid


def test_nothing_is_saved_from_a_swiss_grid(officer_client, swiss, alice, bob):
    officer_client.post(
        reverse("ratings:officer-grid", args=[swiss.pk]), {f"g_{alice.pk}_{bob.pk}": "1"}
    )
    assert not swiss.games.exists()


def test_a_round_robin_has_its_grid(officer_client, swiss):
    swiss.kind = Event.Kind.ROUND_ROBIN
    swiss.save()
    page = officer_client.get(reverse("ratings:officer-grid", args=[swiss.pk]))
    assert "crosstable-entry" in page.content.decode()
