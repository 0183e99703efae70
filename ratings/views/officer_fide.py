"""FIDE's rating list uploaded by the officer: read once at the upload (only the club's
members' lines are kept, in the session), previewed against the record, saved when the
officer confirms."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ..forms import FideListForm
from ..services.fide_lists import (
    fide_list_check,
    fide_list_kept,
    fide_players_from_data,
    fide_ratings_save,
)
from .common import officer_required

SESSION = "officer-fide-list"


@officer_required
def fide_upload(request: HttpRequest) -> HttpResponse:
    form = FideListForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        with upload.open("rb") as stream:
            preview = fide_list_check(
                stream=stream,
                filename=upload.name,
                kind=form.cleaned_data["kind"] or None,
                month=form.cleaned_data["month"],
            )
        problems = preview.problems
        if not problems:
            assert preview.month is not None
            request.session[SESSION] = {
                "filename": upload.name,
                "kinds": list(preview.kinds),
                "month": preview.month.isoformat(),
                "lines": preview.lines,
                "players": preview.players_data(),
            }
            return redirect("ratings:officer-fide-preview")
    return render(
        request,
        "ratings/officer/fide_upload.html",
        {"form": form, "problems": problems, "filename": request.FILES.get("file")},
    )


@officer_required
def fide_preview(request: HttpRequest) -> HttpResponse:
    stored = request.session.get(SESSION)
    if not stored:
        messages.info(request, "Upload FIDE's list first.")
        return redirect("ratings:officer-fide")
    players = fide_players_from_data(stored["players"])
    month = dt.date.fromisoformat(stored["month"])
    if request.method == "POST":
        report = fide_ratings_save(players=players, kinds=stored["kinds"], month=month)
        del request.session[SESSION]
        messages.success(request, f"{stored['filename']} read: {report}")
        return redirect("ratings:officer-fide")
    preview = fide_list_kept(
        players=players, kinds=stored["kinds"], month=month, lines=stored["lines"]
    )
    return render(
        request,
        "ratings/officer/fide_preview.html",
        {"filename": stored["filename"], "preview": preview},
    )
