"""HTTP caching of the read API: an ETag and Last-Modified on every answer, 304 when
the caller's copy is current.

What every answer depends on is the club's record and its ratings; their version is
read in a few indexed aggregates (the audit trail's latest change of each record and of
the club's settings, the
last re-rate, the last publication) plus today's date, since who is published (a
paid-up member) follows the calendar. Any change makes every ETag new: coarse, but
never stale.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db.models import Max
from django.http import HttpRequest
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition
from ninja.decorators import decorate_view

from ..models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    Publication,
    RatingRun,
    Subscription,
)

#: Seconds a cache may serve an answer without asking again.
MAX_AGE = 60


def record_version(request: HttpRequest) -> tuple[dt.datetime, str]:
    """When the record or the ratings last changed, and a tag for their current state."""
    cached = getattr(request, "_api_version", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    stamps = [
        model.history.aggregate(at=Max("history_date"))["at"]  # type: ignore[attr-defined]
        # The club's settings too: whether unpublished members are named is one of them.
        for model in (Member, Subscription, Event, Entry, Game, ClubSettings)
    ]
    runs = RatingRun.objects.aggregate(at=Max("finished"), last=Max("pk"))
    publications = Publication.objects.aggregate(at=Max("published_at"), last=Max("pk"))
    today = timezone.localdate()
    start_of_day = timezone.make_aware(dt.datetime.combine(today, dt.time()))
    moments = [s for s in (*stamps, runs["at"], publications["at"]) if s is not None]
    modified = max([*moments, start_of_day])
    tag = "|".join(
        str(part)
        for part in (*stamps, runs["at"], runs["last"], publications["last"], today.isoformat())
    )
    request._api_version = (modified, tag)  # type: ignore[attr-defined]
    return modified, tag


def _etag(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    _, tag = record_version(request)
    return hashlib.sha256(f"{tag}|{request.get_full_path()}".encode()).hexdigest()[:32]


def _last_modified(request: HttpRequest, *args: Any, **kwargs: Any) -> dt.datetime:
    return record_version(request)[0]


#: Put on every operation: ETag, Last-Modified, Cache-Control and the 304s they allow.
cacheable = decorate_view(
    condition(etag_func=_etag, last_modified_func=_last_modified),
    cache_control(public=True, max_age=MAX_AGE),
)
