"""FIDE's rating list uploaded by the officer (``services.fide_lists`` reads it)."""

from __future__ import annotations

import datetime as dt

from django import forms

from ..formats.fide_list import KINDS


class FideListForm(forms.Form):
    file = forms.FileField(
        label="FIDE's list",
        help_text="As downloaded from ratings.fide.com/download_lists.phtml, TXT or XML: "
        "the combined players_list_foa.txt, or standard_, rapid_ or blitz_rating_list.txt, "
        "zipped or not.",
    )
    kind = forms.ChoiceField(
        label="Which list",
        choices=[("", "as the file's name says"), *((k, f"{k} only") for k in KINDS)],
        required=False,
        help_text="Only for one time control's list renamed: its header does not say which.",
    )
    month = forms.CharField(
        label="The list's month",
        required=False,
        widget=forms.DateInput(attrs={"type": "month"}),
        help_text="Only for the combined list, whose header does not say it (blank: this "
        "month). A single list's header names its month.",
    )

    def clean_month(self) -> dt.date | None:
        text = self.cleaned_data["month"].strip()
        if not text:
            return None
        try:
            return dt.datetime.strptime(text, "%Y-%m").date()
        except ValueError:
            raise forms.ValidationError("Give the month as YYYY-MM, e.g. 2026-11.") from None
