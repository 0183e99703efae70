"""The admin: the officers' and administrators' tool for corrections.

Games are the record and ratings are derived, so a correction that touches ratings (a
game added, changed or deleted; an event moved, un-rated or deleted; a member's
starting rating; duplicates merged; the rating system changed) re-rates the chain from
the earliest place it touched, in the same transaction, once per request. That is done
here in the ModelAdmin hooks rather than in model signals, so that bulk imports do not
re-rate per game. Every change is kept by django-simple-history with its author; the
history page of each record shows what changed, before and after.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from . import services
from .models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingPeriod,
    RatingRun,
    RatingState,
    Season,
    Subscription,
)

admin.site.site_header = "Club Ratings: corrections"
admin.site.site_title = "Club Ratings admin"
admin.site.index_title = "Corrections"

Position = services.Position
#: A request's pending re-rate that starts from the very beginning.
EVERYTHING = "everything"


def _counts(event: Event) -> bool:
    """Whether a change to ``event`` can move ratings: it is rated, or was until now."""
    return (event.rated and event.status == Event.Status.COMPLETE) or (
        event.pk is not None and event.rating_changes.exists()
    )


class RerateAdmin(admin.ModelAdmin):
    """Collects where the chain must restart during one request, and re-rates once.

    The hooks note positions (``_rerate_from``); ``response_add``/``response_change``
    and the delete hooks run the one re-rate, inside the admin's own transaction.
    """

    def _rerate_from(self, request: HttpRequest, start: Position | str | None) -> None:
        if start is None:
            return
        pending = getattr(request, "_rerate_start", None)
        if pending == EVERYTHING or start == EVERYTHING:
            request._rerate_start = EVERYTHING  # type: ignore[attr-defined]
        else:
            request._rerate_start = start if pending is None else min(pending, start)  # type: ignore[attr-defined]

    def _rerate_now(self, request: HttpRequest, reason: str) -> None:
        pending = getattr(request, "_rerate_start", None)
        if pending is None:
            return
        request._rerate_start = None  # type: ignore[attr-defined]
        start = None if pending == EVERYTHING else pending
        with transaction.atomic():
            run = services.ratings_rerate_soon(start=start, user=request.user, reason=reason)
        _tell_about_run(request, run)

    def response_add(self, request: HttpRequest, obj: Any, post_url_continue: Any = None):  # type: ignore[no-untyped-def]
        self._rerate_now(request, f"Admin: {obj._meta.verbose_name} “{obj}” added")
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request: HttpRequest, obj: Any):  # type: ignore[no-untyped-def]
        self._rerate_now(request, f"Admin: {obj._meta.verbose_name} “{obj}” changed")
        return super().response_change(request, obj)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            self._note_delete(request, [obj])
            super().delete_model(request, obj)
            self._rerate_now(request, f"Admin: {obj._meta.verbose_name} “{obj}” deleted")

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        with transaction.atomic():
            objects = list(queryset)
            self._note_delete(request, objects)
            # One by one, so each deletion is in the audit trail.
            for obj in objects:
                obj.delete()
            name = self.model._meta.verbose_name_plural
            self._rerate_now(request, f"Admin: {len(objects)} {name} deleted")

    def _note_delete(self, request: HttpRequest, objects: list[Any]) -> None:
        """Note where deleting ``objects`` restarts the chain (nothing, by default)."""

    def delete_rerate_count(self, objects: list[Any]) -> int:
        """How many events deleting ``objects`` re-rates: said on the confirmation page."""
        noted = SimpleNamespace()
        self._note_delete(noted, objects)  # type: ignore[arg-type]
        pending = getattr(noted, "_rerate_start", None)
        if pending is None:
            return 0
        scope = services.rerate_scope(start=None if pending == EVERYTHING else pending)
        # Deleted events are not re-rated: they go.
        gone = {obj.pk for obj in objects} if self.model is Event else set()
        return sum(1 for event in scope.events if event.pk not in gone)

    def delete_view(  # type: ignore[override]
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        if request.method != "POST":
            obj = self.get_object(request, unquote(object_id))
            if obj is not None:
                extra_context = {
                    **(extra_context or {}),
                    "rerate_events": self.delete_rerate_count([obj]),
                }
        return super().delete_view(request, object_id, extra_context)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_saying_rerate, name, description)
        return actions

    def get_deleted_objects(self, objs: Any, request: HttpRequest):  # type: ignore[no-untyped-def]
        # Derived ratings go with their event or member and are re-rated: deleting them
        # needs no permission of its own (nobody has it: they are read-only).
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        derived = {m._meta.verbose_name for m in (RatingChange, RatingState)}
        return deleted, counts, perms_needed - derived, protected


def delete_selected_saying_rerate(
    modeladmin: RerateAdmin, request: HttpRequest, queryset: QuerySet[Any]
) -> HttpResponse | None:
    """Django's "Delete selected", whose confirmation page says how many events it re-rates."""
    response = delete_selected(modeladmin, request, queryset)
    if isinstance(response, TemplateResponse) and response.context_data is not None:
        response.context_data["rerate_events"] = modeladmin.delete_rerate_count(list(queryset))
    return response  # type: ignore[no-any-return]


