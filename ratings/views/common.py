"""What the pages share: who may open them (the officer's permission), the page size, CSV,
and what the public may see of an event's ratings (the rule is ``ratings.rules.publication``)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect

from .. import services
from ..context_processors import club, rating_lists_kept
from ..formats.csvsafe import csv_safe_row
from ..models import ClubSettings, Event, Member, RatingRun
from ..rules import access, publication
from ..rules.roles import ADMINISTRATOR, DIRECTOR, OFFICER, ROLES, TREASURER
from ..rules.time_classes import STANDARD
from ..words.counts import count_phrase

PER_PAGE = 50


def club_of(request: HttpRequest) -> ClubSettings:
    """The club's settings, read once a request (the context processor reads these too)."""
    club(request)
    return request._club_settings  # type: ignore[attr-defined]


def rating_list_of(request: HttpRequest) -> str:
    """The list a page shows: ``?list=rapid`` where the club keeps one, else standard."""
    wanted = request.GET.get("list", STANDARD)
    return wanted if wanted in rating_lists_kept(request) else STANDARD


def wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("_export") == "csv"


def streamed_csv(chunks: Any, filename: str) -> StreamingHttpResponse:
    """A CSV written as it is read (``chunks``: its text a chunk at a time, cells made
    safe by whoever wrote them), as a download."""
    response = StreamingHttpResponse(chunks, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def rows_csv(rows: Any, filename: str) -> HttpResponse:
    """Rows (the first the heads) as a CSV download, every cell made safe."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow(csv_safe_row(row))
    return response


def is_officer(request: HttpRequest) -> bool:
    """Whether the reader sees every rating (an officer) or the published ones only."""
    return publication.sees_every_rating(request.user)


#: The hidden field a record's form carries: the record's version as the page showed it.
RECORD_VERSION = "record_version"


def record_version_shown(request: HttpRequest, record: Any) -> str:
    """The version of ``record`` its form was opened on: the one the form sent back (a
    form with errors, a confirmation), or the record as it stands (the page opened now)."""
    if request.method == "POST" and RECORD_VERSION in request.POST:
        return request.POST[RECORD_VERSION]
    return services.record_version(record=record)


def saved_unless_changed(
    request: HttpRequest, record: Any, save: Callable[[], Any]
) -> tuple[bool, Any, dict[str, str]]:
    """``save()`` in one transaction with the check that ``record`` is still as its form
    showed it (``RECORD_VERSION``): (True, what it returned, {}) once saved; refused,
    (False, None, what the page shows: who changed it and when, and the version now)."""
    try:
        with transaction.atomic():
            if RECORD_VERSION in request.POST:
                services.record_unchanged_check(
                    record=record, version=request.POST[RECORD_VERSION]
                )
            return True, save(), {}
    except services.RecordChanged as refused:
        return (
            False,
            None,
            {"conflict": str(refused), "version": services.record_version(record=record)},
        )


def role_required(*roles: str) -> Callable[[Any], Any]:
    """Login first (to /accounts/login/), then one of ``roles`` (403 without any): the
    one way a page asks who may open it (``ratings/rules/access.py``)."""

    def decorator(view: Any) -> Any:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not access.holds_any(request.user, roles):
                raise PermissionDenied(_not_for_this_login(request, roles))
            return view(request, *args, **kwargs)

        return login_required(checked)

    return decorator


def _not_for_this_login(request: HttpRequest, roles: tuple[str, ...]) -> str:
    """The 403 page's words: whose page it is, and who gives the role."""
    # The officer named first; the administrator, who is an officer too, only on their own.
    named = sorted(roles, key=lambda role: role != OFFICER)
    if len(named) > 1:
        named = [role for role in named if role != ADMINISTRATOR]
    first, *others = [_with_article(f"{ROLES[role].title.lower()}'s") for role in named]
    nor = f", nor {' or '.join(others)}" if others else ""
    return (
        f"You are logged in as {request.user.get_username()}, which is not {first} "
        f"login{nor}. "
        "Ask the club's administrator for the role, or log in as someone who holds it."
    )


def _with_article(words: str) -> str:
    """ "an administrator's", "a treasurer's": the roles' titles read in a sentence."""
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


#: The ratings officer's pages: rating, periods, publishing, imports, members' records.
officer_required = role_required(OFFICER)
#: Members' payments: the treasurer's too.
subscriptions_required = role_required(OFFICER, TREASURER)
#: The officer's home and its navigation: anyone with a role there.
any_role_required = role_required(*ROLES)


def keeps_subscriptions(request: HttpRequest) -> bool:
    """Whether the reader records members' payments (the officer, the treasurer)."""
    return access.keeps_subscriptions(request.user)


def refuse_unless(request: HttpRequest, *roles: str) -> None:
    """403 unless the reader holds one of ``roles``: a page others may read, whose
    writes are these roles' (a member's record: the treasurer reads it, the officer edits it)."""
    if not access.holds_any(request.user, roles):
        raise PermissionDenied("Only the ratings officer may change this.")


def director_required(view: Any) -> Any:
    """An event's players, rounds and results (the view's ``pk``): the officer, or a
    tournament director given that event; 403 for any other event."""

    @wraps(view)
    def checked(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not access.can_direct(request.user, pk):
            raise PermissionDenied("You direct other events, not this one.")
        return view(request, pk, *args, **kwargs)

    return role_required(OFFICER, DIRECTOR)(checked)


def results_closed(request: HttpRequest, event: Event) -> HttpResponse | None:
    """Back to the event, saying why, when the reader may no longer change its players
    or results (a director's submitted or rated event: ``access.results_closed_to``)."""
    problem = access.results_closed_to(request.user, event)
    if problem is None:
        return None
    messages.error(request, problem)
    return redirect("ratings:officer-event", pk=event.pk)


def progress_or(run: RatingRun | None, response: HttpResponse) -> HttpResponse:
    """A re-rate queued for the background: its progress page. Otherwise ``response``."""
    if run is not None and run.status != RatingRun.Status.DONE:
        return redirect("ratings:run", pk=run.pk)
    return response


def rerated(run: RatingRun | None, joiner: str) -> str:
    """What saving re-rated, to end the officer's message ("" when it re-rated nothing)."""
    if run is None:
        return ""
    if run.status == RatingRun.Status.DONE:
        return f"{joiner}re-rated {count_phrase(run.events_rated, 'event')}"
    return f"{joiner}re-rating in the background"


def paid_tonight(request: HttpRequest, form: Any, member: Member) -> str:
    """Record this season paid for a member just added when the form says so; the words
    the officer's message adds."""
    paid = form.cleaned_data.get("paid_tonight")  # True, or which season ("current", "next")
    if not paid:
        return ""
    subscription = services.subscription_on_joining(
        member=member, user=request.user, next_season=paid == "next"
    )
    return f", paid for {subscription.season}"


def warn_of_namesakes(request: HttpRequest, member: Member) -> None:
    """After adding ``member``: name anyone already recorded under the same name."""
    namesakes = member.namesakes()
    if namesakes:
        # Two people may share a name, so this is a warning, not a refusal.
        messages.warning(
            request,
            f"Another member is also called {member.name} "
            f"({', '.join(namesakes)}). If they are the same person, merge the two "
            "records in the admin (Members: select both, then “Merge selected duplicate "
            "members”).",
        )
