"""Rating periods, events, entries and games: corrections re-rate from where they take effect."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html

from .. import services
from ..forms import ROWS_POSTED_WITH
from ..models import (
    Entry,
    Event,
    Game,
    RatingPeriod,
    complete_problem,
    entry_with_games_problem,
    member_names,
    rules,
)
from ..words.counts import count_phrase
from .accounts import IdsOnly
from .base import (
    AuditAdmin,
    ReadableInline,
    ReasonForm,
    RerateAdmin,
    _tell_about_run,
    reason_given,
)

# -- rating periods ------------------------------------------------------------------------


@admin.register(RatingPeriod)
class RatingPeriodAdmin(RerateAdmin):
    list_display = ["__str__", "label", "system", "start", "end", "closed_at", "closed_by"]
    list_filter = ["system", ("closed_at", admin.EmptyFieldListFilter)]
    search_fields = ["label"]
    date_hierarchy = "start"
    list_select_related = ["closed_by"]

    def save_model(self, request: HttpRequest, obj: RatingPeriod, form: Any, change: bool) -> None:
        # Closing or reopening a period, or moving its dates, changes what is rated.
        old = RatingPeriod.objects.filter(pk=obj.pk).first() if change else None
        super().save_model(request, obj, form, change)
        run = services.period_changed(
            period=obj,
            previous_start=old.start if old else None,
            changed=form.changed_data,
            user=request.user,
            reason=f"Admin: rating period “{obj}” {'changed' if change else 'added'}",
        )
        if run is not None:
            _tell_about_run(request, run)


# -- events, entries and games -------------------------------------------------------------


class GameInlineFormSet(BaseInlineFormSet):
    """An event's games as the inline posts them: each player at most once a round across
    the rows (each row's own rules are ``Game.clean``'s)."""

    def _construct_form(self, i: int, **kwargs: Any) -> Any:
        form = super()._construct_form(i, **kwargs)  # type: ignore[misc]
        # Its rows are checked together below: a row alone against the stored games would
        # refuse two players swapped between boards.
        form.instance.round_checked_together = True
        return form

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        rows, shown = [], set()
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if form.instance.pk:
                shown.add(form.instance.pk)
            if not data or (self.can_delete and self._should_delete_form(form)):  # type: ignore[attr-defined]
                continue
            white, black = data.get("white"), data.get("black")
            rows.append((data.get("round"), white and white.pk, black and black.pk))
        if self.instance.pk is not None:
            rest = Game.objects.filter(event=self.instance).exclude(pk__in=shown)
            rows += list(rest.values_list("round", "white_id", "black_id"))
        problems = rules.twice_in_round_problems(rows, names=member_names)
        if problems:
            raise ValidationError(problems)


class EntryInlineFormSet(BaseInlineFormSet):
    """An event's entries: one whose player has games in the event stays (a game's players
    are entered in its event)."""

    def clean(self) -> None:
        super().clean()
        for form in self.deleted_forms:
            if form.instance.pk and (problem := entry_with_games_problem(form.instance)):
                raise ValidationError(problem)


class GameInline(ReadableInline, admin.TabularInline):
    model = Game
    formset = GameInlineFormSet
    extra = 0
    fields = ["round", "board", "white", "black", "result", "colours_known"]
    autocomplete_fields = ["white", "black"]
    ordering = ["round", "board", "pk"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("white", "black")


class EntryInline(ReadableInline, admin.TabularInline):
    model = Entry
    formset = EntryInlineFormSet
    extra = 0
    fields = ["member"]
    autocomplete_fields = ["member"]
    most_rows = 200  # the entries of an event its change form shows (INLINE_FIELD_BUDGET)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("member")


#: Fields an inline row posts besides its own: its id, its event and its DELETE box.
INLINE_ROW_EXTRA_FIELDS = 3
#: The fields the inline rows of an event's change form may post between them. The rest
#: of the form (the event's own fields, the management forms) is a few dozen, so the
#: whole stays well under Django's DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000): above it, saving
#: the form fails with 400 TooManyFieldsSent (and a big page never loads).
INLINE_FIELD_BUDGET = 800


def inline_row_fields(inline: type[admin.TabularInline]) -> int:
    """The fields one row of ``inline`` posts."""
    return len(inline.fields or []) + INLINE_ROW_EXTRA_FIELDS


def inlines_left_out(event: Event) -> set[type[admin.TabularInline]]:
    """The inlines too big to put on ``event``'s change form, the biggest left out first.

    Their rows are edited in the game or entry list filtered to the event instead.
    """
    rows = {
        GameInline: _annotated(event, "games_n", "games"),
        EntryInline: _annotated(event, "players_n", "entries"),
    }
    fields = {inline: (n + inline.extra) * inline_row_fields(inline) for inline, n in rows.items()}
    left_out: set[type[admin.TabularInline]] = set()
    for inline in sorted(fields, key=fields.__getitem__, reverse=True):
        if sum(n for i, n in fields.items() if i not in left_out) <= INLINE_FIELD_BUDGET:
            break
        left_out.add(inline)
    return left_out


def _annotated(event: Event, annotation: str, related: str) -> int:
    value = getattr(event, annotation, None)
    return value if value is not None else getattr(event, related).count()


class EventAdminForm(ReasonForm):
    """An event with a reason for the change. A new one cannot start "complete" and rated:
    it has no games yet (``rules.complete_problem``; ``Event.clean`` asks it of a saved one)."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        event = self.instance
        if event.pk is None and data.get("status") == Event.Status.COMPLETE:
            problem = complete_problem(event)
            if problem:
                self.add_error("status", problem)
        return data


