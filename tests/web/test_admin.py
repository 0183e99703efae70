"""The admin: every model opens, derived ratings are read-only, settings are one row; a big
event corrected through links; confirmations say what a change re-rates; merging duplicates;
changing the rating system."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib import admin
from django.urls import reverse

from ratings import services
from ratings.models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
)

from ..factories import EventFactory, MemberFactory, SubscriptionFactory, paid_up
from .test_rerate import admin_form, full_rerate, ratings_now

pytestmark = pytest.mark.django_db


# -- The admin opens for every model; derived ratings are read-only; settings are one row. ---


@pytest.fixture
def record(rated_event, club, alice, bob, carol, season):
    """One of everything: a rated event with games and entries, a subscription, a run."""
    paid_up(alice, season)
    SubscriptionFactory(member=bob, season=season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, Game.Result.DRAW)])
    return club


def _url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_registered_model_opens_its_list_add_and_change_pages(admin_client, record):
    for model, model_admin in admin.site._registry.items():
        response = admin_client.get(_url(model, "changelist"), follow=True)
        assert response.status_code == 200, model
        if model_admin.has_add_permission(response.wsgi_request):
            assert admin_client.get(_url(model, "add")).status_code == 200, model
        obj = model_admin.get_queryset(response.wsgi_request).first()
        if obj is not None:
            assert admin_client.get(_url(model, "change", obj.pk)).status_code == 200, model
            history = admin_client.get(_url(model, "history", obj.pk))
            assert history.status_code == 200, model


def dangling_descriptions(text: str) -> set[str]:
    """The ids a page's ``aria-describedby`` points at that the page does not have."""
    ids = set(re.findall(r'\sid="([^"]+)"', text))
    return {
        target
        for value in re.findall(r'aria-describedby="([^"]*)"', text)
        for target in value.split()
    } - ids


def test_every_admin_page_describes_by_ids_it_has(admin_client, record):
    """A list's row checkboxes, a form's help: a screen reader reads what the page points
    at, and nothing where the id is missing."""
    dangling = {}
    for model, model_admin in admin.site._registry.items():
        response = admin_client.get(_url(model, "changelist"), follow=True)
        pages = {"changelist": response}
        obj = model_admin.get_queryset(response.wsgi_request).first()
        if obj is not None:
            pages["change"] = admin_client.get(_url(model, "change", obj.pk))
        if model_admin.has_add_permission(response.wsgi_request):
            pages["add"] = admin_client.get(_url(model, "add"))
        for view, page in pages.items():
            missing = dangling_descriptions(page.content.decode())
            if missing:
                dangling[f"{model._meta.model_name} {view}"] = missing
    assert not dangling, "\n".join(f"{page}: {sorted(ids)}" for page, ids in dangling.items())


def test_the_admin_names_the_sites_empty_icon_so_no_page_asks_for_favicon_ico(admin_client):
    page = admin_client.get(reverse("admin:index")).content.decode()
    assert '<link rel="icon" href="data:,">' in page


def test_every_model_of_the_club_is_registered():
    from django.apps import apps

    models = apps.get_app_config("ratings").get_models()
    unregistered = {m.__name__ for m in models if m not in admin.site._registry}
    assert {name for name in unregistered if not name.startswith("Historical")} == set()


@pytest.mark.parametrize("model", [RatingState, RatingChange, RatingRun])
def test_derived_ratings_can_be_viewed_but_not_added_changed_or_deleted(
    admin_client, record, model
):
    obj = model.objects.first()
    page = admin_client.get(_url(model, "change", obj.pk))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.get(_url(model, "add")).status_code == 403
    assert admin_client.get(_url(model, "delete", obj.pk)).status_code == 403


def test_club_settings_is_one_row_with_no_add_or_delete(admin_client, club):
    assert admin_client.get(_url(ClubSettings, "add")).status_code == 403
    assert admin_client.get(_url(ClubSettings, "delete", club.pk)).status_code == 403
    response = admin_client.get(_url(ClubSettings, "changelist"))
    assert response.url == _url(ClubSettings, "change", club.pk)


