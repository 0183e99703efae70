"""Rating an event (preview and completion) and closing rating periods."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import (
    Count,
)
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from .. import services
from ..forms import SendBackForm
from ..forms.duplicates import DuplicateReasonForm
from ..forms.publications import PublicationNoteForm
from ..models import (
    ClubSettings,
    Event,
    RatingPeriod,
    RatingRun,
    complete_problem,
)
from ..models.rating_lists import event_list_system, on_list
from ..pages import events as pages
from ..rules.rating_lists import list_query
from ..rules.time_classes import STANDARD
from ..services import event_stages
from ..services.duplicates import duplicates_of_event
from ..words.counts import count_phrase
from .common import officer_required, rating_list_of

# -- rating -----------------------------------------------------------------------------


@officer_required
def event_complete(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    rating_list, system = event_list_system(event)
    period = services.period_for(event, system, rating_list)
    if problem := complete_problem(event):
        messages.error(request, problem)
        return redirect("ratings:officer-event", pk=event.pk)
    # Games already recorded in another event: shown, and (unless the event keeps a
    # reason already) rated only with the officer's reason.
    duplicates = duplicates_of_event(event)
    form = DuplicateReasonForm(
        request.POST if request.method == "POST" else None,
        duplicates=[] if event.duplicate_reason else [duplicates],
    )
    if request.method == "POST" and form.is_valid():
        run = services.event_complete(
            event=event,
            user=request.user,
            duplicate_reason=form.cleaned_data["duplicate_reason"]
            if duplicates.is_duplicate
            else "",
            base_url=request.build_absolute_uri("/"),
        )
        if run is not None and run.status != RatingRun.Status.DONE:
            messages.info(request, f"{event.name} is complete: rating it in the background.")
            return redirect("ratings:run", pk=run.pk)
        if run is not None:
            messages.success(
                request,
                f"{event.name} rated ({count_phrase(run.games_rated, 'game')}; "
                f"{count_phrase(run.events_rated, 'event')} rated in all).",
            )
            return redirect("ratings:event-report", pk=event.pk)
        if event.rated and period is not None:
            messages.info(
                request,
                f"{event.name} is complete. Its games wait for rating period {period.name}.",
            )
        else:
            messages.success(request, f"{event.name} is complete.")
        return redirect("ratings:officer-event", pk=event.pk)
    return render(
        request,
        "ratings/officer/complete.html",
        {
            **pages.complete_preview(event=event),
            "duplicates": duplicates,
            "form": form,
            "reason_needed": duplicates.is_duplicate and not event.duplicate_reason,
        },
    )


@officer_required
def event_send_back(request: HttpRequest, pk: int) -> HttpResponse:
    """A submitted event returned to its director, unrated, with the officer's note."""
    event = get_object_or_404(Event, pk=pk)
    if event.stage != Event.SUBMITTED:
        messages.info(request, f"{event.name} is not waiting for rating: nothing to send back.")
        return redirect("ratings:officer-event", pk=event.pk)
    form = SendBackForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event_stages.event_send_back(
                event=event,
                user=request.user,
                note=form.cleaned_data["note"],
                base_url=request.build_absolute_uri("/"),
            )
        except event_stages.StageRefused as refused:
            form.add_error("note", str(refused))
        else:
            messages.success(request, f"{event.name} is sent back to its director.")
            return redirect("ratings:officer-home")
    return render(request, "ratings/officer/send_back.html", {"event": event, "form": form})


