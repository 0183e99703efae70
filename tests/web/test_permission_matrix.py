"""Every URL of the project × every role × GET and POST: the outcome each gets.

``EXPECTED`` decides, for every URL pattern (by name, or by its route when it has none),
what each role gets (``ROLES``: an anonymous visitor, a logged-in member without rights, a
tournament director of the club's draft event, a treasurer, a ratings officer made as
``create_officer`` makes one, and the administrator as the first-run page makes one), for
a GET and for a POST (empty: a form answers with its errors, nothing is done). A URL
pattern missing from the table fails the test, so a new view comes with a decision about
who may use it. The outcome classes: ``ok`` (a page, or a redirect elsewhere than the
login), ``login`` (a redirect to the login page), ``403``, ``404``, ``405``.

Every public page is also read as the public reads it, to check that no rating of a
member in arrears or of a guest is shown (tests/web/matrix_club.py gives them ratings
no published member comes near).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from ratings.models import Member
from ratings.pages import reports

from .matrix_club import UNPUBLISHED_BAND, Club, build_club, every_pattern, url_for

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "member", "director", "treasurer", "officer", "administrator")
METHODS = ("GET", "POST")


def four(outcomes: str, **helpers: str) -> dict[str, str]:
    """A row of the table, each role's "GET POST": ``outcomes`` gives the anonymous
    visitor's, the member's, the officer's and the administrator's, in that order; a
    director and a treasurer get what a member gets unless named (``director="ok ok"``)."""
    words = outcomes.split()
    assert len(words) == 8, outcomes
    row = {
        role: " ".join(words[i * 2 : i * 2 + 2])
        for i, role in enumerate(("anonymous", "member", "officer", "administrator"))
    }
    row["director"] = helpers.pop("director", row["member"])
    row["treasurer"] = helpers.pop("treasurer", row["member"])
    assert not helpers, helpers
    return row


# A string: anonymous GET, POST; member GET, POST; officer GET, POST; administrator GET,
# POST (the helpers as a member, ``four``). A dict (``four(..., director=...)``): spelled out.
PUBLIC = "ok ok ok ok ok ok ok ok"
OFFICER = "login login 403 403 ok ok ok ok"
OFFICER_POST = "login login 403 403 405 ok 405 ok"  # an action: POST only
STAFF = "login login login login ok ok ok ok"  # the admin: staff only, officers included
SUPERUSER = "login login login login 403 403 ok ok"
NOBODY = "login login login login 403 403 403 403"
STAFF_READ = "login login login login ok 403 ok 403"
SUPERUSER_READ = "login login login login 403 403 ok 403"
STAFF_READ_SUPERUSER_CHANGE = "login login login login ok 403 ok ok"

EXPECTED: dict[str, str | dict[str, str]] = {
    "login": PUBLIC,
    "logout": "405 ok 405 ok 405 ok 405 ok",
    # A forgotten password, reset by email: anyone may ask (a link that does not work
    # says so on its page).
    "password_reset": PUBLIC,
    "password_reset_done": "ok 405 ok 405 ok 405 ok 405",
    "password_reset_confirm": PUBLIC,
    "password_reset_complete": "ok 405 ok 405 ok 405 ok 405",
    # An invitation's link (a link that does not work says so on its page).
    "invitation_accept": PUBLIC,
    "admin/login/": "login login login login login login login login",
    "admin:index": STAFF,
    "admin:login": "login login login login login login login login",
    "admin:logout": "ok ok ok ok 405 ok 405 ok",
    "admin:password_change": STAFF,
    "admin:password_change_done": "login login login login ok 405 ok 405",
    "admin:autocomplete": "login login login login 403 405 403 405",
    "admin:jsi18n": "login login login login ok 405 ok 405",
    "admin:view_on_site": STAFF,
    # Logins, the task queue and login throttling: the administrator's.
    "admin:auth_group_changelist": SUPERUSER,
    "admin:auth_group_add": SUPERUSER,
    "admin:auth_group_history": SUPERUSER,
    "admin:auth_group_delete": SUPERUSER,
    "admin:auth_group_change": SUPERUSER,
    "admin/auth/group/<path:object_id>/": STAFF,
    "admin:auth_user_password_change": SUPERUSER,
    "admin:auth_user_changelist": SUPERUSER,
    "admin:auth_user_add": SUPERUSER,
    "admin:auth_user_history": SUPERUSER,
    "admin:auth_user_delete": SUPERUSER,
    "admin:auth_user_change": SUPERUSER,
    "admin/auth/user/<path:object_id>/": STAFF,
    "admin:django_tasks_database_dbtaskresult_changelist": SUPERUSER,
    "admin:django_tasks_database_dbtaskresult_add": NOBODY,
    "admin:django_tasks_database_dbtaskresult_history": SUPERUSER,
    "admin:django_tasks_database_dbtaskresult_delete": NOBODY,
    "admin:django_tasks_database_dbtaskresult_change": SUPERUSER_READ,
    "admin/django_tasks_database/dbtaskresult/<path:object_id>/": STAFF,
    "admin:axes_accessattempt_changelist": SUPERUSER,
    "admin:axes_accessattempt_add": NOBODY,
    "admin:axes_accessattempt_history": SUPERUSER,
    "admin:axes_accessattempt_delete": SUPERUSER,
    "admin:axes_accessattempt_change": SUPERUSER,
    "admin/axes/accessattempt/<path:object_id>/": STAFF,
    "admin:axes_accesslog_changelist": SUPERUSER,
    "admin:axes_accesslog_add": NOBODY,
    "admin:axes_accesslog_history": SUPERUSER,
    "admin:axes_accesslog_delete": SUPERUSER,
    "admin:axes_accesslog_change": SUPERUSER,
    "admin/axes/accesslog/<path:object_id>/": STAFF,
    "admin:axes_accessfailurelog_changelist": SUPERUSER,
    "admin:axes_accessfailurelog_add": NOBODY,
    "admin:axes_accessfailurelog_history": SUPERUSER,
    "admin:axes_accessfailurelog_delete": SUPERUSER,
    "admin:axes_accessfailurelog_change": SUPERUSER,
    "admin/axes/accessfailurelog/<path:object_id>/": STAFF,
    # Merges done and FIDE's figures as read: derived, the administrator's to read (the
    # officer sees both on a member's page, and undoes a merge there).
    "admin:ratings_membermerge_changelist": SUPERUSER,
    "admin:ratings_membermerge_add": NOBODY,
    "admin:ratings_membermerge_history": SUPERUSER,
    "admin:ratings_membermerge_delete": NOBODY,
    "admin:ratings_membermerge_change": SUPERUSER_READ,
    "admin/ratings/membermerge/<path:object_id>/": STAFF,
    "admin:ratings_fiderating_changelist": SUPERUSER,
    "admin:ratings_fiderating_add": NOBODY,
    "admin:ratings_fiderating_history": SUPERUSER,
    "admin:ratings_fiderating_delete": NOBODY,
    "admin:ratings_fiderating_change": SUPERUSER_READ,
    "admin/ratings/fiderating/<path:object_id>/": STAFF,
    # The log of the club's mail: the administrator's to read; the worker writes it.
    "admin:ratings_mailmessage_changelist": SUPERUSER,
    "admin:ratings_mailmessage_add": NOBODY,
    "admin:ratings_mailmessage_history": SUPERUSER,
    "admin:ratings_mailmessage_delete": NOBODY,
    "admin:ratings_mailmessage_change": SUPERUSER_READ,
    "admin/ratings/mailmessage/<path:object_id>/": STAFF,
    # Officers read the club settings; only the administrator changes the system.
    "admin:ratings_clubsettings_simple_history": STAFF_READ_SUPERUSER_CHANGE,
    "admin:ratings_clubsettings_changelist": STAFF,
    "admin:ratings_clubsettings_add": NOBODY,
    "admin:ratings_clubsettings_history": STAFF,
    "admin:ratings_clubsettings_delete": NOBODY,
    "admin:ratings_clubsettings_change": STAFF_READ_SUPERUSER_CHANGE,
    # The admin's old addresses of a record redirect (to a page that checks).
    "admin/ratings/clubsettings/<path:object_id>/": STAFF,
    # How rapid and blitz are rated: like the system, the administrator's to change.
    "admin:ratings_ratinglist_simple_history": STAFF_READ_SUPERUSER_CHANGE,
    "admin:ratings_ratinglist_changelist": STAFF,
    "admin:ratings_ratinglist_add": SUPERUSER,
    "admin:ratings_ratinglist_history": STAFF,
    "admin:ratings_ratinglist_delete": NOBODY,
    "admin:ratings_ratinglist_change": STAFF_READ_SUPERUSER_CHANGE,
    "admin/ratings/ratinglist/<path:object_id>/": STAFF,
    # The record: officers keep it (corrections).
    "admin:ratings_season_changelist": STAFF,
    "admin:ratings_season_add": STAFF,
    "admin:ratings_season_history": STAFF,
    "admin:ratings_season_delete": STAFF,
    "admin:ratings_season_change": STAFF,
    "admin/ratings/season/<path:object_id>/": STAFF,
    "admin:ratings_member_simple_history": STAFF,
    "admin:ratings_member_changelist": STAFF,
    "admin:ratings_member_add": STAFF,
    "admin:ratings_member_history": STAFF,
    "admin:ratings_member_delete": STAFF,
    "admin:ratings_member_change": STAFF,
    "admin/ratings/member/<path:object_id>/": STAFF,
    "admin:ratings_subscription_simple_history": STAFF,
    "admin:ratings_subscription_changelist": STAFF,
    "admin:ratings_subscription_add": STAFF,
    "admin:ratings_subscription_history": STAFF,
    "admin:ratings_subscription_delete": STAFF,
    "admin:ratings_subscription_change": STAFF,
    "admin/ratings/subscription/<path:object_id>/": STAFF,
    "admin:ratings_ratingperiod_changelist": STAFF,
    "admin:ratings_ratingperiod_add": SUPERUSER,
    "admin:ratings_ratingperiod_history": STAFF,
    "admin:ratings_ratingperiod_delete": SUPERUSER,
    "admin:ratings_ratingperiod_change": STAFF,
    "admin/ratings/ratingperiod/<path:object_id>/": STAFF,
    "admin:ratings_event_simple_history": STAFF,
    "admin:ratings_event_changelist": STAFF,
    "admin:ratings_event_add": STAFF,
    "admin:ratings_event_history": STAFF,
    "admin:ratings_event_delete": STAFF,
    "admin:ratings_event_change": STAFF,
    "admin/ratings/event/<path:object_id>/": STAFF,
    "admin:ratings_entry_simple_history": STAFF,
    "admin:ratings_entry_changelist": STAFF,
    "admin:ratings_entry_add": STAFF,
    "admin:ratings_entry_history": STAFF,
    "admin:ratings_entry_delete": STAFF,
    "admin:ratings_entry_change": STAFF,
    "admin/ratings/entry/<path:object_id>/": STAFF,
    "admin:ratings_game_simple_history": STAFF,
    "admin:ratings_game_changelist": STAFF,
    "admin:ratings_game_add": STAFF,
    "admin:ratings_game_history": STAFF,
    "admin:ratings_game_delete": STAFF,
    "admin:ratings_game_change": STAFF,
    "admin/ratings/game/<path:object_id>/": STAFF,
    # Derived: read-only for everyone, officers included.
    "admin:ratings_publicpagesversion_changelist": SUPERUSER,
    "admin:ratings_publicpagesversion_add": NOBODY,
    "admin:ratings_publicpagesversion_history": SUPERUSER,
    "admin:ratings_publicpagesversion_delete": NOBODY,
    "admin:ratings_publicpagesversion_change": SUPERUSER_READ,
    "admin/ratings/publicpagesversion/<path:object_id>/": STAFF,
    "admin:ratings_publicpageswithdrawal_changelist": SUPERUSER,
    "admin:ratings_publicpageswithdrawal_add": NOBODY,
    "admin:ratings_publicpageswithdrawal_history": SUPERUSER,
    "admin:ratings_publicpageswithdrawal_delete": NOBODY,
    "admin:ratings_publicpageswithdrawal_change": SUPERUSER_READ,
    "admin/ratings/publicpageswithdrawal/<path:object_id>/": STAFF,
    "admin:ratings_publishedlistfigures_changelist": SUPERUSER,
    "admin:ratings_publishedlistfigures_add": NOBODY,
    "admin:ratings_publishedlistfigures_history": SUPERUSER,
    "admin:ratings_publishedlistfigures_delete": NOBODY,
    "admin:ratings_publishedlistfigures_change": SUPERUSER_READ,
    "admin/ratings/publishedlistfigures/<path:object_id>/": STAFF,
    "admin:ratings_liststanding_changelist": SUPERUSER,
    "admin:ratings_liststanding_add": NOBODY,
    "admin:ratings_liststanding_history": SUPERUSER,
    "admin:ratings_liststanding_delete": NOBODY,
    "admin:ratings_liststanding_change": SUPERUSER_READ,
    "admin/ratings/liststanding/<path:object_id>/": STAFF,
    "admin:ratings_ratingstate_changelist": STAFF,
    "admin:ratings_ratingstate_add": NOBODY,
    "admin:ratings_ratingstate_history": STAFF,
    "admin:ratings_ratingstate_delete": NOBODY,
    "admin:ratings_ratingstate_change": STAFF_READ,
    "admin/ratings/ratingstate/<path:object_id>/": STAFF,
    "admin:ratings_ratingchange_changelist": STAFF,
    "admin:ratings_ratingchange_add": NOBODY,
    "admin:ratings_ratingchange_history": STAFF,
    "admin:ratings_ratingchange_delete": NOBODY,
    "admin:ratings_ratingchange_change": STAFF_READ,
    "admin/ratings/ratingchange/<path:object_id>/": STAFF,
    "admin:ratings_ratingrun_changelist": STAFF,
    "admin:ratings_ratingrun_add": NOBODY,
    "admin:ratings_ratingrun_history": STAFF,
    "admin:ratings_ratingrun_delete": NOBODY,
    "admin:ratings_ratingrun_change": STAFF_READ,
    "admin/ratings/ratingrun/<path:object_id>/": STAFF,
    "admin:app_list": STAFF,
    "admin/(?P<url>.*)$": "login login login login 404 404 404 404",
    # Any other path under the read API: its own "not found", in JSON, for everyone.
    "^api/(?P<rest>.*)$": "404 404 404 404 404 404 404 404",
    # Public pages.
    "ratings:home": PUBLIC,
    # The first-run page: gone once any login exists, as here (tests/web/test_club_start.py).
    "ratings:club-start": "404 404 404 404 404 404 404 404",
    "ratings:list": PUBLIC,
    "ratings:member": PUBLIC,
    "ratings:event": PUBLIC,
    "ratings:reports": PUBLIC,
    "ratings:report": PUBLIC,
    "ratings:calculator": PUBLIC,
    "ratings:help": PUBLIC,
    "ratings:member_search": PUBLIC,
    # The officer's pages: login first, then the officer permission.
    "ratings:officer-ratings": OFFICER,
    # The club's settings: the officer reads them, only the administrator changes them.
    "ratings:officer-settings": "login login 403 403 ok 403 ok ok",
    # The club's logins: the administrator's alone.
    "ratings:officer-people": "login login 403 403 403 403 ok ok",
    "ratings:officer-person": "login login 403 403 403 403 ok ok",
    "ratings:officer-person-remove": "login login 403 403 403 403 405 ok",
    # The home shows each role its own work (a director's events, the treasurer's members).
    "ratings:officer-home": four(OFFICER, director="ok ok", treasurer="ok ok"),
    # Members' payments: the treasurer's too; the member's record they read, not change.
    "ratings:officer-members": four(OFFICER, treasurer="ok ok"),
    "ratings:officer-member-add": OFFICER,
    "ratings:officer-member": four(OFFICER, treasurer="ok 403"),
    "ratings:officer-member-subscribe": four(OFFICER_POST, treasurer="405 ok"),
    # Everything held about a member (downloads: GET only) and erasing them.
    "ratings:officer-member-data-json": "login login 403 403 ok 405 ok 405",
    "ratings:officer-member-data-csv": "login login 403 403 ok 405 ok 405",
    "ratings:officer-member-erase": OFFICER,
    "ratings:officer-member-send-link": OFFICER_POST,
    "ratings:officer-member-merge-undo": OFFICER_POST,
    # A member's own pages: public, their signed link the key (my page: read only).
    "ratings:my-page-ask": PUBLIC,
    "ratings:my-page": "ok 405 ok 405 ok 405 ok 405",
    "ratings:unsubscribe": PUBLIC,
    "ratings:officer-events": OFFICER,
    "ratings:officer-event-add": OFFICER,
    # The draft event's players and results: its director's too (another event's: 403,
    # test_a_director_is_refused_every_page_of_an_event_they_do_not_direct).
    "ratings:officer-event": four(OFFICER, director="ok ok"),
    "ratings:officer-event-edit": OFFICER,
    "ratings:officer-event-players": four(OFFICER, director="ok ok"),
    "ratings:officer-event-player-remove": four(OFFICER, director="ok ok"),
    "ratings:officer-round": four(OFFICER, director="ok ok"),
    "ratings:officer-round-paste": four(OFFICER, director="ok ok"),
    "ratings:officer-grid": four(OFFICER, director="ok ok"),
    "ratings:officer-event-complete": OFFICER,
    # An event's stage: its director (or the officer) submits it; the officer sends it back.
    "ratings:officer-event-submit": four(OFFICER_POST, director="405 ok"),
    "ratings:officer-event-send-back": OFFICER,
    "ratings:officer-event-trf": OFFICER,
    "ratings:officer-periods": OFFICER,
    # The club rates with nz-club-elo, which has no periods: 404 once the officer is let in.
    "ratings:officer-period-close": "login login 403 403 404 404 404 404",
    "ratings:officer-import": OFFICER,
    "ratings:officer-import-preview": OFFICER,
    "ratings:event-report": PUBLIC,
    "ratings:event-crosstable": PUBLIC,
    "ratings:runs": OFFICER,
    "ratings:run": OFFICER,
    "ratings:run-status": OFFICER,
    "ratings:run-retry": OFFICER_POST,
    # Publications and comparisons are derived: the administrator reads them in the admin
    # (and deletes a comparison); officers work with them on their own pages.
    "admin:ratings_comparison_changelist": SUPERUSER,
    "admin:ratings_comparison_add": NOBODY,
    "admin:ratings_comparison_history": SUPERUSER,
    "admin:ratings_comparison_delete": SUPERUSER,
    "admin:ratings_comparison_change": SUPERUSER_READ,
    "admin/ratings/comparison/<path:object_id>/": STAFF,
    "admin:ratings_memberimport_changelist": SUPERUSER,
    "admin:ratings_memberimport_add": NOBODY,
    "admin:ratings_memberimport_history": SUPERUSER,
    "admin:ratings_memberimport_delete": SUPERUSER,
    "admin:ratings_memberimport_change": SUPERUSER_READ,
    "admin/ratings/memberimport/<path:object_id>/": STAFF,
    "admin:ratings_memberimportline_changelist": SUPERUSER,
    "admin:ratings_memberimportline_add": NOBODY,
    "admin:ratings_memberimportline_history": SUPERUSER,
    "admin:ratings_memberimportline_delete": NOBODY,
    "admin:ratings_memberimportline_change": SUPERUSER_READ,
    "admin/ratings/memberimportline/<path:object_id>/": STAFF,
    "admin:ratings_comparisonrating_changelist": SUPERUSER,
    "admin:ratings_comparisonrating_add": NOBODY,
    "admin:ratings_comparisonrating_history": SUPERUSER,
    "admin:ratings_comparisonrating_delete": NOBODY,
    "admin:ratings_comparisonrating_change": SUPERUSER_READ,
    "admin/ratings/comparisonrating/<path:object_id>/": STAFF,
    "admin:ratings_publication_changelist": SUPERUSER,
    "admin:ratings_publication_add": NOBODY,
    "admin:ratings_publication_history": SUPERUSER,
    "admin:ratings_publication_delete": NOBODY,
    "admin:ratings_publication_change": SUPERUSER_READ,
    "admin/ratings/publication/<path:object_id>/": STAFF,
    "admin:ratings_publicationentry_changelist": SUPERUSER,
    "admin:ratings_publicationentry_add": NOBODY,
    "admin:ratings_publicationentry_history": SUPERUSER,
    "admin:ratings_publicationentry_delete": NOBODY,
    "admin:ratings_publicationentry_change": SUPERUSER_READ,
    "admin/ratings/publicationentry/<path:object_id>/": STAFF,
    # The read API: GET only, public; it has no page at its root.
    "api:openapi-json": PUBLIC,
    "api:live_list": "ok 405 ok 405 ok 405 ok 405",
    "api:publication_index": "ok 405 ok 405 ok 405 ok 405",
    "api:publication_latest": "ok 405 ok 405 ok 405 ok 405",
    "api:publication_detail": "ok 405 ok 405 ok 405 ok 405",
    "api:member": "ok 405 ok 405 ok 405 ok 405",
    "api:member-history": "ok 405 ok 405 ok 405 ok 405",
    "api:event_index": "ok 405 ok 405 ok 405 ok 405",
    "api:event_detail": "ok 405 ok 405 ok 405 ok 405",
    "api:api-root": "404 404 404 404 404 404 404 404",
    # Public pages added with publications, exports, the event list and the comparison.
    "ratings:list-print": PUBLIC,
    "ratings:live-list": PUBLIC,
    "ratings:publications": PUBLIC,
    "ratings:publication": PUBLIC,
    "ratings:publication-changes": PUBLIC,
    "ratings:member-history-csv": PUBLIC,
    "ratings:events": PUBLIC,
    "ratings:events-calendar": PUBLIC,
    "ratings:event-crosstable-csv": PUBLIC,
    "ratings:compare-public": PUBLIC,
    "ratings:api-docs": PUBLIC,
    # The officer's pages for subscriptions, publishing, CSV uploads and comparisons.
    "ratings:officer-subscription-remove": four(OFFICER, treasurer="ok ok"),
    "ratings:officer-renew": four(OFFICER, treasurer="ok ok"),
    "ratings:officer-publish": OFFICER,
    "ratings:officer-import-register": OFFICER,
    "ratings:officer-import-register-preview": OFFICER,
    "ratings:officer-import-register-job": OFFICER,
    "ratings:officer-import-register-job-status": OFFICER,
    "ratings:officer-import-results": OFFICER,
    "ratings:officer-import-results-preview": OFFICER,
    "ratings:officer-fide": OFFICER,
    "ratings:officer-fide-preview": OFFICER,
    "ratings:compare": OFFICER,
    "ratings:compare-detail": OFFICER,
    "ratings:compare-status": OFFICER,
    "ratings:compare-publish": OFFICER_POST,
}


#: Each URL's row, every role spelled out.
TABLE: dict[str, dict[str, str]] = {
    key: row if isinstance(row, dict) else four(row) for key, row in EXPECTED.items()
}

#: The pages of one event a director may open when it is theirs (and a member may not).
DIRECTED_PAGES = [
    key
    for key, row in TABLE.items()
    if row["director"] != row["member"] and key != "ratings:officer-home"
]


def _outcome(response: Any) -> str:
    code = response.status_code
    if code in (301, 302, 303):
        where = response["Location"]
        return "login" if where.startswith(("/accounts/login/", "/admin/login/")) else "ok"
    return "ok" if 200 <= code < 300 else str(code)


def _client(club: Club, role: str) -> Client:
    """The role's client, logged in once a test: a log in for each request (a session
    written, axes' log of it, the middleware made again) was a third of the matrix's time."""
    client = Client()
    user = club.users[role]
    if user is not None:
        client.force_login(user)
    return client


def _request(client: Client, method: str, url: str) -> str:
    """The outcome of one request, which leaves no trace for the next: it runs in a
    savepoint rolled back (its session's row too), and the client's cookies are put back
    as they were (a log-out ends the session, a message waits in a cookie)."""
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        response = client.get(url) if method == "GET" else client.post(url, {})
        transaction.set_rollback(True)
    client.cookies = cookies
    return _outcome(response)


@pytest.fixture
def production_tasks(settings):  # type: ignore[no-untyped-def]
    """The database's task queue, as in production (its admin pages read the tasks)."""
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
    }


