"""Subscriptions, and who is financial and published on a day: the publication rule as
a query (``published_condition``; in words, ``ratings.rules.publication``), read by the
members' queries (``members.MemberQuerySet``) and every public page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Exists, F, Func, OuterRef, Q, Subquery
from django.utils import timezone
from simple_history.models import HistoricalRecords

from . import rules
from .club import Season


def seasons_covering(day: dt.date) -> Any:
    """The seasons covering ``day`` (their pks): a subscription to one of them makes a
    member financial that day. Two days covered by the same seasons have the same
    financial members."""
    return Season.objects.filter(start__lte=day, end__gte=day).values("pk")


class InSeasons(Func):
    """A subscription's season among ``seasons`` (a query of their pks), asked of one
    member's subscriptions at a time (``financial_condition``'s ``each``). PostgreSQL
    reads the seasons once, as an array (``= ANY(ARRAY(...))``): said as ``IN (...)`` it
    joined them again for each member asked, the seasons read and sorted each time (a
    search's counts, 3,281 members found of 200,000: 17.8 -> 13.0 ms). SQLite lists them
    once either way: the same ``IN (...)`` as before."""

    output_field = models.BooleanField()
    template = "%(expressions)s"
    arg_joiner = " IN "

    def __init__(self, seasons: Any) -> None:
        super().__init__(F("season"), Subquery(seasons.order_by()))

    def as_postgresql(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        # The subquery comes in its own parentheses: season = ANY(ARRAY(SELECT ...)).
        return self.as_sql(
            compiler,
            connection,
            arg_joiner=" = ANY(ARRAY",
            template="%(expressions)s)",
            **extra_context,
        )


def financial_condition(day: dt.date | None = None, *, among: Any = None, each: bool = False) -> Q:
    """Financial on ``day`` (default today), as a condition on members: a subscription's
    season covers it.

    The paid-up members are one list the database makes once (``pk IN (...)``): the
    seasons covering the day first (a handful), then their members down the
    (season, member) index, not every subscription ever paid.

    ``among``: the members asked about, where a page asks about a few (a member's page,
    their opponents): their pks or a query of them. The list is then made of their
    subscriptions alone, down the (member, season) index, rather than of every paid-up
    member's (some 17,600 rows hashed at 20,000 members, for one member's answer).

    ``each``: asked of each member in turn, down the (member, season) index, for a query
    that stops at its first published member (whether a region has one), or asks of a
    few (a search's members, a page's rows): the list of every paid-up member is not
    made for it, and the seasons are read once (``InSeasons``).
    """
    seasons = seasons_covering(day or timezone.localdate())
    if each:
        paid_each = Subscription.objects.filter(InSeasons(seasons), member=OuterRef("pk"))
        return Q(Exists(paid_each))
    paid = Subscription.objects.filter(season__in=seasons)
    if among is not None:
        paid = paid.filter(member__in=among)
    return Q(pk__in=paid.values("member_id"))


def published_condition(day: dt.date | None = None, *, among: Any = None, each: bool = False) -> Q:
    """Who is published, as a condition on members: not a guest, not merged, financial on
    ``day`` (``among``, ``each``: as ``financial_condition``'s). Every public page reads
    it through ``MemberQuerySet.published``, ``with_published`` or ``published_pks``.

    Not merged is said as ``NOT (merged_into IS NOT NULL)`` (``MemberQuerySet.in_order``'s
    reason): ``merged_into IS NULL``, true of nearly every member, sent SQLite (which keeps
    no statistics on them) down the merged_into index, a seek in it before each paid-up
    member's own row (the list's count at 60,000 members: 93 ms, 56 without). PostgreSQL
    reads either as ``IS NULL``."""
    return (
        ~Q(merged_into__isnull=False)
        & Q(is_guest=False)
        & financial_condition(day, among=among, each=each)
    )


class Subscription(models.Model):
    member = models.ForeignKey(
        "ratings.Member", on_delete=models.CASCADE, related_name="subscriptions"
    )
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="subscriptions")
    paid_on = models.DateField(default=timezone.localdate)
    amount = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-season__start"]
        constraints = [
            models.UniqueConstraint(fields=["member", "season"], name="one_subscription_a_season"),
            models.CheckConstraint(
                condition=Q(amount__gte=0, amount__lte=rules.MAX_AMOUNT) | Q(amount__isnull=True),
                name="subscription_amount_in_bounds",
                violation_error_message="An amount cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(paid_on__gte=rules.EARLIEST_DATE),
                name="subscription_paid_since_1900",
                violation_error_message=f"A payment is dated {rules.EARLIEST_DATE.year} or later.",
            ),
        ]
        #: A season's members in one index: the published list reads who has paid for
        #: today's season without touching the subscriptions themselves.
        indexes = [models.Index(fields=["season", "member"], name="subscription_season_member")]

    def __str__(self) -> str:
        return f"{self.member} — {self.season}"

    def clean(self) -> None:
        errors = {}
        if problem := rules.paid_on_problem(self.paid_on):
            errors["paid_on"] = problem
        if problem := rules.amount_problem(self.amount):
            errors["amount"] = problem
        if errors:
            raise ValidationError(errors)
