"""The club's settings (one row): the rating system and its parameters."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from .. import services
from ..engine import SYSTEMS
from ..models import (
    ClubSettings,
    Event,
    RatingList,
)
from .base import AuditAdmin, _tell_about_run

# -- club settings (one row) ----------------------------------------------------------


class ClubSettingsForm(forms.ModelForm):
    class Meta:
        model = ClubSettings
        fields = [
            "name",
            "rating_system",
            "system_params",
            "season_start_month",
            "live_list_only",
            "city",
            "federation",
            "chief_arbiter",
            "deputy_arbiters",
        ]


@admin.register(ClubSettings)
class ClubSettingsAdmin(AuditAdmin):
    """The one row of settings. Changing the system re-rates everything, after a warning."""

    form = ClubSettingsForm
    list_display = ["name", "rating_system", "season_start_month"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not ClubSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(  # type: ignore[override]
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


@admin.register(RatingList)
class RatingListAdmin(AuditAdmin):
    """How rapid and blitz are rated: with the standard list, on a list of their own (with
    its own system), or not at all. Saving re-rates as ``rating_list_set`` says."""

    list_display = ["time_class", "kept", "rating_system"]
    fields = ["time_class", "kept", "rating_system", "system_params"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # "with the standard list" is what a deleted row would mean: say so

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change and not form.changed_data:
            return
        run = services.rating_list_set(rating_list=obj, user=request.user, soon=True)
        _tell_about_run(request, run)


def _preselected_system(request: HttpRequest) -> dict[str, Any]:
    """``?rating_system=...&system_params={...}`` on the settings page (the comparison's
    "switch to this system"): shown chosen, saved only through the usual confirmation."""
    if request.method != "GET" or request.GET.get("rating_system") not in SYSTEMS:
        return {}
    preset: dict[str, Any] = {"rating_system": request.GET["rating_system"]}
    try:
        params = json.loads(request.GET.get("system_params", "{}"))
    except ValueError:
        params = None
    if isinstance(params, dict):
        preset["system_params"] = params
    return preset


def _system_changed(form: forms.ModelForm) -> bool:
    return bool({"rating_system", "system_params"} & set(form.changed_data))
