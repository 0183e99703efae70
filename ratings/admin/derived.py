"""Rows the app derives (rating states, changes, runs): viewed, never edited."""

from __future__ import annotations

import datetime as dt

from django.contrib import admin
from django.urls import reverse

from ..models import (
    Publication,
    PublicationEntry,
    RatingChange,
    RatingRun,
    RatingState,
)
from .base import ReadOnlyAdmin


@admin.register(RatingState)
class RatingStateAdmin(ReadOnlyAdmin):
    list_display = ["member", "display", "rating", "games", "last_event", "last_played"]
    search_fields = ["member__name", "member__member_number"]
    list_filter = ["member__is_guest"]
    date_hierarchy = "last_played"
    list_select_related = ["member", "last_event"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = [
        "member",
        "event",
        "event_date",
        "period",
        "display_before",
        "display_after",
        "played",
        "score",
    ]
    search_fields = ["member__name", "member__member_number", "event__name"]
    list_filter = ["period"]
    date_hierarchy = "event__end_date"
    list_select_related = ["member", "event"]

    @admin.display(description="date", ordering="event__end_date")
    def event_date(self, obj: RatingChange) -> dt.date:
        return obj.event.end_date


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnlyAdmin):
    list_display = [
        "started",
        "user",
        "reason",
        "system",
        "events_rated",
        "games_rated",
        "seconds",
        "status",
        "progress",
    ]
    list_filter = ["status", "system"]
    search_fields = ["reason", "user__username"]
    date_hierarchy = "started"
    list_select_related = ["user", "from_event"]

    def view_on_site(self, obj: RatingRun) -> str:
        # The officers' page for the run, with its progress bar while it runs.
        return reverse("ratings:run", args=[obj.pk])


@admin.register(Publication)
class PublicationAdmin(ReadOnlyAdmin):
    """Published lists are a record: read here, published from the officer's pages."""

    list_display = ["slug", "published_at", "published_by", "system", "size", "note"]
    search_fields = ["slug", "note"]
    date_hierarchy = "day"


@admin.register(PublicationEntry)
class PublicationEntryAdmin(ReadOnlyAdmin):
    list_display = ["publication", "position", "member", "rank", "display", "games"]
    search_fields = ["member__name", "member__member_number", "publication__slug"]
    list_select_related = ["publication", "member"]
