"""A long members file read and saved by the worker, its page following it.

A file of more rows than ``MEMBER_IMPORT_FOREGROUND_ROWS`` is kept as a ``MemberImport``;
the worker reads it and stores the preview the page shows (problems by line, or each
line with what it changes); the officer confirms; the worker saves it with
``member_imports.members_import``, in one transaction, the import marked saved in that same
transaction. So a worker that dies leaves the record as it was and the import in "reading"
or "saving" with its heartbeat lapsing: ``member_imports_take_over`` queues it again and a
worker starts it afresh. A second confirm of one import finds it no longer "read" and does
nothing. Shorter files are read and saved in the page, as ever.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
from typing import Any

from django.conf import settings
from django.db import DatabaseError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from ..formats.members_csv import ImportRefused, Problem
from ..models import MemberImport, MemberImportLine
from ..models.club import club_time_zone_activate
from ..models.rating import heartbeat_lapse
from . import member_imports
from .runs import Heartbeat, progress_connection, tasks_running_fail

log = logging.getLogger("ratings")

Status = MemberImport.Status

#: What an import that stopped on an error says: the club's words (the log has the error's).
FAILED = (
    "The import stopped on an error and saved nothing: the record is as it was before. "
    "Upload the file again; if it fails again, the administrator will find the error in "
    "the server's log (import {pk})."
)


def file_rows(text: str) -> int:
    """A file's rows as near as its lines tell, its header aside: enough to choose page or
    worker (a cell holding a line break counts twice, which errs towards the worker)."""
    return max(text.count("\n") + (0 if text.endswith("\n") else 1) - 1, 0)


def member_import_in_the_background(text: str) -> bool:
    """Whether a members file is too long to read and save within a page."""
    return file_rows(text) > settings.MEMBER_IMPORT_FOREGROUND_ROWS


def member_import_queue(*, text: str, filename: str, notice: str, user: Any) -> MemberImport:
    """Keep a members file and queue its reading for the worker (after this commits)."""
    job = MemberImport.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        filename=filename[:255],
        notice=notice,
        text=text,
        rows_total=file_rows(text),
        message="Waiting for the worker to read the file",
    )
    _enqueue(job)
    return job


def _enqueue(job: MemberImport) -> None:
    transaction.on_commit(lambda: member_import_in_background.enqueue(import_pk=job.pk))


@task()
def member_import_in_background(*, import_pk: int) -> str:
    """Read a kept members file, or save a confirmed one: whichever it waits for."""
    club_time_zone_activate()
    job = MemberImport.objects.get(pk=import_pk)
    if job.status == Status.QUEUED:
        job = member_import_read(job=job)
    elif job.status == Status.SAVE_QUEUED:
        job = member_import_save(job=job)
    return job.status  # anything else: carried out already (a worker retried it)


def _claim(job: MemberImport, *, waiting: str, working: str, message: str) -> bool:
    """Take a queued step up, unless another worker has (a task retried)."""
    now = timezone.now()
    claimed = MemberImport.objects.filter(pk=job.pk, status=waiting).update(
        status=working,
        heartbeat=now,
        progress=0,
        rows_done=0,
        message=message,
        worker=f"{socket.gethostname()}:{os.getpid()}"[:64],
    )
    job.refresh_from_db()
    return bool(claimed)


def _mine(job: MemberImport) -> Any:
    """The import as long as this worker holds it: not taken over meanwhile."""
    return MemberImport.objects.filter(pk=job.pk, status=job.status, worker=job.worker)


def _problems_json(problems: list[Problem]) -> list[dict[str, Any]]:
    return [{"line": p.line, "column": p.column or "", "message": p.message} for p in problems]


def _line_json(line: dict[str, Any]) -> dict[str, Any]:
    """A preview line (``member_imports.member_changes``) as the preview keeps it."""
    row = line["row"]
    fields = dict(row.fields)
    born = fields.get("born")
    fields["born"] = born.isoformat() if isinstance(born, dt.date) else None
    return {
        "row": {
            "line": row.line,
            "number": row.number,
            "membership": row.membership,
            "fields": {k: fields.get(k) for k in ("name", "born", "title", "fide_id")},
        },
        "new": line["member"] is None,
        "changes": line["changes"],
        "rating": line["rating"],
        "games": line["games"],
        "standing": line["standing"],
    }


def member_import_read(*, job: MemberImport) -> MemberImport:
    """Read a queued file (the worker): its problems by line, or each line and what it
    changes, kept for the page; nothing saved to the record."""
    if not _claim(job, waiting=Status.QUEUED, working=Status.READING, message="Reading"):
        return job

    def read(done: int, total: int) -> None:
        # Outside any transaction: each word is seen by the page at once.
        _mine(job).update(
            rows_done=done,
            rows_total=total,
            progress=done * 80 // max(total, 1),
            heartbeat=timezone.now(),
            message=f"Read {done:,} of {total:,} rows",
        )

    try:
        with Heartbeat(job, table=MemberImport._meta.db_table, status=Status.READING):
            rows, problems = member_imports.members_check(job.text, progress=read)
            preview: dict[str, Any] = {"problems": _problems_json(problems)}
            if not problems:
                _mine(job).update(progress=85, message="Comparing with the members recorded")
                removals = member_imports.payments_removed(rows)
                # The file's members recorded, read once for the comparison and the
                # duplicates (60,000 members are seconds to read).
                existing = member_imports.members_any_case([r.number for r in rows])
                lines = member_imports.member_changes(rows, removals, existing=existing)
                _mine(job).update(progress=92, message="Looking for possible duplicates")
                duplicates = member_imports.members_file_duplicates(rows, existing=existing)
                # Written in batches, one statement each (the page reads them a page at
                # a time); a read taken over starts afresh, so any earlier ones go first.
                MemberImportLine.objects.filter(member_import=job).delete()
                MemberImportLine.objects.bulk_create(
                    (
                        MemberImportLine(member_import=job, position=n, shown=_line_json(line))
                        for n, line in enumerate(lines)
                    ),
                    batch_size=2000,
                )
                preview |= {
                    "lines": len(lines),
                    "removals": [
                        {"line": r.line, "name": r.name, "subscription": r.subscription.pk}
                        for r in removals
                    ],
                    "duplicates": [str(d) for d in duplicates],
                    "new": sum(1 for line in lines if line["member"] is None),
                    "updated": sum(
                        1 for line in lines if line["member"] is not None and line["changes"]
                    ),
                }
    except Exception:
        log.exception("reading members file %s failed", job.pk)
        _end(job, Status.FAILED, message=FAILED.format(pk=job.pk))
        raise
    # A file with problems cannot be saved: its text goes (the officer corrects and uploads).
    ended = _mine(job).update(
        status=Status.READ,
        progress=100,
        rows_done=len(rows) if not problems else job.rows_total,
        heartbeat=None,
        preview=preview,
        message="Read: check the preview and confirm" if not problems else "Problems found",
        **({"text": "", "finished": timezone.now()} if problems else {}),
    )
    if not ended:
        log.warning("members file %s was taken over while it was read", job.pk)
    job.refresh_from_db()
    return job


def member_import_confirm(
    *, job: MemberImport, user: Any, removal_reason: str = "", listed: str = ""
) -> bool:
    """Queue the save of a read file the officer confirmed; False when it was confirmed
    already (a second click, another officer) or cannot be saved: nothing is done then."""
    if job.preview.get("problems"):
        return False
    with transaction.atomic():
        queued = MemberImport.objects.filter(pk=job.pk, status=Status.READ).update(
            status=Status.SAVE_QUEUED,
            confirmed_by=user if getattr(user, "is_authenticated", False) else None,
            confirmed=timezone.now(),
            removal_reason=removal_reason,
            listed=listed,
            progress=0,
            message="Waiting for the worker to save it",
        )
        if queued:
            _enqueue(job)
    job.refresh_from_db()
    return bool(queued)


class TakenOver(Exception):
    """Another worker took this import over (this one's heartbeat lapsed): roll back."""


def member_import_save(*, job: MemberImport) -> MemberImport:
    """Save a confirmed file (the worker): every member, payment and re-rate in one
    transaction, the import marked saved within it, so that the record and the import
    agree whether the worker lives or dies."""
    if not _claim(job, waiting=Status.SAVE_QUEUED, working=Status.SAVING, message="Saving"):
        return job
    side = progress_connection()
    table = MemberImport._meta.db_table

    def tell(percent: int, words: str) -> None:
        # Through a connection of its own: the save's transaction commits only at its end,
        # and never writes the import's row before then (the two would wait on each other).
        try:
            with side.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {table} SET progress = %s, message = %s, heartbeat = %s "
                    "WHERE id = %s AND status = %s",
                    [
                        percent,
                        words[:500],
                        side.ops.adapt_datetimefield_value(timezone.now()),
                        job.pk,
                        Status.SAVING,
                    ],
                )
        except DatabaseError:  # SQLite: the save holds the one write lock; told later
            log.debug("progress of members file %s not recorded (database busy)", job.pk)

    def saved(report: member_imports.MembersReport) -> None:
        # In the save's own transaction: the import is saved exactly when the record is,
        # and the copy of the members' details in its preview goes with it.
        if not _mine(job).update(
            status=Status.SAVED,
            progress=100,
            message="Saved",
            report=str(report),
            run=report.run,
            text="",
            heartbeat=None,
            finished=timezone.now(),
        ):
            raise TakenOver
        MemberImportLine.objects.filter(member_import=job).delete()

    try:
        with Heartbeat(job, table=table, status=Status.SAVING):
            member_imports.members_import(
                data=job.text,
                user=job.confirmed_by,
                removal_reason=job.removal_reason,
                listed=job.listed,
                progress=tell,
                before_commit=saved,
            )
    except TakenOver:
        log.warning("members file %s was taken over while it was saved: rolled back", job.pk)
    except ImportRefused as refused:
        # The record changed since the preview (another officer): its problems by line.
        _end(job, Status.FAILED, message="Not saved: the record changed since the preview")
        MemberImport.objects.filter(pk=job.pk).update(
            preview={"problems": _problems_json(refused.problems)}
        )
    except Exception:
        log.exception("saving members file %s failed", job.pk)
        _end(job, Status.FAILED, message=FAILED.format(pk=job.pk))
        raise
    finally:
        side.close()
    job.refresh_from_db()
    return job


