"""A small club with one record of every kind, for the permission matrix and the leak check.

Members in arrears and guests get ratings far above everyone else's (2300 to 2799), so a
page showing one of their ratings (or a figure equal to one) is found by a plain search.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import Group, User
from django.contrib.contenttypes.models import ContentType
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ratings import services
from ratings.models import (
    ClubSettings,
    Comparison,
    ComparisonRating,
    Entry,
    Event,
    FideRating,
    Game,
    ListStanding,
    MailMessage,
    Member,
    MemberImport,
    MemberImportLine,
    MemberMerge,
    PublicPagesVersion,
    PublicPagesWithdrawal,
    PublishedListFigures,
    RatingChange,
    RatingList,
    RatingPeriod,
    RatingRun,
    RatingState,
    Season,
    Subscription,
)
from ratings.services.accounts import (
    TREASURER,
    administrator_create,
    event_directors_set,
    officer_create,
    role_give,
)

from ..factories import EventFactory, GameFactory, MemberFactory, SubscriptionFactory

#: Any rating of an unpublished player shows as a number in this band; no published
#: member's rating comes near it (they start at 1500 to 1600).
#: A number on its own: not part of a longer one, a decimal, or a word (a CSRF token's
#: random letters and digits hold such runs of digits now and then).
UNPUBLISHED_BAND = re.compile(r"(?<![\w.])2[3-7]\d\d(?:\.\d+)?(?![\w])")


@dataclass
class Club:
    users: dict[str, User | None]
    objects: dict[str, Any]
    published: list[Member]
    unpublished: list[Member]
    event: Event
    draft: Event
    run: RatingRun  # a failed background run: the one an officer may retry


def _ids_past_the_band() -> None:
    """On PostgreSQL the tests' ids keep growing (sequences are not rolled back) and reach
    the thousands: an event's id in a URL or the API would read as a rating in the band.
    Move every sequence to six digits first; SQLite's ids stay small."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for sequence in connection.introspection.sequence_list():
            name = sequence.get("name")
            if name:
                cursor.execute("SELECT setval(%s, GREATEST(nextval(%s), 100000))", [name, name])


