"""Menus of records whose sent values are checked to be ids before they are looked up: on
SQLite a number past 64 bits fails in the database (OverflowError), not in the form."""

from __future__ import annotations

from typing import Any

from django import forms


def an_id(value: Any) -> bool:
    """Whether a value sent for a record's id could be one (digits a database integer
    holds): what a form shows again after refusing it, without asking the database."""
    text = str(value)
    return text.isascii() and text.isdigit() and len(text) < 19


class IdsMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A menu of several records whose sent values are ids before they are looked up."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if not an_id(pk):
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)  # type: ignore[misc]
