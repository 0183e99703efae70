"""What members read: the published list, member pages, event reports. No login."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path

from ..models import Event, Member, RatingChange


def home(request: HttpRequest) -> HttpResponse:
    recent = Event.objects.filter(rating_changes__isnull=False).distinct()[:5]
    return render(request, "ratings/home.html", {"recent_events": recent})


def published_list(request: HttpRequest) -> HttpResponse:
    members = (
        Member.objects.published()
        .filter(rating_state__isnull=False, rating_state__games__gt=0)
        .select_related("rating_state")
        .order_by("-rating_state__rating", "name")
    )
    return render(request, "ratings/public/list.html", {"members": members})


def member_detail(request: HttpRequest, number: str) -> HttpResponse:
    member = get_object_or_404(Member.objects.with_financial(), member_number=number)
    changes = RatingChange.objects.filter(member=member).select_related("event")
    return render(request, "ratings/public/member.html", {"member": member, "changes": changes})


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    changes = event.rating_changes.select_related("member").order_by("-after")
    return render(request, "ratings/public/event.html", {"event": event, "changes": changes})


urlpatterns = [
    path("", home, name="home"),
    path("ratings/", published_list, name="list"),
    path("members/<str:number>/", member_detail, name="member"),
    path("events/<int:pk>/", event_detail, name="event"),
]
