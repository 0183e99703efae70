"""The comparison of rating systems on the club's own history (issue 19): its runs and
what each system made of each member.

Nothing here is the club's ratings: a comparison is worked out beside them and never
touches ``RatingChange`` or ``RatingState``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


class Comparison(models.Model):
    """One run of every system over the whole history, in the background."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    started = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    #: The club's system when the comparison was started: the one ranks move against.
    club_system = models.CharField(max_length=20)
    #: Every system's parameters as run: {system id: {name: value}} (overrides only).
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)
    events = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    #: The measures and what changes: see services/compare.py for the shape.
    results = models.JSONField(default=dict, blank=True)
    published = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started", "-pk"]

    def __str__(self) -> str:
        return f"Comparison of {self.started:%Y-%m-%d %H:%M}"

    STALLED_AFTER = dt.timedelta(minutes=1)
    DEAD_AFTER = dt.timedelta(minutes=3)

    @property
    def finished_ok(self) -> bool:
        return self.status == self.Status.DONE

    @property
    def stalled(self) -> bool:
        """Queued for a minute and no worker has taken it: none is running."""
        return (
            self.status == self.Status.QUEUED
            and timezone.now() - self.started > self.STALLED_AFTER
        )

    @property
    def dead(self) -> bool:
        """Running, but its worker has given no sign of life for a while (killed)."""
        if self.status != self.Status.RUNNING:
            return False
        return timezone.now() - (self.heartbeat or self.started) > self.DEAD_AFTER


class ComparisonRating(models.Model):
    """A member's rating at the end of the history under one system of a comparison,
    with their rank (among the members published when it ran) and their rating over time."""

    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="ratings")
    member = models.ForeignKey("ratings.Member", on_delete=models.CASCADE, related_name="+")
    system = models.CharField(max_length=20)
    rating = models.FloatField(null=True, blank=True)
    display = models.CharField(max_length=12, blank=True)
    rank = models.PositiveIntegerField(null=True, blank=True)
    #: [[day ordinal, rating], ...]: the rating at the end of each month played (thinned)
    history: Any = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["comparison", "system", "member"], name="comparison_rating_once"
            )
        ]
        indexes = [models.Index(fields=["comparison", "system", "rank"], name="comparison_rank")]

    def __str__(self) -> str:
        return f"{self.member_id} under {self.system}: {self.display}"
