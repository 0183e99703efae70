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


class PublicPagesWithdrawal(models.Model):
    """One row (pk 1): how many writes have withdrawn something from the public (an
    erasure, a member kept off or unpublished, a payment or result removed) and when the
    last did. Part of every cached page's key with the version: a withdrawal retires every
    page, and a page's previous copy (served while its new version renders,
    ``clubratings.cache``) is served only under the same count, so no reader is handed a
    copy that shows what was just withdrawn.

    A row of its own, not the version's: a long re-rate holds the version's row to its
    end, and a withdrawal must not wait for it, nor go unseen until it ends."""

    number = models.BigIntegerField(default=0)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "public pages' withdrawal"

    def __str__(self) -> str:
        return f"public pages' withdrawal {self.number}"


class PublishedListFigures(models.Model):
    """One row (pk 1): the published lists' figures, kept exact by every write that moves
    them (``services.list_figures``), so that the list's readers need not count every
    published member (some 200 ms at 200,000 members).

    ``figures``: ``{"day": "YYYY-MM-DD", "lists": {time_class: [members listed, of them
    with a usable rating]}, "regions": [regions with a published member], "seasons":
    [the seasons covering that day]}``, true on that day and on any other the same
    seasons cover (a season's start or end changes who is financial). Null when a write
    could not follow them: the list's readers count until they are kept again.
    """

    figures = models.JSONField(null=True, blank=True)
    #: One more at every write of ``figures``: the worker writes the standings without
    #: the row's lock, then marks them holding only if no write came meanwhile.
    generation = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = "published lists' figures"
        verbose_name_plural = "published lists' figures"

    def __str__(self) -> str:
        return "published lists' figures"
