"""The treasurer's pages: a payment taken back, a season's renewals at once."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .. import services
from ..forms import RenewForm, SeasonPickForm, SubscriptionRemoveForm
from ..models import Member, Subscription
from .common import officer_required


@officer_required
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


@officer_required
def subscriptions_renew(request: HttpRequest) -> HttpResponse:
    """The start of a season: tick who has paid (last season's members ticked already),
    record them all at once."""
    if request.method == "POST":
        pick = SeasonPickForm(request.POST)
    else:
        pick = SeasonPickForm(request.GET or None)
    season = pick.chosen_season()
    candidates = services.renewal_candidates(season=season)
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
            request, f"{count} member{'s' if count != 1 else ''} recorded as paid for {season}."
        )
        return redirect(f"{request.path}?season={season.pk}")
    rows = list(candidates)
    if form.is_bound:
        ticked = {str(v) for v in request.POST.getlist("members")}
    else:
        ticked = {str(m.pk) for m in rows if m.paid_before}
    return render(
        request,
        "ratings/officer/renew.html",
        {
            "choices": pick.fields["season"].choices,
            "season_value": pick.value(),
            "form": form,
            "season": season,
            "rows": rows,
            "ticked": ticked,
            "previous": sum(1 for m in rows if m.paid_before),
        },
    )
