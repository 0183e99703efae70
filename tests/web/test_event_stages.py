"""An event's stages (services/event_stages.py): its director submits it once its results
are in, the officers are told and find it on their home; the officer rates it or sends it
back with a note, and its directors are told; each step says who took it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from ratings.models import Event
from ratings.services.accounts import event_directors_set, officer_create

from ..factories import EventFactory, GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(alice, bob):
    event = EventFactory(name="Club night", rounds=1)
    GameFactory(event=event, round=1, white=alice, black=bob)
    for member in (alice, bob):
        event.entries.create(member=member)
    return event


@pytest.fixture
def dora(night):
    dora = User.objects.create_user("dora", "dora@example.org", "x", first_name="Dora")
    event_directors_set(event=night, users=[dora])
    return User.objects.get(pk=dora.pk)


@pytest.fixture
def olivia():
    return officer_create(username="olivia", password="x", email="olivia@example.org")


def post(client, capture, name, event, data=None):
    with capture(execute=True):
        return client.post(reverse(f"ratings:{name}", args=[event.pk]), data or {})


def test_a_director_submits_their_event_and_the_officers_are_mailed(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    night.refresh_from_db()
    assert night.stage == Event.SUBMITTED
    assert night.submitted_by == dora
    (message,) = mail.outbox
    assert message.to == ["olivia@example.org"]
    assert "Dora has submitted Club night" in message.body
    assert reverse("ratings:officer-event-complete", args=[night.pk]) in message.body


def test_a_submitted_event_is_on_the_officers_home_with_its_rating_preview(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    client.force_login(olivia)
    home = client.get(reverse("ratings:officer-home"))
    assert list(home.context["submitted"]) == [night]
    assert reverse("ratings:officer-event-complete", args=[night.pk]) in home.content.decode()


def test_an_event_is_submitted_once(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    assert len(mail.outbox) == 1
    night.refresh_from_db()
    assert night.submissions == 1


def test_an_event_without_results_cannot_be_submitted(client, dora, olivia, night):
    night.games.all().delete()
    client.force_login(dora)
    client.post(reverse("ratings:officer-event-submit", args=[night.pk]))
    night.refresh_from_db()
    assert night.stage == Event.DRAFT


def test_a_director_cannot_submit_another_directors_event(client, dora, alice, bob):
    other = EventFactory(name="Other night", rounds=1)
    GameFactory(event=other, round=1, white=alice, black=bob)
    client.force_login(dora)
    response = client.post(reverse("ratings:officer-event-submit", args=[other.pk]))
    assert response.status_code == 403
    other.refresh_from_db()
    assert other.stage == Event.DRAFT


def test_sending_back_needs_a_note(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    client.force_login(olivia)
    response = post(
        client, django_capture_on_commit_callbacks, "officer-event-send-back", night, {"note": " "}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["note"]
    night.refresh_from_db()
    assert night.stage == Event.SUBMITTED


def test_sent_back_the_event_returns_to_draft_and_its_director_is_mailed(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    client.force_login(olivia)
    post(
        client,
        django_capture_on_commit_callbacks,
        "officer-event-send-back",
        night,
        {"note": "Round 1 board 2 is missing."},
    )
    night.refresh_from_db()
    assert night.stage == Event.DRAFT
    assert night.sent_back_by == olivia
    message = mail.outbox[-1]
    assert message.to == ["dora@example.org"]
    assert "Round 1 board 2 is missing." in message.body
    client.force_login(dora)
    page = client.get(reverse("ratings:officer-event", args=[night.pk])).content.decode()
    assert "Round 1 board 2 is missing." in page


def test_rating_a_submitted_event_mails_its_director(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    client.force_login(olivia)
    post(client, django_capture_on_commit_callbacks, "officer-event-complete", night)
    night.refresh_from_db()
    assert night.stage == Event.RATED
    assert night.rated_by == olivia
    message = mail.outbox[-1]
    assert message.to == ["dora@example.org"]
    assert "has rated Club night" in message.body


def test_the_directors_home_shows_each_events_stage_and_who_took_it(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    page = client.get(reverse("ratings:officer-home")).content.decode()
    assert "Submitted for rating" in page
    assert "Submitted by Dora" in page


def test_a_director_is_told_of_rounds_without_results_before_submitting(client, dora, night):
    # The officer's rating preview says so too; the director reads it before submitting.
    night.rounds = 3
    night.save()
    client.force_login(dora)
    page = client.get(reverse("ratings:officer-event", args=[night.pk])).content.decode()
    assert "No results entered for rounds 2, 3 yet." in page


def test_a_submitted_events_page_no_longer_says_its_results_are_being_entered(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    for login in (dora, olivia):
        client.force_login(login)
        page = client.get(reverse("ratings:officer-event", args=[night.pk])).content.decode()
        assert "Submitted for rating" in page
        assert "Entering results" not in page


def test_an_event_completed_unrated_is_not_called_rated(client, olivia, night):
    night.rated = False
    night.status = Event.Status.COMPLETE
    night.save()
    client.force_login(olivia)
    page = client.get(reverse("ratings:officer-event", args=[night.pk])).content.decode()
    stage = page.split('class="event-stage')[1].split("</div>")[0]
    assert "Complete, not rated" in stage
    assert "Rated" not in stage


def test_a_submitted_event_is_read_only_to_its_director_until_sent_back(
    client, dora, olivia, night, carol, django_capture_on_commit_callbacks
):
    client.force_login(dora)
    post(client, django_capture_on_commit_callbacks, "officer-event-submit", night)
    event_page = reverse("ratings:officer-event", args=[night.pk])
    round_page = reverse("ratings:officer-round", args=[night.pk, 1])
    assert client.get(round_page).url == event_page
    assert client.get(reverse("ratings:officer-round-paste", args=[night.pk])).url == event_page
    refused = client.post(round_page, {"form-TOTAL_FORMS": "0"}, follow=True)
    assert "read-only until the ratings officer" in refused.content.decode()
    client.post(
        reverse("ratings:officer-event-players", args=[night.pk]), {"entries-players": "C3"}
    )
    assert night.games.count() == 1
    assert not night.entries.filter(member=carol).exists()

    client.force_login(olivia)
    assert client.get(round_page).status_code == 200
    post(
        client,
        django_capture_on_commit_callbacks,
        "officer-event-send-back",
        night,
        {"note": "Board 2 is missing."},
    )
    client.force_login(dora)
    assert client.get(round_page).status_code == 200
    client.post(
        reverse("ratings:officer-event-players", args=[night.pk]), {"entries-players": "C3"}
    )
    assert night.entries.filter(member=carol).exists()


def test_a_rated_event_is_the_officers_to_change_not_its_directors(
    client, dora, olivia, night, django_capture_on_commit_callbacks
):
    client.force_login(olivia)
    post(client, django_capture_on_commit_callbacks, "officer-event-complete", night)
    client.force_login(dora)
    response = client.get(reverse("ratings:officer-round", args=[night.pk, 1]), follow=True)
    assert "is rated: only the ratings officer changes its results" in response.content.decode()
