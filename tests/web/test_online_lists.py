"""Lists of online play: the club keeps a time class played online on a list of its own
(a rating chain of its own, with its own system) or leaves it unrated; an online list
never moves an over-the-board one, and the over-the-board lists never count online games."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.core.exceptions import ValidationError

from ratings import services
from ratings.engine import SYSTEMS
from ratings.models import ClubSettings, Event, Publication, RatingChange, RatingList
from ratings.models.rating_lists import event_list_of, lists_kept, online_list_of

from ..factories import MemberFactory, paid_up
from .test_online_play import LICHESS_SWISS, import_trf
from .test_rerate import ratings_now

pytestmark = pytest.mark.django_db

#: After ecf-2020 took effect for online play (1 September 2021).
TUESDAY = dt.date(2025, 2, 4)


def keep_online(time_class: str, system: str = "nz-club-elo", kept: str = RatingList.Kept.OWN):
    """Keep ``time_class`` played online as the admin's form saves it."""
    rating_list = RatingList.objects.filter(time_class=time_class, online=True).first()
    rating_list = rating_list or RatingList(time_class=time_class, online=True)
    rating_list.kept, rating_list.rating_system = kept, system
    return services.rating_list_set(rating_list=rating_list)


def rate_everything() -> None:
    """Every list's past periods closed, then everything rated from the start."""
    club = ClubSettings.load()
    for rating_list in lists_kept():
        services.periods_close_past(system=club.engine(rating_list), time_class=rating_list)
    services.ratings_rerate(services.RerateRequest(reason="the record rated"))


def on_list(rating_list: str, members=None) -> dict:
    """Everything the ratings say on one list (of ``members``' states, if given)."""
    now = ratings_now()
    ids = None if members is None else {m.pk for m in members}
    return {
        "states": [
            s for s in now["states"] if s[1] == rating_list and (ids is None or s[0] in ids)
        ],
        "changes": [c for c in now["changes"] if c[2] == rating_list],
    }


def moved(event: Event, *, online: bool) -> None:
    previous = services.rating_key(event)
    event.online = online
    services.event_save(event=event, previous=previous, changed=["online"])


@pytest.fixture
def club_members():
    return [
        paid_up(MemberFactory(name=name, initial_rating=rating, initial_games=30))
        for name, rating in (("Alice Archer", 1600), ("Bob Brown", 1500), ("Carol Clark", 1400))
    ]


def test_online_games_are_on_no_list_until_the_club_keeps_one():
    assert online_list_of("rapid") is None
    keep_online("rapid")
    assert online_list_of("rapid") == "online-rapid"
    assert online_list_of("blitz") is None
    assert lists_kept() == ["standard", "online-rapid"]


def test_online_games_are_never_kept_with_an_over_the_board_list():
    rating_list = RatingList(time_class="rapid", online=True, kept=RatingList.Kept.STANDARD)
    with pytest.raises(ValidationError, match="never with the games played over the board"):
        rating_list.full_clean()


# -- A Lichess file is rated on the online list, the over-the-board list unchanged. -------


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_a_lichess_swiss_is_rated_on_the_online_blitz_list_and_nowhere_else(
    system_id, club_members, rated_event
):
    alice, bob, carol = club_members
    services.rating_system_set(system_id=system_id)
    keep_online("blitz", system=system_id)
    rated_event([(1, alice, bob, "1-0"), (2, bob, carol, "1/2-1/2")], date=TUESDAY, rate=False)
    rate_everything()
    before = on_list("standard", club_members)

    import_trf(str(LICHESS_SWISS))
    rate_everything()

    lichess = Event.objects.get(name="Mai 5 Plus 0 Turnier")
    assert lichess.online and event_list_of(lichess) == "online-blitz"
    starts = SYSTEMS[system_id].online_rated_from
    # A system whose online rating starts after the event (its own hook) leaves it unrated.
    rated_online = starts is None or lichess.end_date >= starts
    changes = set(RatingChange.objects.filter(event=lichess).values_list("time_class", flat=True))
    assert changes == ({"online-blitz"} if rated_online else set())
    assert on_list("standard", club_members) == before


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_switching_an_event_between_the_board_and_online_re_rates_both_lists_as_a_full_re_rate(
    system_id, club_members, rated_event
):
    alice, bob, carol = club_members
    services.rating_system_set(system_id=system_id)
    keep_online("standard", system=system_id)
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2025, 1, 7), rate=False)
    event = rated_event([(1, bob, carol, "1-0")], date=dt.date(2025, 2, 4), rate=False)
    rated_event([(1, carol, alice, "1-0")], date=dt.date(2025, 3, 4), rate=False)
    # The online list's chain around it, its periods closed as the officer closes them.
    arenas = [
        rated_event([(1, alice, carol, "1-0")], date=day, name="Lichess arena", rate=False)
        for day in (dt.date(2025, 2, 11), dt.date(2025, 3, 11))
    ]
    Event.objects.filter(pk__in=[a.pk for a in arenas]).update(online=True)
    rate_everything()

    moved(event, online=True)
    lists = set(RatingChange.objects.filter(event=event).values_list("time_class", flat=True))
    assert lists == {"online-standard"}
    online = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch, to compare"))
    assert ratings_now() == online

    moved(event, online=False)
    lists = set(RatingChange.objects.filter(event=event).values_list("time_class", flat=True))
    assert lists == {"standard"}
    back = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch, to compare"))
    assert ratings_now() == back


