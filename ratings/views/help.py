"""The site's help page (``pages/help.py``): public, so the first-run page can link to it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import ClubSettings
from ..pages import help as pages


def help_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "ratings/public/help.html",
        {
            "systems": pages.systems_help(ClubSettings.load().rating_system),
            "keys": pages.result_keys(),
        },
    )
