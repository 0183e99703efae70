"""Every URL, query parameter and form of the site fed what an attacker or a damaged file
sends: no answer is a 500, and no refused input saves anything.

The inputs are generated (a fixed seed, so every run sends the same ones) over the
permission matrix's URL list (``matrix_club``), so a new page is fuzzed as soon as it has
a URL: control characters (NUL, escape, DEL, C1) and broken percent-encodings in every
path argument and query parameter, numbers past any bound, JSON nested thousands deep,
every field of every form the administrator is shown (officer pages and the admin), and
members and results CSVs with rows cut short, rows too long, huge numbers and bytes that
are not UTF-8, through upload, preview and confirmation.

Each request runs in a savepoint rolled back after it, so one input never meets
another's effects; every table of the app is counted before and after it, and a request
answered with an error (a 4xx, or a form shown again) must leave every count as it was.
``FUZZ_SEED`` draws another set (the default is the suite's).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from .matrix_club import Club, build_club, every_pattern, url_for

pytestmark = pytest.mark.django_db

SEED = int(os.environ.get("FUZZ_SEED", "24"))

#: Control characters as they reach a URL (percent-encoded) and a form (raw).
CONTROLS = ["\x00", "\x01", "\x08", "\x1b", "\x7f", "\x85", "\x9f", "\r\n", "\t"]
#: Numbers no field allows: past a 64-bit integer, a double, or below zero.
HUGE = ["9" * 40, str(10**30), "1e400", "-1", "-9" * 20, "nan", "inf", "0x10", "1_000"]
#: Nesting Python's JSON reader would recurse into until it fails.
DEEP = ["[" * 5000, "{" * 3000, '{"a":' * 2000 + "1" + "}" * 2000, "[" * 5000 + "]" * 5000]
#: Percent-encodings that are not UTF-8 (a lone continuation byte, a surrogate, Latin-1).
BAD_ENCODINGS = ["%ff%fe", "%c3%28", "%ed%a0%80", "%80", "%e9t%e9", "%c0%af", "%"]
#: Text of other kinds: long, invisible, right-to-left, a formula, markup, a path.
ODD = ["x" * 5000, "\u200b\u202e", "=cmd|' /C calc'!A0", "<script>alert(1)</script>", "../../etc"]

#: Query parameters the pages and the API read (and some they never heard of).
QUERY_KEYS = [
    "q",
    "page",
    "per_page",
    "list",
    "since",
    "on",
    "sort",
    "status",
    "member",
    "event",
    "entrants",
    "leavers",
    "name",
    "age",
    "region",
    "women",
    "active",
    "time_class",
    "_export",
    "go",
    "p-member",
    "p-rating",
    "p-games",
    "g-TOTAL_FORMS",
    "g-0-rating",
    "rating_system",
    "system_params",
    "next",
    "o",
    "p",
    "e",
]


@dataclass
class Tally:
    """What the fuzz sent and what came back wrong."""

    sent: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self) -> None:
        print(f"fuzz: {self.sent} inputs, {len(self.failures)} wrong")  # pytest -s shows it
        assert not self.failures, f"{len(self.failures)} of {self.sent}:\n" + "\n".join(
            self.failures[:40]
        )


def _tables() -> list[str]:
    """Every table of the app (the record, what is derived, the audit trail) and the
    logins: a refused input leaves each one's count as it was."""
    names = [m._meta.db_table for m in apps.get_app_config("ratings").get_models()]
    return sorted({*names, "auth_user", "django_admin_log", "django_tasks_database_dbtaskresult"})