def test_ecf_2020_rates_online_play_from_1_september_2021(club_members, rated_event):
    alice, bob, _carol = club_members
    services.rating_system_set(system_id="ecf-2020")
    keep_online("standard", system="ecf-2020")
    early = rated_event([(1, alice, bob, "1-0")], date=dt.date(2021, 8, 10), rate=False)
    late = rated_event([(1, alice, bob, "1-0")], date=dt.date(2021, 9, 14), rate=False)
    Event.objects.filter(pk__in=[early.pk, late.pk]).update(online=True)
    rate_everything()
    assert not RatingChange.objects.filter(event=early).exists()
    assert RatingChange.objects.filter(event=late, time_class="online-standard").exists()


def test_the_comparison_leaves_out_the_online_games_a_system_does_not_rate(
    club_members, rated_event
):
    """ecf-2020 rates online play from 1 September 2021 in the comparison as on the live
    list: the August game is not its to predict (nz-club-elo predicts it from the
    brought-in ratings), and the two come to September's game with no online rating of
    ecf-2020's, so it predicts neither."""
    from ratings.models import Comparison
    from ratings.services import compare

    alice, bob, _carol = club_members
    keep_online("standard")
    early = rated_event([(1, alice, bob, "0-1")], date=dt.date(2021, 8, 10), rate=False)
    late = rated_event([(1, alice, bob, "1-0")], date=dt.date(2021, 9, 14), rate=False)
    Event.objects.filter(pk__in=[early.pk, late.pk]).update(online=True)
    rate_everything()
    comparison = compare.comparison_start(params=None)
    comparison = Comparison.objects.get(pk=comparison.pk)
    if comparison.status == Comparison.Status.QUEUED:  # not run by a commit hook in a test
        compare.comparison_run(comparison=comparison)
    comparison.refresh_from_db()
    systems = comparison.results["lists"]["online-standard"]["systems"]
    predicted = {sid: figures["expected_games"] for sid, figures in systems.items()}
    assert predicted["nz-club-elo"] == 2
    assert predicted["ecf-2020"] == 0


def test_an_online_event_before_its_systems_online_start_says_it_is_not_rated(
    client, club_members, rated_event
):
    alice, bob, _carol = club_members
    services.rating_system_set(system_id="ecf-2020")
    keep_online("standard", system="ecf-2020")
    early = rated_event([(1, alice, bob, "1-0")], date=dt.date(2021, 8, 10), rate=False)
    Event.objects.filter(pk=early.pk).update(online=True)
    rate_everything()
    page = client.get(f"/events/{early.pk}/").content.decode()
    assert (
        "played online; not rated: the online standard list counts online play from "
        "1 September 2021" in page
    )


def test_leaving_online_games_unrated_again_takes_their_list_away(club_members, rated_event):
    alice, bob, _carol = club_members
    keep_online("standard")
    event = rated_event([(1, alice, bob, "1-0")], date=TUESDAY, rate=False)
    Event.objects.filter(pk=event.pk).update(online=True)
    rate_everything()
    assert RatingChange.objects.filter(time_class="online-standard").exists()
    keep_online("standard", kept=RatingList.Kept.UNRATED)
    assert lists_kept() == ["standard"]
    assert not RatingChange.objects.exists()


# -- The online list's own publications, page, CSV and API. --------------------------------


@pytest.fixture
def online_apart(club_members, rated_event):
    """Alice leads the standard list, Bob the online rapid list."""
    alice, bob, _carol = club_members
    keep_online("rapid")
    rated_event([(1, alice, bob, "1-0")], date=TUESDAY, name="Club night")
    arena = rated_event(
        [(1, alice, bob, "0-1")],
        date=TUESDAY,
        name="Lichess arena",
        time_class="rapid",
        rate=False,
    )
    moved(arena, online=True)
    return alice, bob


