"""A members file too long to read or save within a page: kept in the database (so a
backup carries it and no media storage is needed) while the worker reads it, the officer
confirms it and the worker saves it (``services.member_import_jobs``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from .rating import RatingRun, heartbeat_lapse


class MemberImport(models.Model):
    """One members file on its way in: read, previewed, confirmed and saved by the worker."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the worker to read it"
        READING = "reading", "Reading the file"
        READ = "read", "Read"
        SAVE_QUEUED = "save-queued", "Waiting for the worker to save it"
        SAVING = "saving", "Saving"
        SAVED = "saved", "Saved"
        FAILED = "failed", "Not saved"

    #: The worker is at it (a heartbeat is written meanwhile).
    WORKING = (Status.READING, Status.SAVING)
    #: Waiting for, or with, the worker: the page follows it.
    UNDER_WAY = (Status.QUEUED, Status.READING, Status.SAVE_QUEUED, Status.SAVING)

    started = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    filename = models.CharField(max_length=255)
    #: How the file was read when not UTF-8 (Windows-1252): said on the preview.
    notice = models.TextField(blank=True)
    #: The file as read. Emptied once it is saved or refused: the members' details then
    #: live on their records, where erasing a member erases them.
    text = models.TextField(blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    rows_total = models.PositiveIntegerField(default=0)
    rows_done = models.PositiveIntegerField(default=0)
    #: Per cent of the step under way (reading, or saving) done.
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=64, blank=True)
    #: What the preview shows but its lines (``MemberImportLine``): problems, payments taken
    #: back, possible duplicates, the counts (services.member_import_jobs for the shape).
    preview = models.JSONField(default=dict, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed = models.DateTimeField(null=True, blank=True)
    removal_reason = models.TextField(blank=True)
    #: The payments the confirmed preview listed (their ids, as the confirm form carries them).
    listed = models.TextField(blank=True)
    #: What was saved, in the words the page shows.
    report = models.TextField(blank=True)
    run = models.ForeignKey(
        RatingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started", "-pk"]
        indexes = [models.Index(fields=["status", "heartbeat"], name="member_import_working")]

    def __str__(self) -> str:
        return f"{self.filename} ({self.get_status_display().lower()})"

    @property
    def under_way(self) -> bool:
        return self.status in self.UNDER_WAY

    @property
    def quiet(self) -> bool:
        """The worker at it has given no sign for the heartbeat's lapse: stopped, or (on
        SQLite) holding the database's one write lock while it saves."""
        if self.status not in self.WORKING:
            return False
        return timezone.now() - (self.heartbeat or self.started) > heartbeat_lapse()


class MemberImportLine(models.Model):
    """One line of a long file's preview, as the page shows it (a page of them at a time:
    the whole preview of 60,000 lines would be megabytes to read for each page)."""

    member_import = models.ForeignKey(MemberImport, on_delete=models.CASCADE, related_name="lines")
    #: Its place in the preview (the file's order).
    position = models.PositiveIntegerField()
    #: The line, what it changes, its rating brought in (services.member_import_jobs).
    shown = models.JSONField()

    class Meta:
        ordering = ["member_import", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["member_import", "position"], name="member_import_line_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.member_import_id}: {self.position}"