delete_selected_saying_rerate.allowed_permissions = ("delete",)  # type: ignore[attr-defined]


def _tell_about_run(request: HttpRequest, run: Any) -> None:
    if run.status == RatingRun.Status.DONE:
        messages.info(
            request,
            f"Ratings re-rated: {run.events_rated} event{pluralize(run.events_rated)}, "
            f"{run.games_rated} game{pluralize(run.games_rated)} ({run.seconds:.2f}s).",
        )
    else:
        messages.warning(
            request,
            format_html(
                "Re-rating in the background; the published list shows the previous "
                'ratings until it finishes. <a href="{}">Follow its progress</a>.',
                reverse("ratings:run", args=[run.pk]),
            ),
        )


class AuditAdmin(SimpleHistoryAdmin):
    """A record whose every change is kept: its history page shows before → after."""

    object_history_list_template = "admin/ratings/object_history_list.html"

    def history_form_view(  # type: ignore[no-untyped-def]
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ):
        # simple-history lets anyone who may *view* a record POST a revert of it: a
        # revert is a change, so it needs the change permission (an officer reads the
        # club settings but must not switch the rating system through their history).
        if request.method == "POST":
            obj = self.get_object(request, unquote(object_id))
            if (
                self.revert_disabled(request, obj)
                or not self.has_change_permission(request, obj)
                or not self.has_change_history_permission(request, obj)
            ):
                raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


# -- club settings (one row) ----------------------------------------------------------


class ClubSettingsForm(forms.ModelForm):
    class Meta:
        model = ClubSettings
        fields = ["name", "rating_system", "system_params", "season_start_month"]


@admin.register(ClubSettings)
class ClubSettingsAdmin(AuditAdmin):
    """The one row of settings. Changing the system re-rates everything, after a warning."""

    form = ClubSettingsForm
    list_display = ["name", "rating_system", "season_start_month"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not ClubSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        # One row: its list would be a page with one link on it.
        settings = ClubSettings.load()
        return HttpResponseRedirect(
            reverse("admin:ratings_clubsettings_change", args=[settings.pk])
        )

    def change_view(  # type: ignore[override]
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: Any = None,
    ) -> HttpResponse:
        if request.method == "POST" and "_confirm_rerate" not in request.POST:
            obj = self.get_object(request, object_id)
            form = self.get_form(request, obj)(request.POST, instance=obj)
            if obj is not None and form.is_valid() and _system_changed(form):
                return self._confirm_rerate(request, form)
        return super().change_view(request, object_id, form_url, extra_context)

    def _confirm_rerate(self, request: HttpRequest, form: forms.ModelForm) -> HttpResponse:
        new = form.instance
        system = new.engine()
        waiting = 0
        if system.period_based:
            # Past periods will be closed (published) by the switch: count their events
            # too. The current period's events wait for the officer to close it.
            today = timezone.localdate()
            events = 0
            ends = (
                Event.objects.filter(rated=True, status=Event.Status.COMPLETE)
                .order_by()
                .values_list("end_date")
                .annotate(count=Count("pk"))
            )
            for end, count in ends:
                label = system.period_of(end)
                if label is not None and system.period_bounds(label)[1] < today:
                    events += count
                else:
                    waiting += count
        else:
            events = services.rerate_scope(start=None, system=system).count
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Re-rate everything?",
            "object": new,
            "system": system,
            "events": events,
            "waiting": waiting,
            "form": form,
            "hidden": [(k, v) for k, vs in request.POST.lists() for v in vs if k != "_save"],
        }
        return render(request, "admin/ratings/clubsettings/confirm_rerate.html", context)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and _system_changed(form):
            run = services.rating_system_set(
                system_id=obj.rating_system,
                params=obj.system_params,
                user=request.user,
                soon=True,
            )
            _tell_about_run(request, run)


def _system_changed(form: forms.ModelForm) -> bool:
    return bool({"rating_system", "system_params"} & set(form.changed_data))


# -- seasons, members and subscriptions -------------------------------------------------------


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "start", "end", "subscribers"]
    search_fields = ["name"]
    date_hierarchy = "start"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        return super().get_queryset(request).annotate(subscriber_count=Count("subscriptions"))

    @admin.display(description="subscribers", ordering="subscriber_count")
    def subscribers(self, obj: Season) -> int:
        return obj.subscriber_count  # type: ignore[attr-defined,no-any-return]


