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

A retired page is rendered once per version, whichever process a reader first asks in:
that reader takes the page's render mark (``cache.add``, ``RENDER_LOCK`` seconds at most);
the readers who come meanwhile are served the page's previous copy (its latest under an
older version, the same day and address, kept ``PREVIOUS_KEPT``), without a validator and
kept nowhere under the new version. With no previous copy they render it as before (one
thread of a process at a time). Nor is a previous copy served once something was withdrawn
from the public since it was rendered (an erasure, a member kept off: the withdrawals'
count in the key, ``services.public_pages``): it may show what was withdrawn. After a
write every server thread once rendered the same list at once, and the site stalled.
While the write that retired the pages counts the published lists' figures it forgot
(``services.list_figures``: every published member, 200-480 ms at 200,000), every reader
of a page with a previous copy is served it, none renders: rendering, each would count
them too.

Each kept answer carries an ``ETag`` (the key's hash) and ``Last-Modified`` (the
version's move, or the day's start); a reader whose copy is current gets 304 before the
page is looked up at all. GZipMiddleware compresses after this, turning the ETag weak
(``W/"..."``); Django compares If-None-Match weakly, so the 304s still hold.

Kept answers are served from the top of the stack (``KeptPublicPagesMiddleware``, just
below the security headers and the static files): a public reader's GET for a page the
cache holds is answered as it left the stack the first time (compressed once, its
headers whole) for one query, the version's, without the session, CSRF, authentication,
the club's settings or the view. Only what ``public_page`` marked as kept for the public
is kept there, under the same version, day, address and the reader's gzip; anything else
goes down the stack as before. The compressed body is the same for every reader: a kept
public page carries no secret (no form token, no cookie), so BREACH has nothing to find.

The cache is Django's default one (``CACHE_URL`` in the settings: a per-process memory
cache unless a shared Redis or Memcached is named).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.middleware.gzip import re_accepts_gzip
from django.utils import timezone
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.dateparse import parse_datetime
from django.utils.http import http_date, parse_http_date_safe, quote_etag

from ratings.models import PublicPagesVersion, PublicPagesWithdrawal
from ratings.services.list_figures import list_figures_being_counted
from ratings.services.public_pages import (
    public_pages_changed,
    public_pages_version,
    public_pages_withdrawn,
)

#: Seconds a kept page lives at most (a bump retires it sooner). Long: the version,
#: not the clock, is what keeps pages right.
TIMEOUT = 24 * 60 * 60
#: Larger answers are served but not kept (a whole list's CSV of a very large club).
MAX_BYTES = 4 * 1024 * 1024
#: Headers a kept answer is served with again (the rest are each request's own).
_KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language", "Link")

View = Callable[..., HttpResponse | StreamingHttpResponse]

log = logging.getLogger("ratings")


class KeptFor(NamedTuple):
    """What ``public_page`` says of an answer it kept for the public: the version and
    day it is kept under, the club's time zone that day was read in, and the view's
    checks (the API's throttle), asked again before every kept answer."""

    version: str
    day: str
    zone: str
    checks: Callable[[HttpRequest], HttpResponse | None] | None = None


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


def _version(request: HttpRequest) -> tuple[str, dt.datetime]:
    """The version as the key's part (its number and moment: a database restored, or a
    test's rolled back, may give a number again, never with the same moment, and the
    withdrawals' count: ``_withdrawals``), and the answers' Last-Modified. Read once a
    request: ``KeptPublicPagesMiddleware`` leaves what it read on the request."""
    read = getattr(request, "public_pages_version", None)
    number, changed, withdrawn = (
        read if read is not None else (*public_pages_version(), public_pages_withdrawn())
    )
    day_start = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time()))
    moment = changed.isoformat() if changed else ""
    return f"{number}@{moment}~{withdrawn}", max(changed or day_start, day_start)


def _withdrawals(version: str) -> str:
    """The withdrawals' count a version was read with: a page's previous copy is served
    only under the count it was rendered under (``services.public_pages``: after an
    erasure, say, it may show who was erased)."""
    return version.rpartition("~")[2] if "~" in version else ""


def _key(
    request: HttpRequest, version: str, *, day: str | None = None, whole: bool = False
) -> str:
    """The cache key of a page (``public_page``: the view's answer) or of its ``whole``
    answer as it left the stack (``KeptPublicPagesMiddleware``: compressed or not, as the
    reader asks), under ``version`` and the club's ``day`` (today's, unless given)."""
    parts = [
        version,
        day or timezone.localdate().isoformat(),
        request.get_full_path(),
        request.headers.get("HX-Request", ""),
    ]
    if whole:
        gzip = re_accepts_gzip.search(request.headers.get("Accept-Encoding", ""))
        parts.append("gzip" if gzip else "")
    what = "|".join(parts)
    kind = "public-answer:" if whole else "public-page:"
    return kind + hashlib.blake2b(what.encode(), digest_size=16).hexdigest()


