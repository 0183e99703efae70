"""Only a write that changed the record retires the cached public pages: the sign-in, a
refused form or a preview leave them kept, so their readers are not all sent to render
every page again for nothing (clubratings/cache.py, ``PublicPagesChangedMiddleware``)."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from clubratings.cache import PublicPagesChangedMiddleware
from ratings import services
from ratings.models import ClubSettings, Member

pytestmark = pytest.mark.django_db

NEW_MEMBER = {
    "name": "Erin Evans",
    "member_number": "E5",
    "region": "North",
    "initial_games": "0",
}


@pytest.fixture
def version():
    """The version as it stands, once it has a row (a fresh database has none) and the
    club its settings (made, and announced, by the first page that reads them)."""
    ClubSettings.load()
    services.public_pages_changed()
    return services.public_pages_version


def test_signing_in_leaves_the_public_pages_kept(client, officer, version):
    before = version()
    response = client.post(
        reverse("login"), {"username": "olivia", "password": "correct-horse-42"}
    )
    assert response.status_code == 302  # signed in
    assert version() == before


def test_a_refused_officer_form_leaves_the_public_pages_kept(officer_client, version):
    before = version()
    response = officer_client.post(
        reverse("ratings:officer-member-add"), {**NEW_MEMBER, "name": ""}
    )
    assert response.status_code == 200 and response.context["form"].errors
    assert version() == before
    assert not Member.objects.exists()


def test_a_member_saved_retires_the_public_pages(officer_client, version):
    before = version()
    response = officer_client.post(reverse("ratings:officer-member-add"), NEW_MEMBER)
    assert response.status_code == 302 and Member.objects.filter(name="Erin Evans").exists()
    assert version() != before


def _post_through(view) -> None:  # type: ignore[no-untyped-def]
    request = RequestFactory().post("/somewhere/")
    PublicPagesChangedMiddleware(view)(request)


def test_a_post_writing_past_the_model_layer_retires_them_all_the_same(alice, version):
    """No signal tells of an ``update()``: the middleware sees the statement."""

    def renames(request: HttpRequest) -> HttpResponse:
        Member.objects.filter(pk=alice.pk).update(name="Alicia Archer")
        return HttpResponse(status=302)

    before = version()
    _post_through(renames)
    assert version() != before


def test_a_post_that_only_reads_leaves_them(alice, version):
    def reads(request: HttpRequest) -> HttpResponse:
        return HttpResponse(Member.objects.get(pk=alice.pk).name)

    before = version()
    _post_through(reads)
    assert version() == before
