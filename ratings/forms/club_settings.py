"""The club settings page: the club's name, rating system, season, time zone, who is shown
on public pages, and the TRF header's fields. Only the administrator saves it."""

from __future__ import annotations

from typing import Any

from django import forms

from ..formats.jsontext import BoundedJSONField
from ..models import ClubSettings
from ..models.club import time_zones
from .club_start import MONTHS

#: What the choice for unpublished members means, said whole: under "name them" the
#: rating is withheld but a published opponent's own working is shown, and gives it away.
UNPUBLISHED_HONESTLY = (
    "Members not on the published list (in arrears, guests). Name them: their names, "
    "numbers and scores are public, their ratings are not, but a published opponent's "
    "working is shown whole (their expected score and change in the game), so a reader who "
    "knows the rating system can work out a withheld rating from it. Keep them off: public "
    'pages, exports and the API call each of them "Unpublished player", with no number and '
    "no member page. The officer's pages show everyone either way."
)


class ClubSettingsForm(forms.ModelForm):
    system_params = BoundedJSONField(
        label="System parameters",
        required=False,
        help_text=ClubSettings._meta.get_field("system_params").help_text,
    )
    season_start_month = forms.TypedChoiceField(
        label="Season starts in",
        choices=MONTHS,
        coerce=int,
        help_text="The month a subscription season starts: a member is financial for the "
        "season they paid.",
    )

    class Meta:
        model = ClubSettings
        fields = [
            "name",
            "rating_system",
            "system_params",
            "season_start_month",
            "time_zone",
            "live_list_only",
            "fide_on_list",
            "unpublished_members",
            "city",
            "federation",
            "chief_arbiter",
            "deputy_arbiters",
            "mail_from",
            "subscriptions_paid_to",
        ]
        labels = {"name": "Club name", "rating_system": "Rating system"}
        help_texts = {
            "rating_system": "Changing it re-rates every event: you are asked to confirm first.",
            "unpublished_members": UNPUBLISHED_HONESTLY,
        }
        widgets = {
            "time_zone": forms.Select(
                choices=[("", "The server's (TIME_ZONE)")] + [(z, z) for z in time_zones()]
            ),
            "unpublished_members": forms.RadioSelect,
            "deputy_arbiters": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args: Any, read_only: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if read_only:  # the officer reads the settings; the administrator changes them
            for field in self.fields.values():
                field.disabled = True

    def switches_system(self) -> bool:
        return bool({"rating_system", "system_params"} & set(self.changed_data))