def _headers(response: HttpResponse, *, everyone: bool, max_age: int) -> None:
    # A directive is named only when it holds: Django writes ``must_revalidate=False`` as
    # "must-revalidate=False", which no cache reads.
    if max_age:
        patch_cache_control(response, public=True, max_age=max_age)
    else:
        patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
    if not everyone:
        # A browser or proxy keeps the public copy apart from a signed-in reader's page.
        patch_vary_headers(response, ("Cookie",))


def _keepable(request: HttpRequest, response: HttpResponse | StreamingHttpResponse) -> bool:
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


#: Seconds a reader waits for another thread rendering the same page before rendering it
#: itself.
RENDER_WAIT = 10
_RENDERS: dict[str, threading.Lock] = {}
_RENDERS_GUARD = threading.Lock()


@contextmanager
def _one_render_at_a_time(key: str) -> Iterator[None]:
    """One thread of a process renders a page at a time: after a bump, the readers of a
    page wait for its one rendering (and are served what it kept) rather than each
    rendering it too, on cores they share."""
    with _RENDERS_GUARD:
        lock = _RENDERS.setdefault(key, threading.Lock())
    acquired = lock.acquire(timeout=RENDER_WAIT)
    try:
        yield
    finally:
        if acquired:
            lock.release()
        with _RENDERS_GUARD:
            if not lock.locked() and _RENDERS.get(key) is lock:
                del _RENDERS[key]


#: Seconds one reader holds the right to render a retired page (``cache.add``): past it
#: (a process killed mid-render) the next reader renders it.
RENDER_LOCK = 30
#: Seconds the previous version's copy of a page is kept for readers while its new
#: version renders.
PREVIOUS_KEPT = 10 * 60


def _previous_key(request: HttpRequest) -> str:
    """The key of a page's latest copy, whatever its version (the club's day and the
    address: who is published follows the calendar, so never a copy of another day)."""
    day = timezone.localdate().isoformat()
    what = "|".join([day, request.get_full_path(), request.headers.get("HX-Request", "")])
    return "public-page-previous:" + hashlib.blake2b(what.encode(), digest_size=16).hexdigest()


def _rendering_key(key: str) -> str:
    return "public-page-rendering:" + key.removeprefix("public-page:")


def _previous_copy(request: HttpRequest, version: str) -> Any:
    """The page's copy kept under an earlier version, or None: none when something was
    withdrawn from the public since it was rendered."""
    kept = cache.get(_previous_key(request))
    if kept is None or kept[0] == version or _withdrawals(kept[0]) != _withdrawals(version):
        return None
    return kept[1]


def _rendered(
    request: HttpRequest, view: View, args: Any, kwargs: Any, *, key: str, version: str
) -> Any:
    """The page rendered and kept (the answer as kept), or the view's answer when it is
    not to be kept (the reader's own)."""
    with _one_render_at_a_time(key):
        kept = cache.get(key)  # another thread of this process rendered it
        if kept is not None:
            return kept
        rendered = view(request, *args, **kwargs)
        if not _keepable(request, rendered):
            return rendered
        headers = [(h, rendered[h]) for h in _KEPT_HEADERS if rendered.has_header(h)]
        answer = (rendered.status_code, headers, _content(rendered), rendered.streaming)
        if len(answer[2]) <= MAX_BYTES:
            cache.set(key, answer, TIMEOUT)
            cache.set(_previous_key(request), (version, answer), PREVIOUS_KEPT)
        return answer


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
        def cached_view(
            request: HttpRequest, *args: Any, **kwargs: Any
        ) -> HttpResponse | StreamingHttpResponse:
            if request.method not in ("GET", "HEAD") or not (everyone or _public_reader(request)):
                return view(request, *args, **kwargs)
            version, modified = _version(request)
            key = _key(request, version)
            etag = quote_etag(key.removeprefix("public-page:"))
            last_modified = http_date(modified.timestamp())
            not_modified = get_conditional_response(
                request, etag=etag, last_modified=int(modified.timestamp())
            )
            kept = cache.get(key) if not_modified is None else None
            fresh = None
            previous = None
            mine = False
            if not_modified is None and kept is None:
                previous = _previous_copy(request, version)
                rendering = _rendering_key(key)
                if previous is not None and list_figures_being_counted():
                    # The write that retired it forgot the published lists' figures and
                    # is counting them: its previous copy until they are counted, rather
                    # than counting every published member too (``services.list_figures``).
                    kept = previous
                else:
                    # One reader, in any process, renders a retired page; the others are
                    # served its previous copy meanwhile (none kept: they render as before).
                    mine = cache.add(rendering, True, RENDER_LOCK)
                    if not mine and previous is not None:
                        kept = previous
                    else:
                        previous = None
            if not_modified is None and kept is None:
                try:
                    fresh = _rendered(request, view, args, kwargs, key=key, version=version)
                finally:
                    if mine:
                        cache.delete(rendering)
                if not isinstance(fresh, tuple):
                    return fresh  # not kept: this reader's own
                fresh = _answer(*fresh)
            if checks is not None and fresh is None:
                refused = checks(request)  # the view is not asked: ask its checks here
                if refused is not None:
                    return refused
            if not_modified is not None:
                not_modified["ETag"] = etag
                not_modified["Last-Modified"] = last_modified
                _headers(not_modified, everyone=everyone, max_age=max_age)
                return not_modified
            response = fresh if fresh is not None else _answer(*kept)  # type: ignore[misc]
            if previous is not None:
                # The previous version's copy: no validator of the current one, and kept
                # nowhere under it (the next reader gets the page as rendered).
                _headers(response, everyone=everyone, max_age=0)
                return response
            response["ETag"] = etag
            response["Last-Modified"] = last_modified
            _headers(response, everyone=everyone, max_age=max_age)
            if _public_reader(request):
                # The whole answer may be kept at the top of the stack for the public.
                response.kept_for_the_public = KeptFor(
                    version,
                    timezone.localdate().isoformat(),
                    timezone.get_current_timezone_name(),
                    checks,
                )
            return response

        return cached_view

    return decorate(view) if view is not None else decorate


