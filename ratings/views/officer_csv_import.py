"""Bringing a club in from its spreadsheets: a members CSV (with their current ratings) and a
results CSV, each uploaded, previewed with every problem by line, and saved only when
the officer confirms: the flow of the TRF import, on the readers of the import commands."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render

from ..formats import members_csv, results_csv
from ..forms import CsvUploadForm, DuplicateReasonForm, MembersConfirmForm
from ..models import MemberImport, Subscription
from ..rules.duplicates import Duplicates
from ..services import member_import_jobs, member_imports, result_imports
from .common import officer_required, progress_or

#: What each kind of file is: its session key, pages, and the columns it takes.
KINDS = {
    "members": {
        "session": "officer-csv-members",
        "upload": "ratings:officer-import-register",
        "preview": "ratings:officer-import-register-preview",
        "title": "Import members",
        "help": "Columns (a header line, any order, any case): "
        + ", ".join(members_csv.member_columns())
        + ". Only id and name are required. Separated by commas, semicolons or tabs.",
    },
    "results": {
        "session": "officer-csv-results",
        "upload": "ratings:officer-import-results",
        "preview": "ratings:officer-import-results-preview",
        "title": "Import results",
        "help": "Columns (a header line, any order, any case): "
        + ", ".join(members_csv.RESULT_COLUMNS)
        + ". White and black are member numbers. Separated by commas, semicolons or tabs.",
    },
}


def _upload(request: HttpRequest, kind: str) -> HttpResponse:
    about = KINDS[kind]
    form = CsvUploadForm(request.POST or None, request.FILES or None, help_text=about["help"])
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        if kind == "members" and member_import_jobs.member_import_in_the_background(text):
            # Too long to read within the page: the worker reads it, this page follows.
            job = member_import_jobs.member_import_queue(
                text=text,
                filename=form.cleaned_data["file"].name,
                notice=form.cleaned_data["notice"],
                user=request.user,
            )
            return redirect("ratings:officer-import-register-job", pk=job.pk)
        request.session[about["session"]] = {
            "text": form.cleaned_data["text"],
            "filename": form.cleaned_data["file"].name,
            # How the file was read when not UTF-8 (Windows-1252): said on the preview.
            "notice": form.cleaned_data["notice"],
        }
        return redirect(about["preview"])
    return render(
        request, "ratings/officer/csv_upload.html", {"form": form, "kind": kind, **about}
    )


@officer_required
def members_upload(request: HttpRequest) -> HttpResponse:
    return _upload(request, "members")


@officer_required
def results_upload(request: HttpRequest) -> HttpResponse:
    return _upload(request, "results")


def _stored(request: HttpRequest, kind: str) -> dict[str, str] | None:
    stored = request.session.get(KINDS[kind]["session"])
    if not stored:
        messages.info(request, "Upload a file first.")
    return stored


@officer_required
def members_preview(request: HttpRequest) -> HttpResponse:
    stored = _stored(request, "members")
    if not stored:
        return redirect(KINDS["members"]["upload"])
    rows, problems = member_imports.members_check(stored["text"])
    # The payments the file would take back, listed and confirmed with a reason.
    removals = [] if problems else member_imports.payments_removed(rows)
    form = MembersConfirmForm(
        request.POST if request.method == "POST" else None, removals=removals
    )
    if request.method == "POST" and not problems and form.is_valid():
        try:
            report = member_imports.members_import(
                data=stored["text"],
                user=request.user,
                removal_reason=form.cleaned_data.get("removal_reason", ""),
            )
        except members_csv.ImportRefused as refused:
            # The record changed since the preview (another officer): show the problems.
            problems = refused.problems
        else:
            del request.session[KINDS["members"]["session"]]
            messages.success(request, f"{stored['filename']} imported: {report}")
            return progress_or(report.run, redirect("ratings:officer-members"))
    lines = [] if problems else member_imports.member_changes(rows, removals)
    # Two lines (or a line and a member) that may be one person: shown, never refused.
    return render(
        request,
        "ratings/officer/csv_members_preview.html",
        {
            "filename": stored["filename"],
            "notice": stored.get("notice", ""),
            "problems": problems,
            "lines": lines,
            "removals": removals,
            "possible_duplicates": []
            if problems
            else member_imports.members_file_duplicates(rows),
            "form": form,
            "new": sum(1 for line in lines if line["member"] is None),
            "updated": sum(1 for line in lines if line["member"] is not None and line["changes"]),
            **KINDS["members"],
        },
    )


#: Lines of a long file's preview a page shows (a 60,000-line table would not load).
JOB_LINES_PER_PAGE = 500


@officer_required
def members_job(request: HttpRequest, pk: int) -> HttpResponse:
    """A long members file on its way in: the worker's progress while it reads or saves,
    the preview to confirm once read, and what was saved at the end."""
    job = get_object_or_404(
        MemberImport.objects.select_related("user", "confirmed_by", "run").defer("text"), pk=pk
    )
    preview = job.preview
    removals = _removals_kept(preview.get("removals", []))
    form = MembersConfirmForm(
        request.POST if request.method == "POST" else None, removals=removals
    )
    if request.method == "POST" and job.status != MemberImport.Status.READ:
        messages.info(request, "This file was confirmed already: nothing more was done.")
        return redirect("ratings:officer-import-register-job", pk=job.pk)
    if request.method == "POST" and form.is_valid():
        member_import_jobs.member_import_confirm(
            job=job,
            user=request.user,
            removal_reason=form.cleaned_data.get("removal_reason", ""),
            listed=form.cleaned_data["listed"],
        )
        return redirect("ratings:officer-import-register-job", pk=job.pk)
    kept = job.lines.order_by("position").values_list("shown", flat=True)
    lines = Paginator(kept, JOB_LINES_PER_PAGE).get_page(request.GET.get("page"))
    for line in lines:
        born = line["row"]["fields"].get("born")
        if isinstance(born, str):
            line["row"]["fields"]["born"] = dt.date.fromisoformat(born)
    return render(
        request,
        "ratings/officer/csv_members_job.html",
        {
            "job": job,
            "filename": job.filename,
            "notice": job.notice,
            "problems": preview.get("problems", []),
            "page": lines,
            "lines": lines,
            "total": preview.get("lines", 0),
            "removals": removals,
            "possible_duplicates": preview.get("duplicates", []),
            "form": form,
            "new": preview.get("new", 0),
            "updated": preview.get("updated", 0),
            **KINDS["members"],
        },
    )


def _removals_kept(kept: list[dict[str, Any]]) -> list[member_imports.PaymentRemoved]:
    """The payments a kept preview takes back, as the record has them now (one query)."""
    found = Subscription.objects.select_related("season", "member").in_bulk(
        [r["subscription"] for r in kept]
    )
    return [
        member_imports.PaymentRemoved(line=r["line"], name=r["name"], subscription=subscription)
        for r in kept
        if (subscription := found.get(r["subscription"])) is not None
    ]


@officer_required
def members_job_status(request: HttpRequest, pk: int) -> JsonResponse:
    """What the page of a long members file polls while the worker reads or saves it."""
    job = get_object_or_404(MemberImport.objects.defer("text", "preview"), pk=pk)
    return JsonResponse(
        {
            "status": job.status,
            "status_display": job.get_status_display(),
            "progress": job.progress,
            "rows_done": job.rows_done,
            "rows_total": job.rows_total,
            "message": job.message,
            "finished": not job.under_way,
            "quiet": job.quiet,
        }
    )


@officer_required
def results_preview(request: HttpRequest) -> HttpResponse:
    stored = _stored(request, "results")
    if not stored:
        return redirect(KINDS["results"]["upload"])
    problems: Any = None
    events, found = result_imports.results_check(stored["text"])
    duplicates = [] if found else result_imports.results_duplicates(events)
    bound = request.POST if request.method == "POST" else None
    form = DuplicateReasonForm(bound, duplicates=duplicates)
    if request.method == "POST" and form.is_valid():
        try:
            report = result_imports.results_import(
                data=stored["text"],
                user=request.user,
                duplicate_reason=form.cleaned_data["duplicate_reason"],
            )
        except members_csv.ImportRefused as refused:
            problems = refused.problems
        else:
            del request.session[KINDS["results"]["session"]]
            messages.success(request, f"{stored['filename']} imported: {report}")
            return progress_or(report.run, redirect("ratings:officer-events"))
    problems = problems or found
    return render(
        request,
        "ratings/officer/csv_results_preview.html",
        {
            "filename": stored["filename"],
            "notice": stored.get("notice", ""),
            "problems": problems,
            "events": []
            if problems
            else [_event_line(e, d) for e, d in zip(events, duplicates, strict=True)],
            "form": form,
            "again": any(d.is_duplicate for d in duplicates),
            **KINDS["results"],
        },
    )


def _event_line(event: results_csv.ImportedEvent, duplicates: Duplicates) -> dict[str, Any]:
    players = {p for r in event.rows for p in (r.white, r.black) if p}
    return {
        "name": event.name,
        "start": event.start,
        "end": event.end,
        "rounds": event.rounds,
        "games": len(event.rows),
        "players": len(players),
        "duplicates": duplicates,
    }
