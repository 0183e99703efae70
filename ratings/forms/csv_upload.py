"""A spreadsheet's CSV uploaded by the officer: a members file or a results file."""

from __future__ import annotations

from django import forms


class CsvUploadForm(forms.Form):
    """The file, read as text; what it holds is checked on the preview, by line."""

    file = forms.FileField(label="CSV file")

    MAX_BYTES = 5_000_000

    def __init__(self, *args, help_text: str = "", **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = help_text

    def clean_file(self):  # type: ignore[no-untyped-def]
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                f"This file is larger than {self.MAX_BYTES // 1_000_000} MB: split it in two."
            )
        data = upload.read()
        try:
            # A byte order mark (Excel's "CSV UTF-8") is not part of the first column's name.
            self.cleaned_data["text"] = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "This file is not UTF-8 text: in the spreadsheet, save it as "
                "“CSV UTF-8 (comma delimited)”."
            ) from None
        if "\x00" in self.cleaned_data["text"][:1000]:
            raise forms.ValidationError("This is not a CSV file (it holds binary data).")
        return upload
