"""One rule for who is published (``ratings.rules.publication``), and every public page
holds to it.

The public URLs are read from ``ratings/urls.py`` itself, and the API's from its own
description: a public page or API operation added there is checked here at once (and the
test says how to teach it the page's arguments). It is crawled under both of the club's
choices for unpublished members, under every system: named (their ratings withheld) and
kept off public pages (no name, number or rating of theirs anywhere).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db.models import Q
from django.urls import resolve, reverse
from django.utils import timezone

from ratings import services
from ratings.api import api
from ratings.engine import SYSTEMS
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Member,
    Publication,
    RatingChange,
    RatingState,
)
from ratings.models import members as member_models
from ratings.pages import reports
from ratings.pages.my_page import member_of_my_page_token
from ratings.rules import publication
from ratings.rules.member_links import my_page_token, unsubscribe_token
from ratings.urls import urlpatterns

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(rated_event, current_season, alice, bob, carol):
    """A round robin of four: Alice and Carol paid up, Bob in arrears, Gus a guest; the
    list published before it and after it.

    Starting ratings far apart, so that every figure of each player is their own.
    """
    cache.clear()  # the API's throttle counts callers in the cache
    paid_up(alice, current_season)
    paid_up(carol, current_season)
    gus = MemberFactory(member_number="G1", name="Gus Guest", is_guest=True)
    for member, rating in ((alice, 1711), (carol, 1655), (bob, 1333), (gus, 1444)):
        member.initial_rating = rating
        member.initial_games = 30
        # An address, so that each one's own links open their pages in the sweep.
        member.email = f"{member.member_number.lower()}@example.org"
        member.save()
    services.ratings_rerate(services.RerateRequest(reason="starting ratings"))
    now = timezone.now()
    services.list_publish(note="Before the night", now=now - dt.timedelta(seconds=1))
    event = rated_event(
        [
            (1, alice, bob, Game.Result.WHITE_WIN),
            (1, carol, gus, Game.Result.DRAW),
            (2, gus, alice, Game.Result.DRAW),
            (2, bob, carol, Game.Result.BLACK_WIN),
            (3, alice, carol, Game.Result.DRAW),
            (3, bob, gus, Game.Result.WHITE_WIN),
        ],
        rounds=3,
    )
    Event.objects.filter(pk=event.pk).update(kind=Event.Kind.ROUND_ROBIN)
    services.list_publish(note="After the night", now=now)
    return event


def figures(*members: Member) -> set[str]:
    """Every rating figure of these members a page could print: displays, and the
    ratings before and after each event as whole numbers."""
    shown: set[str] = set()
    for change in RatingChange.objects.filter(member__in=members):
        shown |= {change.display_before, change.display_after}
        shown |= {str(round(r)) for r in (change.before, change.after) if r is not None}
    for state in RatingState.objects.filter(member__in=members):
        shown |= {state.display, str(round(state.rating)) if state.rating else ""}
    return shown - {""}


def shows(page: str, figure: str) -> bool:
    """The figure printed as a number of its own (not inside a longer number or a token)."""
    return re.search(rf"(?<![\w.]){re.escape(figure)}(?![0-9])", page) is not None


#: A member's own pages: their links are the key (``token``), each member's own.
OWN_LINKS = {"my-page": my_page_token, "unsubscribe": unsubscribe_token}


#: The pages whose ``slug`` is a publication's (a report's otherwise).
PUBLICATION_PAGES = {"publication", "publication-changes"}


#: What each public URL's arguments are, by name: a new page with an argument not here
#: fails ``test_every_public_url_is_checked`` until it is added.
def arguments(name: str, night: Event, page: str) -> list[str | int]:
    players = Member.objects.filter(entries__event=night).order_by("member_number")
    slugs = (
        list(Publication.objects.values_list("slug", flat=True))
        if page in PUBLICATION_PAGES
        else list(reports.REPORTS)
    )
    # A published member's own page shows their figures, which are public: the sweep
    # reads it for anyone else's. (Bob's own page shows his withheld rating, to him:
    # tests/web/test_my_page.py.)
    own = OWN_LINKS.get(page, my_page_token)
    return {
        "number": [m.member_number for m in players],
        "pk": [night.pk],
        "slug": slugs,
        "token": [own(m) for m in players if m.member_number in ("A1", "C3")],
    }.get(name, [])


#: Queries a page answers besides its plain view: what-ifs and searches naming the players.
QUERIES: dict[str, list[dict[str, str]]] = {
    "calculator": [
        {
            "go": "1",
            "p-member": member,
            "g-TOTAL_FORMS": "1",
            "g-INITIAL_FORMS": "0",
            "g-0-opponent": opponent,
            "g-0-result": "1",
        }
        for member, opponent in (("A1", "B2"), ("A1", "G1"), ("B2", "A1"), ("G1", "C3"))
    ],
    "member_search": [{"q": q} for q in ("Bob", "Gus", "B2", "G1", "Alice", "Carol")],
}


def public_patterns() -> list[object]:
    return [p for p in urlpatterns if not str(p.pattern).startswith("officer/")]


def api_paths() -> list[str]:
    """Every operation of the read API, as its description names them."""
    return list(api.get_openapi_schema()["paths"])


def api_pages(night: Event) -> Iterator[tuple[str, dict[str, str]]]:
    """Every API operation with every argument (a ``slug`` there is a publication's)."""
    for path in api_paths():
        names = re.findall(r"{(\w+)}", path)
        assert len(names) <= 1, f"{path}: teach api_pages two arguments"
        values = arguments(names[0], night, "publication") if names else [None]
        assert values, f"{path}: add its argument {names[0]!r} to arguments()"
        for value in values:
            yield (path.replace(f"{{{names[0]}}}", str(value)) if names else path), {}


#: Pages of the rating systems' own text (the help page), which read no member: the
#: numbers they print are the rules' (a starting 1500, a cap), never anyone's rating.
RULES_ONLY = {"help"}


def public_pages(night: Event) -> Iterator[tuple[str, dict[str, str]]]:
    """Every public URL of ``ratings/urls.py`` with every argument, plain and as CSV, and
    every operation of the API (but the rules' own pages, ``RULES_ONLY``)."""
    for pattern in public_patterns():
        if pattern.name in RULES_ONLY:
            continue
        names = list(pattern.pattern.converters)
        assert len(names) <= 1, f"{pattern.pattern}: teach public_pages two arguments"
        values = arguments(names[0], night, pattern.name) if names else [None]
        assert values, f"{pattern.pattern}: add its argument {names[0]!r} to arguments()"
        for value in values:
            url = reverse(f"ratings:{pattern.name}", kwargs={names[0]: value} if names else {})
            for query in [{}, {"_export": "csv"}, *QUERIES.get(pattern.name, [])]:
                yield url, query
    yield from api_pages(night)


def test_every_public_url_is_checked(night):
    checked = {url for url, _ in public_pages(night)}
    assert len(checked) >= len(public_patterns()) - len(RULES_ONLY) + len(api_paths())


def test_the_sweep_reads_real_publications_and_every_api_operation(client, night):
    publications = list(Publication.objects.order_by("published_at"))
    assert len(publications) == 2
    urls = {url for url, _ in public_pages(night)}
    for published in publications:
        assert published.get_absolute_url() in urls
        assert f"/api/v1/publications/{published.slug}" in urls
    assert f"/api/v1/events/{night.pk}" in urls and "/api/v1/members/B2/history" in urls
    changes = client.get(reverse("ratings:publication-changes", args=[publications[1].slug]))
    assert changes.context["older"] == publications[0]  # the changes page compares the two
    assert changes.context["counts"]["stayed"] == 2


def test_no_public_page_shows_an_unpublished_players_rating_or_membership(client, night):
    hidden = figures(*Member.objects.filter(member_number__in=["B2", "G1"]))
    published = figures(*Member.objects.filter(member_number__in=["A1", "C3"]))
    assert hidden and not hidden & published  # each figure tells whose it is
    seen = set()
    for url, query in public_pages(night):
        response = client.get(url, query)
        assert response.status_code in (200, 302, 404), (url, query)
        page = b"".join(response.streaming_content if response.streaming else [response.content])
        if response.status_code == 200 and response.has_header("ETag"):
            # A kept public page (clubratings/cache.py): the kept copy is the page.
            again = client.get(url, query)
            kept = b"".join(again.streaming_content if again.streaming else [again.content])
            assert (again.status_code, kept) == (200, page), f"{url}?{query} kept otherwise"
        text = page.decode()
        leaked = {f for f in hidden if shows(text, f)}
        assert not leaked, f"{url}?{query} shows {leaked}"
        assert "arrears" not in text.lower(), f"{url}?{query} tells a membership"
        assert "officer-only" not in text, f"{url}?{query} shows what is for officers"
        seen |= {f for f in published if shows(text, f)}
    assert seen  # the published players' figures are there to be seen


def nobody(day: Any = None, *, among: Any = None, each: bool = False) -> Q:
    """The rule hiding everyone: what every public page must then show of ratings."""
    return Q(pk__lt=0)


def test_every_public_page_asks_the_rule(client, night, monkeypatch):
    """With the rule hiding everyone, no public page shows anyone's rating.

    A publication is a record of its day, read as it was frozen: the rule is asked when
    it is made. So the lists are published again under the rule hiding everyone.
    """
    everyone = figures(*Member.objects.all())
    monkeypatch.setattr(member_models, "published_condition", nobody)
    Publication.objects.all().delete()
    now = timezone.now()
    services.list_publish(note="Nobody", now=now - dt.timedelta(seconds=1))
    services.list_publish(note="Nobody again", now=now)

    # A member's own page shows them their own rating whatever the rule: that is its use.
    def own(url: str) -> set[str]:
        match = resolve(url)
        if match.url_name != "my-page":
            return set()
        return figures(member_of_my_page_token(match.kwargs["token"]))

    for url, query in public_pages(night):
        response = client.get(url, query)
        page = b"".join(response.streaming_content if response.streaming else [response.content])
        leaked = {f for f in everyone - own(url) if shows(page.decode(), f)}
        assert not leaked, f"{url}?{query} shows {leaked} without asking the rule"


def test_the_export_command_asks_the_rule(night, monkeypatch):
    out = StringIO()
    call_command("export_ratings", stdout=out)
    assert "Alice Archer" in out.getvalue() and "Bob Brown" not in out.getvalue()
    monkeypatch.setattr(member_models, "published_condition", nobody)
    out = StringIO()
    call_command("export_ratings", stdout=out)
    assert out.getvalue().count("\n") == 1  # the heading alone


def test_the_officers_reason_agrees_with_the_rule(night, dave):
    dave.merged_into = Member.objects.get(member_number="A1")
    dave.save()
    everyone = Member.objects.with_financial().with_published()
    assert {m.name: publication.reason(m) for m in everyone} == {
        "Alice Archer": "published",
        "Carol Chen": "published",
        "Bob Brown": "no: in arrears",
        "Gus Guest": "no: guest",
        "Dave Dunn": "no: merged into another record",
    }
    assert all((publication.reason(m) == "published") == m.is_published for m in everyone)


def test_the_rule_asked_of_a_few_members_answers_as_asked_of_everyone(night, dave):
    dave.merged_into = Member.objects.get(member_number="A1")
    dave.save()
    # Annotated members (their is_published and is_financial are not the model's).
    everyone: list[Any] = list(Member.objects.with_financial().with_published())
    assert {m.is_published for m in everyone} == {True, False}
    for member in everyone:
        few = [member.pk, Member.objects.get(member_number="B2").pk]
        asked: list[Any] = list(
            Member.objects.filter(pk=member.pk).with_financial(among=few).with_published(among=few)
        )
        answer = [(m.is_published, m.is_financial) for m in asked]
        assert answer == [(member.is_published, member.is_financial)], member.name


def test_the_queryset_shorthand_is_the_rule(night):
    assert set(Member.objects.published()) == set(
        Member.objects.filter(member_models.published_condition())
    )
    assert set(Member.objects.published().values_list("name", flat=True)) == {
        "Alice Archer",
        "Carol Chen",
    }
    everyone = list(Member.objects.values_list("pk", flat=True))
    assert Member.objects.filter(entries__event=night).published_pks() == Member.objects.filter(
        pk__in=everyone
    ).published_pks(among=everyone)
    assert not Member.objects.filter(member_models.published_condition(), is_guest=True).exists()


# -- the club's choice: name unpublished members, or keep them off public pages --------

#: What would tell who Bob (in arrears) and Gus (a guest) are: names and member numbers.
UNPUBLISHED = ("Bob Brown", "Gus Guest", "B2", "G1")


def named(text: str) -> set[str]:
    """Which of the unpublished members' names and numbers the text carries, each as a
    word of its own (B2 not inside AB23)."""
    return {word for word in UNPUBLISHED if re.search(rf"(?<![\w.]){word}(?!\w)", text)}


def body(response) -> str:
    chunks = response.streaming_content if response.streaming else [response.content]
    return b"".join(chunks).decode()


def choose(choice: str) -> None:
    club = ClubSettings.load()
    club.unpublished_members = choice
    club.save()
    cache.clear()  # a cached public answer was made under the other choice


@pytest.fixture(params=sorted(SYSTEMS))
def each_system(request):
    """The night rated under each system (the club's choice left to the test)."""
    ClubSettings.objects.update_or_create(pk=1, defaults={"rating_system": request.param})
    return request.getfixturevalue("night")


def crawl(client, event: Event) -> Iterator[tuple[str, dict[str, str], str]]:
    """Every public page and API answer of the night: its URL, query and text."""
    for url, query in public_pages(event):
        response = client.get(url, query)
        assert response.status_code in (200, 302, 404), (url, query)
        yield url, query, body(response)


def test_kept_off_no_public_page_names_or_numbers_an_unpublished_member(client, each_system):
    choose(ClubSettings.Unpublished.KEPT_OFF)
    hidden = figures(*Member.objects.filter(member_number__in=["B2", "G1"]))
    for url, query, text in crawl(client, each_system):
        # What the reader typed comes back to them (the calculator's "no rated member
        # has the number B2", as for any number): it tells them nothing they did not know.
        leaked = named(text) - set(query.values())
        assert not leaked, f"{url}?{query} names {leaked}"
        shown = {f for f in hidden if shows(text, f)}
        assert not shown, f"{url}?{query} shows their ratings {shown}"


def expected_against_them(event: Event) -> set[str]:
    """The expected scores of games against Bob and Gus, as a page prints them ("0.42"),
    but those a game between published players also has (a page may print that one)."""
    from ratings.pages import events as event_pages

    system = ClubSettings.load().engine()
    hidden = set(
        Member.objects.filter(member_number__in=["B2", "G1"]).values_list("pk", flat=True)
    )
    against: dict[bool, set[str]] = {True: set(), False: set()}
    for change in event_pages.saved_changes(event, system=system):
        for line in change["breakdown"].get("games", []):
            if line.get("expected") is not None and str(line.get("opponent", "")).isdigit():
                withheld = int(line["opponent"]) in hidden or change["player"] in hidden
                against[withheld].add(f"{float(line['expected']):.2f}")
    return against[True] - against[False]


def test_named_no_public_page_shows_an_unpublished_members_rating(client, each_system):
    hidden = figures(*Member.objects.filter(member_number__in=["B2", "G1"]))
    # The expected score of a game against them gives their rating back (1315 with an
    # expected 0.42 gives 1369 to within 2): withheld with it.
    hidden |= expected_against_them(each_system)
    seen: set[str] = set()
    for url, query, text in crawl(client, each_system):
        shown = {f for f in hidden if shows(text, f)}
        assert not shown, f"{url}?{query} shows their ratings {shown}"
        seen |= named(text) - set(query.values())
    assert seen == set(UNPUBLISHED)  # named, as the club chose


#: A number no member has: what an unpublished member's number must answer like.
NO_ONES_NUMBER = "ZZ999"


def member_urls(number: str) -> list[str]:
    """Every public page and API operation that takes a member's number, for ``number``."""
    urls = [
        reverse(f"ratings:{pattern.name}", kwargs={"number": number})
        for pattern in public_patterns()
        if list(pattern.pattern.converters) == ["number"]
    ]
    urls += [path.replace("{number}", number) for path in api_paths() if "{number}" in path]
    return urls


def test_kept_off_no_unpublished_number_answers_unlike_a_number_no_one_has(client, night):
    choose(ClubSettings.Unpublished.KEPT_OFF)

    def answer(url: str) -> tuple[int, str]:
        response = client.get(url)
        return response.status_code, body(response)

    nobody = [answer(url) for url in member_urls(NO_ONES_NUMBER)]
    assert len(nobody) >= 4 and {status for status, _ in nobody} == {404}
    for number in ("B2", "b2", "G1", "g1"):
        assert [answer(url) for url in member_urls(number)] == nobody, number
