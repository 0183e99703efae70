"""A save that found the database busy for too long: said in the club's words, not a 500.

SQLite takes one writer at a time, and a rating run writes in one transaction from its
start to its end: a save made meanwhile waits for it up to SQLITE_BUSY_TIMEOUT seconds,
then gives up with "database is locked", having saved nothing. The officer is told so
and asked to save again shortly (503, with Retry-After), instead of a server error.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

#: Seconds after which a browser or client may try again.
RETRY_AFTER = 30


class DatabaseBusyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not (
            isinstance(exception, OperationalError) and "database is locked" in str(exception)
        ):
            return None
        response = render(request, "busy.html", status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
