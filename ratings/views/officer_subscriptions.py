"""The treasurer's pages: a payment taken back, a season's renewals at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .. import services
from ..forms import RenewForm, SeasonPickForm, SubscriptionRemoveForm
from ..models import Member, Subscription, name_search
from ..words.counts import count_phrase
from .common import subscriptions_required

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class PaidBefore(TypedDict):
    """A renewal candidate's mark (``services.renewal_candidates``): paid the season before."""

    paid_before: bool


@subscriptions_required
def subscription_remove(request: HttpRequest, pk: int, subscription: int) -> HttpResponse:
    """Take back a payment: asked first (with a reason for the audit), then removed."""
    member = get_object_or_404(Member, pk=pk)
    payment = get_object_or_404(
        Subscription.objects.select_related("season"), pk=subscription, member=member
    )
    form = SubscriptionRemoveForm(request.POST or None, subscription=payment)
    if request.method == "POST" and form.is_valid():
        services.subscription_remove(
            subscription=payment, user=request.user, reason=form.cleaned_data["reason"]
        )
        messages.success(
            request, f"{member.name}'s payment for {payment.season} removed: in arrears for it."
        )
        return redirect("ratings:officer-member", pk=member.pk)
    return render(
        request,
        "ratings/officer/subscription_remove.html",
        {"member": member, "payment": payment, "form": form},
    )


#: Members a page of the renewals lists: a federation's thousands are renewed a page at a time.
RENEW_PER_PAGE = 50


def _renewal_rows(
    request: HttpRequest, candidates: QuerySet[Member]
) -> QuerySet[WithAnnotations[Member, PaidBefore]]:
    """The candidates the officer's search keeps: a member number, or every word of a name."""
    search = request.GET.get("q", "").strip()
    return cast(
        "QuerySet[WithAnnotations[Member, PaidBefore]]", candidates.filter(name_search(search))
    )


@subscriptions_required
def subscriptions_renew(request: HttpRequest) -> HttpResponse:
    """The start of a season: tick who has paid (last season's members ticked already),
    record them a page at a time (50 a page, a search to find one member).

    Renewing is per page: what is recorded is the page's ticked members, no more; the
    page's unticked members stay listed, members on other pages are untouched. Those
    recorded leave the list, so the same page then shows the next members to renew.
    """
    if request.method == "POST":
        pick = SeasonPickForm(request.POST)
    else:
        pick = SeasonPickForm(request.GET or None)
    season = pick.chosen_season()
    candidates = services.renewal_candidates(season=season)
    shown = _renewal_rows(request, candidates)
    page = Paginator(shown, RENEW_PER_PAGE).get_page(request.GET.get("page"))
    form = RenewForm(request.POST or None, candidates=candidates)
    if request.method == "POST" and form.is_valid():
        season = form.chosen_season()
        count = services.subscriptions_renew(
            members=form.cleaned_data["members"],
            season=season,
            paid_on=form.cleaned_data["paid_on"],
            amount=form.cleaned_data["amount"],
            user=request.user,
        )
        messages.success(
            request, f"{count_phrase(count, 'member')} recorded as paid for {season}."
        )
        back = request.GET.copy()
        back["season"] = str(season.pk)
        return redirect(f"{request.path}?{back.urlencode()}")
    rows = list(page.object_list)
    if form.is_bound:
        ticked = {str(v) for v in request.POST.getlist("members")}
    else:
        ticked = {str(m.pk) for m in rows if m.paid_before}
    keep = request.GET.copy()
    keep.pop("page", None)
    keep["season"] = pick.value()
    return render(
        request,
        "ratings/officer/renew.html",
        {
            "choices": cast(forms.ChoiceField, pick.fields["season"]).choices,
            "season_value": pick.value(),
            "form": form,
            "season": season,
            "page": page,
            "page_range": page.paginator.get_elided_page_range(page.number),
            "keep": keep.urlencode() + "&",
            "query": request.GET.urlencode(),
            "search": request.GET.get("q", ""),
            "rows": rows,
            "ticked": ticked,
            "previous": shown.filter(paid_before=True).count(),
            # An empty page of a club with no members yet says what comes first.
            "club_has_members": bool(rows) or Member.objects.filter(is_guest=False).exists(),
        },
    )
