"""Forms for members and their subscriptions (the club's member numbering: ``models``)."""

from __future__ import annotations

import datetime as dt
from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from ..models import (
    ClubSettings,
    Member,
    Season,
    Subscription,
    next_member_number,
    number_taken,
)

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

# -- members ----------------------------------------------------------------------------


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = [
            "name",
            "member_number",
            "is_guest",
            "born",
            "gender",
            "region",
            "title",
            "fide_id",
            "initial_rating",
            "initial_games",
        ]
        widgets = {"born": DATE}
        error_messages = {"initial_games": {"min_value": "Games played cannot be below 0."}}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["initial_rating"].help_text = initial_rating_help()

    def clean_member_number(self) -> str:
        number = self.cleaned_data["member_number"]
        if number_taken(number, besides=self.instance):
            raise ValidationError("Another member has this number.")
        return number


def initial_rating_help() -> str:
    """The initial rating's help text, saying when the club's system ignores it for guests."""
    text = str(Member._meta.get_field("initial_rating").help_text)
    system = ClubSettings.load().engine()
    guest = system.params.get("guest_rating")
    if guest is None:
        return text
    return (
        f"{text} Under the club's system ({system.title}) guests are rated at a fixed "
        f"{float(guest):g} whatever this says."
    )


class QuickMemberForm(forms.ModelForm):
    """A guest or a new member added from inside an event, on the spot."""

    member_number = forms.CharField(
        max_length=32,
        required=False,
        help_text="Leave blank to have one given (G… for a guest, N… for a member).",
    )

    class Meta:
        model = Member
        fields = ["name", "member_number", "is_guest", "initial_rating"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["initial_rating"].help_text = initial_rating_help()

    def clean_member_number(self) -> str:
        number = self.cleaned_data["member_number"].strip()
        if number and number_taken(number):
            raise ValidationError("Another member has this number.")
        return number

    def save(self, commit: bool = True) -> Member:
        member = super().save(commit=False)
        if not member.member_number:
            member.member_number = next_member_number("G" if member.is_guest else "N")
        if commit:
            member.save()
        return member


class SubscriptionForm(forms.ModelForm):
    """A payment for a season: any recorded season, or this season or the next one before
    they are recorded (saving creates it by the club's season rule, ``Season.for_day``)."""

    season = forms.ChoiceField(label="Season")
    field_order = ["season", "paid_on", "amount"]

    class Meta:
        model = Subscription
        fields = ["paid_on", "amount"]
        widgets = {"paid_on": DATE}

    def __init__(self, *args, member: Member, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.member = member
        self.new_season: dt.date | None = None
        today = timezone.localdate()
        club = ClubSettings.load()
        this = club.season_for(today)
        following = club.season_for(this[2] + dt.timedelta(days=1))
        seasons = list(Season.objects.all())
        choices = [(s.start, str(s.pk), s.name) for s in seasons]
        for name, start, _end in (this, following):
            if not any(s.start <= start <= s.end or s.name == name for s in seasons):
                choices.append((start, f"new:{start.isoformat()}", f"{name} (new season)"))
        choices.sort(key=lambda c: c[0], reverse=True)
        cast(forms.ChoiceField, self.fields["season"]).choices = [
            (value, label) for _, value, label in choices
        ]
        initial = self.initial.get("season")
        if isinstance(initial, Season):
            self.initial["season"] = str(initial.pk)
        elif initial is None:
            current = next((s for s in seasons if s.start <= today <= s.end), None)
            self.initial["season"] = str(current.pk) if current else f"new:{this[1].isoformat()}"

    def clean_season(self) -> Season | None:
        value = self.cleaned_data["season"]
        if value.startswith("new:"):
            self.new_season = dt.date.fromisoformat(value.removeprefix("new:"))
            return None
        season = Season.objects.get(pk=int(value))
        if Subscription.objects.filter(member=self.member, season=season).exists():
            raise ValidationError(f"{self.member} has already paid for {season}.")
        return season

    def save(self, commit: bool = True) -> Subscription:
        self.instance.member = self.member
        season = self.cleaned_data["season"]
        if season is None and self.new_season is not None:
            season = Season.for_day(self.new_season)
        self.instance.season = season
        return super().save(commit)