@officer_required
def period_list(request: HttpRequest) -> HttpResponse:
    rating_list = rating_list_of(request)
    system = ClubSettings.load().engine(rating_list)
    periods: dict[str, dict[str, Any]] = {}
    if system.period_based:
        for period in RatingPeriod.objects.of_list(system, rating_list):
            periods[period.label] = {"period": period, "events": []}
        events = Event.objects.filter(on_list(rating_list), rated=True).exclude(
            status=Event.Status.DRAFT
        )
        for period in RatingPeriod.objects.of_events(
            events, system=system, time_class=rating_list
        ):
            periods.setdefault(period.label, {"period": period, "events": []})
        for event in events.annotate(player_count=Count("entries")).in_rating_order():
            label = system.period_of(event.end_date)
            assert label is not None  # a period-based system places every day in a period
            periods[label]["events"].append(event)
    rows = sorted(periods.values(), key=lambda p: p["period"].start, reverse=True)
    return render(
        request,
        "ratings/officer/periods.html",
        {"system": system, "periods": rows, "rating_list": rating_list},
    )


@officer_required
def period_close(request: HttpRequest, label: str) -> HttpResponse:
    rating_list = rating_list_of(request)
    system = ClubSettings.load().engine(rating_list)
    if not system.period_based:
        raise Http404("The club's rating system does not rate by period.")
    try:
        period = RatingPeriod.objects.labelled(label, system=system, time_class=rating_list)
    except (ValueError, KeyError, NotImplementedError) as error:
        raise Http404("No such rating period.") from error
    periods_page = reverse("ratings:officer-periods") + list_query(rating_list)
    if period.is_closed:
        messages.info(request, f"Rating period {period.name} is closed already.")
        return redirect(periods_page)
    events = period.events().filter(rated=True, status=Event.Status.COMPLETE)
    problem = services.period_close_problem(period=period, system=system)
    note = f"Rating period {period.name} closed."
    data = None
    if request.method == "POST":
        data = request.POST.copy()
        data.setdefault("note", note)  # a confirmation without the box: the usual note
    note_form = PublicationNoteForm(data, initial={"note": note})
    if request.method == "POST" and problem is None and note_form.is_valid():
        try:
            run = services.period_close(period=period, user=request.user)
        except services.PeriodRefused as refusal:  # closed or rated meanwhile
            messages.error(request, str(refusal))
            return redirect(periods_page)
        if run.status != RatingRun.Status.DONE:
            messages.info(
                request,
                f"Rating period {period.name} closed: rating its events in the background; "
                "publish the list (Publish, above) once the run has finished.",
            )
            return redirect("ratings:run", pk=run.pk)
        rated = (
            f"Rating period {period.name} closed: {count_phrase(run.events_rated, 'event')} rated"
        )
        try:
            # The one confirmation closes and publishes: the list the period leaves,
            # with the officer's note.
            publication = services.list_publish(
                note=note_form.cleaned_data["note"],
                user=request.user,
                period=RatingPeriod.objects.get(pk=period.pk),
                time_class=rating_list,
            )
        except services.PublishRefused as refusal:  # another re-rate started meanwhile
            messages.warning(request, f"{rated}, but the list is not published: {refusal}")
            publish = f"{reverse('ratings:officer-publish')}?period={label}"
            return redirect(publish + (f"&list={rating_list}" if rating_list != STANDARD else ""))
        messages.success(
            request,
            f"{rated}, and the list published: {count_phrase(publication.size, 'member')}, "
            f"dated {publication.day:%-d %b %Y}.",
        )
        return redirect(publication)
    # The events rated anew besides the period's own: those of later closed periods.
    scope = services.rerate_scope(
        start=(period.start, period.start, 0), system=system, time_class=rating_list
    )
    closing = list(events)
    # Rated in this request, the period is published with it; a re-rate too long to wait
    # for goes to the background, and the button says the list is published after.
    limit = getattr(settings, "RERATE_FOREGROUND_SECONDS", 2.0)
    first = closing[0] if closing else (period.start, period.start, 0)
    in_background = services.rerate_estimate(start=first, time_class=rating_list) > limit
    return render(
        request,
        "ratings/officer/period_close.html",
        {
            "period": period,
            "events": closing,
            "later": scope.count,
            "note_form": note_form,
            "in_background": in_background,
            "problem": problem,
            "warning": services.period_close_warning(period=period),
            "rating_list": rating_list,
        },
        status=409 if problem and request.method == "POST" else 200,
    )
