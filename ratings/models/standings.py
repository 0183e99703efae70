"""Each published member's standing on a rating list, kept: their place on the whole
published list, the list's sortable figures and what its filters ask, one narrow row a
member a list.

The whole list sorted by name, games, region, last change or last played is a read down
one of this table's (list, column) indexes, and a list filtered by region, age group or
women (``pages.lists.FilteredStandings``) a read of the filter's range of another: the
page's fifty rows and their places, not every published member sorted and ranked (six
million SQLite instructions at 60,000 members). They are kept with the list's figures
(``services.list_figures``): the worker keeps them again (writing only the rows that
moved, then the places by one UPDATE over a window of the table, without holding the
figures' row, marked holding only if no write came meanwhile) when a rating run has
left them not holding; a member's write writes that member's rows again, and the places
below theirs where theirs moved. On PostgreSQL the table's pages are kept half full
(migration 0049), so that a place set again is written beside its row, not into the
indexes. They are read only while the figures they were kept with hold and say so
(``PublishedListFigures``, its ``standings``).
"""

from __future__ import annotations

from django.db import models

from .members import Member


class ListStanding(models.Model):
    """A published member on one rating list (``time_class``), as the list shows them."""

    time_class = models.CharField(max_length=16)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    #: The place on the whole published list (one more than the usable ratings above);
    #: None without a usable rating.
    place = models.PositiveIntegerField(null=True, blank=True)
    #: The list's sort keys, as ``listing.with_ratings`` annotates them.
    unrated = models.PositiveSmallIntegerField()
    rating_value = models.FloatField()
    name = models.CharField(max_length=120)
    games = models.PositiveIntegerField(default=0)
    region = models.CharField(max_length=40, blank=True)
    last_change = models.FloatField(null=True, blank=True)
    last_played = models.DateField(null=True, blank=True)
    #: What the list's filters ask besides the region: the member's date of birth (an
    #: age group is "born after 1 January, N years before this year's", decided on the
    #: day of reading, so a kept date stays right as the years turn) and gender.
    born = models.DateField(null=True, blank=True)
    gender = models.CharField(max_length=1, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["time_class", "member"], name="list_standing_one_a_member"
            )
        ]
        indexes = [
            models.Index(fields=["time_class", "unrated", "rating_value"], name="standing_rating"),
            # The whole list in its own order (usable ratings first, strongest first, then
            # by name), read forward; and backward for its last pages or "#" reversed:
            # mixed directions down ``standing_rating`` sorted every listed member (600 ms
            # at 170,000 on SQLite).
            models.Index(
                fields=["time_class", "unrated", "-rating_value", "name", "member"],
                name="standing_list_order",
            ),
            models.Index(fields=["time_class", "name", "member"], name="standing_name"),
            models.Index(fields=["time_class", "games", "member"], name="standing_games"),
            models.Index(fields=["time_class", "region", "member"], name="standing_region"),
            models.Index(
                fields=["time_class", "last_change", "member"], name="standing_last_change"
            ),
            models.Index(
                fields=["time_class", "last_played", "member"], name="standing_last_played"
            ),
            # A region's or the women's page in the list's own order (the usable ratings
            # first, strongest first, then by name) is a range of these, read in order:
            # its first page reads its fifty rows, its count the range alone.
            models.Index(
                fields=["time_class", "region", "unrated", "-rating_value", "name", "member"],
                name="standing_region_rating",
            ),
            models.Index(
                fields=["time_class", "gender", "unrated", "-rating_value", "name", "member"],
                name="standing_gender_rating",
            ),
            # An age group is a range of birth dates: read (and counted) alone, then sorted.
            models.Index(fields=["time_class", "born"], name="standing_born"),
        ]

    def __str__(self) -> str:
        return f"{self.member_id} on {self.time_class}: {self.place}"
