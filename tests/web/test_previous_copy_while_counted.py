"""A write that forgot the published lists' figures counts them once it commits; the
public's readers meanwhile are served each page's previous copy rather than each counting
every published member too (at 200,000 members the count is most of a page's 200-480 ms).
With no count under way they render the page, counting, as before."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import services
from ratings.models import PublishedListFigures
from ratings.services import list_figures
from tests.factories import brought_in

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")


@pytest.fixture
def list_read(client, alice, current_season):
    """The published list naming Alice, read once by the public (its copy kept), then a
    write nobody follows member by member: the figures forgotten, the version moved."""
    brought_in(alice, 1800, current_season)
    services.list_figures_keep()
    assert "Alice Archer" in client.get(LIST).content.decode()
    PublishedListFigures.objects.update(figures=None)
    alice.name = "Alice Renamed"
    alice.save()
    assert services.list_figures_kept() is None


def counts_read(client) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        page = client.get(LIST).content.decode()
    return page, [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"]]


def test_while_the_forgotten_figures_are_counted_a_reader_is_served_the_previous_copy(
    client, list_read
):
    cache.set(list_figures.COUNTING_KEY, True, list_figures.COUNTING_MARK)
    page, counts = counts_read(client)
    assert "Alice Archer" in page  # the copy from before the write
    assert counts == []


def test_with_no_count_under_way_the_reader_renders_the_page_counting(client, list_read):
    page, counts = counts_read(client)
    assert "Alice Renamed" in page
    assert counts


def test_the_count_after_a_forgetting_write_is_marked_while_it_runs_and_unmarked_after(
    monkeypatch, django_capture_on_commit_callbacks
):
    seen = []
    keep = list_figures.list_figures_keep

    def keep_seen(**kwargs):
        seen.append(services.list_figures_being_counted())
        return keep(**kwargs)

    monkeypatch.setattr(list_figures, "list_figures_keep", keep_seen)
    with django_capture_on_commit_callbacks(execute=True):
        services.list_figures_forget()
    assert seen == [True]
    assert not services.list_figures_being_counted()
    assert services.list_figures_kept() is not None
