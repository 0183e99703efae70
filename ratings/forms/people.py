"""The administrator's forms for the club's logins: an invitation, a person's roles."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q

from ..models import Event
from ..rules.roles import DIRECTOR, ROLES
from .ids import IdsMultipleChoiceField

ROLE_CHOICES = [(role.key, role.title) for role in ROLES.values()]


class PersonRolesForm(forms.Form):
    roles = forms.MultipleChoiceField(
        choices=ROLE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="A person may hold several. The administrator runs the club; the ratings "
        "officer keeps the record; a tournament director enters the events below; the "
        "treasurer keeps members' payments.",
    )
    events = IdsMultipleChoiceField(
        queryset=Event.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Events they direct",
        help_text="Only for a tournament director.",
    )

    def __init__(self, *args: Any, person: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The events being entered, and those the person directs already (a rated one
        # left off the choices would be taken from them on saving).
        offered = ~Q(status=Event.Status.COMPLETE)
        if person is not None:
            offered |= Q(directors=person)
        self.fields["events"].queryset = (  # type: ignore[attr-defined]
            Event.objects.filter(offered).distinct().order_by("-start_date", "-pk")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("events") and DIRECTOR not in data.get("roles", []):
            self.add_error(
                "events", "Events are directed by a tournament director: tick the role too."
            )
        return data


class InvitationForm(PersonRolesForm):
    email = forms.EmailField(help_text="The invitation goes here; it is their login name too.")
    name = forms.CharField(max_length=150)
    field_order = ["email", "name", "roles", "events"]

    def clean_roles(self) -> list[str]:
        roles: list[str] = self.cleaned_data.get("roles") or []
        if not roles:
            raise forms.ValidationError("Give them at least one role.")
        return roles