@pytest.mark.parametrize("model", [Member, Event, Game, RatingChange, RatingRun])
def test_admin_lists_do_not_query_per_row(
    admin_client, record, rated_event, model, django_assert_max_num_queries
):
    members = MemberFactory.create_batch(20)
    for week in range(1, 6):
        pairs = zip(members[::2], members[1::2], strict=True)
        rated_event(
            [(1, white, black, Game.Result.DRAW) for white, black in pairs],
            date=dt.date(2026, 4, week),
        )
    with django_assert_max_num_queries(15):
        assert admin_client.get(_url(model, "changelist")).status_code == 200


def test_adding_a_member_in_the_admin_under_a_members_name_warns(admin_client, alice):
    url = reverse("admin:ratings_member_add")
    data = admin_form(admin_client.get(url))
    data.update(member_number="A7", name="Alice Archer", initial_games=0)
    response = admin_client.post(url, data, follow=True)
    assert Member.objects.filter(member_number="A7").exists()
    shown = [str(m) for m in response.context["messages"]]
    assert any("Another member is also called Alice Archer (A1)" in m for m in shown)


def test_a_renamed_rated_event_restarts_the_chain_nowhere(rated_event, alice, bob):
    rated_event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    key = services.rating_key(rated_event)
    start = services.event_rerate_start(event=rated_event, previous=key, changed={"name"})
    assert start is None


def test_a_rated_event_moved_later_restarts_the_chain_where_it_stood(rated_event, alice, bob):
    rated_event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    before = services.rating_key(rated_event)
    rated_event.end_date += dt.timedelta(days=3)
    start = services.event_rerate_start(event=rated_event, previous=before, changed={"end_date"})
    assert start == before


def test_a_draft_events_games_restart_the_chain_nowhere(db):
    draft_event = EventFactory(status=Event.Status.DRAFT)
    key = services.rating_key(draft_event)
    assert (
        services.event_rerate_start(
            event=draft_event, previous=key, changed=(), games_changed=True
        )
        is None
    )


# -- A tournament of any size can be corrected in the admin: big inlines give way to a link. ---