def build_club() -> Club:
    _ids_past_the_band()
    today = timezone.localdate()
    season = Season.for_day(today)
    last = Season.objects.create(
        name="last",
        start=season.start - dt.timedelta(days=365),
        end=season.start - dt.timedelta(days=1),
    )
    published = [
        MemberFactory(member_number=f"P{i}", name=name, initial_rating=rating, initial_games=40)
        for i, (name, rating) in enumerate(
            [("Pia Paid", 1500), ("Quinn Paid", 1550), ("Rosa Paid", 1600)], 1
        )
    ]
    for member in published:
        SubscriptionFactory(member=member, season=season)
    # An address, so that Pia's own links (my page, unsubscribing) open her pages.
    Member.objects.filter(pk=published[0].pk).update(email="pia@example.org")
    published[0].email = "pia@example.org"
    arrears = MemberFactory(
        member_number="X1", name="Arnold Arrears", initial_rating=2777, initial_games=40
    )
    SubscriptionFactory(member=arrears, season=last)  # paid last season, not this one
    guest = MemberFactory(
        member_number="G1", name="Gina Guest", initial_rating=2345, initial_games=40, is_guest=True
    )
    day = today - dt.timedelta(days=20)
    event = EventFactory(
        name="Club night", start_date=day, end_date=day, rounds=2, status=Event.Status.COMPLETE
    )
    pia, quinn, rosa = published
    for round_, white, black, result in [
        (1, pia, arrears, Game.Result.WHITE_WIN),
        (1, quinn, guest, Game.Result.DRAW),
        (2, arrears, quinn, Game.Result.BLACK_WIN),
        (2, guest, rosa, Game.Result.WHITE_WIN),
        (2, pia, None, Game.Result.BYE),
    ]:
        GameFactory(event=event, round=round_, white=white, black=black, result=result)
    for member in [*published, arrears, guest]:
        Entry.objects.create(event=event, member=member)
    services.ratings_rerate(services.RerateRequest(start=event, reason="Club night rated"))
    run = RatingRun.objects.create(
        reason="Correction a year back",
        system=ClubSettings.load().rating_system,
        status=RatingRun.Status.FAILED,
        message="The worker stopped during this run",
    )
    draft_day = today - dt.timedelta(days=3)
    draft = EventFactory(
        name="Draft night",
        start_date=draft_day,
        end_date=draft_day,
        rounds=3,
        kind=Event.Kind.SWISS,
    )
    for member in published:
        Entry.objects.create(event=draft, member=member)
    GameFactory(event=draft, round=1, white=pia, black=quinn, result=Game.Result.WHITE_WIN)

    officer = officer_create(username="olivia", password="correct-horse-42")
    # The director is given the draft event, not the rated one (their "other event").
    director = User.objects.create_user("dora", password="director-pass-42")
    event_directors_set(event=draft, users=[director])
    users: dict[str, User | None] = {
        "anonymous": None,
        "member": User.objects.create_user("mel", password="member-pass-42"),
        "director": director,
        "treasurer": role_give(
            user=User.objects.create_user("tess", password="treasurer-pass-42"), role=TREASURER
        ),
        "officer": officer,
        # The administrator, as the first-run page makes one: a superuser in the group.
        "administrator": administrator_create(
            username="root", password="root-pass-42", email="root@example.org"
        ),
    }
    period = RatingPeriod.objects.create(
        system="acf-1993", label="2026-Q1", start=dt.date(2026, 1, 1), end=dt.date(2026, 3, 31)
    )
    task = DBTaskResult.objects.create(
        id=uuid.uuid4(),
        args_kwargs={"args": [], "kwargs": {"run_pk": run.pk, "start": None}},
        task_path="ratings.services.runs.rerate_in_background",
        backend_name="default",
        run_after=timezone.now(),
    )
    attempt = AccessAttempt.objects.create(
        username="mel", ip_address="10.0.0.9", user_agent="x", failures_since_start=1
    )
    log = AccessLog.objects.create(username="mel", ip_address="10.0.0.9", user_agent="x")
    failure = AccessFailureLog.objects.create(
        username="mel", ip_address="10.0.0.9", user_agent="x"
    )
    # A long members file read by the worker, waiting for the officer's confirmation.
    member_import = MemberImport.objects.create(
        filename="register.csv",
        text="id,name\nR9001,Matrix Member\n",
        status=MemberImport.Status.READ,
        rows_total=1,
        rows_done=1,
        progress=100,
        preview={"problems": [], "lines": 1, "removals": [], "duplicates": []},
    )
    # A published list, and a finished comparison (published), for their pages.
    publication = services.list_publish(note="Matrix")
    comparison = Comparison.objects.create(
        club_system=ClubSettings.load().rating_system,
        status=Comparison.Status.DONE,
        finished=timezone.now(),
        published=timezone.now(),
    )
    # A record merged into Pia (its merge undone from her page) and FIDE's figures for her.
    twin = MemberFactory(name="Pia Twin", merged_into=pia)
    merge = MemberMerge.objects.create(kept=pia, removed=twin, moved={})
    fide = FideRating.objects.create(member=pia, fide_id="4100018", standard=1850)
    objects: dict[str, Any] = {
        "ratings_membermerge": merge,
        "ratings_fiderating": fide,
        "auth_group": Group.objects.get(name="Ratings officers"),
        "auth_user": users["member"],
        "django_tasks_database_dbtaskresult": task,
        "axes_accessattempt": attempt,
        "axes_accesslog": log,
        "axes_accessfailurelog": failure,
        "ratings_clubsettings": ClubSettings.load(),
        "ratings_mailmessage": MailMessage.objects.create(
            key="matrix", kind="password_reset", to="mel@example.org", subject="Matrix"
        ),
        "ratings_ratinglist": RatingList.objects.create(time_class="blitz"),
        "ratings_season": season,
        "ratings_member": pia,
        "ratings_subscription": Subscription.objects.filter(member=pia).first(),
        "ratings_ratingperiod": period,
        "ratings_event": event,
        "ratings_entry": Entry.objects.filter(event=draft).first(),
        "ratings_game": Game.objects.filter(event=draft).first(),
        "ratings_ratingstate": RatingState.objects.get(member=pia, time_class="standard"),
        "ratings_ratingchange": RatingChange.objects.filter(member=pia).first(),
        "ratings_ratingrun": run,
        "ratings_publication": publication,
        "ratings_publicationentry": publication.entries.first(),
        "ratings_comparison": comparison,
        # A long members file read by the worker, waiting for the officer's confirmation.
        "ratings_memberimport": member_import,
        "ratings_memberimportline": MemberImportLine.objects.create(
            member_import=member_import,
            position=0,
            shown={
                "row": {"line": 2, "number": "R9001", "membership": "", "fields": {"name": "M"}},
                "new": True,
                "changes": [],
                "rating": None,
                "games": None,
                "standing": "",
            },
        ),
        "ratings_publicpagesversion": PublicPagesVersion.objects.get_or_create(pk=1)[0],
        "ratings_publicpageswithdrawal": PublicPagesWithdrawal.objects.get_or_create(pk=1)[0],
        "ratings_publishedlistfigures": PublishedListFigures.objects.get_or_create(pk=1)[0],
        "ratings_liststanding": ListStanding.objects.create(
            time_class="standard", member=pia, place=1, unrated=0, rating_value=1600, name="Pia"
        ),
        "ratings_comparisonrating": ComparisonRating.objects.create(
            comparison=comparison, member=pia, system="nz-club-elo", rating=1600, display="1600"
        ),
    }
    return Club(
        users=users,
        objects=objects,
        published=list(published),
        unpublished=[arrears, guest],
        event=event,
        draft=draft,
        run=run,
    )


