from typing import Any

from django.http import HttpRequest

from .models import ClubSettings


def club(request: HttpRequest) -> dict[str, Any]:
    """The club's name and system on every page (one small query, cached per request)."""
    if not hasattr(request, "_club_settings"):
        request._club_settings = ClubSettings.load()  # type: ignore[attr-defined]
    return {"club": request._club_settings}  # type: ignore[attr-defined]
