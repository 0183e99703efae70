"""What every request carries: the club's time zone (it decides "today", hence who is
financial) and the re-rate policy's part (someone is waiting on the page)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .context_processors import club
from .models.club import club_time_zone_activate
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


class ClubTimeZoneMiddleware:
    """Every request in the club's time zone. The settings row is read once a request and
    kept on it, so the pages' own reads of the club (``views.common.club_of``, the
    context processor) cost nothing more."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        club_time_zone_activate(club(request)["club"])
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