# -- every URL pattern -------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    key: str  # the URL's name with its namespace, or its route when it has no name
    name: str | None
    route: str


def every_pattern() -> list[Pattern]:
    """Every URL pattern of the project, its resolvers walked down (admin, ratings)."""
    found: list[Pattern] = []

    def walk(resolver: URLResolver, prefix: str, namespace: str | None) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = entry.namespace
                ns = ":".join(n for n in (namespace, inner) if n) if inner else namespace
                walk(entry, prefix + str(entry.pattern), ns)
            else:
                assert isinstance(entry, URLPattern)
                route = prefix + str(entry.pattern)
                name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
                found.append(Pattern(key=name or route, name=name, route=route))

    walk(get_resolver(), "", None)
    return found


def history_id(obj: Any) -> int:
    return obj.history.order_by("history_id").first().history_id  # type: ignore[no-any-return]


def url_for(pattern: Pattern, club: Club) -> str:
    """A concrete URL for the pattern, with the club's real objects in it."""
    from django.urls import reverse

    from ratings.rules.member_links import my_page_token, unsubscribe_token

    key = pattern.key
    if pattern.name is None:
        return _unnamed_url(pattern, club)
    if key.startswith("admin:"):
        return _admin_url(key, club)
    kwargs = {
        "password_reset_confirm": {"uidb64": "MQ", "token": "no-such-token"},
        "ratings:member": {"number": club.published[0].member_number},
        "ratings:event": {"pk": club.event.pk},
        "ratings:report": {"slug": "top"},
        "ratings:officer-member": {"pk": club.published[0].pk},
        "ratings:officer-member-subscribe": {"pk": club.published[0].pk},
        "ratings:officer-member-data-json": {"pk": club.published[0].pk},
        "ratings:officer-member-data-csv": {"pk": club.published[0].pk},
        "ratings:officer-member-erase": {"pk": club.published[0].pk},
        "ratings:officer-member-send-link": {"pk": club.published[0].pk},
        "ratings:officer-member-merge-undo": {
            "pk": club.published[0].pk,
            "merge": club.objects["ratings_membermerge"].pk,
        },
        "ratings:my-page": {"token": my_page_token(club.published[0])},
        "ratings:unsubscribe": {"token": unsubscribe_token(club.published[0])},
        "ratings:officer-event": {"pk": club.draft.pk},
        "ratings:officer-event-edit": {"pk": club.draft.pk},
        "ratings:officer-event-players": {"pk": club.draft.pk},
        "ratings:officer-event-player-remove": {
            "pk": club.draft.pk,
            "member": club.published[2].pk,
        },
        "ratings:officer-round": {"pk": club.draft.pk, "number": 2},
        "ratings:officer-round-paste": {"pk": club.draft.pk},
        "ratings:officer-grid": {"pk": club.draft.pk},
        "ratings:officer-event-complete": {"pk": club.draft.pk},
        "ratings:officer-event-trf": {"pk": club.event.pk},
        "ratings:officer-event-submit": {"pk": club.draft.pk},
        "ratings:officer-event-send-back": {"pk": club.draft.pk},
        "ratings:officer-period-close": {"label": "2026-Q1"},
        "ratings:event-report": {"pk": club.event.pk},
        "ratings:event-crosstable": {"pk": club.event.pk},
        "ratings:run": {"pk": club.run.pk},
        "ratings:run-status": {"pk": club.run.pk},
        "ratings:run-retry": {"pk": club.run.pk},
        "ratings:member-history-csv": {"number": club.published[0].member_number},
        "ratings:event-crosstable-csv": {"pk": club.event.pk},
        "ratings:publication": {"slug": club.objects["ratings_publication"].slug},
        "ratings:publication-changes": {"slug": club.objects["ratings_publication"].slug},
        "ratings:officer-subscription-remove": {
            "pk": club.published[0].pk,
            "subscription": club.objects["ratings_subscription"].pk,
        },
        "ratings:officer-person": {"pk": club.users["member"].pk},  # type: ignore[union-attr]
        "ratings:officer-person-remove": {"pk": club.users["member"].pk},  # type: ignore[union-attr]
        "invitation_accept": {"uidb64": "MQ", "token": "no-such-token"},
        "ratings:compare-detail": {"pk": club.objects["ratings_comparison"].pk},
        "ratings:compare-status": {"pk": club.objects["ratings_comparison"].pk},
        "ratings:compare-publish": {"pk": club.objects["ratings_comparison"].pk},
        "ratings:officer-import-register-job": {"pk": club.objects["ratings_memberimport"].pk},
        "ratings:officer-import-register-job-status": {
            "pk": club.objects["ratings_memberimport"].pk
        },
        "api:member": {"number": club.published[0].member_number},
        "api:member-history": {"number": club.published[0].member_number},
        "api:event_detail": {"pk": club.event.pk},
        "api:publication_detail": {"slug": club.objects["ratings_publication"].slug},
    }.get(key, {})
    return reverse(key, kwargs=kwargs)