def test_the_online_list_is_published_apart(online_apart):
    publication = services.list_publish(note="Online, March", time_class="online-rapid")
    assert publication.slug.endswith("-online-rapid")
    assert str(publication).startswith("Online rapid list of")
    assert [e.member.name for e in publication.entries.order_by("rank")] == [
        "Bob Brown",
        "Alice Archer",
    ]
    assert services.publication_latest() is None
    assert Publication.objects.count() == 1


def test_the_online_lists_page_has_a_tab_and_ranks_its_own_games(client, online_apart):
    page = client.get("/ratings/live/", {"list": "online-rapid"})
    assert [m.name for m in page.context["table"].page.object_list.data] == [
        "Bob Brown",
        "Alice Archer",
    ]
    body = page.content.decode()
    assert "Online rapid rating list" in body
    assert 'href="/ratings/live/?list=online-rapid">Online rapid list</a>' in body


def test_the_online_lists_csv_ranks_its_own_games(client, online_apart):
    response = client.get("/ratings/live/", {"list": "online-rapid", "_export": "csv"})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    names = [row.get("Name") or row.get("name") for row in rows]
    assert names == ["Bob Brown", "Alice Archer"]


def test_the_api_reads_the_online_list(client, online_apart):
    listing = client.get("/api/v1/list", {"time_class": "online-rapid"}).json()
    assert listing["time_class"] == "online-rapid"
    assert [row["name"] for row in listing["results"]] == ["Bob Brown", "Alice Archer"]
    assert client.get("/api/v1/list", {"time_class": "online-blitz"}).status_code == 404
    _, bob = online_apart
    member = client.get(
        f"/api/v1/members/{bob.member_number}", {"time_class": "online-rapid"}
    ).json()
    assert member["rating"]["games"] == 1


def test_a_members_page_shows_the_online_list_asked_for(client, online_apart):
    _, bob = online_apart
    page = client.get(bob.get_absolute_url(), {"list": "online-rapid"})
    assert page.context["state"].time_class == "online-rapid"
    assert page.context["state"].games == 1


def test_an_online_events_page_names_the_list_it_is_rated_on(client, online_apart):
    arena = Event.objects.get(name="Lichess arena")
    page = client.get(f"/events/{arena.pk}/").content.decode()
    assert "played online; rated on the online rapid list" in page


def test_the_comparison_compares_the_online_list_on_its_own_games(online_apart):
    from ratings.models import Comparison
    from ratings.pages import comparisons
    from ratings.services import compare

    comparison = compare.comparison_start(params=None)
    comparison = Comparison.objects.get(pk=comparison.pk)
    if comparison.status == Comparison.Status.QUEUED:  # not run by a commit hook in a test
        compare.comparison_run(comparison=comparison)
    comparison.refresh_from_db()
    lists = comparison.results["lists"]
    assert (lists["online-rapid"]["events"], lists["online-rapid"]["games"]) == (1, 1)
    assert (lists["standard"]["events"], lists["standard"]["games"]) == (1, 1)
    names = [section.name for section in comparisons.list_sections(comparison)]
    assert names == ["Standard list", "Online rapid list"]


def test_a_member_in_arrears_is_rated_on_the_online_list_and_left_off_its_publication(
    online_apart, rated_event
):
    alice, _bob = online_apart
    dave = MemberFactory(name="Dave Dunn")  # no subscription: in arrears
    arena = rated_event(
        [(1, dave, alice, "1-0")],
        date=TUESDAY,
        name="Lichess evening",
        time_class="rapid",
        rate=False,
    )
    moved(arena, online=True)
    assert RatingChange.objects.filter(member=dave, time_class="online-rapid").exists()
    publication = services.list_publish(time_class="online-rapid")
    names = set(publication.entries.values_list("member__name", flat=True))
    assert "Dave Dunn" not in names and "Alice Archer" in names


@pytest.mark.parametrize(
    "path",
    [
        "/ratings/",
        "/ratings/print/",
        "/officer/ratings/",
        "/officer/periods/",
        "/officer/publish/",
    ],
)
def test_the_officers_and_the_lists_pages_show_the_online_list_asked_for(
    officer_client, online_apart, path
):
    services.list_publish(time_class="online-rapid")
    page = officer_client.get(path, {"list": "online-rapid"})
    assert page.status_code == 200
    assert "online rapid" in page.content.decode().lower()


def test_standard_play_over_the_board_is_the_club_settings_list():
    rating_list = RatingList(time_class="standard", online=False, kept=RatingList.Kept.OWN)
    with pytest.raises(ValidationError, match="the club's own list"):
        rating_list.full_clean()
