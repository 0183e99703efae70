"""Rows the app derives (rating states, changes, runs): viewed, never edited."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from .. import explain, services
from ..models import (
    Member,
    Publication,
    PublicationEntry,
    RatingChange,
    RatingRun,
    RatingState,
)
from .base import ReadOnlyAdmin


def _whole(value: Any) -> str:
    """A rating as the report's column shows it: whole, halves up."""
    if value is None:
        return "–"
    return str(Decimal(repr(value)).quantize(Decimal(1), ROUND_HALF_UP))


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
        """The change's figures and game lines, worked out as the rating report does."""
        services.changes_breakdown_fill(changes=[obj])
        detail = obj.detail
        lines = detail.get("games", [])
        report = reverse("ratings:event-report", args=[obj.event_id])
        link = format_html(
            '<p><a href="{}#breakdown-{}">In the event\'s rating report</a></p>',
            report,
            obj.member_id,
        )
        figures = format_html_join(
            "", "<tr><th>{}</th><td>{}</td></tr>", explain.breakdown_items(detail)
        )
        if not lines:
            return format_html(
                "{}<table>{}</table><p>No game lines: the games changed since this change "
                "was rated, and the re-rate has yet to write it again.</p>",
                link,
                figures,
            )
        columns = explain.line_columns(lines, detail)
        names = Member.objects.in_bulk(
            [int(line["opponent"]) for line in lines if str(line["opponent"]).isdigit()]
        )
        # As the report: no expected score or change column where the system has none.
        has_expected = any(line.get("expected") is not None for line in lines)
        changes = [services.game_line_change(line=line) for line in lines]
        has_change = any(change is not None for change in changes)
        heads = ["Round", "Opponent", "Their rating", "Score"]
        heads += ["Expected"] * has_expected + ["Change"] * has_change
        heads += [explain.line_label(key) for key in columns]
        rows = []
        for line, change in zip(lines, changes, strict=True):
            opponent = (
                names.get(int(line["opponent"])) if str(line["opponent"]).isdigit() else None
            )
            row = [
                line.get("round", ""),
                opponent.name if opponent else line["opponent"],
                _whole(line.get("opponent_rating")),
                explain.detail_text(line["score"])
                + ("" if line.get("rated", True) else " (not rated)"),
            ]
            row += [explain.detail_text(line.get("expected"))] * has_expected
            row += [explain.detail_text(change)] * has_change
            rows.append(row + [explain.line_text(key, line.get(key)) for key in columns])
        cells = format_html_join(
            "",
            "<tr>{}</tr>",
            ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows),
        )
        return format_html(
            "{}<table>{}</table><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>",
            link,
            figures,
            format_html_join("", "<th>{}</th>", ((head,) for head in heads)),
            cells,
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