#: A statement that writes, and the table it writes to (quoted or not, as each database's
#: SQL has it).
_WRITE = re.compile(r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"\[]?(\w+)', re.IGNORECASE)
_VERSION_TABLE = "ratings_publicpagesversion"
#: The app's tables that are not the record: the mail queue, and the published lists'
#: figures (kept by the writes that move them, forgotten along with the version's move);
#: the history kept beside each saved row is skipped too (the save itself is what
#: counts). Outside the app (sessions, sign-in attempts, a user's last sign-in) nothing
#: is public either.
_NOT_PUBLIC_TABLES = frozenset({"ratings_mailmessage", "ratings_publishedlistfigures"})


class _RecordWrites:
    """Watches a request's statements (``connection.execute_wrapper``): ``unannounced``
    while a write to a table of the club's record has not been followed by the version's
    own move (a save's signal, a re-rate, a service moves it themselves)."""

    def __init__(self) -> None:
        self.unannounced = False

    def __call__(self, execute: Any, sql: Any, params: Any, many: bool, context: Any) -> Any:
        match = _WRITE.match(sql) if isinstance(sql, str) else None
        if match is not None:
            table = match.group(1).lower()
            if table == _VERSION_TABLE:
                self.unannounced = False
            elif (
                table.startswith("ratings_")
                and not table.startswith("ratings_historical")
                and table not in _NOT_PUBLIC_TABLES
            ):
                self.unannounced = True
        return execute(sql, params, many, context)


class PublicPagesChangedMiddleware:
    """The safety net: a signed-in person's post that wrote to the club's record (a form
    saved, an import, the admin) retires the cached public pages once it has answered,
    however it wrote (the model signals and the re-rate catch the rest,
    ``services.public_pages``). A post that wrote nothing of the record (a form refused,
    the sign-in itself, a preview) leaves them: retired for nothing, every page would be
    rendered again by its next readers at once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return self.get_response(request)
        writes = _RecordWrites()
        with connection.execute_wrapper(writes):
            response = self.get_response(request)
        if writes.unannounced:
            try:
                # Not the published lists' figures: every write that moves them moves
                # them itself (``services.list_figures``); forgotten on every post, the
                # list would be counted by its first reader after any officer's save.
                public_pages_changed()
            except DatabaseError:  # SQLite busy with a long writer: its own saves bump
                log.warning("public pages' version not moved after %s", request.path)
        return response


#: The club's time zone under each version of the public pages, as this process last saw
#: it rendered (a change of the club's settings moves the version): the day of a kept
#: answer read without the settings' row. Old versions are dropped past a few.
_ZONES: dict[str, str] = {}
#: Each checked address's checks (the API's throttle), as this process last saw its view
#: give them: a kept answer that needs them, with none here, goes down the stack.
_CHECKS: dict[str, Callable[[HttpRequest], HttpResponse | None]] = {}
#: The 304's headers, as ``get_conditional_response`` leaves them to the caller.
_NOT_MODIFIED_HEADERS = ("ETag", "Last-Modified", "Cache-Control", "Vary")


def _version_now() -> tuple[str, tuple[int, dt.datetime | None, int]]:
    """The public pages' version as the database holds it, in one plain query (the ORM's
    building would cost as much as the rest of a kept answer): as this middleware keys
    its answers, and as ``public_pages_version`` gives it (``public_page`` reads it from
    the request rather than asking again)."""
    meta = PublicPagesVersion._meta
    withdrawals = PublicPagesWithdrawal._meta
    quote = connection.ops.quote_name
    columns = {field.name: quote(field.column) for field in meta.concrete_fields}
    counted = {field.name: quote(field.column) for field in withdrawals.concrete_fields}
    with connection.cursor() as cursor:
        # The withdrawals' count in the same statement: still one query a kept answer.
        cursor.execute(
            f"SELECT {columns['number']}, {columns['changed_at']}, "
            f"(SELECT {counted['number']} FROM {quote(withdrawals.db_table)} "
            f"WHERE {counted['id']} = %s) FROM {quote(meta.db_table)} "
            f"WHERE {columns['id']} = %s",
            [1, 1],
        )
        row = cursor.fetchone()
    if row is None:
        return "0@~0", (0, None, 0)
    number, changed, withdrawn = row
    withdrawn = withdrawn or 0
    # SQLite gives the stored moment without its zone (UTC, as Django wrote it).
    if isinstance(changed, str):
        changed = parse_datetime(changed)
    if changed is not None and settings.USE_TZ and timezone.is_naive(changed):
        changed = timezone.make_aware(changed, dt.UTC)
    return f"{row[0]}@{row[1]}~{withdrawn}", (number, changed, withdrawn)


def _same_number(version: str, kept_for: KeptFor) -> bool:
    return version.partition("@")[0] == kept_for.version.partition("@")[0] and _withdrawals(
        version
    ) == _withdrawals(kept_for.version)


def _kept_answer(
    request: HttpRequest, kept: tuple[int, list[tuple[str, str]], bytes, bool]
) -> Any:
    status, headers, body, _ = kept
    named = dict(headers)
    not_modified = get_conditional_response(
        request,
        etag=named.get("ETag"),
        last_modified=parse_http_date_safe(named.get("Last-Modified", "")),
    )
    if not_modified is not None:
        for header in _NOT_MODIFIED_HEADERS:
            if header in named:
                not_modified[header] = named[header]
        return not_modified
    response = HttpResponse(body, status=status)
    for header, value in headers:
        response[header] = value
    return response


def _keepable_whole(response: HttpResponse) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not response.has_header("Set-Cookie")
        and "private" not in response.get("Cache-Control", "")
        and "no-store" not in response.get("Cache-Control", "")
        and len(response.content) <= MAX_BYTES
    )


class KeptPublicPagesMiddleware:
    """A public reader's GET for a kept page answered here, whole, before the rest of
    the stack: the answer as it left the stack for the first public reader of that page
    under the current version and day (compressed, or not, as this reader asks). A page
    the cache does not hold here goes down the stack; if ``public_page`` marks its answer
    as kept for the public, the answer is kept here on its way out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "GET" or not _public_reader(request):
            return self.get_response(request)
        try:
            version, request.public_pages_version = _version_now()  # type: ignore[attr-defined]
        except DatabaseError:  # no table yet (a fresh database): the stack answers
            return self.get_response(request)
        zone = _ZONES.get(version)
        if zone is not None:
            day = timezone.localdate(timezone=ZoneInfo(zone)).isoformat()
            kept = cache.get(_key(request, version, day=day, whole=True))
            checks = _CHECKS.get(request.path) if kept is not None and kept[3] else None
            if kept is not None and (checks is not None or not kept[3]):
                refused = checks(request) if checks is not None else None
                if refused is not None:  # the view would refuse first (the throttle)
                    return refused
                return _kept_answer(request, kept)
        response = self.get_response(request)
        kept_for: KeptFor | None = getattr(response, "kept_for_the_public", None)
        if kept_for is not None and _same_number(version, kept_for) and _keepable_whole(response):
            if len(_ZONES) > 16:
                _ZONES.clear()
            _ZONES[version] = kept_for.zone
            if kept_for.checks is not None:
                if len(_CHECKS) > 4096:
                    _CHECKS.clear()
                _CHECKS[request.path] = kept_for.checks
            answer = (
                response.status_code,
                list(response.items()),
                response.content,
                kept_for.checks is not None,
            )
            cache.set(_key(request, version, day=kept_for.day, whole=True), answer, TIMEOUT)
        return response