class SubscriptionInline(admin.TabularInline):
    model = Subscription
    extra = 0
    autocomplete_fields = ["season"]


class MergedFilter(admin.SimpleListFilter):
    title = "record"
    parameter_name = "merged"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "Current"), ("yes", "Merged into another")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Member]) -> QuerySet[Member]:
        if self.value() == "no":
            return queryset.filter(merged_into__isnull=True)
        if self.value() == "yes":
            return queryset.filter(merged_into__isnull=False)
        return queryset


@admin.register(Member)
class MemberAdmin(RerateAdmin, AuditAdmin):
    list_display = [
        "member_number",
        "name",
        "region",
        "rating",
        "financial",
        "is_guest",
        "merged_into",
    ]
    list_display_links = ["member_number", "name"]
    list_filter = [MergedFilter, "is_guest", "gender", "region", "title"]
    search_fields = ["name", "member_number", "fide_id"]
    # Only the merge action may set it: it moves the games and re-rates in one step.
    readonly_fields = ["merged_into"]
    date_hierarchy = "created"
    inlines = [SubscriptionInline]
    actions = ["merge_members"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Member]:
        return (
            super()
            .get_queryset(request)
            .with_financial()
            .select_related("rating_state", "merged_into")
        )

    @admin.display(description="rating", ordering="rating_state__rating")
    def rating(self, obj: Member) -> str:
        state = getattr(obj, "rating_state", None)
        return state.display if state else "–"

    @admin.display(description="paid up", boolean=True, ordering="is_financial")
    def financial(self, obj: Member) -> bool:
        return bool(getattr(obj, "is_financial", False))

    def save_model(self, request: HttpRequest, obj: Member, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and services.MEMBER_RATING_FIELDS & set(form.changed_data):
            services.member_states_write(member_ids=[obj.pk])
            self._rerate_from(request, services.member_rerate_start(member=obj))
        namesakes = obj.namesakes() if not change or "name" in form.changed_data else []
        if namesakes:
            # Two people may share a name: a warning, not a refusal.
            self.message_user(
                request,
                f"Another member is also called {obj.name} ({', '.join(namesakes)}). If they "
                "are the same person, select both in the list and merge them.",
                messages.WARNING,
            )

    @admin.action(description="Merge selected duplicate members…", permissions=["change"])
    def merge_members(
        self, request: HttpRequest, queryset: QuerySet[Member]
    ) -> HttpResponse | None:
        members = list(queryset.order_by("created", "pk"))
        if len(members) < 2:
            self.message_user(request, "Select two or more records of one person to merge.")
            return None
        keep_pk = request.POST.get("keep")
        if keep_pk:
            target = next((m for m in members if str(m.pk) == keep_pk), None)
            if target is None:
                self.message_user(request, "Keep one of the selected records.", messages.ERROR)
                return None
            sources = [m for m in members if m.pk != target.pk]
            try:
                run = services.members_merge(sources=sources, target=target, user=request.user)
            except services.MergeRefused as refusal:
                self.message_user(request, str(refusal), messages.ERROR)
                return None
            names = ", ".join(f"{m} ({m.member_number})" for m in sources)
            self.message_user(
                request,
                f"Merged {names} into {target} ({target.member_number}).",
                messages.SUCCESS,
            )
            if run is not None:
                _tell_about_run(request, run)
            return None
        problem = services.merge_problem(members)
        counted = list(
            Member.objects.filter(pk__in=[m.pk for m in members])
            .annotate(
                games_white=Count("games_as_white", distinct=True),
                games_black=Count("games_as_black", distinct=True),
                entry_count=Count("entries", distinct=True),
                subscription_count=Count("subscriptions", distinct=True),
            )
            .order_by("created", "pk")
        )
        if problem is None:
            for member in counted:
                # What keeping this record means: the events re-rated, the blanks filled.
                others = [m for m in counted if m.pk != member.pk]
                start = services.merge_rerate_start(sources=others, target=member)
                member.rerate_events = (  # type: ignore[attr-defined]
                    services.rerate_scope(start=start).count if start is not None else 0
                )
                member.fills = [  # type: ignore[attr-defined]
                    (Member._meta.get_field(field).verbose_name, value, source)
                    for field, (source, value) in services.merge_fills(
                        sources=others, target=member
                    ).items()
                ]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Merge duplicate members",
            "members": counted,
            "problem": problem,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return render(request, "admin/ratings/member/merge.html", context)


@admin.register(Subscription)
class SubscriptionAdmin(AuditAdmin):
    list_display = ["member", "season", "paid_on", "amount"]
    list_filter = ["season"]
    search_fields = ["member__name", "member__member_number"]
    autocomplete_fields = ["member", "season"]
    date_hierarchy = "paid_on"
    list_select_related = ["member", "season"]


# -- rating periods ------------------------------------------------------------------------


@admin.register(RatingPeriod)
class RatingPeriodAdmin(RerateAdmin):
    list_display = ["label", "system", "start", "end", "closed_at", "closed_by"]
    list_filter = ["system", ("closed_at", admin.EmptyFieldListFilter)]
    search_fields = ["label"]
    date_hierarchy = "start"
    list_select_related = ["closed_by"]

    def save_model(self, request: HttpRequest, obj: RatingPeriod, form: Any, change: bool) -> None:
        # Closing or reopening a period, or moving its dates, changes what is rated.
        old = RatingPeriod.objects.filter(pk=obj.pk).first() if change else None
        super().save_model(request, obj, form, change)
        if {"start", "end", "closed_at", "system"} & set(form.changed_data):
            first = min(obj.start, old.start) if old else obj.start
            self._rerate_from(request, (first, dt.date.min, 0))

    def _note_delete(self, request: HttpRequest, objects: list[Any]) -> None:
        for period in objects:
            self._rerate_from(request, (period.start, dt.date.min, 0))


# -- events, entries and games -------------------------------------------------------------


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["round", "board", "white", "black", "result", "colours_known"]
    autocomplete_fields = ["white", "black"]
    ordering = ["round", "board", "pk"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("white", "black")


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["member"]
    autocomplete_fields = ["member"]

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
    return value if value is not None else getattr(event, related).count()  # type: ignore[no-any-return]


@admin.register(Event)
class EventAdmin(RerateAdmin, AuditAdmin):
    list_display = [
        "name",
        "kind",
        "start_date",
        "end_date",
        "rounds",
        "status",
        "rated",
        "player_count",
        "game_count",
    ]
    list_filter = ["status", "rated", "kind"]
    search_fields = ["name"]
    date_hierarchy = "end_date"
    inlines = [GameInline, EntryInline]

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

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
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
        return obj.players_n  # type: ignore[attr-defined,no-any-return]

    @admin.display(description="games", ordering="games_n")
    def game_count(self, obj: Event) -> int:
        return obj.games_n  # type: ignore[attr-defined,no-any-return]

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        old = Event.objects.filter(pk=obj.pk).first() if change else None
        counted_before = old is not None and _counts(old)
        old_key = services.rating_key(old) if old else None
        super().save_model(request, obj, form, change)
        request._event_counted = counted_before  # type: ignore[attr-defined]
        if change and services.EVENT_RATING_FIELDS & set(form.changed_data):
            if counted_before or _counts(obj):
                assert old_key is not None
                self._rerate_from(request, min(old_key, services.rating_key(obj)))
        elif not change and _counts(obj):
            self._rerate_from(request, services.rating_key(obj))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        event = form.instance
        games_changed = formset.model is Game and (
            formset.new_objects or formset.changed_objects or formset.deleted_objects
        )
        if games_changed and (getattr(request, "_event_counted", False) or _counts(event)):
            self._rerate_from(request, services.rating_key(event))

    def _note_delete(self, request: HttpRequest, objects: list[Any]) -> None:
        for event in objects:
            if _counts(event):
                self._rerate_from(request, services.rating_key(event))


def _rows_line(event: Event, inline: type[admin.TabularInline], noun: str, changelist: str) -> str:
    """The read-only line of an event's games or entries: how many, and where to edit them."""
    related = "games" if inline is GameInline else "entries"
    count = getattr(event, related).count()
    url = f"{reverse(changelist)}?event__id__exact={event.pk}"
    plural = "entries" if noun == "entry" else f"{noun}s"
    counted = f"{count} {noun if count == 1 else plural}"
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

    @admin.display(description="date", ordering="event__end_date")
    def event_date(self, obj: Game) -> dt.date:
        return obj.event.end_date

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        old = Game.objects.select_related("event").filter(pk=obj.pk).first() if change else None
        super().save_model(request, obj, form, change)
        for event in {obj.event, old.event if old else obj.event}:
            if _counts(event):
                self._rerate_from(request, services.rating_key(event))

    def _note_delete(self, request: HttpRequest, objects: list[Any]) -> None:
        for game in objects:
            if _counts(game.event):
                self._rerate_from(request, services.rating_key(game.event))


# -- derived rows: viewed, never edited -------------------------------------------------------


class ReadOnlyAdmin(admin.ModelAdmin):
    """Ratings are derived from the games: correct the games and the chain is re-rated."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
