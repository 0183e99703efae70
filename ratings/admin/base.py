"""What every admin page shares: an audit trail, and a re-rate after a correction."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.forms.boundfield import BoundField
from django.http import Http404, HttpRequest, HttpResponse
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import DeletedObject
from simple_history.template_utils import HistoricalRecordContextHelper

from .. import services
from ..forms import CHANGE_REASON, change_reason_field, reason_required
from ..models import (
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
)
from ..rules.results import result_words

admin.site.site_header = "Club Ratings: corrections"
admin.site.site_title = "Club Ratings admin"
admin.site.index_title = "Corrections"

Position = services.Position


def reason_posted(request: HttpRequest) -> str:
    """The reason a deletion's confirmation page asked for (``delete_reason.html``)."""
    return request.POST.get(CHANGE_REASON, "")


def delete_through_services(
    admin_: admin.ModelAdmin, request: HttpRequest, objects: list[Any]
) -> None:
    """Delete ``objects`` as the services delete (``services.records_delete``): each in the
    history with who and why, one re-rate from where they restart the chain."""
    meta = admin_.model._meta
    if len(objects) == 1:
        what = f"Admin: {meta.verbose_name} “{objects[0]}” deleted"
    else:
        what = f"Admin: {len(objects)} {meta.verbose_name_plural} deleted"
    run = services.records_delete(
        records=objects, user=request.user, reason=reason_posted(request), what=what
    )
    if run is not None:
        _tell_about_run(request, run)


class RerateAdmin(admin.ModelAdmin):
    """A record whose corrections can move ratings: each save hook tells the services what
    changed (``services.event_changed``, ``games_changed``, ``member_changed``,
    ``period_changed``), which re-rate by the one policy; deletions go through
    ``services.records_delete``; the confirmation pages say how many events they re-rate.
    """

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        delete_through_services(self, request, [obj])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        delete_through_services(self, request, list(queryset))

    def delete_rerate_count(self, objects: list[Any]) -> int:
        """How many events deleting ``objects`` re-rates: said on the confirmation page."""
        return services.deletion_rerate_count(records=objects)

    def delete_view(
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
        # Each entry a (function, name, description): the stubs allow a None Django never gives.
        actions: dict[str, Any] = super().get_actions(request)
        if "delete_selected" in actions:
            _, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_saying_rerate, name, description)
        return actions

    def get_deleted_objects(self, objs: Any, request: HttpRequest):
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
    return response


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


class ClubWordsHistory(HistoricalRecordContextHelper):
    """A history's before → after in the club's words: a game's result as "1–0", "½–½" or
    "0–1" (not its stored code), any other choice by its label, yes/no for a tick box."""

    def prepare_delta_change_value(self, change: Any, value: Any) -> Any:
        field = self.model._meta.get_field(change.field)
        if isinstance(value, DeletedObject):
            # simple-history's stand-in for a link that held no one ("Deleted member
            # (pk=None)", a merge's "merged into" before it) or one since deleted.
            if value.pk is None:
                return "none"
            return f"a {value.model._meta.verbose_name} since deleted"
        if value is None or value == "":
            return value
        if isinstance(value, Member):  # two records of one person share a name: the number too
            return f"{value.name} ({value.member_number})"
        if field.name == "result" and self.model is Game:
            return result_words(value)
        if getattr(field, "choices", None):
            return dict(field.flatchoices).get(value, value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return super().prepare_delta_change_value(change, value)


class ReasonForm(forms.ModelForm):
    """A correction's form with a reason for it, kept as the change's ``history_change_reason``:
    required of a change to a saved record, as on the officer's pages."""

    change_reason = change_reason_field("result misread from the score sheet")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        reason_required(self)
        return data


def reason_given(form: Any) -> str:
    return (getattr(form, "cleaned_data", {}) or {}).get(CHANGE_REASON, "") or ""


def _an_id(value: Any) -> bool:
    """Whether a value sent for a record's id could be one (digits a database integer
    holds): what a form shows again after refusing it, without asking the database."""
    text = str(value)
    return text.isascii() and text.isdigit() and len(text) < 19


class ReadableAutocompleteSelect(AutocompleteSelect):
    """The admin's search-as-you-type menu, showing a form again after a value that is
    no id at all (text, a number past any integer) was refused at its field: Django's
    looks such a value up in the database to show it, and fails there."""

    def optgroups(self, name: str, value: Any, attr: Any = None) -> Any:
        return super().optgroups(name, [v for v in value if _an_id(v)], attr)


class ReadableAutocomplete:
    """For a model admin or inline with ``autocomplete_fields``: their menus read as above."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):  # type: ignore[attr-defined]
            kwargs["widget"] = ReadableAutocompleteSelect(
                db_field,
                self.admin_site,  # type: ignore[attr-defined]
                using=kwargs.get("using"),
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


class UnlabelledHelpField(BoundField):
    """A field whose help the admin gives no id of its own: a tabular inline's
    (shown in its column's heading), or a widget with no id to label (the login's password
    summary). Django still points ``aria-describedby`` at "<id>_helptext", an id the page
    never has, and a screen reader reads nothing there: described by its errors alone."""

    @property
    def aria_describedby(self) -> str | None:
        described = super().aria_describedby
        if not described:
            return described
        return " ".join(ref for ref in described.split() if not ref.endswith("_helptext"))


class ReadableInline(ReadableAutocomplete):
    """An inline whose formset takes at most ``most_rows`` rows: a form claiming more
    (``TOTAL_FORMS`` of 1,000, Django's own bound) is refused, not rendered row by row
    until the request runs out of time."""

    most_rows = 100

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("max_num", self.most_rows)
        kwargs.setdefault("absolute_max", self.most_rows)
        formset = super().get_formset(request, obj, **kwargs)  # type: ignore[misc]
        # A row's help is in its column's heading, with no id to point at.
        formset.form.bound_field_class = UnlabelledHelpField
        return formset


class AuditAdmin(ReadableAutocomplete, SimpleHistoryAdmin):
    """A record whose every change is kept: its history page shows before → after."""

    object_history_list_template = "admin/ratings/object_history_list.html"

    def get_historical_record_context_helper(
        self, request: HttpRequest, historical_record: Any
    ) -> ClubWordsHistory:
        return ClubWordsHistory(self.model, historical_record)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        delete_through_services(self, request, [obj])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        delete_through_services(self, request, list(queryset))

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        # Saving a record whose own fields did not change (only an inline row, e.g. a
        # subscription removed) must not add an empty "Changed" line to its history.
        if change and not set(form.changed_data) - {CHANGE_REASON}:
            obj.skip_history_when_saving = True
        if reason_given(form):
            obj._change_reason = reason_given(form)
        try:
            super().save_model(request, obj, form, change)
        finally:
            if hasattr(obj, "skip_history_when_saving"):
                del obj.skip_history_when_saving

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ):
        # simple-history lets anyone who may *view* a record POST a revert of it: a
        # revert is a change, so it needs the change permission (an officer reads the
        # club settings but must not switch the rating system through their history).
        if not (version_id.isascii() and version_id.isdigit() and len(version_id) < 19):
            raise Http404("No such change in this record's history.")  # not an id at all
        if request.method == "POST":
            obj = self.get_object(request, unquote(object_id))
            if (
                self.revert_disabled(request, obj)
                or not self.has_change_permission(request, obj)
                or not self.has_change_history_permission(request, obj)
            ):
                raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


# -- derived rows: viewed, never edited -------------------------------------------------------


class ReadOnlyAdmin(admin.ModelAdmin):
    """Ratings are derived from the games: correct the games and the chain is re-rated."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