def _counts(tables: list[str]) -> tuple[int, ...]:
    quoted = connection.ops.quote_name
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quoted(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def _send(
    tally: Tally, client: Client, method: str, url: str, data: Any = None, **extra: Any
) -> Any:
    """One input, in a savepoint rolled back after it: no 500, and nothing saved when the
    answer is an error (4xx) or a POST's form shown again (200)."""
    tally.sent += 1
    tables = _tables()
    response = None
    try:
        with transaction.atomic():
            before = _counts(tables)
            if method == "GET":
                response = client.get(url, data, **extra)
            else:
                response = client.post(url, data if data is not None else {}, **extra)
            after = _counts(tables)
            transaction.set_rollback(True)
    except Exception as error:  # a view's exception: what would be a 500
        tally.failures.append(f"{method} {url[:160]!r} {_short(data)}: {error!r}"[:400])
        return None
    code = response.status_code
    if code >= 500:
        tally.failures.append(f"{method} {url[:160]!r} {_short(data)}: {code}")
    elif before != after and (code >= 400 or (method == "POST" and code == 200)):
        moved = [t for t, b, a in zip(tables, before, after, strict=True) if b != a]
        tally.failures.append(
            f"{method} {url[:160]!r} {_short(data)}: answered {code} but changed {moved}"
        )
    return response


def _short(data: Any) -> str:
    text = repr(data) if data else ""
    return text[:160] + ("…" if len(text) > 160 else "")


@pytest.fixture
def club(settings) -> Club:  # type: ignore[no-untyped-def]
    # The database's task queue, as in production (its admin pages read the tasks).
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
    }
    return build_club()


def _admin(club: Club) -> Client:
    client = Client()
    client.force_login(club.users["administrator"])  # type: ignore[arg-type]
    return client


def _officer(club: Club) -> Client:
    client = Client()
    client.force_login(club.users["officer"])  # type: ignore[arg-type]
    return client


def _urls(club: Club) -> list[tuple[str, str]]:
    """(pattern key, a concrete URL) for every URL pattern of the project."""
    return [(p.key, url_for(p, club)) for p in every_pattern()]


# -- paths -------------------------------------------------------------------------------


def _path_variants(url: str, rng: random.Random) -> Iterator[str]:
    """The URL with its last argument (or its last part) replaced by bad text."""
    head, _, tail = url.rstrip("/").rpartition("/")
    ending = "/" if url.endswith("/") else ""
    bad = [
        tail + quote(rng.choice(CONTROLS)) + "13",
        quote(rng.choice(CONTROLS)),
        "9" * rng.choice([20, 40, 400]),
        rng.choice(BAD_ENCODINGS),
        tail + "%00",
    ]
    for piece in rng.sample(bad, 2):
        yield f"{head}/{piece}{ending}"


def test_no_path_answers_500(club: Club) -> None:
    rng = random.Random(SEED)
    tally = Tally()
    admin, anonymous = _admin(club), Client()
    for key, url in _urls(club):
        # The admin's pages are many and alike (one view a model): one variant each.
        variants = list(_path_variants(url, rng))
        for variant in variants[:1] if key.startswith("admin") else variants:
            _send(tally, admin, "GET", variant)
        _send(tally, anonymous, "GET", url.rstrip("/") + "%00/")
    # The addresses the issue found answering 500 on PostgreSQL.
    for url in [
        "/members/R10%0013/",
        "/members/R10%0013/history.csv",
        "/events/?q=a%00b",
        "/calculator/members/?q=%00",
        "/api/v1/members/R1%00",
        "/api/v1/members/R1%00/history",
        "/api/v1/publications/2026%00",
        "/api/v1/events?name=a%00",
        "/officer/members/?q=%00",
        "/officer/subscriptions/renew/?q=%00",
    ]:
        for client in (admin, anonymous):
            response = _send(tally, client, "GET", url)
            if response is not None and response.status_code not in (302, 400, 404):
                tally.failures.append(f"GET {url}: {response.status_code}, not 400 or 404")
    assert tally.sent >= 250
    tally.check()


# -- query parameters ----------------------------------------------------------------------


def _query_values(rng: random.Random) -> list[str]:
    return [
        "a" + quote(rng.choice(CONTROLS)) + "b",
        quote(rng.choice(HUGE)),
        quote(rng.choice(DEEP)),
        rng.choice(BAD_ENCODINGS),
        quote(rng.choice(ODD)),
    ]


def test_no_query_parameter_answers_500(club: Club) -> None:
    rng = random.Random(SEED + 1)
    tally = Tally()
    admin, officer, anonymous = _admin(club), _officer(club), Client()
    for key, url in _urls(club):
        if key.startswith("admin:") and not key.endswith(("_changelist", "_change")):
            continue  # the admin's other pages read no query of their own
        keys = rng.sample(QUERY_KEYS, 2 if key.startswith("admin") else 4)
        for name, value in zip(keys, _query_values(rng), strict=False):
            client = rng.choice([admin, officer, anonymous])
            _send(tally, client, "GET", f"{url}?{name}={value}")
    # The settings page's "switch to this system", its parameters nested 5,000 deep.
    settings_url = reverse(
        "admin:ratings_clubsettings_change", args=[club.objects["ratings_clubsettings"].pk]
    )
    _send(
        tally, admin, "GET", f"{settings_url}?rating_system=st-charles&system_params={'[' * 5000}"
    )
    assert tally.sent >= 300
    tally.check()


