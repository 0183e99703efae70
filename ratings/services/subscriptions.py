"""Subscriptions: what a treasurer does (a season paid, a payment taken back, a season's
renewals at once) and the audit lines that say so in the club's words.

Financial status is derived from the subscriptions covering a day, never stored, so none of
this re-rates anything: it only moves members on or off the published list.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from ..models import Member, Membership, Season, Subscription, financial_condition, rules
from .audit import REASON_LENGTH, audit_user, delete_with_history
from .list_figures import list_figures_forget
from .public_pages import public_pages_changed

#: The history's reason for a subscription paid by a new member on the night an event
#: brought them in (an import's or the players page's "paid tonight"): such a payment is
#: the event's, and does not keep the member if the event is deleted.
PAID_ON_JOINING = "paid on joining"

#: The officer's filters of the register: what each shows.
MEMBERSHIP_FILTERS = {m.value: m.filter_label for m in Membership}


def members_with_membership(
    members: QuerySet[Member], *, status: str, day: dt.date | None = None, each: bool = False
) -> QuerySet[Member]:
    """``members`` narrowed to one of ``MEMBERSHIP_FILTERS`` on ``day`` (default today):
    financial (paid, not a guest), in arrears (a member, not paid) or guests. Any other
    ``status`` leaves them as they are. ``each``: asked of each member in turn
    (``financial_condition``'s), for a page read in order that stops at its last row."""
    paid = financial_condition(day, each=each)
    if status == Membership.FINANCIAL:
        return members.filter(paid, is_guest=False)
    if status == Membership.ARREARS:
        return members.exclude(paid).filter(is_guest=False)
    if status == Membership.GUEST:
        return members.filter(is_guest=True)
    return members


def subscription_on_joining(
    *, member: Member, user: Any = None, next_season: bool = False
) -> Subscription:
    """Record this season paid for ``member``, just added and paid on the night (the
    officer's "paid tonight" box), so a newcomer is financial from their first event;
    ``next_season``: the season after this one (paid near this one's end, for the next)."""
    season = Season.for_day(timezone.localdate())
    if next_season:
        season = Season.for_day(season.end + dt.timedelta(days=1))
    return subscription_record(
        member=member,
        season=season,
        user=user,
        reason=PAID_ON_JOINING,
    )


def subscription_record(
    *,
    member: Member,
    season: Season,
    paid_on: dt.date | None = None,
    amount: Decimal | None = None,
    user: Any = None,
    reason: str = "",
) -> Subscription:
    """Record that ``member`` paid for ``season`` (on ``paid_on``, default today); the audit
    trail names ``user`` and ``reason``. A guest who pays becomes a member: a paying guest
    is a contradiction the published list would otherwise hide. Refused
    (``rules.RecordRefused``): a date before 1900 or over a year ahead, an amount below 0."""
    payment_check(paid_on=paid_on, amount=amount)
    who = audit_user(user)
    with transaction.atomic():
        subscription = Subscription(
            member=member, season=season, paid_on=paid_on or timezone.localdate(), amount=amount
        )
        subscription._history_user = who  # type: ignore[attr-defined]
        subscription._change_reason = reason[:REASON_LENGTH]  # type: ignore[attr-defined]
        subscription.save()
        if member.is_guest:
            member.is_guest = False
            member._history_user = who  # type: ignore[attr-defined]
            member._change_reason = f"paid for {season}"  # type: ignore[attr-defined]
            member.save(update_fields=["is_guest"])
    return subscription


def payment_check(*, paid_on: dt.date | None, amount: Decimal | None) -> None:
    """Refuse a payment the record's rules refuse, by field (``rules.RecordRefused``)."""
    errors = {}
    if problem := rules.paid_on_problem(paid_on):
        errors["paid_on"] = problem
    if problem := rules.amount_problem(amount):
        errors["amount"] = problem
    if errors:
        raise rules.RecordRefused(errors)


def subscription_remove(*, subscription: Subscription, user: Any = None, reason: str = "") -> None:
    """Take back a recorded payment (recorded in error, refunded): the member is in arrears
    for that season again. The audit trail keeps the payment, who removed it and why."""
    subscription._change_reason = reason[:REASON_LENGTH]  # type: ignore[attr-defined]
    with transaction.atomic():
        delete_with_history([subscription], user=audit_user(user))


def renewal_candidates(*, season: Season) -> QuerySet[Member]:
    """The members who may renew for ``season`` (saved or not yet): current members (not
    guests) who have not paid for it, annotated ``paid_before`` (they paid the season
    before: the usual renewals), those first."""
    members = Member.objects.active().filter(is_guest=False)
    if season.pk is not None:
        members = members.exclude(
            Exists(Subscription.objects.filter(member=OuterRef("pk"), season=season))
        )
    previous = Season.objects.filter(end__lt=season.start).order_by("-end").first()
    paid_before = Subscription.objects.filter(member=OuterRef("pk"), season=previous)
    if previous is None:
        paid_before = paid_before.none()
    return members.annotate(paid_before=Exists(paid_before)).order_by("-paid_before", "name", "pk")


def subscriptions_renew(
    *,
    members: Iterable[Member],
    season: Season,
    paid_on: dt.date | None = None,
    amount: Decimal | None = None,
    user: Any = None,
    reason: str = "",
) -> int:
    """Record ``season`` paid for each of ``members`` at once (the start of a season);
    members who have already paid for it are left as they are. How many were recorded.
    ``reason``: the history's (default "renewed for <season>"). Refused as
    ``subscription_record`` refuses."""
    payment_check(paid_on=paid_on, amount=amount)
    paid_on = paid_on or timezone.localdate()
    with transaction.atomic():
        ids = {m.pk for m in members}
        have = set(
            Subscription.objects.filter(season=season, member_id__in=ids).values_list(
                "member_id", flat=True
            )
        )
        new = [
            Subscription(member_id=pk, season=season, paid_on=paid_on, amount=amount)
            for pk in sorted(ids - have)
        ]
        if new:
            # Written past the model layer (no signal): who is published changes.
            public_pages_changed()
            list_figures_forget()
            bulk_create_with_history(
                new,
                Subscription,
                default_user=audit_user(user),
                default_change_reason=reason or f"renewed for {season}",
            )
    return len(new)


# -- the audit lines ---------------------------------------------------------------------


@dataclass(frozen=True)
class AuditLine:
    """One change to a member's subscriptions, as the officer's page writes it."""

    when: dt.datetime
    who: str
    what: str
    reason: str


def _payment(record: Any, seasons: dict[int, Season]) -> str:
    season = seasons.get(record.season_id)
    name = season.name if season else "a deleted season"
    paid = f"paid {_day(record.paid_on)}"
    if record.amount is not None:
        paid += f", {record.amount}"
    return f"{name} ({paid})"


def subscription_audit(*, member: Member, limit: int = 20) -> Sequence[AuditLine]:
    """The latest changes to ``member``'s subscriptions, newest first, in words: "Payment
    recorded: 2026 (paid 3 Mar 2026, 20.00)", "Payment removed: …", "Payment changed:
    paid 3 Mar 2026 → 4 Mar 2026". Reads two queries whatever the history holds."""
    records = list(
        Subscription.history.filter(member_id=member.pk)
        .select_related("history_user")
        .order_by("-history_date", "-history_id")[: limit + 1]
    )
    seasons = Season.objects.in_bulk({r.season_id for r in records})
    lines = []
    for record in records[:limit]:
        if record.history_type == "+":
            what = f"Payment recorded: {_payment(record, seasons)}"
        elif record.history_type == "-":
            what = f"Payment removed: {_payment(record, seasons)}"
        else:
            what = _changed(record, seasons)
            if not what:
                continue
        who = record.history_user.get_username() if record.history_user else "a command"
        lines.append(
            AuditLine(
                when=record.history_date,
                who=who,
                what=what,
                reason=record.history_change_reason or "",
            )
        )
    return lines


def _changed(record: Any, seasons: dict[int, Season]) -> str:
    previous = record.prev_record
    if previous is None:
        return f"Payment changed: {_payment(record, seasons)}"
    delta = record.diff_against(previous)
    parts = []
    for change in delta.changes:
        if change.field == "paid_on":
            parts.append(f"paid {_day(change.old)} → {_day(change.new)}")
        elif change.field == "amount":
            parts.append(f"amount {change.old or '–'} → {change.new or '–'}")
        elif change.field == "season":
            parts.append(f"season {_season(change.old, seasons)} → {_season(change.new, seasons)}")
    return f"Payment changed: {'; '.join(parts)}" if parts else ""


def _day(value: Any) -> str:
    return f"{value:%d %b %Y}".lstrip("0") if value else "–"


def _season(pk: Any, seasons: dict[int, Season]) -> str:
    season = seasons.get(pk) or Season.objects.filter(pk=pk).first()
    return season.name if season else "–"
