"""Seasons, members (with merging duplicates) and subscriptions."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, Field, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import date_format

from .. import services
from ..engine import brought_in_fields
from ..forms import refuse_a_dropped_rating, whole_initial_rating
from ..forms.members import WORD_FIELD, WordsAsked, mail_wanted_field, word_field
from ..models import (
    ClubSettings,
    Member,
    MemberMerge,
    MemberQuerySet,
    Season,
    Subscription,
)
from .base import (
    AuditAdmin,
    ReadableInline,
    ReadOnlyAdmin,
    ReasonForm,
    RerateAdmin,
    _tell_about_run,
)

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
        return obj.subscriber_count  # type: ignore[attr-defined]


class SubscriptionInline(ReadableInline, admin.TabularInline):
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


#: The form's field of each word any system reads with a rating brought in.
WORD_FIELDS = {WORD_FIELD.format(field.name): field for field in brought_in_fields()}


def words_taken() -> set[str]:
    """The form's fields of the words the club's system reads."""
    taken = ClubSettings.load().engine().brought_in_fields
    return {WORD_FIELD.format(field.name) for field in taken}


class MemberRecordForm(WordsAsked, ReasonForm):
    """A member's record with a reason for the change; a whole initial rating shown as
    the officer's form shows it (1400, not 1400.0); the messages wanted as boxes, one a
    kind of club mail; the words brought in with a rating that the club's system reads,
    each a field of its own (``brought_in`` itself is not shown)."""

    mail_wanted = mail_wanted_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        whole_initial_rating(self.initial)
        kept = self.instance.brought_in or {}
        taken = words_taken()
        for name, field in WORD_FIELDS.items():
            if name not in taken:
                # Another system's word is kept in the record as it is, not cleared.
                self.fields.pop(name, None)
            elif name in self.fields:
                self.fields[name].initial = kept.get(field.name, "")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        refuse_a_dropped_rating(self)
        return data


# Each word's field declared on the form (the admin builds its form from the class's
# fields), the words of the club's system shown (``MemberAdmin.get_fields``).
MemberAdminForm = type(
    "MemberAdminForm",
    (MemberRecordForm,),
    {name: word_field(field) for name, field in WORD_FIELDS.items()},
)


@admin.register(Member)
class MemberAdmin(RerateAdmin, AuditAdmin):
    form = MemberAdminForm
    exclude = ["brought_in"]
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
    search_fields = ["name", "member_number", "fide_id", "email"]
    # Only the merge action may set it: it moves the games and re-rates in one step.
    readonly_fields = ["merged_into"]
    date_hierarchy = "created"
    inlines = [SubscriptionInline]
    actions = ["merge_members"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        taken = words_taken()
        fields = super().get_fields(request, obj)
        return [f for f in fields if f not in WORD_FIELDS or f in taken]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Member]:
        return (
            cast(MemberQuerySet, super().get_queryset(request))
            .with_financial()
            .with_state()
            .select_related("rating_state", "merged_into")  # type: ignore[misc]  # with_state's FilteredRelation
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
        run = (
            services.member_changed(
                member=obj,
                changed=form.changed_data,
                user=request.user,
                reason=f"Admin: member “{obj}” changed",
            )
            if change
            else None
        )
        if run is not None:
            _tell_about_run(request, run)
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
                    (_label(field), merge_value(field, value), source)
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
            "filled_fields": [_label(f) for f in services.MERGE_FILLED_FIELDS],
            "brought_in_fields": [_label(f) for f in services.BROUGHT_IN_FIELDS],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return render(request, "admin/ratings/member/merge.html", context)


def _label(name: str) -> Any:
    """A member's column's label (its verbose name): a merge names the columns it fills,
    each one of the record's own (a field, never a relation's far side)."""
    return cast("Field[Any, Any]", Member._meta.get_field(name)).verbose_name


def merge_value(field: str, value: Any) -> str:
    """A value a merge copies, as the officer reads it: a choice's words, a date in full,
    "none" for a blank (a rating brought in without a status copies its blank too)."""
    if value in (None, "", {}):
        return "none"
    if isinstance(value, dict):
        # The words brought in, each as the engine labels it ("ACF status brought in: Confirmed").
        fields = {field.name: field for field in brought_in_fields()}
        return "; ".join(
            f"{fields[name].label}: {dict(fields[name].choices).get(word, word)}"
            if name in fields
            else f"{name}: {word}"
            for name, word in value.items()
        )
    model_field = Member._meta.get_field(field)
    choices = dict(model_field.flatchoices)  # type: ignore[union-attr]
    if choices:
        return str(choices.get(value, value))
    if field == "born":
        return date_format(value, "j F Y")
    if field == "initial_rating":
        return f"{value:g}"
    return str(value)


@admin.register(Subscription)
class SubscriptionAdmin(AuditAdmin):
    list_display = ["member", "season", "paid_on", "amount"]
    list_filter = ["season"]
    search_fields = ["member__name", "member__member_number"]
    autocomplete_fields = ["member", "season"]
    date_hierarchy = "paid_on"
    list_select_related = ["member", "season"]


@admin.register(MemberMerge)
class MemberMergeAdmin(ReadOnlyAdmin):
    """Merges done, and what each moved: read here, undone from the kept member's page
    ("Undo merge"), which puts everything back and re-rates."""

    list_display = ["__str__", "merged_at", "merged_by", "undone_at", "undone_by"]
    list_select_related = ["kept", "removed", "merged_by", "undone_by"]
    list_filter = [("undone_at", admin.EmptyFieldListFilter)]
