"""JSON typed into a form (a system's parameters): read with a bound on its nesting and
on its numbers' digits.

Python's JSON reader recurses once a level: thousands of nested ``[`` end in a
RecursionError, which no form expects; and it turns a whole number of over 4,300 digits
into a ValueError that is not a JSON error (Python's bound on converting text to int).
Parameters are an object of numbers, words and short lists, never deep, their numbers a
few digits: anything nested deeper than ``MAX_DEPTH``, or a number of more than
``MAX_DIGITS`` digits, is refused with a message (``NotParameters``, a ``ValueError``)
the form shows at its field, before the reader sees it.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.forms.fields import InvalidJSONInput

MAX_DEPTH = 20
#: The most digits in a run outside strings: a parameter's number never has more.
MAX_DIGITS = 30


class NotParameters(ValueError):
    pass


def json_read(text: str) -> Any:
    """``text`` as JSON; ``json.JSONDecodeError`` for bad JSON, ``NotParameters`` for
    nesting past ``MAX_DEPTH`` or a number past ``MAX_DIGITS`` (found before the reader
    recurses or converts)."""
    shape_check(text)
    return json.loads(text)


def shape_check(text: str) -> None:
    """``NotParameters`` when ``text`` nests past ``MAX_DEPTH`` or has a run of more than
    ``MAX_DIGITS`` digits: its brackets and digits outside strings counted, one pass, no
    recursion."""
    depth = digits = 0
    in_string = escaped = False
    for char in text:
        if char.isdigit() and not in_string:
            digits += 1
            if digits > MAX_DIGITS:
                raise NotParameters(f"a number of more than {MAX_DIGITS} digits")
            continue
        digits = 0
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
                raise NotParameters(f"nested more than {MAX_DEPTH} deep: parameters never are")
        elif char in "]}":
            depth -= 1


class BoundedJSONField(forms.JSONField):
    """Django's JSON form field (the admin's parameters), refusing over-deep nesting and
    over-long numbers at the field instead of failing in the reader."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                shape_check(value)
            except NotParameters as error:
                raise forms.ValidationError(f"Not parameters: {error}.", code="invalid") from None
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        # The form shown again with the refused text: as it was typed, never parsed.
        if isinstance(data, str) and not self.disabled:
            try:
                shape_check(data)
            except NotParameters:
                return InvalidJSONInput(data)
        return super().bound_data(data, initial)
