from typing import Any

from django.http import HttpRequest

from .models import ClubSettings
from .models.rating_lists import lists_kept
from .rules.rating_lists import list_name


def club(request: HttpRequest) -> dict[str, Any]:
    """The club's name and system on every page (one small query, cached per request)."""
    if not hasattr(request, "_club_settings"):
        request._club_settings = ClubSettings.load()  # type: ignore[attr-defined]
    return {"club": request._club_settings}  # type: ignore[attr-defined]


def rating_lists_kept(request: HttpRequest) -> list[str]:
    """The lists the club keeps, read once a request (the views ask it too)."""
    if not hasattr(request, "_rating_lists"):
        request._rating_lists = lists_kept()  # type: ignore[attr-defined]
    return request._rating_lists  # type: ignore[attr-defined]


def rating_lists(request: HttpRequest) -> dict[str, Any]:
    """The lists the club keeps: a tab each, where it keeps more than one. (The list a
    page shows, ``rating_list``, is the view's to say: a processor's value would override
    the view's.)"""

    def lists() -> list[tuple[str, str]]:
        return [(tc, list_name(tc)) for tc in rating_lists_kept(request)]

    return {"rating_lists": lists}  # read only by the pages that show the tabs
