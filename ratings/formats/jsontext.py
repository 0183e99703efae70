"""JSON typed into a form (a system's parameters): read with a bound on its nesting.

Python's JSON reader recurses once a level: thousands of nested ``[`` end in a
RecursionError, which no form expects. Parameters are an object of numbers, words and
short lists, never deep: anything nested deeper than ``MAX_DEPTH`` is refused with a
message, as a ``ValueError`` the form shows at its field.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.forms.fields import InvalidJSONInput

MAX_DEPTH = 20


class TooDeep(ValueError):
    pass


def json_read(text: str) -> Any:
    """``text`` as JSON; ``json.JSONDecodeError`` for bad JSON, ``TooDeep`` for nesting past
    ``MAX_DEPTH`` (found before the reader recurses)."""
    depth_check(text)
    return json.loads(text)


def depth_check(text: str) -> None:
    """``TooDeep`` when ``text`` nests past ``MAX_DEPTH``: its brackets outside strings
    counted, one pass, no recursion."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise TooDeep(f"nested more than {MAX_DEPTH} deep: parameters never are")
        elif char in "]}":
            depth -= 1


class BoundedJSONField(forms.JSONField):
    """Django's JSON form field (the admin's parameters), refusing over-deep nesting at
    the field instead of failing in the reader."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                depth_check(value)
            except TooDeep as error:
                raise forms.ValidationError(f"Not parameters: {error}.", code="invalid") from None
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        # The form shown again with the refused text: as it was typed, never parsed.
        if isinstance(data, str) and not self.disabled:
            try:
                depth_check(data)
            except TooDeep:
                return InvalidJSONInput(data)
        return super().bound_data(data, initial)
