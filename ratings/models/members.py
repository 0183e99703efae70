"""Members: who is rated, found and counted. Who of them is financial and published, and
their subscriptions, are ``membership``'s."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import (
    Case,
    Count,
    ExpressionWrapper,
    FilteredRelation,
    Q,
    Value,
    When,
)
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords

from ..engine.codec import TITLES
from ..rules.brought_in import standing_problems, tidy_standing
from ..rules.mail import MAIL_KIND_KEYS, unknown_mail_kinds
from ..rules.names import fide_name, given_surname, name_key, name_words
from ..rules.publication import Membership
from ..rules.time_classes import STANDARD
from . import rules
from .membership import Subscription, financial_condition, published_condition, seasons_covering
from .rules import EARLIEST_DATE


class MemberQuerySet(models.QuerySet["Member"]):
    # Every way members are written in bulk (imports, the demo, a tournament's newcomers)
    # keeps their ``name_key``, as ``Member.save`` does: a member missing it would be found
    # by no search and matched by no file.
    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for member in objs:
            member.name_key = name_key(member.name)
            member.brought_in = tidy_standing(member.brought_in)
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs = list(objs)
        if "name" in fields:
            for member in objs:
                member.name_key = name_key(member.name)
            fields = [*fields, "name_key"]
        return super().bulk_update(objs, fields, *args, **kwargs)

    def active(self) -> MemberQuerySet:
        return self.filter(merged_into__isnull=True)

    def with_state(self, time_class: str = STANDARD) -> MemberQuerySet:
        """Each member's state on one list joined as ``rating_state`` (its fields read as
        ``rating_state__rating``, ``select_related("rating_state")`` fetches it)."""
        if "rating_state" in getattr(self.query, "_filtered_relations", {}):
            return self
        return self.annotate(
            rating_state=FilteredRelation(
                "rating_states", condition=Q(rating_states__time_class=time_class)
            )
        )

    def listable(self, time_class: str = STANDARD) -> MemberQuerySet:
        """Members with a rating to list: not a new player yet to play who brought none in
        (their state holds only the system's starting figure, nz's 1500). A rating brought
        in is a standard one: on another list a member is listed once they have played."""
        quiet = newcomer_condition(time_class)
        # ``rating_state`` is the FilteredRelation of ``with_state`` (django-stubs cannot see
        # it). The test is an expression on the one joined row: ``exclude()`` across the
        # reverse relation would add two correlated subqueries a member.
        joined = self.with_state(time_class).filter(rating_state__isnull=False)  # type: ignore[misc]
        return joined.alias(
            is_quiet=Case(When(quiet, then=Value(True)), default=Value(False))
        ).filter(is_quiet=False)

    def with_newcomer(self, time_class: str = STANDARD) -> MemberQuerySet:
        """Annotate ``is_newcomer`` (``newcomer_condition``) on the list's joined state."""
        return self.with_state(time_class).annotate(
            is_newcomer=ExpressionWrapper(
                newcomer_condition(time_class), output_field=models.BooleanField()
            )
        )

    def in_order(self) -> MemberQuerySet:
        """The current members (``active``), said so that a long list read in an order is
        read down that order's index, from its first row to its last: ``merged_into IS
        NULL`` (nearly every member) sends SQLite, which keeps no statistics on them, down
        the merged_into index and then sorts every one. PostgreSQL reads either alike."""
        return self.exclude(merged_into__isnull=False)

    def with_financial(
        self, day: dt.date | None = None, *, among: Any = None, each: bool = False
    ) -> MemberQuerySet:
        """Annotate ``is_financial``: a subscription covers ``day`` (default today), by
        ``financial_condition``, the one definition (``among``, ``each``: as its)."""
        return self.annotate(
            is_financial=ExpressionWrapper(
                financial_condition(day, among=among, each=each),
                output_field=models.BooleanField(),
            )
        )

    def published(
        self, day: dt.date | None = None, *, among: Any = None, each: bool = False
    ) -> MemberQuerySet:
        """These members whose rating the public may see on ``day`` (default today): the
        rule, ``published_condition`` (``among``, ``each``: as ``financial_condition``'s;
        ``among`` also keeps these to those members).

        They are annotated ``is_financial`` (true): the tables that mark why a member is or
        is not published read it (``rules.publication.reason``).
        """
        members = self if among is None else self.filter(pk__in=among)
        return members.filter(published_condition(day, among=among, each=each)).annotate(
            is_financial=Value(True, output_field=models.BooleanField())
        )

    def with_published(self, day: dt.date | None = None, *, among: Any = None) -> MemberQuerySet:
        """Each member annotated ``is_published``: whether the public may see their rating
        (``among``: as ``financial_condition``'s, for a few members)."""
        return self.annotate(
            is_published=ExpressionWrapper(
                published_condition(day, among=among), output_field=models.BooleanField()
            )
        )

    def published_pks(self, day: dt.date | None = None, *, among: Any = None) -> set[int]:
        """The pks of these members whose rating the public may see, in one query: of a few
        members (``filter(pk__in=ids)``, with ``among=ids``), of an event's players
        (``filter(entries__event=event)``, as on the published list)."""
        published = self.filter(published_condition(day, among=among))
        return set(published.values_list("pk", flat=True))


