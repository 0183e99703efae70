"""The log of rating runs and the progress of a background re-rate (officers)."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from .. import services
from ..models import RatingRun
from .common import PER_PAGE, officer_required


@officer_required
def run_list(request: HttpRequest) -> HttpResponse:
    runs = RatingRun.objects.select_related("user", "from_event")
    page = Paginator(runs, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/runs/list.html", {"page": page})


@officer_required
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = get_object_or_404(RatingRun.objects.select_related("user", "from_event"), pk=pk)
    run = services.run_check_alive(run=run)
    return render(request, "ratings/runs/detail.html", {"run": run})


@officer_required
@require_POST
def run_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """Run a failed background re-rate again (its worker was killed, say)."""
    run = get_object_or_404(RatingRun, pk=pk, status=RatingRun.Status.FAILED)
    again = services.run_retry(run=run, user=request.user)
    messages.info(request, "The re-rate is queued again.")
    return redirect("ratings:run", pk=again.pk)


@officer_required
def run_status(request: HttpRequest, pk: int) -> JsonResponse:
    """What the progress bar polls (static/js/progress.js)."""
    run = services.run_check_alive(run=get_object_or_404(RatingRun, pk=pk))
    return JsonResponse(
        {
            "status": run.status,
            "status_display": run.get_status_display(),
            "progress": run.progress,
            "message": run.message,
            "events_rated": run.events_rated,
            "games_rated": run.games_rated,
            "seconds": run.seconds,
            "finished": run.status in (RatingRun.Status.DONE, RatingRun.Status.FAILED),
            "stalled": run.stalled,
        }
    )
