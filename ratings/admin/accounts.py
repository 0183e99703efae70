"""The administrator's logins and groups: Django's own pages, their permission and group
menus refusing a value that is no id at its field (on SQLite a number past 64 bits would
otherwise fail in the database, not in the form)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.http import HttpRequest

from .base import _an_id


class IdsMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A menu of several records whose sent values are ids before they are looked up."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if not _an_id(pk):
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)  # type: ignore[misc]


class _IdsOnly:
    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        kwargs.setdefault("form_class", IdsMultipleChoiceField)
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


class ClubUserAdmin(_IdsOnly, UserAdmin):
    pass


class ClubGroupAdmin(_IdsOnly, GroupAdmin):
    pass


admin.site.unregister(User)
admin.site.register(User, ClubUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, ClubGroupAdmin)
