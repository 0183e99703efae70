"""A retired public page is rendered once per version, in whichever process a reader
first asks for it: the readers who come while it renders are served its previous copy,
rather than each rendering it too (after a write, every server thread once rendered the
same 15-second list at once, and the site stalled)."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from clubratings import cache as public_cache
from clubratings.cache import public_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def version(monkeypatch):
    """The public pages' version, moved by the test."""
    now = {"number": 1}

    def read(request):
        from django.utils import timezone

        return f"{now['number']}@", timezone.now().replace(microsecond=0)

    monkeypatch.setattr(public_cache, "_version", read)
    return now


def test_a_reader_during_a_retired_pages_rendering_is_served_its_previous_copy(version):
    renders: list[int] = []
    served_meanwhile: list[bytes] = []

    def the_list(request: HttpRequest) -> HttpResponse:
        renders.append(version["number"])
        if version["number"] == 2:
            # A second reader asks while this one renders (another thread or process).
            served_meanwhile.append(page(RequestFactory().get("/list/")).content)
        return HttpResponse(f"the list, version {version['number']}")

    page = public_page(the_list)
    page(RequestFactory().get("/list/"))
    version["number"] = 2  # a write retires it
    first = page(RequestFactory().get("/list/"))
    assert renders == [1, 2]
    assert served_meanwhile == [b"the list, version 1"]
    assert first.content == b"the list, version 2"


def test_the_previous_copy_carries_no_validator_of_the_new_version(version):
    def the_list(request: HttpRequest) -> HttpResponse:
        if version["number"] == 2:
            meanwhile.append(page(RequestFactory().get("/list/")))
        return HttpResponse(f"the list, version {version['number']}")

    meanwhile: list[HttpResponse] = []
    page = public_page(the_list)
    page(RequestFactory().get("/list/"))
    version["number"] = 2
    page(RequestFactory().get("/list/"))
    assert not meanwhile[0].has_header("ETag")
    assert "max-age=0" in meanwhile[0]["Cache-Control"]


def test_once_rendered_every_reader_gets_the_new_version_and_no_one_renders_it_again(version):
    renders: list[int] = []

    def the_list(request: HttpRequest) -> HttpResponse:
        renders.append(version["number"])
        return HttpResponse(f"the list, version {version['number']}")

    page = public_page(the_list)
    page(RequestFactory().get("/list/"))
    version["number"] = 2
    answers = [page(RequestFactory().get("/list/")).content for _ in range(3)]
    assert answers == [b"the list, version 2"] * 3
    assert renders == [1, 2]


def test_a_page_never_rendered_before_is_rendered_by_a_reader_who_finds_no_copy(
    version, monkeypatch
):
    # The second reader asks from inside the first one's render, on the same thread: it
    # waits for that thread's render mark as long as a reader ever waits for another
    # thread's (RENDER_WAIT, 10 s), then renders. A moment stands for those seconds.
    monkeypatch.setattr(public_cache, "RENDER_WAIT", 0.01)
    renders: list[int] = []

    def the_list(request: HttpRequest) -> HttpResponse:
        renders.append(version["number"])
        if len(renders) == 1:
            meanwhile.append(page(RequestFactory().get("/list/")).content)
        return HttpResponse(f"the list, version {version['number']}")

    meanwhile: list[bytes] = []
    page = public_page(the_list)
    page(RequestFactory().get("/list/"))
    # No previous copy to serve: the second reader rendered it rather than wait for none.
    assert meanwhile == [b"the list, version 1"] and len(renders) == 2