# -- forms -------------------------------------------------------------------------------


class _Forms(HTMLParser):
    """The POST forms of a page: each one's fields and the values the page gives them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._fields: dict[str, str] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "").lower() == "post":
            self._fields = {}
            self.forms.append((a.get("action", ""), self._fields))
        if self._fields is None or ("name" not in a and tag != "option"):
            return
        name = a.get("name", "")
        if tag == "input" and a.get("type") not in ("file", "submit", "button", "image"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self._fields[name] = a.get("value", "")
        elif tag == "select":
            self._select = name
            self._fields.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self._fields[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = name
            self._fields[name] = ""

    def handle_data(self, data: str) -> None:
        if self._fields is not None and self._textarea:
            self._fields[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._fields = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def _form_values(rng: random.Random) -> list[str]:
    return [
        rng.choice(CONTROLS) + "x",
        rng.choice(HUGE),
        rng.choice(DEEP),
        rng.choice(ODD),
        "\udcff".encode("utf-8", "surrogatepass").decode("latin-1"),  # mojibake
    ]


def test_no_form_field_answers_500_or_saves_part_of_a_refused_form(club: Club) -> None:
    rng = random.Random(SEED + 2)
    tally = Tally()
    admin = _admin(club)
    pages = 0
    for key, url in _urls(club):
        if key in ("logout", "admin:logout") or key.endswith("_delete"):
            continue  # a logout ends the session the rest of the fuzz uses
        page = admin.get(url)
        if page.status_code != 200 or "html" not in page.get("Content-Type", ""):
            continue
        parser = _Forms()
        parser.feed(page.content.decode())
        for action, fields in parser.forms:
            target = action or url
            names = [n for n in fields if n and n != "csrfmiddlewaretoken"]
            if not names or target.startswith(("/accounts/logout", "/admin/logout")):
                continue
            pages += 1
            fuzzed = 1 if target.startswith("/admin/") else 2
            for name in rng.sample(names, min(len(names), fuzzed)):
                for value in rng.sample(_form_values(rng), 2):
                    _send(tally, admin, "POST", target, {**fields, name: value})
            # Every field at once, and a form with none of its fields.
            _send(tally, admin, "POST", target, {n: rng.choice(HUGE) for n in names})
            _send(tally, admin, "POST", target, {})
            # A body that is not UTF-8, nor well percent-encoded.
            raw = "&".join(f"{quote(n)}={rng.choice(BAD_ENCODINGS)}" for n in names).encode()
            _send(
                tally,
                admin,
                "POST",
                target,
                raw + b"&x=\xff\xfe",
                content_type="application/x-www-form-urlencoded",
            )
    assert pages >= 20, "the fuzz found the site's forms"
    assert tally.sent >= 150
    tally.check()


# -- CSV files, end to end ---------------------------------------------------------------------

MEMBER_HEADER = "id,name,born,gender,region,title,fide_id,membership,rating,games"
RESULT_HEADER = "event,date,round,white,black,result"


def _member_rows(rng: random.Random) -> list[bytes]:
    good = "R7001,Mikhail Petrov,1979-12-23,M,Southbank,FM,4130545,financial,2105,240"
    cells = good.split(",")
    files = [
        f"{MEMBER_HEADER}\nR7001,Mikhail Pet\n",  # the line cut short
        f"{MEMBER_HEADER}\nP1,Pia Paid\n",  # cut short on a recorded member
        f"{MEMBER_HEADER}\n{good},extra,cells\n",
        f"{MEMBER_HEADER}\nR7001,Ana,,,,,,,2000,{10**30}\n",
        f"{MEMBER_HEADER}\nR7001,Ana,,,,,,,1e400,10\n",
        f"{MEMBER_HEADER}\nR7001,Ana,,,,,,,nan,10\n",
        f"{MEMBER_HEADER}\nR7001,Ana,0001-01-01,,,,{'9' * 40},,,\n",
        f"{MEMBER_HEADER}\nR7001,{'[' * 5000},,,,,,,,\n",
        f'{MEMBER_HEADER}\nR7001,"Ana\n',
        *(f"{MEMBER_HEADER}\n" + ",".join(cells[:k]) + "\n" for k in range(1, len(cells))),
    ]
    for _ in range(12):
        row = list(cells)
        row[rng.randrange(len(row))] = rng.choice(CONTROLS + HUGE + ODD)
        files.append(f"{MEMBER_HEADER}\n" + ",".join(row[: rng.randint(1, len(row) + 2)]) + "\n")
    encoded = [f.encode() for f in files]
    encoded += [
        f"{MEMBER_HEADER}\nR7001,Andr\xe9,,,,,,,,\n".encode("latin-1"),
        f"{MEMBER_HEADER}\nR7001,Ana,,,,,,,,\n".encode("utf-16"),
        b"\xff\xfe\x00\x00" + b"\x00" * 64,
        MEMBER_HEADER.encode() + b"\nR7001,\xed\xa0\x80,,,,,,,,\n",
    ]
    return encoded


def _result_rows(rng: random.Random) -> list[bytes]:
    good = "Club night 3 March,2026-03-03,1,P1,P2,1-0"
    cells = good.split(",")
    files = [
        f"{RESULT_HEADER}\nClub night,2026-03-03,1,P1\n",
        f"{RESULT_HEADER}\n{good},1-0,x\n",
        f"{RESULT_HEADER}\nClub night,2026-03-03,{10**30},P1,P2,1-0\n",
        f"{RESULT_HEADER}\nClub night,9999-99-99,1,P1,P2,1-0\n",
        f"{RESULT_HEADER}\nClub night,0001-01-01,1,P1,P2,1-0\n",
        f"{RESULT_HEADER}\n{'{' * 3000},2026-03-03,1,P1,P2,1-0\n",
    ]
    for _ in range(10):
        row = list(cells)
        row[rng.randrange(len(row))] = rng.choice(CONTROLS + HUGE + ODD)
        files.append(f"{RESULT_HEADER}\n" + ",".join(row[: rng.randint(1, len(row) + 2)]) + "\n")
    encoded = [f.encode() for f in files]
    encoded += [f"{RESULT_HEADER}\nCaf\xe9 night,2026-03-03,1,P1,P2,1-0\n".encode("latin-1")]
    return encoded


@pytest.mark.parametrize("kind", ["members", "results"])
def test_no_csv_answers_500_or_saves_part_of_a_refused_file(club: Club, kind: str) -> None:
    rng = random.Random(SEED + 3)
    tally = Tally()
    officer = _officer(club)
    upload, preview = {
        "members": ("ratings:officer-import-register", "ratings:officer-import-register-preview"),
        "results": ("ratings:officer-import-results", "ratings:officer-import-results-preview"),
    }[kind]
    files = _member_rows(rng) if kind == "members" else _result_rows(rng)
    for data in files:
        sent = SimpleUploadedFile(f"{kind}.csv", data, content_type="text/csv")
        _send(tally, officer, "POST", reverse(upload), {"file": sent})
        # The upload's savepoint is gone with the session row it wrote: store it again.
        with transaction.atomic():
            officer.post(reverse(upload), {"file": SimpleUploadedFile("f.csv", data)})
            page = _send(tally, officer, "GET", reverse(preview))
            if page is not None and page.status_code == 200 and page.context:
                problems = page.context.get("problems")
                confirmed = _send(tally, officer, "POST", reverse(preview), {})
                if problems and confirmed is not None and confirmed.status_code != 200:
                    tally.failures.append(f"{data[:80]!r}: problems previewed, yet confirmed")
            transaction.set_rollback(True)
    assert tally.sent >= 50
    tally.check()


def test_a_members_line_cut_short_is_refused_naming_its_line_and_missing_columns(
    club: Club,
) -> None:
    officer = _officer(club)
    sent = SimpleUploadedFile("m.csv", f"{MEMBER_HEADER}\nP1,Pia Pet\n".encode())
    officer.post(reverse("ratings:officer-import-register"), {"file": sent})
    page = officer.get(reverse("ratings:officer-import-register-preview"))
    problems = [str(p) for p in page.context["problems"]]
    assert any(
        "line 2" in p
        and "no cell for born, gender, region, title, fide_id, membership, rating, games" in p
        for p in problems
    ), problems