def member_names(pks: Collection[int]) -> dict[int, str]:
    """These members' names by pk, in one query: the record's rules name the players they
    find (``rules.twice_in_round_problems``)."""
    return dict(Member.objects.filter(pk__in=list(pks)).values_list("pk", "name"))


#: The words of a search read, the first ones different: more than any name has.
SEARCH_WORDS = 8


def name_search(text: str, *, through: str = "") -> Q:
    """Members whose name holds every word typed, whatever its case, accents or order, or
    whose number is the word typed: "jose alv" and "ALVAREZ" find José Alvarez, "r1003"
    finds R1003. ``through`` is the path to the member from the rows searched
    ("member__")."""
    found = Q()
    # Each different word once, and no more words than a name has: a query of thousands
    # of words (pasted, or sent by a script) would otherwise nest a condition a word,
    # deeper than the database parses ("Expression tree is too large" on SQLite).
    words = list(dict.fromkeys(word.casefold() for word in text.split()))[:SEARCH_WORDS]
    for word in words:
        named = Q()
        # A word's parts ("-9-9-9" is thousands of "9"s) likewise.
        for part in list(dict.fromkeys(name_words(word)))[:SEARCH_WORDS]:
            named &= Q(**{f"{through}name_key__contains": part})
        numbered = Q(**{f"{through}member_number__iexact": word})
        found &= (named | numbered) if named else numbered
    return found


def newcomer_condition(time_class: str = STANDARD) -> Q:
    """A new player yet to play on a list who brought no rating in: their state holds
    only the system's starting figure (nz's 1500), which is no rating yet, so they are not
    listed and the register shows no figure. A rating brought in is a standard one: on
    another list a member is listed once they have played. On the state joined as
    ``rating_state`` (``MemberQuerySet.with_state``)."""
    quiet = Q(rating_state__last_event__isnull=True, rating_state__games=0)
    if time_class == STANDARD:
        quiet &= Q(initial_rating__isnull=True)
    return quiet


def register_size(
    found: Any = None, *, day: dt.date | None = None, among: Any = None, each: bool = False
) -> tuple[int, int, int]:
    """The officer's register counted, as its membership filters narrow it: the current
    members of ``found`` (default every one), the guests of them, and the financial
    members who are not guests on ``day`` (``financial_condition``; the rest are in
    arrears). One query, the paid-up members listed once. ``among``: these members
    alone (a member's share of the kept counts, ``services.list_figures``). ``each``: a
    few of the register (a name searched), each asked down the (member, season) index
    rather than the list of every paid-up member made (``financial_condition``'s): at
    200,000 members a search's counts took 150 ms on SQLite, 83 on PostgreSQL, and 94
    and 33 so."""
    if found is None and among is None and not each:
        return _whole_register_size(day)
    if found is None:
        found = Member.objects.in_order()
    if among is not None:
        found = found.filter(pk__in=among)
    counted = found.aggregate(
        everyone=Count("pk"),
        guests=Count("pk", filter=Q(is_guest=True)),
        financial=Count(
            "pk", filter=financial_condition(day, among=among, each=each) & Q(is_guest=False)
        ),
    )
    return counted["everyone"], counted["guests"], counted["financial"]


