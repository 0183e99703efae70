"""The published list's search and filters (django-filter)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import django_filters
from django.db.models import QuerySet
from django.utils import timezone

from ..models import Member, MemberQuerySet, PublicationEntry, name_search
from ..models.listing import AGE_GROUPS, born_after_for

AGE_CHOICES = [(group, f"Under {limit}") for group, limit in AGE_GROUPS.items()]


class RatingListFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(method="filter_name", label="Name")
    age = django_filters.ChoiceFilter(
        choices=AGE_CHOICES, method="filter_age", label="Juniors", empty_label="Any age"
    )
    women = django_filters.BooleanFilter(
        method="filter_women",
        label="Women only",
        widget=django_filters.widgets.forms.CheckboxInput,
    )
    region = django_filters.ChoiceFilter(label="Region", empty_label="Any region")
    active = django_filters.BooleanFilter(
        method="filter_active",
        label="Played in the last 12 months",
        widget=django_filters.widgets.forms.CheckboxInput,
    )

    class Meta:
        model = Member
        fields: list[str] = []

    def __init__(self, *args: Any, regions: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["region"].extra["choices"] = [(r, r) for r in regions or []]

    def filter_name(self, queryset: QuerySet[Member], name: str, value: str) -> QuerySet[Member]:
        # Every word must match somewhere: "ali arch" finds Alice Archer.
        return queryset.filter(name_search(value))

    def filter_age(self, queryset: QuerySet[Member], name: str, value: str) -> QuerySet[Member]:
        return queryset.filter(born__gt=born_after_for(value))

    def filter_women(self, queryset: QuerySet[Member], name: str, value: bool) -> QuerySet[Member]:
        return queryset.filter(gender=Member.Gender.FEMALE) if value else queryset

    def filter_active(self, queryset: MemberQuerySet, name: str, value: bool) -> QuerySet[Member]:
        if not value:
            return queryset
        since = timezone.localdate() - dt.timedelta(days=365)
        return queryset.with_state().filter(rating_state__last_played__gte=since)  # type: ignore[misc]  # with_state's FilteredRelation


class PublicationFilter(django_filters.FilterSet):
    """The published list's filters over a publication's entries: the same fields, each
    read as of the publication's date (juniors by its year, activity before it)."""

    name = django_filters.CharFilter(method="filter_name", label="Name")
    age = django_filters.ChoiceFilter(
        choices=AGE_CHOICES, method="filter_age", label="Juniors", empty_label="Any age"
    )
    women = django_filters.BooleanFilter(
        method="filter_women",
        label="Women only",
        widget=django_filters.widgets.forms.CheckboxInput,
    )
    region = django_filters.ChoiceFilter(
        field_name="member__region", label="Region", empty_label="Any region"
    )
    active = django_filters.BooleanFilter(
        method="filter_active",
        label="Played in the 12 months before",
        widget=django_filters.widgets.forms.CheckboxInput,
    )

    class Meta:
        model = PublicationEntry
        fields: list[str] = []

    def __init__(
        self, *args: Any, day: dt.date, regions: list[str] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.day = day
        self.filters["region"].extra["choices"] = [(r, r) for r in regions or []]

    def filter_name(
        self, queryset: QuerySet[PublicationEntry], name: str, value: str
    ) -> QuerySet[PublicationEntry]:
        return queryset.filter(name_search(value, through="member__"))

    def filter_age(
        self, queryset: QuerySet[PublicationEntry], name: str, value: str
    ) -> QuerySet[PublicationEntry]:
        return queryset.filter(member__born__gt=born_after_for(value, self.day))

    def filter_women(
        self, queryset: QuerySet[PublicationEntry], name: str, value: bool
    ) -> QuerySet[PublicationEntry]:
        return queryset.filter(member__gender=Member.Gender.FEMALE) if value else queryset

    def filter_active(
        self, queryset: QuerySet[PublicationEntry], name: str, value: bool
    ) -> QuerySet[PublicationEntry]:
        if not value:
            return queryset
        return queryset.filter(last_played__gte=self.day - dt.timedelta(days=365))
