"""Security plumbing that is the site's, not the club's: django-axes' client and refusal."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind PROXY_COUNT proxies the address the
    outermost of them saw (counted from the right of X-Forwarded-For, which a client can
    only prepend to)."""
    proxies = settings.PROXY_COUNT
    if proxies > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token, or with one no longer good
    (``CSRF_FAILURE_VIEW``): the site's own page, in its style and under its CSP, saying
    what to do, rather than Django's bare one. Nothing was saved."""
    return render(request, "403_csrf.html", {"reason": reason}, status=403)


def locked_out(
    request: HttpRequest, response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The login page's refusal once a username has failed too often from one address."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failures": settings.AXES_FAILURE_LIMIT},
        status=429,
    )


#: Everything the pages load is served from the site itself (Bootstrap is vendored, no
#: CDN), and no template has an inline script, inline style or event attribute: so
#: nothing but the site's own files. Bootstrap's CSS draws its icons from data: URLs and
#: the favicon is "data:,", hence img-src data:. The admin keeps working under it: Django
#: 5.2's admin has no inline script either (its settings travel in data- attributes).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: The site uses no camera, microphone, position or any other device or sensor.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
)


class SecurityHeadersMiddleware:
    """Adds Content-Security-Policy and Permissions-Policy to every response.

    Django 5.2 has no CSP of its own. While DEBUG is on, Django's own error pages (which
    style themselves inline) are left without the CSP, so they stay readable.
    """

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        debug_page = settings.DEBUG and response.status_code >= 400
        if not debug_page:
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


#: Unicode's control characters (category Cc): C0, DEL and C1, fixed by the standard.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (NUL, escape, DEL, C1...): never part
    of an address or a search, and PostgreSQL refuses a NUL in any text outright. One
    search, not a look-up a character: a query thousands of characters long is read on
    every request."""
    return _CONTROL.search(text) is not None


class RefuseControlCharactersMiddleware:
    """A control character in the path or in a query parameter is refused here, before
    any view reads it: the path as not found (404), the query as a bad request (400),
    each with the site's page. Placed after the authentication middleware so the pages
    render as every other page does; nothing before it reads the path or the query.

    Forms' fields (POST) are not refused here: each form names the field instead.
    """

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_control(request.path_info) or _has_control(request.path):
            return self._refused(request, 404, "Not found: the address holds a control character.")
        query = request.GET
        if any(
            _has_control(key) or any(_has_control(value) for value in query.getlist(key))
            for key in query
        ):
            return self._refused(
                request, 400, "The address's query holds a control character (such as NUL)."
            )
        return self.get_response(request)

    @staticmethod
    def _refused(request: HttpRequest, status: int, problem: str) -> HttpResponse:
        # The read API answers in JSON, as its description says, its errors included.
        if request.path_info.startswith("/api/"):
            return JsonResponse({"detail": problem}, status=status)
        template = "404.html" if status == 404 else "400.html"
        return render(request, template, {"problem": problem}, status=status)


#: Paths whose pages are the officer's or the administrator's: never kept by a browser's
#: or a proxy's cache (they show withheld ratings and the club's private record).
PRIVATE_PREFIXES = ("/officer/", "/admin/", "/accounts/")


class PrivatePagesMiddleware:
    """``Cache-Control: no-store, private`` on the officer's and the admin's pages, and
    on any page answered to a login that sees every rating (an officer reading a
    member's page sees ratings the public does not): no cache keeps them, so the back
    button on a shared club computer or a proxy never shows them to someone else.
    The read API answers everyone as the public (its own public caching is kept)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        if self._private(request, response):
            response.headers["Cache-Control"] = "no-store, private"
        return response

    @staticmethod
    def _private(request: HttpRequest, response: HttpResponse) -> bool:
        if request.path.startswith(PRIVATE_PREFIXES):
            return True
        if request.path.startswith("/api/") or response.has_header("Cache-Control"):
            return False
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)


def axes_username(request: Any, credentials: dict[str, Any] | None = None) -> Any:
    """The username django-axes records a failed login under (``AXES_USERNAME_CALLABLE``),
    cut to its column's 255 characters: a longer one, which no login can have, failed
    with a database error on PostgreSQL instead of being refused as a wrong login."""
    data = credentials if credentials else getattr(request, "data", request.POST)
    username = data.get("username")
    return username[:255] if isinstance(username, str) else username
