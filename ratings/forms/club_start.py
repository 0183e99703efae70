"""The first-run page: the club (name, rating system, season, time zone) and its
administrator."""

from __future__ import annotations

import calendar
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from ..models import SYSTEM_CHOICES, ClubSettings
from ..models.club import time_zones
from ..rules.names import name_problem

MONTHS = [(number, calendar.month_name[number]) for number in range(1, 13)]


class ClubStartForm(forms.Form):
    name = forms.CharField(
        label="Club name",
        max_length=ClubSettings._meta.get_field("name").max_length,
        help_text="As members will read it at the top of every page.",
    )
    rating_system = forms.ChoiceField(
        label="Rating system",
        choices=SYSTEM_CHOICES,
        help_text="You can change it later, as the club's administrator, on the club settings "
        "page (everything is then re-rated).",
    )
    season_start_month = forms.TypedChoiceField(
        label="Season starts in",
        choices=MONTHS,
        coerce=int,
        initial=1,
        help_text="The month a subscription season starts: a member is financial for the "
        "season they paid.",
    )
    time_zone = forms.ChoiceField(
        label="Time zone",
        help_text="Decides when a day, and a season, begins for the club.",
    )
    username = forms.CharField(
        label="Your username",
        max_length=150,
        validators=[User.username_validator],
        help_text="Your login as the club's administrator (and ratings officer): letters, "
        "digits and @ . + - _ only.",
    )
    email = forms.EmailField(label="Your email (optional)", required=False)
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone_field = self.fields["time_zone"]
        assert isinstance(zone_field, forms.ChoiceField)
        zone_field.choices = [(zone, zone.replace("_", " ")) for zone in time_zones()]
        zone_field.initial = settings.TIME_ZONE
        self.fields["username"].widget.attrs["autocomplete"] = "username"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        problem = name_problem(name)
        if problem:
            raise ValidationError(problem)
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords differ: type the same one twice.")
        elif first:
            user = User(username=data.get("username", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, user)
            except ValidationError as error:
                self.add_error("password1", error)
        return data
