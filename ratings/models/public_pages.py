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
    #: The published lists' sizes at this number, as the rating run that moved it counted
    #: them (``services.public_pages.list_figures_keep``): ``{"day": "YYYY-MM-DD", "lists":
    #: {time_class: [members listed, of them with a usable rating]}}``. Null once anything
    #: else moves the number: the list's pages then count it themselves. Counting reads
    #: every published member (some 200 ms at 200,000); the first reader after a run
    #: need not.
    list_figures = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = "public pages' version"

    def __str__(self) -> str:
        return f"public pages' version {self.number}"