#: Who took each step of an event's stage and when (services/event_stages.py).
STAGE_FIELDS = (
    "submitted_at",
    "submitted_by",
    "submissions",
    "rated_at",
    "rated_by",
    "sent_back_at",
    "sent_back_by",
    "sent_back_note",
)


@admin.register(Event)
class EventAdmin(IdsOnly, RerateAdmin, AuditAdmin):
    list_display = [
        "name",
        "kind",
        "start_date",
        "end_date",
        "rounds",
        "status",
        "rated",
        "online",
        "player_count",
        "game_count",
    ]
    list_filter = ["status", "rated", "online", "kind"]
    search_fields = ["name"]
    date_hierarchy = "end_date"
    inlines = [GameInline, EntryInline]
    form = EventAdminForm

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                players_n=Count("entries", distinct=True), games_n=Count("games", distinct=True)
            )
        )

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        instances = super().get_inline_instances(request, obj)
        if obj is None or obj.pk is None:
            return instances
        left_out = inlines_left_out(obj)
        return [inline for inline in instances if type(inline) not in left_out]

    def _create_formsets(self, request: HttpRequest, obj: Any, change: bool) -> Any:
        formsets, inline_instances = super()._create_formsets(request, obj, change)
        if change:
            # Made before the event's form is checked, on the event it edits: a result
            # corrected in the games table, the event's fields unchanged, needs the
            # event's reason too (``reason_required``).
            setattr(obj, ROWS_POSTED_WITH, formsets)
        return formsets, inline_instances

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        # Its stage's steps are taken on the event's page (submitted, rated, sent back).
        fields += [*STAGE_FIELDS]
        if obj is not None and obj.pk is not None:
            fields += ["games_here", "entries_here"]
        return fields

    @admin.display(description="games")
    def games_here(self, obj: Event) -> str:
        return _rows_line(obj, GameInline, "game", "admin:ratings_game_changelist")

    @admin.display(description="entries")
    def entries_here(self, obj: Event) -> str:
        return _rows_line(obj, EntryInline, "entry", "admin:ratings_entry_changelist")

    @admin.display(description="players", ordering="players_n")
    def player_count(self, obj: Event) -> int:
        return obj.players_n  # type: ignore[attr-defined]

    @admin.display(description="games", ordering="games_n")
    def game_count(self, obj: Event) -> int:
        return obj.games_n  # type: ignore[attr-defined]

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        old = Event.objects.filter(pk=obj.pk).first() if change else None
        # Where it stood before: the re-rate (``save_related``, once its games are saved
        # too) restarts from the earlier of its old and new places.
        obj._position_before = services.rating_key(old) if old else None  # type: ignore[attr-defined]
        super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        event = form.instance
        games_changed = any(
            formset.model is Game
            and (formset.new_objects or formset.changed_objects or formset.deleted_objects)
            for formset in formsets
        )
        run = services.event_changed(
            event=event,
            previous=getattr(event, "_position_before", None),
            changed=form.changed_data if change else services.EVENT_RATING_FIELDS,
            games_changed=games_changed,
            user=request.user,
            reason=f"Admin: event “{event}” {'changed' if change else 'added'}",
        )
        if run is not None:
            _tell_about_run(request, run)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        # The event's reason is each game's too: a result corrected in the table below is
        # what the officer most often explains.
        if reason_given(form):
            for row in formset.forms:
                row.instance._change_reason = reason_given(form)
        super().save_formset(request, form, formset, change)

    #: The delete page's tick boxes: the members the event brought in, to delete with it.
    BROUGHT_IN = "delete_members"

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        # Offered unticked: a member deleted is gone from the site for good, while one
        # left behind costs nothing (with no games they are on no list) and is there to be
        # found again by a corrected re-import. The officer ticks whom to delete.
        if request.method != "POST":
            event = self.get_object(request, unquote(object_id))
            if event is not None:
                extra_context = {
                    **(extra_context or {}),
                    "brought_in": list(services.event_members_brought_in(event=event)),
                    "brought_in_name": self.BROUGHT_IN,
                }
        return super().delete_view(request, object_id, extra_context)

    def delete_model(self, request: HttpRequest, obj: Event) -> None:
        with transaction.atomic():
            members = services.event_delete_members_chosen(
                event=obj, chosen=request.POST.getlist(self.BROUGHT_IN)
            )
            name = str(obj)
            super().delete_model(request, obj)
            count = services.members_brought_in_delete(
                members=members, event_name=name, user=request.user
            )
        if count:
            names = ", ".join(f"{m.name} ({m.member_number})" for m in members)
            self.message_user(
                request,
                f"Also deleted {count_phrase(count, 'member')} the event brought in: {names}.",
                messages.SUCCESS,
            )


