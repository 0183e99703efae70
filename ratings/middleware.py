"""The re-rate policy's part in a request: someone is waiting on the page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from .services import rerates_for_a_page


def rerate_policy(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Every request's saves re-rate under ``services.ratings_update``'s rule for a page: a
    re-rate too slow to wait for goes to the background worker (officer pages, the admin,
    the web imports alike)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        with rerates_for_a_page():
            return get_response(request)

    return middleware
