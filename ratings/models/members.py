"""Members and their subscriptions: who is rated, and who is published."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Exists, OuterRef
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords

from ..engine.codec import TITLES
from ..names import name_problem
from .club import Season


class MemberQuerySet(models.QuerySet["Member"]):
    def active(self) -> MemberQuerySet:
        return self.filter(merged_into__isnull=True)

    def listable(self) -> MemberQuerySet:
        """Members with a rating to list: not a new player yet to play who brought none in
        (their state holds only the system's starting figure, nz's 1500)."""
        return self.filter(rating_state__isnull=False).exclude(
            rating_state__last_event__isnull=True,
            rating_state__games=0,
            initial_rating__isnull=True,
        )

    def with_financial(self, day: dt.date | None = None) -> MemberQuerySet:
        """Annotate ``is_financial``: a subscription covers ``day`` (default today)."""
        day = day or timezone.localdate()
        paid = Subscription.objects.filter(
            member=OuterRef("pk"), season__start__lte=day, season__end__gte=day
        )
        return self.annotate(is_financial=Exists(paid))

    def published(self, day: dt.date | None = None) -> MemberQuerySet:
        """Members whose rating the public may see: financial, not guests, not merged.

        The paid-up members are one list the database makes once (``pk IN (...)``), not a
        lookup per member: the list's deep pages read every member.
        """
        day = day or timezone.localdate()
        # The seasons covering the day first (a handful), then their members down the
        # (season, member) index: not every subscription ever paid, each with its season.
        seasons = Season.objects.filter(start__lte=day, end__gte=day).values("pk")
        paid = Subscription.objects.filter(season__in=seasons)
        return (
            self.active()
            .filter(is_guest=False, pk__in=paid.values("member_id"))
            .annotate(is_financial=models.Value(True, output_field=models.BooleanField()))
        )


#: The highest initial rating a member may be given. No system here rates anywhere near it
#: (FIDE's highest ever is 2882; club scales run lower), so a bigger number is a typo
#: (15000 for 1500), not a player.
#: No member was born, and no event was played, before this: an earlier date is a typing slip.
EARLIEST_DATE = dt.date(1900, 1, 1)

MAX_INITIAL_RATING = 3500


class Member(models.Model):
    class Gender(models.TextChoices):
        MALE = "M", "Male"
        FEMALE = "F", "Female"

    member_number = models.CharField(
        max_length=32,
        unique=True,
        validators=[RegexValidator(r"^[\w.-]+$", "Letters, digits, '.', '-' or '_' only.")],
        help_text="The club's own id for the member (the 'id' column of imports).",
    )
    name = models.CharField(max_length=120, db_index=True)
    born = models.DateField("date of birth", null=True, blank=True)
    gender = models.CharField(max_length=1, choices=Gender.choices, blank=True)
    region = models.CharField("region / state", max_length=40, blank=True, db_index=True)
    title = models.CharField(
        "FIDE title", max_length=3, blank=True, choices=[(t, t) for t in TITLES]
    )
    fide_id = models.CharField(
        "FIDE id",
        max_length=12,
        blank=True,
        validators=[RegexValidator(r"^\d+$", "A FIDE id is digits only.")],
    )
    is_guest = models.BooleanField(
        "guest",
        default=False,
        help_text="Guests play in events but are not members: they never get a published rating.",
    )
    initial_rating = models.FloatField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(0, "A rating cannot be below 0."),
            MaxValueValidator(
                MAX_INITIAL_RATING,
                f"A rating is at most {MAX_INITIAL_RATING}.",
            ),
        ],
        help_text="The member's rating before their first event here (blank: a new player).",
    )
    initial_games = models.PositiveIntegerField(
        default=0,
        validators=[MinValueValidator(0, "Games played cannot be below 0.")],
        help_text="Rated games played before the first event here.",
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_from",
        help_text="Set when this record was merged into another (a duplicate).",
    )
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    objects = MemberQuerySet.as_manager()

    class Meta:
        ordering = ["name", "member_number"]
        constraints = [
            # Numbers are typed in any case (results, pasted rounds): A1 and a1 are one.
            models.UniqueConstraint(
                Lower("member_number"),
                name="member_number_unique_any_case",
                violation_error_message="Another member has this number.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:member", args=[self.member_number])

    def clean(self) -> None:
        problem = name_problem(self.name)
        if problem:
            raise ValidationError({"name": problem})
        # A birth date decides the junior lists and ecf-2020's junior rules.
        if self.born is not None and self.born > timezone.localdate():
            raise ValidationError({"born": "A date of birth cannot be in the future."})
        if self.born is not None and self.born < EARLIEST_DATE:
            raise ValidationError(
                {"born": f"A date of birth before {EARLIEST_DATE.year} is surely a slip."}
            )

    def namesakes(self) -> list[str]:
        """The numbers of the other current members with this name, in any case."""
        others = Member.objects.active().filter(name__iexact=self.name).exclude(pk=self.pk)
        return list(others.values_list("member_number", flat=True))

    def is_financial_on(self, day: dt.date | None = None) -> bool:
        day = day or timezone.localdate()
        return self.subscriptions.filter(season__start__lte=day, season__end__gte=day).exists()

    @property
    def engine_id(self) -> str:
        return str(self.pk)

    def age_on(self, day: dt.date) -> int | None:
        if self.born is None:
            return None
        years = day.year - self.born.year
        if (day.month, day.day) < (self.born.month, self.born.day):
            years -= 1
        return years


class Subscription(models.Model):
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="subscriptions")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="subscriptions")
    paid_on = models.DateField(default=timezone.localdate)
    amount = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-season__start"]
        constraints = [
            models.UniqueConstraint(fields=["member", "season"], name="one_subscription_a_season")
        ]
        #: A season's members in one index: the published list reads who has paid for
        #: today's season without touching the subscriptions themselves.
        indexes = [models.Index(fields=["season", "member"], name="subscription_season_member")]

    def __str__(self) -> str:
        return f"{self.member} — {self.season}"
