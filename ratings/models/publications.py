"""Publications: the published list frozen as it stood on a date, kept for good.

A publication is one row (its date, note, who published it) and one ``PublicationEntry``
a member on the list, written in bulk. Later corrections change the live ratings
(``RatingState``), never a publication: it is what the club said on that date.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from ..rules.places_of_play import LIST_CHOICES, LIST_KEY_LENGTH
from ..rules.time_classes import STANDARD
from . import rules
from .club import SYSTEM_CHOICES
from .events import RatingPeriod
from .members import Member


class Publication(models.Model):
    """The published list as it stood when the officer published it."""

    #: The list's date and its address: "2026-03-01", or "2026-03-01-2" for a second
    #: publication on one day.
    slug = models.SlugField(max_length=32, unique=True)
    day = models.DateField(db_index=True)
    published_at = models.DateTimeField(default=timezone.now)
    note = models.TextField(blank=True, validators=[rules.validate_lines])
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    #: The rating system the figures are in, and what the list was based on ("after
    #: Club night, 3 Mar 2026", "rating period 2026-1 ...") when it was published.
    system = models.CharField(max_length=20, choices=SYSTEM_CHOICES)
    #: The list published (``rules/rating_lists.py``): standard, or rapid or blitz on their own.
    time_class = models.CharField(
        max_length=LIST_KEY_LENGTH, choices=LIST_CHOICES, default=STANDARD
    )
    basis = models.CharField(max_length=200, blank=True, validators=[rules.validate_text])
    #: The system's parameters the figures were rated with (None: published before they
    #: were kept), so the changes between two lists can say the settings changed.
    params = models.JSONField(null=True, blank=True)
    period = models.ForeignKey(RatingPeriod, null=True, blank=True, on_delete=models.SET_NULL)
    #: How many members it lists, kept so the index reads no entries.
    size = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-published_at", "-pk"]

    def __str__(self) -> str:
        kind = "List" if self.time_class == STANDARD else f"{self.get_time_class_display()} list"
        # "2026-03-01-2", "2026-03-01-rapid-2": the second of its list that day.
        second = self.slug.removeprefix(self.day.isoformat()).removeprefix(f"-{self.time_class}")
        return f"{kind} of {self.day:%-d %b %Y}" + (f" ({second[1:]})" if second else "")

    def get_absolute_url(self) -> str:
        return reverse("ratings:publication", args=[self.slug])

    def previous(self) -> Publication | None:
        return (
            Publication.objects.filter(
                time_class=self.time_class, published_at__lt=self.published_at
            )
            .order_by("-published_at", "-pk")
            .first()
        )

    def following(self) -> Publication | None:
        return (
            Publication.objects.filter(
                time_class=self.time_class, published_at__gt=self.published_at
            )
            .order_by("published_at", "pk")
            .first()
        )


class PublicationEntry(models.Model):
    """One member on a publication: their rating, mark, games and place as published."""

    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="entries")
    # A published list is a record: a member on one is kept (merged, never deleted).
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="publication_entries", db_index=False
    )
    #: The list's order as published (1 = top): pages read it down the index.
    position = models.PositiveIntegerField()
    #: The place on the list (ties share it); none for a mark that is not ranked ("Unr").
    rank = models.PositiveIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True)
    display = models.CharField(max_length=12, blank=True)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["publication_id", "position"]
        verbose_name_plural = "publication entries"
        constraints = [
            models.UniqueConstraint(
                fields=["publication", "member"], name="one_entry_a_member_a_publication"
            ),
        ]
        indexes = [
            models.Index(fields=["publication", "position"], name="publication_entry_order"),
            models.Index(fields=["member", "publication"], name="publication_entry_member"),
        ]

    def __str__(self) -> str:
        return f"{self.member_id} on {self.publication_id}: {self.display}"
