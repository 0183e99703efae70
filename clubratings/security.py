"""Security plumbing that is the site's, not the club's: django-axes' client and refusal."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
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
