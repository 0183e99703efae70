"""The first-run page: a fresh install starts its club and its administrator's login here,
once."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ..forms.club_start import ClubStartForm
from ..services.club import ClubStarted, club_needs_start, club_start


def club_start_page(request: HttpRequest) -> HttpResponse:
    """Open while no login exists; afterwards "Not found" (the officer logs in instead)."""
    if not club_needs_start():
        raise Http404("The club has been started.")
    form = ClubStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            administrator = club_start(
                name=data["name"],
                rating_system=data["rating_system"],
                season_start_month=data["season_start_month"],
                time_zone=data["time_zone"],
                username=data["username"],
                password=data["password1"],
                email=data["email"],
            )
        except ClubStarted:
            raise Http404("The club has been started.") from None
        login(request, administrator, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            f"{data['name']} is started and you are its administrator and ratings officer. "
            "Next: add your "
            "members (or import them from a CSV file), then enter your first event.",
        )
        return redirect("ratings:officer-home")
    return render(request, "ratings/club_start.html", {"form": form})