def _whole_register_size(day: dt.date | None) -> tuple[int, int, int]:
    """``register_size`` of the whole register: its financial members counted as the
    paid-up (their subscriptions to the seasons covering the day, read down the (season,
    member) index alone) less those of them merged away or guests (a few, each asked
    down the (member, season) index). Asked of every member at once, PostgreSQL hashed
    every paid-up member to probe it with each (100-146 ms at 200,000; this, some 50): the
    count of a forgetting write, and the members page's before it lands."""
    members = Member.objects.in_order().aggregate(
        everyone=Count("pk"), guests=Count("pk", filter=Q(is_guest=True))
    )
    paid = Subscription.objects.filter(season__in=seasons_covering(day or timezone.localdate()))
    paid_up = paid.aggregate(n=Count("member_id", distinct=True))["n"]
    unlisted = Member.objects.filter(Q(merged_into__isnull=False) | Q(is_guest=True))
    not_counted = unlisted.filter(financial_condition(day, each=True)).count()
    return members["everyone"], members["guests"], paid_up - not_counted


#: The highest initial rating a member may be given (``rules.MAX_RATING``).
MAX_INITIAL_RATING = rules.MAX_RATING


class MailConsent(models.TextChoices):
    """How a member gave their consent to club mail: kept with when, so the club can say."""

    IN_PERSON = "in_person", "in person"
    SIGNED_FORM = "signed_form", "signed form"
    BY_EMAIL = "by_email", "by email"
    ONLINE = "online", "online"


#: Why a member's consent cannot be recorded without an address (the form, the admin and
#: the database say it alike).
CONSENT_NEEDS_EMAIL = "Consent to club mail needs an email address to send to."


