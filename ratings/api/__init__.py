"""The open read API, ``/api/v1/``: read-only JSON of the lists, members and events
(django-ninja: the OpenAPI description comes from the schemas in ``schemas.py``).

Public: it answers every caller as the public pages answer a visitor, whatever their
login (an officer's session changes nothing here), under the same publication rule
(``ratings.publication``). Anonymous callers are throttled (``API_ANON_RATE``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja import NinjaAPI
from ninja.throttling import AnonRateThrottle

from . import events, lists, members


class AnonymousThrottle(AnonRateThrottle):
    """django-ninja's throttle of anonymous callers at ``settings.API_ANON_RATE``, read at
    each request (so a changed setting takes effect without rebuilding the API)."""

    def __init__(self) -> None:
        super().__init__(settings.API_ANON_RATE)

    def allow_request(self, request: HttpRequest) -> bool:
        if self.rate != settings.API_ANON_RATE:
            self.rate = settings.API_ANON_RATE
            self.num_requests, self.duration = self.parse_rate(self.rate)
        return bool(super().allow_request(request))


api = NinjaAPI(
    title="Club Ratings read API",
    version="1",
    description=(
        "Read-only JSON of the club's published lists, members and events. Every answer "
        "carries an ETag and Last-Modified (send If-None-Match or If-Modified-Since for "
        "a 304); lists are paged with `page` and `per_page` (at most 500)."
    ),
    urls_namespace="api",
    docs_url=None,
    openapi_url="/openapi.json",
    throttle=[AnonymousThrottle()],
)
api.add_router("/", lists.router)
api.add_router("/", members.router)
api.add_router("/", events.router)
