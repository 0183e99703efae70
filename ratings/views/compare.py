"""Which system fits the club (issue 19): the officer starts a comparison of every system
on the club's history and follows it; once published, members read its results."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..engine import SYSTEMS
from ..forms import ComparisonForm, MemberChoiceForm
from ..models import ClubSettings, Comparison, Member
from ..pages import comparisons
from ..presentation.compare_charts import calibration_svg, ratings_over_time_svg
from ..services import compare
from .common import officer_required


@officer_required
def compare_home(request: HttpRequest) -> HttpResponse:
    """The officer's comparisons, and the form starting a new one."""
    defaults = compare.comparison_default_params()
    form = ComparisonForm(request.POST if request.method == "POST" else None, defaults=defaults)
    if request.method == "POST" and form.is_valid():
        params = form.cleaned_data["params"]
        comparison = compare.comparison_start(user=request.user, params=params)
        messages.info(request, "The comparison is queued for the background worker.")
        return redirect("ratings:compare-detail", pk=comparison.pk)
    latest = Comparison.objects.select_related("user").defer("results")[:20]
    return render(
        request,
        "ratings/compare/home.html",
        {"form": form, "comparisons": latest, "published": compare.comparison_published()},
    )


@officer_required
def compare_detail(request: HttpRequest, pk: int) -> HttpResponse:
    comparison = compare.comparison_check_alive(comparison=get_object_or_404(Comparison, pk=pk))
    context = {"comparison": comparison, "officer": True}
    if comparison.status == Comparison.Status.DONE:
        context.update(_results(request, comparison))
        context["switches"] = _switch_links(request, comparison)
    return render(request, "ratings/compare/detail.html", context)


@officer_required
def compare_status(request: HttpRequest, pk: int) -> JsonResponse:
    """What the progress bar polls (static/js/compare.js)."""
    comparison = compare.comparison_check_alive(comparison=get_object_or_404(Comparison, pk=pk))
    return JsonResponse(
        {
            "status": comparison.status,
            "status_display": comparison.get_status_display(),
            "progress": comparison.progress,
            "message": comparison.message,
            "finished": comparison.status in (Comparison.Status.DONE, Comparison.Status.FAILED),
            "stalled": comparison.stalled,
        }
    )


@officer_required
@require_POST
def compare_publish(request: HttpRequest, pk: int) -> HttpResponse:
    comparison = get_object_or_404(Comparison, pk=pk, status=Comparison.Status.DONE)
    publish = request.POST.get("publish") == "1"
    compare.comparison_publish(comparison=comparison, publish=publish)
    messages.info(
        request,
        "Members can now read this comparison." if publish else "The comparison is withdrawn.",
    )
    return redirect("ratings:compare-detail", pk=comparison.pk)


def compare_public(request: HttpRequest) -> HttpResponse:
    """The comparison the officer published last; none published: not found."""
    comparison = compare.comparison_published()
    if comparison is None:
        raise Http404("No comparison of systems has been published.")
    context = {"comparison": comparison, "officer": False}
    context.update(_results(request, comparison))
    return render(request, "ratings/compare/public.html", context)


def _results(request: HttpRequest, comparison: Comparison) -> dict[str, Any]:
    """The finished comparison's figures, lists and charts (published members only)."""
    systems = (comparison.results or {}).get("systems", {})
    order = comparisons.system_order(comparison)
    calibration = [
        (
            sid,
            comparisons.short_title(sid),
            SYSTEMS[sid].title,
            calibration_svg(
                systems[sid]["calibration"], title=f"Calibration: {SYSTEMS[sid].title}", key=sid
            ),
        )
        for sid in order
        if sid in systems
    ]
    choice = MemberChoiceForm(request.GET or None)
    member = chart = None
    number = request.GET.get("member", "").strip()
    choices = comparisons.member_choices(comparison)
    if number:
        member = Member.objects.published().filter(member_number__iexact=number).first()
        if member is None:
            choice.add_error("member", f"No published member has the number {number}.")
    elif choices:
        member = choices[0]
    if member is not None:
        chart = ratings_over_time_svg(
            comparisons.member_series(comparison, member),
            title=f"{member.name}: rating under each system",
        )
    return {
        "sections": comparisons.list_sections(comparison),
        "measure_headings": [heading for _, heading in comparisons.MEASURES],
        "calibration": calibration,
        "top": comparisons.top_lists(comparison),
        "differ": comparisons.differ_most(comparison),
        "differ_systems": [(comparisons.short_title(sid), SYSTEMS[sid].title) for sid in order],
        "club_title": SYSTEMS[comparison.club_system].title
        if comparison.club_system in SYSTEMS
        else comparison.club_system,
        "choice": choice,
        "choices": choices,
        "member": member,
        "member_chart": chart,
        "series": [(n, SYSTEMS[sid].title) for n, sid in enumerate(order)],
        "short_club": comparisons.short_title(comparison.club_system)
        if comparison.club_system in SYSTEMS
        else comparison.club_system,
        "results": comparison.results,
        "short_history": (comparison.results or {}).get("first_day") is not None
        and comparison.results["first_day"] >= comparison.results["recent_from"],
    }


def _switch_links(request: HttpRequest, comparison: Comparison) -> list[dict[str, Any]]:
    """Each system's link to the club settings' confirmed switch, preselected with the
    comparison's parameters; only for whoever may change the club's settings."""
    if not request.user.has_perm("ratings.change_clubsettings"):
        return []
    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    links = []
    for sid in comparisons.system_order(comparison):
        params = comparison.params.get(sid) or {}
        current = sid == club.rating_system and params == club.system_params
        query = urlencode({"rating_system": sid, "system_params": json.dumps(params)})
        links.append(
            {
                "title": SYSTEMS[sid].title,
                "params": json.dumps(params) if params else "",
                "current": current,
                "url": f"{url}?{query}",
            }
        )
    return links
