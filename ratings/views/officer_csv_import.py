"""Bringing a club in from its spreadsheets: a members CSV (with their current ratings) and a
results CSV, each uploaded, previewed with every problem by line, and saved only when
the officer confirms: the flow of the TRF import, on the readers of the import commands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ..formats import members_csv, results_csv
from ..forms import CsvUploadForm, DuplicateReasonForm, MembersConfirmForm
from ..models import Member
from ..rules.duplicates import Duplicates
from ..services import member_imports, result_imports
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
    lines = [] if problems else member_changes(rows, removals)
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


#: How the preview names a member field a file changes.
FIELD_WORDS = {
    "name": "name",
    "born": "born",
    "gender": "gender",
    "region": "region",
    "title": "title",
    "fide_id": "FIDE id",
    "is_guest": "guest",
    "initial_rating": "rating brought in",
    "initial_games": "games brought in",
    "brought_in": "standing brought in",
    "email": "email",
}


def member_changes(
    rows: list[members_csv.MemberRow], removals: Sequence[member_imports.PaymentRemoved] = ()
) -> list[dict[str, Any]]:
    """Each row of a members file with the member it updates (or None: a new member) and
    what it changes, "field: before → after", and a payment it takes back (a change,
    never "unchanged"); one query for the whole file."""
    existing = member_imports.members_any_case([r.number for r in rows])
    removed = {r.line: r for r in removals}
    lines = []
    for row in rows:
        member: Member | None = existing.get(row.number.lower())
        changes = []
        fields = member_imports.as_recorded(row, member)
        if member is not None:
            for field, value in fields.items():
                old = getattr(member, field)
                if old != value:
                    changes.append(f"{FIELD_WORDS[field]}: {_shown(old)} → {_shown(value)}")
        if row.line in removed:
            changes.append(str(removed[row.line]))
        lines.append(
            {
                "row": row,
                "member": member,
                "changes": changes,
                "rating": row.fields.get("initial_rating"),
                "games": row.fields.get("initial_games"),
                "standing": " ".join(fields.get("brought_in", {}).values()),
            }
        )
    return lines


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        return ", ".join(f"{name} {word}" for name, word in value.items()) or "–"
    return str(value)


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
