"""The officer's form starting a comparison of systems, with parameters to try."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from ..engine import SYSTEMS
from ..formats.jsontext import NotParameters, json_read


def _field_name(system_id: str) -> str:
    return "params_" + system_id.replace("-", "_")


class ComparisonForm(forms.Form):
    """One box per system: the parameter overrides it runs with, as a JSON object
    (``{}``: the documented defaults). Each box is checked against the system's rules."""

    def __init__(self, *args: Any, defaults: dict[str, dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for sid, cls in SYSTEMS.items():
            names = ", ".join(p.name for p in cls.parameters)
            self.fields[_field_name(sid)] = forms.CharField(
                label=cls.title,
                required=False,
                initial=json.dumps(defaults.get(sid) or {}),
                widget=forms.Textarea(attrs={"rows": 2, "class": "font-monospace"}),
                help_text=f"Parameters: {names}.",
            )

    def bound_fields(self) -> list[tuple[str, forms.BoundField]]:
        return [(sid, self[_field_name(sid)]) for sid in SYSTEMS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        params: dict[str, dict[str, Any]] = {}
        for sid, cls in SYSTEMS.items():
            name = _field_name(sid)
            text = (cleaned.get(name) or "").strip() or "{}"
            try:
                value = json_read(text)
            except json.JSONDecodeError as error:
                self.add_error(name, f"Not JSON: {error.msg} (line {error.lineno}).")
                continue
            except NotParameters as error:
                self.add_error(name, f"Not parameters: {error}.")
                continue
            if not isinstance(value, dict):
                self.add_error(name, 'Must be a JSON object, e.g. {"floor": 900}.')
                continue
            problems = cls.check_params(value, path="")
            if problems:
                self.add_error(name, [p.lstrip(".") for p in problems])
                continue
            params[sid] = value
        cleaned["params"] = params
        return cleaned


class MemberChoiceForm(forms.Form):
    """The member whose ratings over time the comparison draws (by member number)."""

    member = forms.CharField(label="Member number", max_length=20, required=False)
