"""Who is published: the one rule every public page, report, calculator and export reads,
decided here on values (plain Python: no query, no model).

A member's rating is public if and only if they are a listed, financial member:

- not a guest (guests play and are rated, but are not members),
- not merged into another record (the survivor's record is the one published),
- and a subscription covers the day (today unless a report says otherwise).

Everyone else (members in arrears, guests) is rated like everyone else: their names and
scores appear, their ratings nowhere, nor any figure that would give one away. An
officer sees every rating, the unpublished ones marked. A club may keep them off its
public pages altogether (its setting, ``ClubSettings.keeps_unpublished_off``): then the
public reads each of them as an "Unpublished player" (``pages.kept_off``, ``as_shown``),
and their own page is not found.

The rule as a query is written once, in ``models/members.py`` beside the member it asks
about (``published_condition``, ``financial_condition``): the queryset's filter
(``Member.objects.published()``), its annotation (``with_published()``) and its set of
pks (``published_pks()``) all read it, so that no page can drift from the list. Here:
the standing in the club's words (``Membership``), the officer's reasons (``reason_of``)
and what a page shows of an event's ratings (``withhold_unpublished``).
``tests/web/test_publication.py`` holds every public URL of ``ratings/urls.py`` to it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import models

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from ..models import Member

#: The permission of those who see every rating, published or not.
OFFICER_PERMISSION = "ratings.officer"


class Membership(models.TextChoices):
    """A member's standing with the club on a day, in the club's words: the register's
    filters and badges, the member's pages and the members file all say it this way."""

    FINANCIAL = "financial", "financial"
    ARREARS = "arrears", "in arrears"
    GUEST = "guest", "guest"

    @classmethod
    def of(cls, *, guest: bool, financial: bool) -> Membership:
        """A guest is never a member, paid or not; a member is financial or in arrears."""
        if guest:
            return cls.GUEST
        return cls.FINANCIAL if financial else cls.ARREARS

    @property
    def filter_label(self) -> str:
        """The register's filter showing every member of this standing."""
        return "Guests" if self is Membership.GUEST else self.label.capitalize()


def sees_every_rating(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Officers see every rating (the unpublished ones marked); everyone else, the rule's.
    A user without permissions at all (no ``has_perm``) is not an officer."""
    has_perm = getattr(user, "has_perm", None)
    return has_perm is not None and bool(has_perm(OFFICER_PERMISSION))


# -- the club's choice: name unpublished members, or keep them off public pages ----------

#: How a member the club keeps off public pages appears there, in results, reports and
#: crosstables: they played, so their games and points stay, but not who they are.
UNPUBLISHED_PLAYER = "Unpublished player"


@dataclass(frozen=True)
class UnpublishedPlayer:
    """A member kept off public pages, as a page reads a member: a name that says only
    that, no number and no member page.

    ``pk`` is the member's own, for the page's sums (points by player) while it builds:
    no public page or answer prints it.
    """

    pk: int
    name: str = UNPUBLISHED_PLAYER
    member_number: str = ""
    is_guest: bool = False

    def get_absolute_url(self) -> str:
        return ""

    def __str__(self) -> str:
        return self.name


def as_shown(member: Member | None, hidden: set[int]) -> Member | UnpublishedPlayer | None:
    """``member`` as a page shows them: an ``UnpublishedPlayer`` if kept off
    (``pages.kept_off.kept_off``)."""
    if member is not None and member.pk in hidden:
        return UnpublishedPlayer(pk=member.pk)
    return member


#: Why a merged record's rating is not published: it is not a member's any more.
MERGED = "no: merged into another record"


def reason_of(*, merged: bool, guest: bool, financial: bool) -> str:
    """Why a member's rating is (not) published, in the words of the officer's list: the
    rule's three conditions, in the order an officer would fix them."""
    if merged:
        return MERGED
    membership = Membership.of(guest=guest, financial=financial)
    if membership != Membership.FINANCIAL:
        return f"no: {membership.label}"
    return "published"


def reason(member: Member) -> str:
    """``reason_of`` for a member read with ``is_financial`` (``Member.objects.with_financial``
    or ``published``)."""
    return reason_of(
        merged=bool(member.merged_into_id),
        guest=member.is_guest,
        financial=bool(getattr(member, "is_financial", False)),
    )


#: Game-line figures that are the opponent's rating itself, however the system names it.
OPPONENT_RATING_KEYS = frozenset(("opponent_rating", "held_from"))

#: Game-line figures worked from the opponent's rating, from which it is worked back:
#: st-charles' shift ((theirs - own) / 25), ecf-2020's difference and its offset.
OPPONENT_DERIVED_LINE_KEYS = OPPONENT_RATING_KEYS | {"shift", "d", "d_offset"}

#: A change's figures (the engine's breakdown keys) summed or averaged over the
#: opponents' ratings: with one withheld among them, the others shown give it back
#: ("Average opponent 1798.33" beside two shown ratings, nz-club-elo's "Expected").
#: Shown as withheld, not worked over the published opponents alone, so a figure on a
#: page is always the one the engine used (docs/architecture.md, "Who sees what").
OPPONENT_DERIVED_DETAIL = frozenset(
    ("expected", "avg_opp", "AR", "D", "D_table", "P", "Se", "Rp", "pass1_avg_opp", "sum_offsets")
)

#: What a page shows in place of a figure that would give a withheld rating away.
WITHHELD = "withheld"


def withhold_unpublished(
    rows: list[dict[str, Any]],
    *,
    shown: Collection[int],
    user: AbstractBaseUser | AnonymousUser,
) -> None:
    """An event's rating rows (``change_rows``) as ``user`` may see them: ``shown``, the
    pks of its players whose ratings the public may see (``published_pks()`` of them).

    Members in arrears and guests played, so their names stay, but not their ratings.
    An officer sees every rating; the unpublished ones are marked. The public sees none
    of them: not their own figures, nor their rating on an opponent's game lines, nor a
    figure it is worked back from: the expected score of a game against them, a line's
    shift or difference, and the change's figures over the opponents (average opponent,
    expected score in all) once one of them is withheld. A published player's own
    figures (before, after, each game's change) stay: they are theirs to check.
    """
    officer = sees_every_rating(user)
    for row in rows:
        member = row["member"]
        is_shown = member is not None and member.pk in shown
        row["unpublished"] = officer and not is_shown
        if officer or is_shown:
            met_withheld = False
            for game in row["games"]:
                opponent = game["opponent"]
                if not officer and (opponent is None or opponent.pk not in shown):
                    met_withheld = True
                    game["opponent_rating"] = None
                    game["expected"] = None
                    game["figure_used"] = None  # says the rating held
                    # A line's own figure that is the opponent's rating (acf-1993's
                    # rating held from before the 336 rule) or is worked from it goes
                    # with it.
                    game["extra"] = [
                        "–" if key in OPPONENT_DERIVED_LINE_KEYS else text
                        for key, text in zip(
                            game.get("extra_keys", ()), game["extra"], strict=True
                        )
                    ]
            if met_withheld:
                row["expected"] = None
                row["breakdown"] = [
                    (label, WITHHELD if key in OPPONENT_DERIVED_DETAIL else text)
                    for key, (label, text) in zip(
                        row.get("breakdown_keys", ()), row["breakdown"], strict=True
                    )
                ]
            continue
        row.update(
            hidden=True,
            before=None,
            after=None,
            change=None,
            expected=None,
            games=[],
            breakdown=[],
        )
