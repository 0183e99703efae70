"""The officer's reason for recording again games already recorded in another event
(``rules.duplicates``): asked on the results file's preview, the pasted round and the
completion; the TRF and PGN import asks it on its own form."""

from __future__ import annotations

from typing import Any

from django import forms

from ..rules.duplicates import Duplicates


class DuplicateReasonForm(forms.Form):
    duplicate_reason = forms.CharField(
        label="Why these games are to be recorded again",
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Kept with the event and in its history.",
    )

    def __init__(self, *args: Any, duplicates: list[Duplicates], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.duplicates = [d for d in duplicates if d.is_duplicate]

    def clean_duplicate_reason(self) -> str:
        reason: str = self.cleaned_data["duplicate_reason"].strip()
        if self.duplicates and not reason:
            raise forms.ValidationError(
                "These games are already recorded in another event (named above): nothing "
                "was saved. Open that event to check it, or say here why they are to be "
                "recorded again."
            )
        return reason
