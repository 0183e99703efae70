"""A page's previous copy is served while its new version renders (no stampede), but never
once something was withdrawn from the public since it was rendered: an erased member, a
member no longer published, unpublished members kept off. The reader who finds another
rendering the page then renders it, or waits for it, rather than be handed a copy that
still shows what was withdrawn. An ordinary change (a payment) keeps the previous copy."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from clubratings import cache as public_cache
from ratings import services
from ratings.models import ClubSettings, Subscription
from tests.factories import MemberFactory, brought_in, paid_up

pytestmark = pytest.mark.django_db


def another_reader_renders(url: str) -> None:
    """Another reader (another thread or process) holds the page's render mark for the
    current version, as while they render it."""
    request = RequestFactory().get(url)
    key = public_cache._key(request, public_cache._version(request)[0])
    assert cache.add(public_cache._rendering_key(key), True, public_cache.RENDER_LOCK)


def marked_previous_copy(url: str) -> None:
    """The page's copy under the version now, kept as its previous copy for readers while
    the next version renders, and marked so that a reader served it can tell (the list
    reads alike before and after unpublished members are kept off)."""
    request = RequestFactory().get(url)
    version = public_cache._version(request)[0]
    answer = (200, [("Content-Type", "text/html; charset=utf-8")], b"THE PREVIOUS COPY", False)
    cache.set(public_cache._previous_key(request), (version, answer), public_cache.PREVIOUS_KEPT)


@pytest.fixture
def alice_listed(alice, current_season):
    return brought_in(alice, 1800, current_season)


@pytest.fixture
def list_read(client, alice_listed):
    """The published list, read once by the public (its copy kept), naming Alice."""
    first = client.get(reverse("ratings:list"))
    assert "Alice Archer" in first.content.decode()
    return first


def test_after_an_erasure_a_reader_during_the_render_is_not_shown_the_erased_member(
    client, alice_listed, list_read
):
    services.member_erase(member=alice_listed, reason="asked to be removed", by=None)
    another_reader_renders(reverse("ratings:list"))
    assert "Alice Archer" not in client.get(reverse("ratings:list")).content.decode()


def test_after_a_payment_is_removed_a_reader_during_the_render_is_not_shown_its_member(
    client, alice_listed, list_read
):
    Subscription.objects.filter(member=alice_listed).delete()
    another_reader_renders(reverse("ratings:list"))
    assert "Alice Archer" not in client.get(reverse("ratings:list")).content.decode()


def test_after_the_club_keeps_unpublished_members_off_no_previous_copy_is_served(
    client, club, list_read
):
    marked_previous_copy(reverse("ratings:list"))
    club.unpublished_members = ClubSettings.Unpublished.KEPT_OFF
    club.save()
    another_reader_renders(reverse("ratings:list"))
    answer = client.get(reverse("ratings:list"))
    assert b"THE PREVIOUS COPY" not in answer.content  # rendered for the new version


def test_after_an_ordinary_payment_a_reader_during_the_render_is_served_the_previous_copy(
    client, current_season, list_read
):
    paid_up(MemberFactory(name="Bob Brown"), current_season)
    another_reader_renders(reverse("ratings:list"))
    answer = client.get(reverse("ratings:list"))
    assert answer.content == list_read.content
    assert not answer.has_header("ETag")  # the previous copy carries no validator
