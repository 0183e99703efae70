"""The officer's home and member pages: the register, adding and editing members, subscriptions."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import (
    Count,
    Field,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..forms import (
    CHANGE_REASON,
    MemberEraseForm,
    MemberForm,
    SubscriptionForm,
)
from ..models import (
    ClubSettings,
    Event,
    Member,
    MemberMerge,
    RatingRun,
    Season,
)
from ..pages import member_record
from ..pages.register import register
from ..pages.reports import legend as rating_legend
from ..presentation.paging import table_paginate
from ..presentation.tables import (
    OfficerMemberTable,
)
from ..rules import access
from ..rules.period_names import label_name
from ..rules.roles import DIRECTOR, OFFICER, ROLES, TREASURER
from .common import (
    PER_PAGE,
    any_role_required,
    club_of,
    is_officer,
    officer_required,
    paid_tonight,
    progress_or,
    record_version_shown,
    refuse_unless,
    rerated,
    rows_csv,
    saved_unless_changed,
    subscriptions_required,
    warn_of_namesakes,
)

# -- home -------------------------------------------------------------------------------


@any_role_required
def officer_home(request: HttpRequest) -> HttpResponse:
    """What the reader's roles allow: the officer's whole home; a tournament director's
    events; a treasurer's way to the members' subscriptions."""
    roles = access.roles_of(request.user)
    titles = [ROLES[role].title for role in roles]
    if OFFICER not in roles:
        return render(
            request,
            "ratings/officer/home_helper.html",
            {
                "titles": titles,
                "directs": DIRECTOR in roles,
                "keeps_subscriptions": TREASURER in roles,
                "directed": _event_counts_of(
                    # Signed in (any_role_required): a User, not the anonymous one.
                    cast(User, request.user).directed_events.select_related(
                        "submitted_by", "rated_by", "sent_back_by"
                    )
                )
                if DIRECTOR in roles
                else [],
            },
        )
    runs = RatingRun.objects.select_related("user", "from_event")[:8]
    drafts = _event_counts_of(
        Event.objects.exclude(status=Event.Status.COMPLETE).filter(submitted_at__isnull=True)
    )[:20]
    # Results in, waiting for the officer: each with its rating preview.
    submitted = (
        Event.objects.filter(submitted_at__isnull=False)
        .exclude(status=Event.Status.COMPLETE)
        .select_related("submitted_by")
        .order_by("submitted_at")[:20]
    )
    # Complete and rated by the officer, but no changes yet: a period system's wait (an
    # online event waits for nothing: the club rates no online game).
    waiting = (
        Event.objects.filter(
            status=Event.Status.COMPLETE, rated=True, online=False, rating_changes__isnull=True
        )
        .order_by("end_date", "pk")
        .distinct()[:20]
    )
    system = ClubSettings.load().engine()
    waiting_rows = [(e, _period_words(system, system.period_of(e.end_date))) for e in waiting]
    return render(
        request,
        "ratings/officer/home.html",
        {
            "runs": runs,
            "drafts": drafts,
            "submitted": submitted,
            "waiting": waiting_rows,
            "system": system,
            "titles": titles,
        },
    )


def _event_counts_of(events: Any) -> Any:
    """Events newest first with their players and games counted (one query)."""
    return events.annotate(
        player_count=Count("entries", distinct=True),
        games_count=Count("games", distinct=True),
    ).order_by("-start_date", "-pk")


def _period_words(system: Any, label: str | None) -> str | None:
    return None if label is None else label_name(system, label)


# -- members ----------------------------------------------------------------------------


#: The possible duplicates the members page lists at once (a club brought in from several
#: lists may hold thousands at first): the rest come up as these merge (read no further
#: than one more, ``services.members_possible_duplicates``).
DUPLICATES_SHOWN = 100


@subscriptions_required
def member_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    # Read a page at a time (``pages.register``): its rows, and the filters' counts (how
    # many each shows with the search, so the officer sees the arrears at once) in one query.
    found = register(query=query, status=request.GET.get("status", ""))
    table = OfficerMemberTable(found.members.order_by("name", "member_number"))
    if not query and not found.status:
        table.empty_text = (
            "No members yet: add one (Add a member), or bring them all in from a members CSV "
            "file (Import)."
        )
    table_paginate(request, table, per_page=PER_PAGE, count=found.count, keys=found.keys)
    filters = [
        (key, label, found.counts[key]) for key, label in services.MEMBERSHIP_FILTERS.items()
    ]
    possible = services.members_possible_duplicates(most=DUPLICATES_SHOWN)
    return render(
        request,
        "ratings/officer/members.html",
        {
            "table": table,
            "query": query,
            "status": found.status,
            "filters": filters,
            # Records that may be one person, each pair with its way to merge (the admin's
            # merge page, which says what keeping either record means, before any change).
            "possible_duplicates": possible[:DUPLICATES_SHOWN],
            "more_duplicates": len(possible) > DUPLICATES_SHOWN,
            "can_merge": request.user.has_perm("ratings.change_member"),
            # The admin's merge, each pair's form's action (reversed once, not a pair).
            "merge_url": reverse("admin:ratings_member_changelist"),
            # The ratings' markers ("4 R", "Unr"), as the published list explains them.
            "legend": rating_legend(club_of(request).engine()),
        },
    )


@officer_required
def member_add(request: HttpRequest) -> HttpResponse:
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        member = form.save()
        paid = paid_tonight(request, form, member)
        messages.success(request, f"{member.name} added ({member.member_number}){paid}.")
        warn_of_namesakes(request, member)
        if "another" in request.POST:
            return redirect("ratings:officer-member-add")
        return redirect("ratings:officer-member", pk=member.pk)
    return render(request, "ratings/officer/member_form.html", {"form": form, "member": None})


@subscriptions_required
def member_edit(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "POST":
        refuse_unless(request, OFFICER)  # the treasurer reads the record, for its payments
    member = get_object_or_404(Member, pk=pk)
    rated = member.rating_changes.exists()
    form = MemberForm(request.POST or None, instance=member, prefix="member")
    if not is_officer(request):
        for field in form.fields.values():
            field.disabled = True
    scope = None
    conflict: dict[str, str] = {}
    if request.method == "POST" and form.is_valid():
        moves_ratings = not services.MEMBER_RATING_FIELDS.isdisjoint(form.changed_data)
        if rated and moves_ratings and "confirm" not in request.POST:
            # Say how much a change re-rates before doing it.
            scope = services.rerate_scope(start=services.member_rerate_start(member=member))
        else:
            saved, run, conflict = saved_unless_changed(
                request,
                member,
                lambda: services.member_save(
                    member=form.instance,
                    changed=form.changed_data,
                    user=request.user,
                    reason=form.cleaned_data.get(CHANGE_REASON, ""),
                ),
            )
            if saved:
                messages.success(request, f"{member.name} saved{rerated(run, ' and ')}.")
                return progress_or(run, redirect("ratings:officer-member", pk=member.pk))
    if request.method == "POST":
        # The form's values, refused or waiting for confirmation, are on its instance;
        # the page around it (its links, the payments) shows the record as it stands.
        member = Member.objects.get(pk=member.pk)
    subscription_form = SubscriptionForm(member=member, initial=_season())
    return _member_page(request, member, form, subscription_form, scope=scope, **conflict)


def _season() -> dict[str, Any]:
    return {"season": Season.for_day(timezone.localdate())}


def _member_page(request, member, form, subscription_form, scope=None, **conflict):
    today = timezone.localdate()
    subscriptions = member.subscriptions.select_related("season")
    return render(
        request,
        "ratings/officer/member_form.html",
        {
            "form": form,
            "member": member,
            "subscriptions": subscriptions,
            "subscription_form": subscription_form,
            "membership": member.membership_on(today),
            "today": today,
            "scope": scope,
            "audit": services.subscription_audit(member=member),
            "version": record_version_shown(request, member),
            "merges": services.member_merges_undoable(member=member),
            **conflict,
        },
    )


@subscriptions_required
@require_POST
def member_subscribe(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    form = SubscriptionForm(request.POST, member=member)
    if form.is_valid():
        guest = member.is_guest
        subscription = services.subscription_record(
            member=member,
            season=form.chosen_season(),
            paid_on=form.cleaned_data["paid_on"],
            amount=form.cleaned_data["amount"],
            user=request.user,
        )
        joined = " and is a member now, no longer a guest" if guest else ""
        messages.success(request, f"{member.name} has paid for {subscription.season}{joined}.")
        return redirect("ratings:officer-member", pk=member.pk)
    return _member_page(request, member, MemberForm(instance=member, prefix="member"), form)


@officer_required
@require_POST
def member_send_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Mail the member the link to their own page (with their consent to club mail)."""
    member = get_object_or_404(Member, pk=pk)
    if services.my_page_link_send(member=member, site=request.build_absolute_uri("/")):
        messages.success(request, f"The link to their page is on its way to {member.email}.")
    else:
        messages.error(
            request,
            f"No link sent: {member.name} has no address with consent to club mail recorded.",
        )
    return redirect("ratings:officer-member", pk=member.pk)