def test_every_url_pattern_has_a_decision_in_the_table() -> None:
    keys = [p.key for p in every_pattern()]
    missing = sorted(set(keys) - set(EXPECTED))
    assert not missing, f"URL patterns with no decision in EXPECTED: {missing}"
    assert not sorted(set(EXPECTED) - set(keys)), "EXPECTED names URLs that no longer exist"
    assert len(keys) == len(set(keys)), "two URL patterns share a key"


@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_what_the_table_says_on_every_url(role: str, production_tasks) -> None:  # type: ignore[no-untyped-def]
    club = build_club()
    client = _client(club, role)
    wrong = []
    for pattern in every_pattern():
        url = url_for(pattern, club)
        expected = TABLE[pattern.key][role].split()
        got = [_request(client, method, url) for method in METHODS]
        if got != expected:
            wrong.append(f"{pattern.key} {url}: expected {expected}, got {got}")
    assert not wrong, "\n".join(wrong)


def test_a_director_is_refused_every_page_of_an_event_they_do_not_direct() -> None:
    club = build_club()
    other = {"pk": club.event.pk}  # rated, and not theirs: they direct the draft
    client = _client(club, "director")
    wrong = []
    for key in DIRECTED_PAGES:
        kwargs = {"ratings:officer-round": {"number": 1}}.get(key, {})
        if key == "ratings:officer-event-player-remove":
            kwargs = {"member": club.published[0].pk}
        url = reverse(key, kwargs={**other, **kwargs})
        got = [_request(client, method, url) for method in METHODS]
        if got != ["403", "403"]:
            wrong.append(f"{key} {url}: {got}")
    assert DIRECTED_PAGES and not wrong, "\n".join(wrong)


