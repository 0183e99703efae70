"""The members file saved: checked against the record, then every member added or updated
and their membership this season recorded, all or nothing.

The file is read by ``formats.members_csv``; ``members_check`` adds what the record says
of it (a FIDE id another member holds) and saves nothing; ``payments_removed`` lists the
payments its "arrears" would take back; ``members_import`` saves a file with no problems
in one transaction, or raises ``ImportRefused``. Shared by the ``import_members`` command
and the officer's upload page.

Nothing recorded is removed without asking: a payment the file takes back is listed at the
preview, and removed only with the officer's reason, as the member page's "Remove" does
(``services.subscription_remove``: the audit trail keeps the payment, who and why).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.db.models.functions import Lower
from django.utils import timezone

from .. import services
from ..formats.members_csv import (
    ImportRefused,
    MemberRow,
    Problem,
    members_read,
    word_column,
)
from ..models import (
    ClubSettings,
    Member,
    Membership,
    RatingChange,
    RatingRun,
    Season,
    Subscription,
    financial_condition,
)
from ..rules.brought_in import (
    BLANK,
    BROUGHT_IN_FIELDS,
    STANDING,
    brought_in_problem,
    tidy_standing,
)
from ..rules.people import Person, PossibleDuplicate
from ..words.counts import count_phrase
from .history_rows import history_rows_write

#: Members and payments written by one statement.
BATCH = 2000


@dataclass
class MembersReport:
    created: int = 0
    updated: int = 0
    financial: int = 0
    arrears: int = 0
    guests: int = 0
    subscriptions_removed: int = 0
    season: str = ""
    run: RatingRun | None = None

    def __str__(self) -> str:
        text = (
            f"{count_phrase(self.created, 'member')} added, {self.updated} updated; "
            f"of the file's members this season ({self.season}), {self.financial} financial, "
            f"{self.arrears} in arrears, {count_phrase(self.guests, 'guest')} "
            f"({count_phrase(self.subscriptions_removed, 'subscription')} removed)."
        )
        if self.run is not None and self.run.status != RatingRun.Status.DONE:
            text += " Re-rating in the background."
        elif self.run is not None:
            text += f" Re-rated {count_phrase(self.run.events_rated, 'event')}."
        return text


@dataclass(frozen=True)
class PaymentRemoved:
    """A payment a members file would take back: its line said "arrears" for a member
    who has paid for the season."""

    line: int
    name: str
    subscription: Subscription

    def __str__(self) -> str:
        payment = f"the {self.subscription.season.name} payment"
        if self.subscription.amount is not None:
            payment += f" of {self.subscription.amount}"
        return f"{self.name}: {payment} would be removed"


class RemovalUnexplained(ImportRefused):
    """The file would take payments back and no reason was given: nothing was saved."""

    def __init__(self, removals: Sequence[PaymentRemoved]) -> None:
        self.removals = list(removals)
        super().__init__(
            [
                Problem(r.line, "membership", f"{r}; give the reason for removing it")
                for r in self.removals
            ]
        )


def payments_removed(
    rows: Sequence[MemberRow], *, today: dt.date | None = None
) -> list[PaymentRemoved]:
    """The payments importing ``rows`` on ``today`` would remove: this season's, of the
    members the file says are in arrears (earlier seasons stay). Reads one query."""
    today = today or timezone.localdate()
    arrears = {r.number.lower(): r for r in rows if r.membership == Membership.ARREARS}
    if not arrears:
        return []
    found = (
        Subscription.objects.filter(season__start__lte=today, season__end__gte=today)
        .annotate(number_lower=Lower("member__member_number"))
        .filter(number_lower__in=arrears)
        .select_related("season", "member")
    )
    removals = [
        PaymentRemoved(line=arrears[s.number_lower].line, name=s.member.name, subscription=s)
        for s in found
    ]
    return sorted(removals, key=lambda r: r.line)


def members_check(
    data: bytes | str, *, progress: Callable[[int, int], None] | None = None
) -> tuple[list[MemberRow], list[Problem]]:
    """Every member row of a file and every problem in it (nothing is saved).

    ``progress(rows read, rows in the file)`` as ``members_read`` tells it."""
    rows, problems = members_read(data, progress=progress)
    problems += _fide_ids_held(rows)
    problems += _ratings_dropped(rows)
    problems += _consented_addresses_cleared(rows)
    problems.sort(key=lambda p: p.line)
    return rows, problems


def _ratings_dropped(rows: list[MemberRow]) -> list[Problem]:
    """A rating brought in the club's system would drop (acf-1993's or ecf-2020's without
    the games behind it): refused at its line, naming the column to fill. A member's
    recorded games and standing count where the file leaves their columns out."""
    system = ClubSettings.load().engine()
    touching = [r for r in rows if any(name in r.fields for name in BROUGHT_IN_FIELDS)]
    if not touching:
        return []
    existing = members_any_case([r.number for r in touching])
    problems = []
    for row in touching:
        member = existing.get(row.number.lower())
        fields = {n: getattr(member, n) for n in BROUGHT_IN_FIELDS} if member else dict(BLANK)
        fields.update(
            {n: v for n, v in as_recorded(row, member).items() if n in BROUGHT_IN_FIELDS}
        )
        if problem := brought_in_problem(system, fields):
            asked = ["games", *(word_column(f.column) for f in system.brought_in_fields)]
            problems.append(
                Problem(row.line, "rating", f"{problem} In the file: {' or '.join(asked)}.")
            )
    return problems


def as_recorded(row: MemberRow, member: Member | None) -> dict[str, Any]:
    """The row's fields as the member's record would hold them: the words brought in
    that the file gives over the record's others (a word of another system's column
    absent from the file is kept)."""
    if STANDING not in row.fields:
        return row.fields
    kept = member.brought_in if member is not None else {}
    return {**row.fields, STANDING: tidy_standing({**kept, **row.fields[STANDING]})}


def _consented_addresses_cleared(rows: list[MemberRow]) -> list[Problem]:
    """An empty email cell for a member whose consent to club mail is recorded: their
    consent needs an address, so it is withdrawn on their record first, not by a file."""
    cleared = [row for row in rows if row.fields.get("email", None) == ""]
    if not cleared:
        return []
    consented = members_any_case([row.number for row in cleared])
    return [
        Problem(
            row.line,
            "email",
            f"clears the address of {member.name}, who consented to club mail: "
            "withdraw their consent on their record first",
        )
        for row in cleared
        if (member := consented.get(row.number.lower())) is not None
        and member.mail_consent_at is not None
    ]


def _fide_ids_held(rows: list[MemberRow]) -> list[Problem]:
    """One FIDE id, one member: an id another member holds."""
    problems = []
    first: dict[str, MemberRow] = {}
    for row in rows:
        fide_id = row.fields.get("fide_id", "")
        if fide_id:
            first.setdefault(fide_id, row)
    holders = Member.objects.active().filter(fide_id__in=first)
    for member in holders.only("name", "member_number", "fide_id"):
        row = first[member.fide_id]
        if row.number.lower() != member.member_number.lower():
            problems.append(
                Problem(
                    row.line,
                    "fide_id",
                    f"{member.fide_id} is the FIDE id of {member.name} ({member.member_number})",
                )
            )
    return problems


def numbers_in_any_case(numbers: set[str]) -> dict[str, tuple[str, str]]:
    """The recorded members whose number is one of ``numbers`` in any case: by lower case,
    (their number as recorded, their name)."""
    lowered = {n.lower() for n in numbers if n}
    rows = (
        Member.objects.annotate(number_lower=Lower("member_number"))
        .filter(number_lower__in=lowered)
        .values_list("member_number", "name")
    )
    return {number.lower(): (number, name) for number, name in rows}


def members_any_case(numbers: Sequence[str]) -> dict[str, Member]:
    """The members with these numbers in any case, by their number in lower case."""
    lowered = {n.lower() for n in numbers}
    found = Member.objects.annotate(number_lower=Lower("member_number")).filter(
        number_lower__in=lowered
    )
    return {m.member_number.lower(): m for m in found}


def members_import(
    *,
    data: bytes | str,
    user: Any = None,
    today: dt.date | None = None,
    removal_reason: str = "",
    listed: str | None = None,
    progress: Callable[[int, str], None] | None = None,
    before_commit: Callable[[MembersReport], None] | None = None,
) -> MembersReport:
    """Add or update the members of a file and record their membership this season.

    ``financial`` records a paid subscription for the current season; ``arrears``
    removes the current season's subscription (earlier seasons stay), only with
    ``removal_reason`` (refused, ``RemovalUnexplained``, without one: nothing saved);
    ``guest`` makes the player a guest. A change that moves ratings (guest status, date
    of birth, gender, title of a rated member) re-rates everything.

    ``listed``: the payments the officer's preview listed (``forms.listed_value``), when
    it was read a while before (the worker's save): any other payment to take back now is
    refused, nothing saved. ``progress(per cent, words)``: each step as it starts.
    ``before_commit(report)``: last, within the transaction (it may raise to undo it all).
    """

    def tell(percent: int, words: str) -> None:
        if progress is not None:
            progress(percent, words)

    def checked(done: int, total: int) -> None:
        # Checking the file again is the first half of a long save.
        tell(done * 50 // max(total, 1), f"Checking the file: {done:,} of {total:,} rows")

    rows, problems = members_check(data, progress=checked if progress else None)
    if problems:
        raise ImportRefused(problems)
    today = today or timezone.localdate()
    removal_reason = removal_reason.strip()
    report = MembersReport()
    with transaction.atomic():
        removals = payments_removed(rows, today=today)
        if listed is not None and ",".join(str(r.subscription.pk) for r in removals) != listed:
            raise ImportRefused(
                [
                    Problem(
                        removals[0].line if removals else 0,
                        "membership",
                        "the payments this file would take back have changed since the "
                        "preview (another officer's change): upload it again to see them",
                    )
                ]
            )
        if removals and not removal_reason:
            raise RemovalUnexplained(removals)
        tell(55, f"Saving {count_phrase(len(rows), 'member')}")
        # Members and payments are written past the model layer (no signals): every public
        # page may show them, and the published lists' figures are counted again.
        services.public_pages_changed()
        services.list_figures_forget()
        season = Season.for_day(today)
        report.season = season.name
        # A number matches its member in any case (r1056 is R1056, kept as recorded).
        existing = members_any_case([r.number for r in rows])
        recorded = {m.pk for m in existing.values()}
        rated = set(
            RatingChange.objects.filter(member__in=existing.values())
            .values_list("member_id", flat=True)
            .distinct()
        )
        new, changed, changed_fields = [], [], set()
        moves_ratings = False
        for row in rows:
            member = existing.get(row.number.lower())
            fields = as_recorded(row, member)
            if member is None:
                new.append(Member(member_number=row.number, **fields))
                continue
            diff = {k for k, v in fields.items() if getattr(member, k) != v}
            if not diff:
                continue
            for name in diff:
                setattr(member, name, fields[name])
            changed.append(member)
            changed_fields |= diff
            if member.pk in rated and diff & services.MEMBER_RATING_FIELDS:
                moves_ratings = True
        # Written in batches, their history (who, when, why) copied from the rows just
        # written by the database (``history_rows``): no statement or object per member.
        history = {"user": user, "reason": "import_members"}
        if new:
            Member.objects.bulk_create(new, batch_size=BATCH)
            history_rows_write(model=Member, pks=[m.pk for m in new], **history)
        if changed:
            Member.objects.bulk_update(changed, sorted(changed_fields), batch_size=BATCH)
            history_rows_write(model=Member, pks=[m.pk for m in changed], kind="~", **history)
        report.created, report.updated = len(new), len(changed)
        tell(70, "Recording this season's payments")
        # The file's members: those recorded and those just added (their pks returned).
        members = {**existing, **{m.member_number.lower(): m for m in new}}
        financial = [
            members[r.number.lower()] for r in rows if r.membership == Membership.FINANCIAL
        ]
        paid = set(
            Subscription.objects.filter(
                season=season, member__in=[m for m in financial if m.pk in recorded]
            ).values_list("member_id", flat=True)
        )
        payments = Subscription.objects.bulk_create(
            [
                Subscription(member=m, season=season, paid_on=today)
                for m in financial
                if m.pk not in paid
            ],
            batch_size=BATCH,
        )
        history_rows_write(model=Subscription, pks=[p.pk for p in payments], **history)
        # Taken back one by one as the member page takes one back, so the audit trail
        # records each with the officer's reason. Those listed above are all there are:
        # read in this transaction, the season the one covering ``today``.
        for removal in removals:
            services.subscription_remove(
                subscription=removal.subscription, user=user, reason=removal_reason
            )
            report.subscriptions_removed += 1
        tell(80, "Counting the members financial, in arrears and guests")
        # Counted as the members page will show them today: the file's members financial,
        # in arrears (a member, no season paid, whether or not the file said "arrears")
        # and guests.
        # One query (``services.members_with_membership``'s three conditions, counted).
        paid_up = financial_condition(today)
        counts = (
            Member.objects.active()
            .filter(pk__in=[m.pk for m in members.values()])
            .aggregate(
                financial=Count("pk", filter=paid_up & Q(is_guest=False)),
                arrears=Count("pk", filter=~paid_up & Q(is_guest=False)),
                guests=Count("pk", filter=Q(is_guest=True)),
            )
        )
        report.financial, report.arrears, report.guests = (
            counts["financial"],
            counts["arrears"],
            counts["guests"],
        )
        tell(90, "Re-rating" if moves_ratings else "Writing the new members' ratings")
        if moves_ratings:
            report.run = services.ratings_update(
                services.RerateRequest(user=user, reason="Members imported")
            )
        else:
            # New members (a rating brought in shows at once) and changed starting details
            # of members yet to play: their states alone.
            services.member_states_create(members=new)
            if changed:
                services.member_states_write(member_ids=[m.pk for m in changed])
        if before_commit is not None:
            before_commit(report)
    return report


#: How the preview names a member field a file changes.
FIELD_WORDS = {
    "name": "name",
    "born": "born",
    "gender": "gender",
    "region": "region",
    "title": "title",
    "fide_id": "FIDE id",
    "is_guest": "guest",
    "initial_rating": "rating brought in",
    "initial_games": "games brought in",
    "brought_in": "standing brought in",
    "email": "email",
}


def member_changes(
    rows: list[MemberRow],
    removals: Sequence[PaymentRemoved] = (),
    *,
    existing: dict[str, Member] | None = None,
) -> list[dict[str, Any]]:
    """Each row of a members file with the member it updates (or None: a new member) and
    what it changes, "field: before → after", and a payment it takes back (a change,
    never "unchanged"); one query for the whole file (none when given ``existing``,
    ``members_any_case`` of its numbers)."""
    if existing is None:
        existing = members_any_case([r.number for r in rows])
    removed = {r.line: r for r in removals}
    lines = []
    for row in rows:
        member: Member | None = existing.get(row.number.lower())
        changes = []
        fields = as_recorded(row, member)
        if member is not None:
            for field, value in fields.items():
                old = getattr(member, field)
                if old != value:
                    changes.append(f"{FIELD_WORDS[field]}: {_shown(old)} → {_shown(value)}")
        if row.line in removed:
            changes.append(str(removed[row.line]))
        lines.append(
            {
                "row": row,
                "member": member,
                "new": member is None,
                "changes": changes,
                "rating": row.fields.get("initial_rating"),
                "games": row.fields.get("initial_games"),
                "standing": " ".join(fields.get(STANDING, {}).values()),
            }
        )
    return lines


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        return ", ".join(f"{name} {word}" for name, word in value.items()) or "–"
    return str(value)


def members_file_duplicates(
    rows: Sequence[MemberRow], *, existing: dict[str, Member] | None = None
) -> list[PossibleDuplicate]:
    """The file's rows that may be one person with another row or with a member it does
    not number (``rules.people``): two "Ben Carter" lines born the same day, a new line
    for "Jose Alvarez" when José Alvarez is recorded. Shown at the preview, never refused:
    two people may share a name. ``existing``: as ``member_changes``."""
    if existing is None:
        existing = members_any_case([r.number for r in rows])
    coming = []
    for row in rows:
        member = existing.get(row.number.lower())

        def held(field: str, member: Member | None = member, row: MemberRow = row) -> Any:
            return row.fields.get(field) or (getattr(member, field) if member else None)

        coming.append(
            Person(
                ref=row.line,
                name=held("name") or "",
                born=held("born"),
                fide_id=held("fide_id") or "",
                where=f"line {row.line}",
            )
        )
    return services.possible_duplicates_find(
        coming=coming, matched=[m.pk for m in existing.values()]
    )