# -- TRF import -------------------------------------------------------------------------


# -- everything held about a member, and erasing one ----------------------------------------


def _held_filename(member: Member, ext: str) -> str:
    # By number, not name: the file is the member's, and a name may not fit a file name.
    return f"member-{member.member_number}-held.{ext}"


@officer_required
@require_GET
def member_data_json(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything held about the member, as JSON, to give them."""
    member = get_object_or_404(Member, pk=pk)
    response = JsonResponse(
        member_record.member_held_json(member=member),
        encoder=DjangoJSONEncoder,
        json_dumps_params={"indent": 2, "ensure_ascii": False},
    )
    response["Content-Disposition"] = f'attachment; filename="{_held_filename(member, "json")}"'
    return response


@officer_required
@require_GET
def member_data_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything held about the member, as CSV: one field a line."""
    member = get_object_or_404(Member, pk=pk)
    rows = [member_record.HELD_CSV, *member_record.member_held_rows(member=member)]
    return rows_csv(rows, _held_filename(member, "csv"))


@officer_required
def member_erase(request: HttpRequest, pk: int) -> HttpResponse:
    """Erase a member at their request, once the officer confirms and says why."""
    member = get_object_or_404(Member, pk=pk)
    form = MemberEraseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            erased = services.member_erase(
                member=member, reason=form.cleaned_data["reason"], by=request.user
            )
        except services.EraseRefused as refused:
            form.add_error(None, str(refused))
        else:
            # Not their old name: the message waits in the session until shown.
            messages.success(request, f"Member erased: now {erased.name}.")
            return redirect("ratings:officer-member", pk=member.pk)
    kept = sorted(services.erase_kept(club=ClubSettings.load()))
    # Each one of the record's own columns (a field, never a relation's far side).
    labels = [
        str(cast("Field[Any, Any]", Member._meta.get_field(name)).verbose_name) for name in kept
    ]
    return render(
        request,
        "ratings/officer/member_erase.html",
        {"member": member, "form": form, "kept": labels},
    )


@officer_required
@require_POST
def member_merge_undo(request: HttpRequest, pk: int, merge: int) -> HttpResponse:
    """Undo a merge into this record (``services.member_merge_undo``): the duplicate back
    with its games, entries and payments, both re-rated."""
    done = get_object_or_404(
        MemberMerge.objects.select_related("kept", "removed"), pk=merge, kept_id=pk
    )
    try:
        run = services.member_merge_undo(merge=done, user=request.user)
    except services.UndoRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("ratings:officer-member", pk=pk)
    removed = done.removed
    messages.success(
        request,
        f"Merge undone: {removed.name} ({removed.member_number}) is a member again with "
        f"their games, entries and payments{rerated(run, '; ')}.",
    )
    return progress_or(run, redirect("ratings:officer-member", pk=pk))
