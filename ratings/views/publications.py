"""Publications: the published lists by date (page, CSV), what changed between two, and
the officer's button that publishes the list.

A publication is a public record of what was published on its date: it is read as it
was frozen, whatever has happened to its members since (a member who has since fallen
into arrears is on it as they were then; their page shows nothing new of them).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .. import services
from ..models import ClubSettings, Publication, RatingPeriod, listing
from ..pages import publications as pages
from ..pages.list_print import rows_for_print
from ..rules.rating_lists import list_name
from ..rules.time_classes import STANDARD
from ..words.counts import count_phrase
from .common import (
    club_of,
    officer_required,
    rating_list_of,
    rating_lists_kept,
    streamed_csv,
    wants_csv,
)


def publication_index(request: HttpRequest) -> HttpResponse:
    """Every publication, newest first; a date finds the list as it stood that day."""
    on = request.GET.get("on")
    if on:
        try:
            day = dt.date.fromisoformat(on)
        except ValueError:
            messages.error(request, f"“{on}” is not a date: use YYYY-MM-DD.")
            return redirect("ratings:publications")
        found = services.publication_on(day, rating_list_of(request))
        if found is None:
            messages.info(request, f"No list had been published by {day:%-d %b %Y}.")
            return redirect("ratings:publications")
        return redirect(found)
    page = pages.publication_index(page_number=request.GET.get("page"))
    return render(request, "ratings/public/publications.html", {"page": page})


def publication_csv_response(request: HttpRequest, publication: Publication) -> Any:
    """A publication's rows as filtered, streamed."""
    filters = pages.publication_entries(publication=publication, query=request.GET)
    return streamed_csv(
        pages.publication_csv(entries=filters.qs),
        f"rating-list-published-{publication.slug}.csv",
    )


def publication_detail(request: HttpRequest, slug: str) -> HttpResponse:
    publication = get_object_or_404(Publication, slug=slug)
    if wants_csv(request):
        return publication_csv_response(request, publication)
    context = pages.publication_list(
        publication=publication,
        query=request.GET,
        club=club_of(request),
        latest=False,
        request=request,
    )
    rows_for_print(context["table"])
    return render(request, "ratings/public/publication.html", context)


def publication_changes(request: HttpRequest, slug: str) -> HttpResponse:
    """What changed between a publication and the one before it on its list (or
    ``?since=<slug>``, a publication of the same list: another list's figures are
    another rating's, not a change)."""
    newer = get_object_or_404(Publication, slug=slug)
    since = request.GET.get("since")
    if since:
        older = Publication.objects.filter(slug=since, time_class=newer.time_class).first()
        if older is None:
            raise Http404(f"No {list_name(newer.time_class).lower()} was published on that date.")
    else:
        older = newer.previous()
    context = pages.publication_changes(
        newer=newer,
        older=older,
        entrants_page=request.GET.get("entrants"),
        leavers_page=request.GET.get("leavers"),
    )
    return render(request, "ratings/public/publication_changes.html", context)


# -- the officer publishes -------------------------------------------------------------


class PublishForm(forms.Form):
    note = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Shown with the list, e.g. “Ratings to 30 June: the winter period.”",
    )
    period = forms.CharField(required=False, widget=forms.HiddenInput)


@officer_required
def officer_publish(request: HttpRequest) -> HttpResponse:
    """Publish the list as it stands: a button with a note (after closing a period too)."""
    asked = request.POST.get("list") or request.GET.get("list")
    rating_list = asked if asked in rating_lists_kept(request) else STANDARD
    system = ClubSettings.load().engine(rating_list)
    label = request.POST.get("period") or request.GET.get("period") or ""
    period = (
        RatingPeriod.objects.of_list(system, rating_list).closed().filter(label=label).first()
        if label
        else None
    )
    if request.method == "POST":
        form = PublishForm(request.POST)
        if form.is_valid():
            try:
                publication = services.list_publish_telling_members(
                    site=request.build_absolute_uri("/"),
                    note=form.cleaned_data["note"],
                    user=request.user,
                    period=period,
                    time_class=rating_list,
                )
            except services.PublishRefused as refusal:
                form.add_error(None, str(refusal))
            else:
                kind = "" if rating_list == STANDARD else f"{rating_list} "
                messages.success(
                    request,
                    f"The {kind}list is published: "
                    f"{count_phrase(publication.size, 'member')}, "
                    f"dated {publication.day:%-d %b %Y}.",
                )
                return redirect(publication)
    else:
        note = f"Rating period {period.name} closed." if period else ""
        form = PublishForm(initial={"note": note, "period": label if period else ""})
    return render(
        request,
        "ratings/officer/publish.html",
        {
            "form": form,
            "period": period,
            "system": system,
            "basis": listing.list_basis(system, rating_list),
            "latest": services.publication_latest(rating_list),
            "size": services.list_size(rating_list),
            "rating_list": rating_list,
            "mail_preview": services.publication_mail_preview(
                time_class=rating_list, site=request.build_absolute_uri("/")
            ),
        },
    )
