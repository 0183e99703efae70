"""The club's settings (one row): the rating system and its parameters."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from .. import services
from ..engine import SYSTEMS
from ..formats.jsontext import BoundedJSONField, json_read
from ..forms import CHANGE_REASON
from ..forms.club_settings import ClubSettingsForm as ClubSettingsPageForm
from ..models import (
    ClubSettings,
    RatingList,
    RatingRun,
)
from .base import AuditAdmin, _tell_about_run

# -- club settings (one row) ----------------------------------------------------------


class ClubSettingsForm(forms.ModelForm):
    class Meta:
        model = ClubSettings
        # The settings page's fields and widgets: one list, so the admin never lacks one.
        fields = ClubSettingsPageForm.Meta.fields
        widgets = ClubSettingsPageForm.Meta.widgets


@admin.register(ClubSettings)
class ClubSettingsAdmin(AuditAdmin):
    """The one row of settings. Changing the system re-rates everything, after a warning."""

    form = ClubSettingsForm
    formfield_overrides = {models.JSONField: {"form_class": BoundedJSONField}}
    list_display = ["name", "rating_system", "season_start_month"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not ClubSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm]:
        form = super().get_form(request, obj, change=change, **kwargs)
        preset = _preselected_system(request) if obj is not None else {}
        if not preset:
            return form

        class Preselected(form):  # type: ignore[valid-type,misc]
            """The switch a comparison of systems links to, its system already chosen."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                if not self.is_bound:
                    self.initial.update(preset)

        return Preselected

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        # One row: its list would be a page with one link on it.
        settings = ClubSettings.load()
        return HttpResponseRedirect(
            reverse("admin:ratings_clubsettings_change", args=[settings.pk])
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: Any = None,
    ) -> HttpResponse:
        if request.method == "POST" and "_confirm_rerate" not in request.POST:
            obj = self.get_object(request, object_id)
            if obj is not None and not self.has_change_permission(request, obj):
                # Not offered to who cannot confirm it: an officer reads the settings only.
                raise PermissionDenied(
                    "Only the club’s administrator changes the rating system (and re-rates "
                    "everything): this login may read the club settings, not change them."
                )
            form = self.get_form(request, obj)(request.POST, instance=obj)
            if obj is not None and form.is_valid() and _system_changed(form):
                return self._confirm_rerate(request, form)
        return super().change_view(request, object_id, form_url, extra_context)

    def _confirm_rerate(self, request: HttpRequest, form: forms.ModelForm) -> HttpResponse:
        new = form.instance
        scope = services.rating_system_switch_scope(system=new.engine())
        system, events, waiting = scope.system, scope.events, scope.waiting
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
        if not (change and _system_changed(form)):
            super().save_model(request, obj, form, change)
            return
        # The settings name the new system once its ratings are stored (by the re-rate,
        # perhaps in the background): the rest of the form is saved now, the switch by it.
        system_id, params = obj.rating_system, obj.system_params
        stored = ClubSettings.objects.get(pk=obj.pk)
        obj.rating_system, obj.system_params = stored.rating_system, stored.system_params
        if set(form.changed_data) - {"rating_system", "system_params", CHANGE_REASON}:
            super().save_model(request, obj, form, change)
        run = services.rating_system_set(system_id=system_id, params=params, user=request.user)
        obj.refresh_from_db()
        _tell_about_run(request, run)
        if run.status != RatingRun.Status.DONE:
            messages.info(
                request,
                f"The club's settings name {run.get_system_display()} once its ratings "
                "are stored; until then the site shows the previous system's.",
            )


@admin.register(RatingList)
class RatingListAdmin(AuditAdmin):
    """How rapid and blitz are rated: with the standard list, on a list of their own (with
    its own system), or not at all; and each time class played online: on a list of its
    own or not at all. Saving re-rates as ``rating_list_set`` says."""

    formfield_overrides = {models.JSONField: {"form_class": BoundedJSONField}}
    list_display = ["time_class", "online", "kept", "rating_system"]
    fields = ["time_class", "online", "kept", "rating_system", "system_params"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # "with the standard list" is what a deleted row would mean: say so

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change and not form.changed_data:
            return
        run = services.rating_list_set(rating_list=obj, user=request.user)
        _tell_about_run(request, run)


def _preselected_system(request: HttpRequest) -> dict[str, Any]:
    """``?rating_system=...&system_params={...}`` on the settings page (the comparison's
    "switch to this system"): shown chosen, saved only through the usual confirmation."""
    if request.method != "GET" or request.GET.get("rating_system") not in SYSTEMS:
        return {}
    preset: dict[str, Any] = {"rating_system": request.GET["rating_system"]}
    try:
        params = json_read(request.GET.get("system_params", "{}"))
    except ValueError:
        params = None
    if isinstance(params, dict):
        preset["system_params"] = params
    return preset


def _system_changed(form: forms.ModelForm) -> bool:
    return bool({"rating_system", "system_params"} & set(form.changed_data))
