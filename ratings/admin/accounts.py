"""The administrator's logins and groups: Django's own pages, their permission and group
menus refusing a value that is no id at its field (on SQLite a number past 64 bits would
otherwise fail in the database, not in the form)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.contrib.auth.models import Group, User
from django.http import HttpRequest

from ..forms.ids import IdsMultipleChoiceField
from .base import UnlabelledHelpField


class IdsOnly:
    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        kwargs.setdefault("form_class", IdsMultipleChoiceField)
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


class ClubUserChangeForm(UserChangeForm):
    """Django's own, its password summary (a widget with no id, so its help has none)
    described by no id the page lacks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "password" in self.fields:
            self.fields["password"].bound_field_class = UnlabelledHelpField


class ClubUserAdmin(IdsOnly, UserAdmin):
    form = ClubUserChangeForm


class ClubGroupAdmin(IdsOnly, GroupAdmin):
    pass


admin.site.unregister(User)
admin.site.register(User, ClubUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, ClubGroupAdmin)
