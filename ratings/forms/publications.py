"""The note a published list carries, asked where a list is published (closing a period)."""

from __future__ import annotations

from django import forms

from ..models import rules


class PublicationNoteForm(forms.Form):
    note = forms.CharField(
        label="Note published with the list",
        required=False,
        max_length=2000,
        validators=[rules.validate_lines],
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Shown with the list, e.g. “Ratings to 30 June: the winter period.”",
    )