# -- no public page shows an unpublished rating -------------------------------------------


def _public_urls(club: Club) -> list[str]:
    """Every page an anonymous reader may open, with the variants that show ratings."""
    urls = [
        url_for(p, club)
        for p in every_pattern()
        if TABLE[p.key]["anonymous"].split()[0] == "ok"
        and not p.route.startswith(("admin", "accounts"))
    ]
    urls.append(reverse("ratings:list") + "?_export=csv")
    for slug in reports.REPORTS:
        urls += [
            reverse("ratings:report", args=[slug]),
            reverse("ratings:report", args=[slug]) + "?_export=csv",
        ]
    # A merged record's page sends the reader on to the record kept (one of these).
    for member in Member.objects.filter(merged_into__isnull=True):
        urls.append(reverse("ratings:member", args=[member.member_number]))
    for member in club.unpublished:
        search = reverse("ratings:member_search")
        urls += [f"{search}?q={member.name.split()[0]}", f"{search}?q={member.member_number}"]
        urls.append(
            reverse("ratings:calculator")
            + f"?go=1&p-member={club.published[0].member_number}&g-TOTAL_FORMS=1"
            f"&g-INITIAL_FORMS=0&g-0-opponent={member.member_number}&g-0-result=1"
        )
    return urls


@pytest.mark.parametrize("role", ["anonymous", "member"])
def test_no_public_page_shows_the_rating_of_a_member_in_arrears_or_a_guest(role: str) -> None:
    club = build_club()
    client = Client()
    if club.users[role] is not None:
        client.force_login(club.users[role])
    shown = {}
    for url in _public_urls(club):
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        found = UNPUBLISHED_BAND.findall(body.decode())
        if found:
            shown[url] = found
    assert not shown, shown


def test_the_leak_check_would_see_an_unpublished_rating(client) -> None:  # type: ignore[no-untyped-def]
    club = build_club()
    arrears = club.unpublished[0]
    page = client.get(reverse("ratings:officer-ratings"))  # anonymous: the login page
    assert not UNPUBLISHED_BAND.findall(page.content.decode())
    client.force_login(club.users["officer"])
    body = client.get(reverse("ratings:officer-ratings")).content.decode()
    assert arrears.rating_states.get(time_class="standard").display in UNPUBLISHED_BAND.findall(
        body
    )
