"""The treasurer's forms: a season's renewals at once, a payment taken back with a reason."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone

from ..models import ClubSettings, Member, Season, Subscription, rules
from .members import DATE, season_chosen, season_options

REASON = forms.CharField(
    label="Reason",
    max_length=100,
    required=False,
    validators=[rules.validate_text],
    help_text="Kept in the audit trail (e.g. “recorded against the wrong member”, “refunded”).",
)


class SeasonPickForm(forms.Form):
    """Which season the renewals page is for (a GET form: the page lists who has not paid)."""

    season = forms.ChoiceField(label="Season")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices, current = season_options()
        cast(forms.ChoiceField, self.fields["season"]).choices = choices
        self.fields["season"].initial = current

    def value(self) -> str:
        """The season picked (today's when none or an unknown one is asked for)."""
        value = self.cleaned_data["season"] if self.is_bound and self.is_valid() else None
        return str(value or self.fields["season"].initial)

    def chosen_season(self) -> Season:
        """The season picked: a recorded one, or an unsaved one by the club's season rule
        (nothing is saved before the officer records a payment)."""
        return season_from_value(self.value())


def season_from_value(value: str) -> Season:
    if value.startswith("new:"):
        start = dt.date.fromisoformat(value.removeprefix("new:"))
        name, first, last = ClubSettings.load().season_for(start)
        return Season(name=name, start=first, end=last)
    return Season.objects.get(pk=int(value))


class RenewForm(forms.Form):
    """Many members' payment for one season at once: the start of a season."""

    season = forms.ChoiceField(label="Season", widget=forms.HiddenInput)
    paid_on = forms.DateField(label="Paid on", widget=DATE, initial=timezone.localdate)
    amount = forms.DecimalField(
        label="Amount each", max_digits=8, decimal_places=2, required=False
    )
    members = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Tick the members who have paid."},
    )

    def __init__(self, *args: Any, candidates: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices, current = season_options()
        cast(forms.ChoiceField, self.fields["season"]).choices = choices
        self.fields["season"].initial = current
        cast(forms.ModelMultipleChoiceField, self.fields["members"]).queryset = candidates

    def clean_paid_on(self) -> dt.date:
        day: dt.date = self.cleaned_data["paid_on"]
        if problem := rules.paid_on_problem(day):
            raise ValidationError(problem)
        return day

    def clean_amount(self) -> Decimal | None:
        amount: Decimal | None = self.cleaned_data["amount"]
        if problem := rules.amount_problem(amount):
            raise ValidationError(problem)
        return amount

    def chosen_season(self) -> Season:
        value = self.cleaned_data["season"]
        new_start = dt.date.fromisoformat(value[4:]) if value.startswith("new:") else None
        season = None if new_start else Season.objects.get(pk=int(value))
        return season_chosen(season, new_start)


class SubscriptionRemoveForm(forms.Form):
    """Taking back a payment (recorded in error, refunded): the reason goes to the audit."""

    reason = REASON

    def __init__(self, *args: Any, subscription: Subscription, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.subscription = subscription

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not Subscription.objects.filter(pk=self.subscription.pk).exists():
            raise ValidationError("This payment has already been removed.")
        return data
