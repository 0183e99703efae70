"""The ratings officer's pages: members, events, results, rating. Login + officer permission."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from ..models import Event, RatingRun


def officer_required(view):  # type: ignore[no-untyped-def]
    """Login first (to /accounts/login/), then the 'officer' permission (403 without it)."""
    return login_required(permission_required("ratings.officer", raise_exception=True)(view))


@officer_required
def officer_home(request: HttpRequest) -> HttpResponse:
    runs = RatingRun.objects.select_related("user")[:10]
    drafts = Event.objects.exclude(status=Event.Status.COMPLETE)[:20]
    return render(request, "ratings/officer/home.html", {"runs": runs, "drafts": drafts})


urlpatterns = [
    path("officer/", officer_home, name="officer-home"),
]
