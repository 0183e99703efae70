"""A member's entry on FIDE's rating list, as the club last read it: FIDE's standard,
rapid and blitz ratings, title and federation, each rating with the month of the list it
came from. Read from FIDE's own file (``services.fide_lists``), never typed: a member is
linked by their FIDE id, and nothing here is rated by the club's system."""

from __future__ import annotations

import datetime as dt

from django.db import models

from .members import Member

#: The time controls of FIDE's lists, as the club's lists name them.
FIDE_KINDS = ("standard", "rapid", "blitz")


class FideRating(models.Model):
    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="fide_rating")
    #: The id the list gave (the member's, when read).
    fide_id = models.CharField("FIDE id", max_length=12)
    #: The name as FIDE writes it ("Surname, Given"), so the officer sees whom it linked.
    name = models.CharField(max_length=120, blank=True)
    federation = models.CharField(max_length=3, blank=True)
    title = models.CharField("FIDE title", max_length=3, blank=True)
    women_title = models.CharField("FIDE women's title", max_length=3, blank=True)
    born = models.PositiveSmallIntegerField("year of birth", null=True, blank=True)
    inactive = models.BooleanField(default=False)
    standard = models.PositiveSmallIntegerField(null=True, blank=True)
    standard_month = models.DateField(null=True, blank=True)
    rapid = models.PositiveSmallIntegerField(null=True, blank=True)
    rapid_month = models.DateField(null=True, blank=True)
    blitz = models.PositiveSmallIntegerField(null=True, blank=True)
    blitz_month = models.DateField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "FIDE rating"

    def __str__(self) -> str:
        return f"{self.member} (FIDE {self.fide_id})"

    def rating(self, kind: str) -> int | None:
        value: int | None = getattr(self, kind)
        return value

    def month(self, kind: str) -> dt.date | None:
        value: dt.date | None = getattr(self, f"{kind}_month")
        return value

    def is_of(self, fide_id: str) -> bool:
        """Whether this row was read for ``fide_id`` (a member's, now): a member whose FIDE
        id was corrected since keeps the row read for the old one until the next list,
        and what it says is someone else's. Compared without leading zeros, as read."""
        return bool(fide_id.strip()) and self.fide_id.lstrip("0") == fide_id.strip().lstrip("0")

    @property
    def shown_title(self) -> str:
        """The title FIDE gives, an open one before a women's one."""
        return self.title or self.women_title
