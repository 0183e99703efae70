"""A spreadsheet's CSV uploaded by the officer: a members file or a results file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.files import File

from ..formats.members_csv import csv_text
from ..services.audit import REASON_LENGTH


class CsvUploadForm(forms.Form):
    """The file, read as text; what it holds is checked on the preview, by line."""

    file = forms.FileField(label="CSV file")

    MAX_BYTES = 5_000_000

    def __init__(self, *args: Any, help_text: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = help_text

    def clean_file(self) -> File:
        upload: File = self.cleaned_data["file"]  # an upload: its handler measured its size
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                f"This file is larger than {self.MAX_BYTES // 1_000_000} MB: split it in two."
            )
        # UTF-8 (a byte order mark, Excel's "CSV UTF-8", is not part of the first column's
        # name); else Windows-1252, said at the preview; else refused at the line, with the fix.
        read = csv_text(upload.read())
        if read.problem is not None:
            problem = str(read.problem)
            raise forms.ValidationError(problem[:1].upper() + problem[1:] + ".")
        self.cleaned_data["text"] = read.text
        self.cleaned_data["notice"] = read.notice
        if "\x00" in self.cleaned_data["text"][:1000]:
            raise forms.ValidationError("This is not a CSV file (it holds binary data).")
        return upload


class MembersConfirmForm(forms.Form):
    """Confirming a members file. Where it takes payments back (a line's "arrears" for a
    member who has paid this season), the reason for removing them, as the member page's
    "Remove" asks: required then, and kept in the audit trail with each payment.

    ``listed`` carries the payments the preview listed: if the record has changed since
    (another officer recorded or removed one), confirming is refused until the officer has
    seen the new list.
    """

    listed = forms.CharField(required=False, widget=forms.HiddenInput)
    removal_reason = forms.CharField(
        label="Reason for removing these payments",
        max_length=REASON_LENGTH,
        required=False,
        help_text="Kept in the audit trail with each payment removed (e.g. “refunded”).",
    )

    def __init__(self, *args: Any, removals: Sequence[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.removals = list(removals)
        self.fields["listed"].initial = listed_value(self.removals)
        if self.removals:
            self.fields["removal_reason"].required = True
            self.fields["removal_reason"].error_messages["required"] = (
                "Give the reason for removing these payments: nothing is saved without it."
            )
        else:
            del self.fields["removal_reason"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("listed", "") != listed_value(self.removals):
            raise forms.ValidationError(
                "The payments this file would remove have changed since the preview "
                "(another officer's change): check the list below and confirm again."
            )
        return data


def listed_value(removals: Sequence[Any]) -> str:
    """The payments a preview listed, as the confirm form carries them: their ids."""
    return ",".join(str(r.subscription.pk) for r in removals)