def _end(job: MemberImport, status: str, *, message: str) -> None:
    """An import that will go no further: its text and lines go, what it says stays."""
    _mine(job).update(
        status=status, message=message, text="", heartbeat=None, finished=timezone.now()
    )
    MemberImportLine.objects.filter(member_import=job).delete()


def member_imports_take_over() -> list[MemberImport]:
    """Queue again each import whose worker died while reading or saving it; those taken.

    Its heartbeat has lapsed. A dead worker's save was rolled back with its connection
    (the import marked saved is part of that transaction), so the step starts afresh. On
    SQLite a live save holds the database's one write lock and no heartbeat gets through;
    the claim below needs that lock too, so it waits for the save or gives up (busy), and
    is tried again at the next heartbeat.
    """
    cutoff = timezone.now() - heartbeat_lapse()
    lapsed = MemberImport.objects.filter(status__in=MemberImport.WORKING).filter(
        Q(heartbeat__lt=cutoff) | Q(heartbeat__isnull=True, started__lt=cutoff)
    )
    back = {Status.READING: Status.QUEUED, Status.SAVING: Status.SAVE_QUEUED}
    taken = []
    for job in list(lapsed.order_by("pk")):
        try:
            with transaction.atomic():
                claimed = lapsed.filter(pk=job.pk, status=job.status).update(
                    status=back[Status(job.status)],
                    heartbeat=None,
                    worker="",
                    progress=0,
                    message=(
                        "Taken over: the worker at it stopped, and nothing it did was "
                        "saved. Waiting for the worker to start it again."
                    ),
                )
                if not claimed:
                    continue
                tasks_running_fail(
                    run_pk=job.pk,
                    task=member_import_in_background,
                    key="import_pk",
                )
                _enqueue(job)
        except OperationalError:
            log.debug("members file %s not taken over yet (database busy)", job.pk)
            continue
        log.warning("members file %s taken over: its worker stopped", job.pk)
        job.refresh_from_db()
        taken.append(job)
    return taken
