"""A merge of two members' records, kept so that it can be undone."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .members import Member


class MemberMerge(models.Model):
    """One duplicate merged into the record kept, and what the merge moved: what undoing
    it puts back (``services.member_merge_undo``). ``moved`` holds the ids: games where
    the duplicate was white or black, entries and subscriptions moved, those dropped
    because the record kept had one already (their fields, to be made again), earlier
    duplicates that pointed at this one, and the record kept's blanks the merge filled
    (with what they held before)."""

    kept = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="merges_kept")
    removed = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="merges_removed")
    moved = models.JSONField(default=dict)
    merged_at = models.DateTimeField(auto_now_add=True)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-merged_at", "-pk"]

    def __str__(self) -> str:
        return (
            f"{self.removed.name} ({self.removed.member_number}) merged into "
            f"{self.kept.name} ({self.kept.member_number})"
        )
