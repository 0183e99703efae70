"""The version of everything the public reads: one number, bumped on every change to the
record, its ratings, its publications or the club's settings.

Public pages and the read API are cached whole under a key that carries it
(``clubratings.cache``), so a bump retires every cached copy at once, in every process
(the number lives in the database the processes share, not in their caches).
"""

from __future__ import annotations

from django.db import models


class PublicPagesVersion(models.Model):
    """One row (pk 1): the number and when it last moved (a page's Last-Modified)."""

    number = models.BigIntegerField(default=0)
    changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "public pages' version"

    def __str__(self) -> str:
        return f"public pages' version {self.number}"
