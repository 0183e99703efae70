"""Public pages served from cache: the whole answer of a page every reader sees alike.

``public_page`` wraps a view in the URL table (``ratings/urls.py``) and the read API's
operations (``ratings/api/caching.py``). A page is kept under a key made of the public
pages' version (``services.public_pages``: bumped by every rating run, publication,
member, payment, result or settings change), the club's date (who is published follows
the calendar) and the page's address. A bump retires every copy at once, in every
process; copies under older versions are never asked for again and age out.

Only what every reader sees alike is kept:
- a reader with a session (an officer: the nav and the pages differ when signed in) or a
  message waiting is served by the view itself, never from or into the cache (the read
  API answers everyone alike, so it is kept for all: ``everyone=True``);
- only a 200 answer, with no cookie set and no form token on it (a page with a form);
- nothing withheld reaches the public in the first place: the views apply the
  publication rule, and a copy is only ever handed to the public kind of reader it was
  rendered for.

Each kept answer carries an ``ETag`` (the key's hash) and ``Last-Modified`` (the
version's move, or the day's start); a reader whose copy is current gets 304 before the
page is looked up at all. GZipMiddleware compresses after this, turning the ETag weak
(``W/"..."``); Django compares If-None-Match weakly, so the 304s still hold.

The cache is Django's default one (``CACHE_URL`` in the settings: a per-process memory
cache unless a shared Redis or Memcached is named).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date, quote_etag

#: Seconds a kept page lives at most (a bump retires it sooner). Long: the version,
#: not the clock, is what keeps pages right.
TIMEOUT = 24 * 60 * 60
#: Larger answers are served but not kept (a whole list's CSV of a very large club).
MAX_BYTES = 4 * 1024 * 1024
#: Headers a kept answer is served with again (the rest are each request's own).
_KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language", "Link")

View = Callable[..., HttpResponse]

log = logging.getLogger("ratings")


def _public_reader(request: HttpRequest) -> bool:
    """No session and no message waiting: the page is the one every visitor gets. Read
    from the cookies alone (no database), so a signed-in officer is never mistaken for
    the public (a stale session cookie just means a freshly rendered page)."""
    cookies = request.COOKIES
    return (
        settings.SESSION_COOKIE_NAME not in cookies
        and getattr(settings, "MESSAGE_COOKIE_NAME", "messages") not in cookies
        and "Authorization" not in request.headers
    )


def _version() -> tuple[str, dt.datetime]:
    """The version as the key's part (its number and moment: a database restored, or a
    test's rolled back, may give a number again, never with the same moment), and the
    answers' Last-Modified."""
    from ratings.services.public_pages import public_pages_version

    number, changed = public_pages_version()
    day_start = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time()))
    moment = changed.isoformat() if changed else ""
    return f"{number}@{moment}", max(changed or day_start, day_start)


def _key(request: HttpRequest, version: str) -> str:
    what = "|".join(
        (
            version,
            timezone.localdate().isoformat(),
            request.get_full_path(),
            request.headers.get("HX-Request", ""),
        )
    )
    return "public-page:" + hashlib.blake2b(what.encode(), digest_size=16).hexdigest()


def _headers(response: HttpResponse, *, everyone: bool, max_age: int) -> None:
    patch_cache_control(response, public=True, max_age=max_age, must_revalidate=not max_age)
    if not everyone:
        # A browser or proxy keeps the public copy apart from a signed-in reader's page.
        patch_vary_headers(response, ("Cookie",))


def _keepable(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        response.status_code == 200
        and not response.cookies
        # A form's token was put on the page (or its cookie renewed): this reader's own.
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        and not response.has_header("Set-Cookie")
        and "private" not in response.get("Cache-Control", "")
        and "no-store" not in response.get("Cache-Control", "")
    )


def _content(response: HttpResponse | StreamingHttpResponse) -> bytes:
    """The answer's body; a streamed one (the list's CSV) read whole."""
    if not response.streaming:
        return response.content
    return b"".join(response.streaming_content)  # type: ignore[union-attr, arg-type]


def _answer(status: int, headers: list[tuple[str, str]], content: bytes, streamed: bool) -> Any:
    """A kept answer as it was first given: streamed answers streamed again."""
    response: HttpResponse | StreamingHttpResponse = (
        StreamingHttpResponse(iter([content]), status=status)
        if streamed
        else HttpResponse(content, status=status)
    )
    for header, value in headers:
        response[header] = value
    return response


def public_page(
    view: View | None = None,
    *,
    everyone: bool = False,
    max_age: int = 0,
    checks: Callable[[HttpRequest], HttpResponse | None] | None = None,
) -> Any:
    """Serve ``view``'s GET answers from the cache for the public (``everyone``: for
    every reader, as the read API answers all alike), with ETag and conditional GET.
    ``max_age``: seconds a browser may keep the answer without asking (0: it asks each
    time, and gets a 304 while its copy is current). ``checks``: what the view itself
    would refuse first (the API's throttle), asked before an answer is served without
    the view: an answer it gives is served instead."""

    def decorate(view: View) -> View:
        @wraps(view)
        def cached_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in ("GET", "HEAD") or not (everyone or _public_reader(request)):
                return view(request, *args, **kwargs)
            version, modified = _version()
            key = _key(request, version)
            etag = quote_etag(key.removeprefix("public-page:"))
            last_modified = http_date(modified.timestamp())
            not_modified = get_conditional_response(
                request, etag=etag, last_modified=int(modified.timestamp())
            )
            kept = cache.get(key) if not_modified is None else None
            if checks is not None and (not_modified is not None or kept is not None):
                refused = checks(request)  # the view is not asked: ask its checks here
                if refused is not None:
                    return refused
            if not_modified is not None:
                not_modified["ETag"] = etag
                not_modified["Last-Modified"] = last_modified
                _headers(not_modified, everyone=everyone, max_age=max_age)
                return not_modified
            if kept is not None:
                response = _answer(*kept)
            else:
                rendered = view(request, *args, **kwargs)
                if not _keepable(request, rendered):
                    return rendered
                headers = [(h, rendered[h]) for h in _KEPT_HEADERS if rendered.has_header(h)]
                answer = (rendered.status_code, headers, _content(rendered), rendered.streaming)
                if len(answer[2]) <= MAX_BYTES:
                    cache.set(key, answer, TIMEOUT)
                response = _answer(*answer)
            response["ETag"] = etag
            response["Last-Modified"] = last_modified
            _headers(response, everyone=everyone, max_age=max_age)
            return response

        return cached_view

    return decorate(view) if view is not None else decorate


class PublicPagesChangedMiddleware:
    """The safety net: a signed-in person's post (a form saved, an import, the admin)
    retires the cached public pages once it has answered, whatever it wrote and however
    (the model signals and the re-rate catch the rest, ``services.public_pages``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method not in ("GET", "HEAD", "OPTIONS") and getattr(
            getattr(request, "user", None), "is_authenticated", False
        ):
            from ratings.services.public_pages import public_pages_changed

            try:
                public_pages_changed()
            except DatabaseError:  # SQLite busy with a long writer: its own saves bump
                log.warning("public pages' version not moved after %s", request.path)
        return response
