"""The club's logins: the administrator invites people, changes their roles, removes them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from ..forms.people import InvitationForm, PersonRolesForm
from ..pages.people import people_rows, roles_held
from ..rules.roles import ADMINISTRATOR
from ..services.accounts import PersonRefused, person_invite, person_remove, person_roles_set
from .common import role_required

administrator_required = role_required(ADMINISTRATOR)


@administrator_required
def people(request: HttpRequest) -> HttpResponse:
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = person_invite(
                email=form.cleaned_data["email"],
                name=form.cleaned_data["name"],
                roles=form.cleaned_data["roles"],
                events=form.cleaned_data["events"],
                invited_by=request.user,  # type: ignore[arg-type]
                base_url=request.build_absolute_uri("/"),
            )
        except PersonRefused as refused:
            form.add_error("email", str(refused))
        else:
            messages.success(
                request, f"{user.email} is invited: the link to choose a password is on its way."
            )
            return redirect("ratings:officer-people")
    return render(request, "ratings/officer/people.html", {"form": form, "people": people_rows()})


@administrator_required
def person(request: HttpRequest, pk: int) -> HttpResponse:
    user = get_object_or_404(User, pk=pk, is_active=True)
    form = PersonRolesForm(
        request.POST or None,
        person=user,
        initial={"roles": roles_held(user), "events": list(user.directed_events.all())},
    )
    if request.method == "POST" and form.is_valid():
        try:
            person_roles_set(
                user=user, roles=form.cleaned_data["roles"], events=form.cleaned_data["events"]
            )
        except PersonRefused as refused:
            form.add_error("roles", str(refused))
        else:
            messages.success(request, f"{user.get_username()}'s roles are saved.")
            return redirect("ratings:officer-people")
    return render(request, "ratings/officer/person.html", {"form": form, "person": user})


@administrator_required
@require_POST
def person_remove_view(request: HttpRequest, pk: int) -> HttpResponse:
    user = get_object_or_404(User, pk=pk, is_active=True)
    try:
        person_remove(user=user, removed_by=request.user)  # type: ignore[arg-type]
    except PersonRefused as refused:
        messages.error(request, str(refused))
        return redirect("ratings:officer-person", pk=user.pk)
    messages.success(request, f"{user.get_username()} can no longer log in.")
    return redirect("ratings:officer-people")
