"""The comparisons of systems (issue 19): viewed and deleted here, started on the officer
pages; never a correction, as they are not the club's ratings."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse

from ..models import Comparison, ComparisonRating
from .base import ReadOnlyAdmin


@admin.register(Comparison)
class ComparisonAdmin(ReadOnlyAdmin):
    list_display = ["started", "user", "club_system", "status", "events", "games", "published"]
    list_filter = ["status"]
    list_select_related = ["user"]
    exclude = ["results"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def view_on_site(self, obj: Comparison) -> str:
        return reverse("ratings:compare-detail", args=[obj.pk])


@admin.register(ComparisonRating)
class ComparisonRatingAdmin(ReadOnlyAdmin):
    list_display = ["comparison", "member", "system", "display", "rank"]
    list_filter = ["system"]
    list_select_related = ["comparison", "member"]
    search_fields = ["member__name", "member__member_number"]
    exclude = ["history"]