def _rows_line(event: Event, inline: type[admin.TabularInline], noun: str, changelist: str) -> str:
    """The read-only line of an event's games or entries: how many, and where to edit them."""
    related = "games" if inline is GameInline else "entries"
    count = getattr(event, related).count()
    url = f"{reverse(changelist)}?event__id__exact={event.pk}"
    plural = "entries" if noun == "entry" else f"{noun}s"
    counted = count_phrase(count, noun, plural)
    if inline in inlines_left_out(event):
        return format_html(
            '{}: too many to edit on this page; <a href="{}">edit them in the list of {}</a>.',
            counted,
            url,
            plural,
        )
    return format_html('{}, below; <a href="{}">also in the list of {}</a>.', counted, url, plural)


@admin.register(Entry)
class EntryAdmin(AuditAdmin):
    list_display = ["member", "event", "event_date"]
    list_filter = ["event__status"]
    search_fields = ["member__name", "member__member_number", "event__name"]
    autocomplete_fields = ["member", "event"]
    date_hierarchy = "event__end_date"
    list_select_related = ["member", "event"]

    @admin.display(description="date", ordering="event__end_date")
    def event_date(self, obj: Entry) -> dt.date:
        return obj.event.end_date

    def get_deleted_objects(self, objs: Any, request: HttpRequest):
        # An entry whose player has games in the event is held as Django holds a
        # protected row: the page names why, and offers no "Yes".
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        kept = [p for entry in objs if (p := entry_with_games_problem(entry))]
        return deleted, counts, perms_needed, [*protected, *kept]


@admin.register(Game)
class GameAdmin(RerateAdmin, AuditAdmin):
    # Players and result first: on a phone the table scrolls and these show.
    list_display = ["white", "black", "result", "event", "event_date", "round", "board"]
    list_display_links = ["white", "black", "result"]
    list_filter = ["result", "event__rated", "event__status"]
    search_fields = [
        "event__name",
        "white__name",
        "black__name",
        "white__member_number",
        "black__member_number",
    ]
    autocomplete_fields = ["event", "white", "black"]
    date_hierarchy = "event__end_date"
    list_select_related = ["event", "white", "black"]
    form = ReasonForm

    @admin.display(description="date", ordering="event__end_date")
    def event_date(self, obj: Game) -> dt.date:
        return obj.event.end_date

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        old = Game.objects.select_related("event").filter(pk=obj.pk).first() if change else None
        super().save_model(request, obj, form, change)
        run = services.games_changed(
            events=[obj.event, *([old.event] if old and old.event_id != obj.event_id else [])],
            user=request.user,
            reason=f"Admin: game “{obj}” {'changed' if change else 'added'}",
        )
        if run is not None:
            _tell_about_run(request, run)
