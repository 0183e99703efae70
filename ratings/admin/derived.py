"""Rows the app derives (rating states, changes, runs): viewed, never edited."""

from __future__ import annotations

import datetime as dt

from django.contrib import admin
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ..models import (
    ClubSettings,
    FideRating,
    ListStanding,
    Publication,
    PublicationEntry,
    PublicPagesVersion,
    PublicPagesWithdrawal,
    PublishedListFigures,
    RatingChange,
    RatingRun,
    RatingState,
)
from ..pages.events import change_rows
from ..pages.game_lines import changes_breakdown_fill
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
    # The stored breakdown is packed (a period system's) or empty (a per-event system's,
    # worked out again): shown whole below, as the event's rating report shows it.
    exclude = ["breakdown"]
    readonly_fields = ["how_it_was_rated"]

    @admin.display(description="date", ordering="event__end_date")
    def event_date(self, obj: RatingChange) -> dt.date:
        return obj.event.end_date

    @admin.display(description="how it was rated")
    def how_it_was_rated(self, obj: RatingChange) -> SafeString:
        """The change's figures and game lines as the event's rating report shows them."""
        changes_breakdown_fill(changes=[obj])
        change = {
            "player": obj.member_id,
            "before": obj.before,
            "after": obj.after,
            "display_before": obj.display_before,
            "display_after": obj.display_after,
            "breakdown": obj.detail,
        }
        return format_html(
            '<p><a href="{}#breakdown-{}">In the event\'s rating report</a></p>{}',
            reverse("ratings:event-report", args=[obj.event_id]),
            obj.member_id,
            render_to_string(
                # Under the admin's h2 (the fieldset): the player's heading is an h3.
                "ratings/public/_event_breakdown.html",
                {
                    "row": change_rows(
                        [change], system=ClubSettings.load().engine(obj.time_class)
                    )[0],
                    "level": 2,
                },
            ),
        )


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


@admin.register(PublicPagesVersion)
class PublicPagesVersionAdmin(ReadOnlyAdmin):
    """The number the cached public pages are kept under: every change moves it
    (``services.public_pages``); read here to see when the public pages last changed."""

    list_display = ["number", "changed_at"]


@admin.register(PublicPagesWithdrawal)
class PublicPagesWithdrawalAdmin(ReadOnlyAdmin):
    """How many writes withdrew something from the public (an erasure, a member kept off):
    in the cached pages' key with the version, and no previous copy of a page is served
    across one (``services.public_pages``)."""

    list_display = ["number", "withdrawn_at"]


@admin.register(PublishedListFigures)
class PublishedListFiguresAdmin(ReadOnlyAdmin):
    """The published lists' sizes and regions as kept for the list's readers
    (``services.list_figures``): read here to see them; every write keeps them."""

    list_display = ["__str__", "figures"]


@admin.register(ListStanding)
class ListStandingAdmin(ReadOnlyAdmin):
    """Each published member's place and sort keys on a list, as kept for the list's pages
    (``services.list_figures``): read here to see them; every write keeps them."""

    list_display = ["member", "time_class", "place", "rating_value", "name"]
    list_select_related = ["member"]
    list_filter = ["time_class"]


@admin.register(FideRating)
class FideRatingAdmin(ReadOnlyAdmin):
    """Each member's figures as FIDE's rating list last gave them (``services.fide_lists``):
    read here; the next list read replaces them, so a hand edit would not last."""

    list_display = ["member", "fide_id", "standard", "rapid", "blitz", "title", "federation"]
    list_select_related = ["member"]
    search_fields = ["member__name", "member__member_number", "fide_id"]