class Member(models.Model):
    class Gender(models.TextChoices):
        MALE = "M", "Male"
        FEMALE = "F", "Female"

    member_number = models.CharField(
        max_length=32,
        unique=True,
        validators=[RegexValidator(r"^[\w.-]+$", "Letters, digits, '.', '-' or '_' only.")],
        help_text="The club's own id for the member (the 'id' column of imports).",
    )
    name = models.CharField(max_length=120, db_index=True)
    # The name without case, accents or order (``rules.names.name_key``), kept with every
    # save: searches and the files' players find "José Alvarez" as "Jose Alvarez" in SQL.
    name_key = models.CharField(max_length=240, db_index=True, editable=False, default="")
    # A file's form of the name when the club's "Given Surname" would not give it back
    # ("Mirzoev Azer", surname first without a comma): the files written take it as it came.
    name_in_files = models.CharField(
        "name as files write it",
        max_length=120,
        blank=True,
        editable=False,
        help_text="The name as the tournament file that brought the member in wrote it.",
    )
    born = models.DateField("date of birth", null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        "year of birth",
        null=True,
        blank=True,
        help_text="The year a tournament file gave, when it gave no full date of birth.",
    )
    federation = models.CharField(
        max_length=3,
        blank=True,
        validators=[RegexValidator(r"^[A-Z]{3}$", "Three capital letters (FIDE's code).")],
        help_text="The member's chess federation (FIDE's three-letter code).",
    )
    gender = models.CharField(max_length=1, choices=Gender.choices, blank=True)
    region = models.CharField(
        "region / state",
        max_length=40,
        blank=True,
        db_index=True,
        validators=[rules.validate_text],
    )
    title = models.CharField(
        "FIDE title", max_length=3, blank=True, choices=[(t, t) for t in TITLES]
    )
    fide_id = models.CharField(
        "FIDE id",
        max_length=12,
        blank=True,
        validators=[RegexValidator(r"^\d+$", "A FIDE id is digits only.")],
    )
    is_guest = models.BooleanField(
        "guest",
        default=False,
        help_text="Guests play in events but are not members: they never get a published rating.",
    )
    initial_rating = models.FloatField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(0, "A rating cannot be below 0."),
            MaxValueValidator(
                MAX_INITIAL_RATING,
                f"A rating is at most {MAX_INITIAL_RATING}.",
            ),
        ],
        help_text="The member's rating before their first event here (blank: a new player).",
    )
    initial_games = models.PositiveIntegerField(
        default=0,
        validators=[
            MinValueValidator(0, "Games played cannot be below 0."),
            MaxValueValidator(rules.MAX_GAMES, f"Games played are at most {rules.MAX_GAMES:,}."),
        ],
        help_text="Rated games played before the first event here.",
    )
    # What a rating brought in is, in the words of the systems that say more than a
    # number (``engine.BroughtInField``: acf-1993's status, ecf-2020's category), by the
    # word's name, blanks left out: a system added in the engine brings its own words and
    # needs no column. A word absent is worked out from the games.
    brought_in = models.JSONField(
        "standing brought in",
        default=dict,
        blank=True,
        help_text="The words the rating brought in carries for the systems that read them.",
    )
    # Club mail (``ratings.rules.mail``): an address, the member's consent (when and how:
    # withdrawn, it is cleared) and the kinds of message they want, as the keys of
    # ``MAIL_KINDS``, so a new kind is a line of data and no migration.
    email = models.EmailField("email", blank=True)
    mail_consent_at = models.DateTimeField(
        "consent to club mail given",
        null=True,
        blank=True,
        help_text="When the member agreed to club mail (blank: no consent, no mail).",
    )
    mail_consent_how = models.CharField(
        "consent given",
        max_length=12,
        blank=True,
        choices=MailConsent.choices,
        help_text="How the member gave their consent.",
    )
    mail_wanted = models.JSONField(
        "messages wanted",
        default=list,
        blank=True,
        help_text="The kinds of club mail the member asked for.",
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_from",
        help_text="Set when this record was merged into another (a duplicate).",
    )
    # The event whose import (or players page) created the record: deleting that event
    # offers to delete them too, while they have nothing besides what it gave them.
    brought_in_by = models.ForeignKey(
        "Event",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="members_brought_in",
        help_text="The event whose import or players page created this record.",
    )
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    objects = MemberQuerySet.as_manager()

    class Meta:
        ordering = ["name", "member_number"]
        constraints = [
            # Numbers are typed in any case (results, pasted rounds): A1 and a1 are one.
            models.UniqueConstraint(
                Lower("member_number"),
                name="member_number_unique_any_case",
                violation_error_message="Another member has this number.",
            ),
            models.CheckConstraint(
                condition=Q(initial_rating__gte=0, initial_rating__lte=rules.MAX_RATING)
                | Q(initial_rating__isnull=True),
                name="member_rating_brought_in_in_bounds",
                violation_error_message=f"A rating brought in is from 0 to {rules.MAX_RATING}.",
            ),
            models.CheckConstraint(
                condition=Q(initial_games__lte=rules.MAX_GAMES),
                name="member_games_brought_in_in_bounds",
                violation_error_message=f"Games played before are at most {rules.MAX_GAMES:,}.",
            ),
            # One FIDE id, one person: a file's player is matched by it first, so two
            # records with one id would leave the next file's player matching neither.
            # A merged duplicate keeps its id (its old links still resolve) and is no
            # longer a member, so it does not count.
            models.UniqueConstraint(
                fields=["fide_id"],
                condition=~models.Q(fide_id="") & models.Q(merged_into__isnull=True),
                name="fide_id_one_member",
                violation_error_message="Another member has this FIDE id.",
            ),
            models.CheckConstraint(
                condition=Q(mail_consent_at__isnull=True) | ~Q(email=""),
                name="member_mail_consent_needs_email",
                violation_error_message=CONSENT_NEEDS_EMAIL,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        key = name_key(self.name)
        fields = kwargs.get("update_fields")
        if key != self.name_key:
            self.name_key = key
            if fields is not None:
                kwargs["update_fields"] = {*fields, "name_key"}
        # One text for the same words (``rules.brought_in.tidy_standing``): a record is
        # compared with its first history line in SQL.
        if isinstance(self.brought_in, dict):
            self.brought_in = tidy_standing(self.brought_in)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("ratings:member", args=[self.member_number])

    @property
    def name_for_files(self) -> str:
        """The name a tournament file is written with: as a file gave it, while the club's
        name is the one that file's name was read as; else "Surname, Given"."""
        if self.name_in_files and given_surname(self.name_in_files) == self.name:
            return self.name_in_files
        return fide_name(self.name)

    def clean(self) -> None:
        problem = rules.member_name_problem(self.name)
        if problem:
            raise ValidationError({"name": problem})
        # A birth date decides the junior lists and ecf-2020's junior rules.
        if self.born is not None and self.born > timezone.localdate():
            raise ValidationError({"born": "A date of birth cannot be in the future."})
        if self.born is not None and self.born < EARLIEST_DATE:
            raise ValidationError(
                {"born": f"A date of birth before {EARLIEST_DATE.year} is surely a slip."}
            )
        problems = mail_problems(self)
        if problems:
            raise ValidationError(problems)

    def clean_fields(self, exclude: Any = None) -> None:
        """The words brought in checked with the field, where a form edits it: a form
        showing them as fields of their own (the member's form) checks them there."""
        errors: dict[str, list[str]] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.message_dict
        if not exclude or "brought_in" not in exclude:
            if not isinstance(self.brought_in, dict):
                errors.setdefault("brought_in", []).append("A mapping of word to value.")
            else:
                found = standing_problems(self.initial_rating, self.initial_games, self.brought_in)
                if found:
                    errors.setdefault("brought_in", []).extend(found.values())
        if errors:
            raise ValidationError(errors)

    def namesakes(self) -> list[str]:
        """The numbers of the other current members with this name, in any case, accents
        or order (``rules.names.name_key``)."""
        others = Member.objects.active().filter(name_key=name_key(self.name)).exclude(pk=self.pk)
        return list(others.values_list("member_number", flat=True))

    def is_financial_on(self, day: dt.date | None = None) -> bool:
        """Whether a subscription covers ``day`` (default today): ``financial_condition``."""
        return Member.objects.filter(pk=self.pk).filter(financial_condition(day)).exists()

    def is_published_on(self, day: dt.date | None = None) -> bool:
        """Whether the public may see this member's rating on ``day`` (default today), in
        one query."""
        return bool(Member.objects.filter(pk__in=[self.pk]).published_pks(day, among=[self.pk]))

    def membership_on(self, day: dt.date | None = None) -> Membership:
        """The member's standing on ``day``: read from ``is_financial`` where the member was
        fetched with it (``with_financial``, today), else asked (one query)."""
        financial = getattr(self, "is_financial", None) if day is None else None
        if financial is None:
            financial = False if self.is_guest else self.is_financial_on(day)
        return Membership.of(guest=self.is_guest, financial=bool(financial))

    def brought_in_standing(self, kind: str | None) -> str | None:
        """The word of ``kind`` recorded with the rating brought in; None when blank."""
        return ((self.brought_in or {}).get(kind) or None) if kind else None

    @property
    def engine_id(self) -> str:
        return str(self.pk)

    def age_on(self, day: dt.date) -> int | None:
        return age_on(self.born, day)


def mail_problems(member: Member) -> dict[str, str]:
    """What is wrong with a member's club mail details, by field: consent needs an address
    and says how it was given; the messages wanted are kinds the club sends."""
    problems = {}
    if member.mail_consent_at is not None and not member.email:
        problems["email"] = CONSENT_NEEDS_EMAIL
    if member.mail_consent_at is not None and not member.mail_consent_how:
        problems["mail_consent_how"] = "Say how the member gave their consent."
    elif member.mail_consent_at is None and member.mail_consent_how:
        problems["mail_consent_how"] = "No consent is recorded: leave how it was given blank."
    if unknown := unknown_mail_kinds(member.mail_wanted):
        problems["mail_wanted"] = (
            f"Not a kind of club mail: {', '.join(unknown)} (kinds: {', '.join(MAIL_KIND_KEYS)})."
        )
    return problems


def age_on(born: dt.date | None, day: dt.date) -> int | None:
    """Whole years of age on ``day``; None when the birth date is unknown. (The engine,
    which knows no Django, has its own: ``PlayerState.age_on``.)"""
    if born is None:
        return None
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))