def _admin_url(key: str, club: Club) -> str:
    from django.urls import reverse

    name = key.removeprefix("admin:")
    if name == "view_on_site":
        member = club.published[0]
        ct = ContentType.objects.get_for_model(Member)
        return reverse(key, args=[ct.pk, member.pk])
    if name == "auth_user_password_change":
        return reverse(key, args=[club.users["member"].pk])  # type: ignore[union-attr]
    if name == "app_list":
        return reverse(key, kwargs={"app_label": "ratings"})
    model, _, action = name.rpartition("_")
    if action == "history" and model.endswith("_simple"):
        model = model.removesuffix("_simple")
        obj = club.objects[model]
        return reverse(key, args=[obj.pk, history_id(obj)])
    if action in ("history", "delete", "change") and model in club.objects:
        return reverse(key, args=[club.objects[model].pk])
    return reverse(key)


def _unnamed_url(pattern: Pattern, club: Club) -> str:
    route = pattern.route
    if route == "admin/login/":
        return "/admin/login/"
    if route.endswith("<path:object_id>/"):
        # The admin's old address of a record, which redirects to its change page.
        app_model = route.removeprefix("admin/").removesuffix("/<path:object_id>/")
        return f"/admin/{app_model}/{club.objects[app_model.replace('/', '_')].pk}/"
    if route == "admin/(?P<url>.*)$":
        return "/admin/no-such-page/"
    if route == "^api/(?P<rest>.*)$":
        return "/api/no-such-path"  # the read API's own "not found", in JSON
    raise AssertionError(f"no URL made for the unnamed pattern {route!r}")
