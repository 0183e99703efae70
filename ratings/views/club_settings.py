"""The club settings page: the officer reads it, the administrator changes it (a new
rating system after the switch's confirmation: it re-rates everything)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .. import services
from ..forms.club_settings import ClubSettingsForm
from ..models import ClubSettings, RatingList
from ..rules import access
from ..rules.roles import ADMINISTRATOR, OFFICER
from ..services.club import club_settings_save
from .common import progress_or, refuse_unless, rerated, role_required


@role_required(OFFICER, ADMINISTRATOR)
def club_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        refuse_unless(request, ADMINISTRATOR)
    club = ClubSettings.load()
    may_change = access.is_administrator(request.user)
    form = ClubSettingsForm(request.POST or None, instance=club, read_only=not may_change)
    scope = None
    if request.method == "POST" and form.is_valid():
        if form.switches_system() and "confirm" not in request.POST:
            # Say what the switch re-rates before doing it.
            scope = services.rating_system_switch_scope(system=form.instance.engine())
        else:
            run = club_settings_save(
                club=form.instance, changed=form.changed_data, user=request.user
            )
            messages.success(request, f"The club's settings are saved{rerated(run, ' and ')}.")
            return progress_or(run, redirect("ratings:officer-settings"))
    return render(
        request,
        "ratings/officer/settings.html",
        {
            "form": form,
            "may_change": may_change,
            "scope": scope,
            "rating_lists": RatingList.objects.all(),
        },
    )