@pytest.fixture
def big_swiss(rated_event, alice, bob):
    """150 games among 30 players, alice and bob among them, after a club night of theirs."""
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 2, 2))
    players = [alice, bob, *(MemberFactory(name=f"Swiss player {n}") for n in range(28))]
    event = EventFactory(
        name="Big Swiss",
        start_date=dt.date(2026, 3, 2),
        end_date=dt.date(2026, 3, 2),
        rounds=5,
        status=Event.Status.COMPLETE,
    )
    # In two statements, then rated, as rated_event rates it: a game and its entries at a
    # time (rated_event's way) was 450 saves, nearly all of the fixture's 2 to 6 s.
    Game.objects.bulk_create(
        Game(
            event=event,
            round=i // 30 + 1,
            white=players[i % 30],
            black=players[(i % 30 + i // 30 + 1) % 30],
            result="1-0",
        )
        for i in range(150)
    )
    Entry.objects.bulk_create(Entry(event=event, member=player) for player in players)
    services.ratings_rerate(services.RerateRequest(start=event, reason="Big Swiss rated"))
    return event


def _change_url(event: Event) -> str:
    return reverse("admin:ratings_event_change", args=[event.pk])


def _inline_models(response) -> set[str]:
    return {i.formset.model._meta.model_name for i in response.context["inline_admin_formsets"]}


def test_a_big_event_s_change_page_posts_well_under_a_thousand_fields(admin_client, big_swiss):
    response = admin_client.get(_change_url(big_swiss))
    assert response.status_code == 200
    assert len(admin_form(response)) < 1000


def test_a_big_event_s_games_are_linked_to_not_inlined(admin_client, big_swiss):
    response = admin_client.get(_change_url(big_swiss))
    assert "game" not in _inline_models(response)
    page = response.content.decode()
    assert "150 games: too many to edit on this page" in page
    assert f"/admin/ratings/game/?event__id__exact={big_swiss.pk}" in page


def test_the_link_lists_the_event_s_games(admin_client, big_swiss):
    response = admin_client.get(
        reverse("admin:ratings_game_changelist"), {"event__id__exact": big_swiss.pk}
    )
    assert response.status_code == 200
    assert response.context["cl"].result_count == 150


def test_moving_a_big_event_saves_and_re_rates(admin_client, big_swiss):
    url = _change_url(big_swiss)
    data = admin_form(admin_client.get(url))
    before = ratings_now()
    data.update(start_date="2026-01-05", end_date="2026-01-05")
    response = admin_client.post(url, data)
    assert response.status_code == 302
    big_swiss.refresh_from_db()
    assert big_swiss.end_date == dt.date(2026, 1, 5)
    assert RatingRun.objects.latest("pk").events_rated == 2
    assert ratings_now() != before
    assert ratings_now() == full_rerate()


def test_renaming_a_big_event_saves(admin_client, big_swiss):
    url = _change_url(big_swiss)
    data = admin_form(admin_client.get(url))
    data.update(name="Big Swiss 2026")
    assert admin_client.post(url, data).status_code == 302
    assert Event.objects.get(pk=big_swiss.pk).name == "Big Swiss 2026"


def test_a_club_night_keeps_its_games_and_entries_on_its_page(
    admin_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    response = admin_client.get(_change_url(event))
    assert _inline_models(response) == {"game", "entry"}
    assert "1 game, below" in response.content.decode()


def test_an_event_with_hundreds_of_entries_links_them_too(admin_client):
    event = EventFactory(name="Open")
    for n in range(250):
        event.entries.create(member=MemberFactory(name=f"Open player {n}"))
    response = admin_client.get(_change_url(event))
    assert "entry" not in _inline_models(response)
    assert len(admin_form(response)) < 1000
    page = response.content.decode()
    assert "250 entries: too many to edit on this page" in page
    assert f"/admin/ratings/entry/?event__id__exact={event.pk}" in page


# -- The admin's confirmation pages say how many events the change re-rates, before it is made. ---


@pytest.fixture
def three_nights(rated_event, alice, bob, carol):
    return [
        rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 3, 2), name="First night"),
        rated_event([(1, bob, carol, "0-1")], date=dt.date(2026, 3, 9), name="Second night"),
        rated_event([(1, carol, alice, "1-0")], date=dt.date(2026, 3, 16), name="Third night"),
    ]


def _delete_selected(client, model, objects):
    return client.post(
        reverse(f"admin:ratings_{model}_changelist"),
        {"action": "delete_selected", "_selected_action": [o.pk for o in objects]},
    )


def test_deleting_a_game_says_how_many_events_it_re_rates(admin_client, three_nights):
    game = three_nights[1].games.get()
    response = admin_client.get(reverse("admin:ratings_game_delete", args=[game.pk]))
    assert b"Deleting this re-rates <strong>2 events</strong>" in response.content


def test_deleting_selected_games_counts_from_the_earliest(admin_client, three_nights):
    games = [three_nights[0].games.get(), three_nights[2].games.get()]
    response = _delete_selected(admin_client, "game", games)
    assert response.status_code == 200
    assert b"Deleting these re-rates <strong>3 events</strong>" in response.content


def test_deleting_selected_events_does_not_count_the_events_that_go(admin_client, three_nights):
    response = _delete_selected(admin_client, "event", [three_nights[1]])
    assert b"Deleting these re-rates <strong>1 event</strong>" in response.content


def test_deleting_an_unrated_event_re_rates_nothing(admin_client, three_nights):
    from ..factories import EventFactory

    planned = EventFactory(name="Next season's opener", start_date=dt.date(2026, 9, 1))
    response = admin_client.get(reverse("admin:ratings_event_delete", args=[planned.pk]))
    assert b"Deleting this re-rates no events" in response.content


def test_deleting_after_the_confirmation_still_deletes(admin_client, three_nights):
    game = three_nights[1].games.get()
    response = admin_client.post(
        reverse("admin:ratings_game_delete", args=[game.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not three_nights[1].games.exists()


# -- Merging duplicates: the page says what survives and what it re-rates; so does the history. ---


@pytest.fixture
def garry():
    return MemberFactory(member_number="N0001", name="Garry Kasparov")


@pytest.fixture
def garry_again():
    """The same man entered again, with the FIDE id and title the first record lacks."""
    return MemberFactory(
        member_number="N0315", name="Garry Kasparov", fide_id="4100018", title="GM"
    )


@pytest.fixture
def nights(rated_event, garry, garry_again, alice, bob):
    rated_event([(1, garry, alice, "1-0")], date=dt.date(2026, 3, 2))
    rated_event([(1, alice, bob, "1/2-1/2")], date=dt.date(2026, 3, 9))
    rated_event([(1, garry_again, bob, "1-0")], date=dt.date(2026, 3, 16))


def _merge_page(client, *members):
    return client.post(
        reverse("admin:ratings_member_changelist"),
        {"action": "merge_members", "_selected_action": [m.pk for m in members]},
    ).content.decode()


def test_the_merge_page_says_how_many_events_each_choice_re_rates(
    admin_client, nights, garry, garry_again
):
    page = _merge_page(admin_client, garry, garry_again)
    # Keeping N0001: from N0315's night on, and (its title copied) from N0001's own first.
    assert "Merging into N0001 re-rates 3 events" in page
    # Keeping N0315: from N0001's first night on.
    assert "Merging into N0315 re-rates 3 events" in page


def test_the_merge_page_shows_the_fields_that_survive(admin_client, nights, garry, garry_again):
    page = _merge_page(admin_client, garry, garry_again)
    assert "The record kept keeps its own name, member number and every field it has" in page
    # Her row's FIDE id and title cells: "GM" alone is two characters the page's random
    # CSRF token holds now and then (1 page in 60), which would pass with no title shown.
    assert "<td>4100018</td><td>GM</td>" in page


def test_the_merge_page_says_what_a_choice_copies_into_the_record_kept(
    admin_client, nights, garry, garry_again
):
    page = _merge_page(admin_client, garry, garry_again)
    assert "<li>FIDE id: 4100018 (from N0315)</li>" in page
    assert "<li>FIDE title: GM (from N0315)</li>" in page


def test_merging_copies_the_fide_id_and_title_the_record_kept_lacks(nights, garry, garry_again):
    services.member_merge(source=garry_again, target=garry)
    garry.refresh_from_db()
    assert (garry.fide_id, garry.title) == ("4100018", "GM")


def test_merging_never_overwrites_what_the_record_kept_has(nights, garry, garry_again):
    garry.fide_id = "1"
    garry.save()
    services.member_merge(source=garry_again, target=garry)
    garry.refresh_from_db()
    assert (garry.fide_id, garry.title) == ("1", "GM")


def test_the_record_kept_records_the_merge_in_its_history(nights, garry, garry_again):
    services.member_merge(source=garry_again, target=garry)
    record = garry.history.latest()
    assert record.history_change_reason.startswith(
        "merged N0315 (Garry Kasparov) into this record"
    )


def test_the_duplicate_records_the_merge_in_its_history(nights, garry, garry_again):
    services.member_merge(source=garry_again, target=garry)
    record = Member.objects.get(pk=garry_again.pk).history.latest()
    assert record.merged_into_id == garry.pk
    assert "into Garry Kasparov (N0001)" in record.history_change_reason


def test_the_merge_in_the_admin_names_the_admin_in_the_kept_record_s_history(
    admin_client, admin_user, nights, garry, garry_again
):
    admin_client.post(
        reverse("admin:ratings_member_changelist"),
        {
            "action": "merge_members",
            "_selected_action": [garry.pk, garry_again.pk],
            "keep": garry.pk,
        },
    )
    assert garry.history.latest().history_user == admin_user


def test_a_change_of_rating_system_is_one_row_of_the_settings_history(admin_client):
    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    rows = club.history.count()
    data = {**admin_form(admin_client.get(url)), "rating_system": "st-charles"}
    admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert club.history.count() == rows + 1
    record = club.history.latest()
    assert record.rating_system == "st-charles"
    assert [c.field for c in record.diff_against(record.prev_record).changes] == ["rating_system"]


# -- Changing the rating system in the admin warns first, then re-rates everything. ----------


@pytest.fixture
def rated_club(rated_event, club, alice, bob, carol):
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2025, 3, 4))
    rated_event([(1, bob, carol, "1/2-1/2")], date=dt.date(2025, 3, 11))
    rated_event([(1, carol, alice, "0-1")], date=dt.date(2025, 3, 18))
    return club


def _post_system(client, club, **changes):
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    data = admin_form(client.get(url))
    data.update(changes)
    return url, data, client.post(url, data)


def test_changing_the_system_asks_first_saying_how_many_events_it_re_rates(
    admin_client, rated_club
):
    _, _, response = _post_system(admin_client, rated_club, rating_system="st-charles")
    assert response.status_code == 200
    assert b"re-rates everything: 3 events" in response.content
    assert ClubSettings.load().rating_system != "st-charles"


def test_confirming_changes_the_system_and_re_rates_everything(admin_client, rated_club):
    url, data, _ = _post_system(admin_client, rated_club, rating_system="st-charles")
    response = admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert response.status_code == 302
    assert ClubSettings.load().rating_system == "st-charles"
    run = RatingRun.objects.latest("pk")
    assert run.system == "st-charles" and run.events_rated == 3
    assert ratings_now() == full_rerate()


def test_new_parameters_also_ask_first_and_then_re_rate(admin_client, rated_club):
    before = dict(RatingState.objects.values_list("member_id", "rating"))
    url, data, response = _post_system(admin_client, rated_club, system_params='{"k_new": 60}')
    assert b"re-rates everything" in response.content
    admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert ClubSettings.load().system_params == {"k_new": 60}
    assert dict(RatingState.objects.values_list("member_id", "rating")) != before


def test_bad_parameters_are_refused_beside_the_field_and_nothing_changes(admin_client, rated_club):
    _, _, response = _post_system(admin_client, rated_club, system_params='{"k_new": "lots"}')
    assert response.status_code == 200
    assert "k_new: must be a number" in str(response.context["adminform"].form.errors)
    assert ClubSettings.load().system_params == {}


def test_renaming_the_club_saves_without_asking_or_re_rating(admin_client, rated_club):
    runs = RatingRun.objects.count()
    _, _, response = _post_system(admin_client, rated_club, name="Kagan Chess Club")
    assert response.status_code == 302
    assert ClubSettings.load().name == "Kagan Chess Club"
    assert RatingRun.objects.count() == runs


def test_the_services_switch_is_what_the_admin_uses(rated_club):
    with services.rerates_for_a_page():
        services.rating_system_set(system_id="nscl")
    assert RatingRun.objects.latest("pk").status == RatingRun.Status.DONE


def test_a_switch_to_a_period_system_counts_the_current_periods_events_as_waiting(
    admin_client, rated_club, rated_event, alice, carol
):
    from django.utils import timezone

    rated_event([(1, alice, carol, "1-0")], date=timezone.localdate())
    _, _, response = _post_system(admin_client, rated_club, rating_system="acf-1993")
    page = response.content.decode()
    assert "re-rates everything: 3 events" in page
    assert "The current rating period's 1 event waits for you to close it." in page


@pytest.mark.parametrize("system_id", ["nz-club-elo", "acf-1993"])
def test_a_rating_changes_page_shows_its_game_lines_worked_out(
    admin_client, alice, bob, system_id
):
    # nz-club-elo stores no lines (worked out again); acf-1993 stores them packed.
    services.rating_system_set(system_id=system_id)
    alice.initial_rating, alice.initial_games = 1600, 40
    alice.save()
    event = EventFactory(
        start_date=dt.date(2024, 3, 2), end_date=dt.date(2024, 3, 2), status=Event.Status.COMPLETE
    )
    Game.objects.create(event=event, round=1, white=alice, black=bob, result=Game.Result.WHITE_WIN)
    services.periods_close_past(system=ClubSettings.load().engine())
    services.ratings_rerate(services.RerateRequest(reason="rated"))
    change = RatingChange.objects.get(member=alice)
    response = admin_client.get(reverse("admin:ratings_ratingchange_change", args=[change.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "How it was rated" in body and "Breakdown" not in body
    assert f'#breakdown-{alice.pk}"' in body
    # As the event's report shows it: the round, the opponent, the score.
    assert "<td>1</td>" in body and "<td>Bob Brown" in body and '<td class="rating">1</td>' in body
