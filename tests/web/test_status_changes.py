"""A member's status to come, as their list's system says it: on their page (where their
rating is shown), on "my page" (theirs even while withheld), in the published list's mail;
and a consenting member whose status changes within the month told so once."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.engine.base import day_words
from ratings.engine.months import months_before
from ratings.models import ClubSettings, Game, MailMessage, Member
from ratings.rules.mail import NEW_RATING, STATUS_CHANGE
from ratings.rules.member_links import my_page_token

from ..factories import paid_up, rating_state

pytestmark = pytest.mark.django_db

SITE = "https://club.test/"
OFFICIAL_SOON = "Status to come: official after 3 more rated games."


def use_system(system_id: str) -> None:
    ClubSettings.objects.filter(pk=ClubSettings.load().pk).update(rating_system=system_id)


def consenting(member: Member, *kinds: str) -> Member:
    member.email = f"{member.member_number.lower()}@example.org"
    member.mail_consent_at = timezone.now()
    member.mail_consent_how = "in_person"
    member.mail_wanted = list(kinds or (NEW_RATING, STATUS_CHANGE))
    member.save()
    return member


@pytest.fixture
def two_games(rated_event, current_season, alice, bob, carol):
    """On st-charles: Alice (paid up) and Carol (in arrears) have played two rated games
    each, three short of an official rating."""
    use_system("st-charles")
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    rated_event(
        [
            (1, alice, bob, Game.Result.WHITE_WIN),
            (1, carol, bob, Game.Result.BLACK_WIN),
            (2, alice, carol, Game.Result.DRAW),
        ],
        date=timezone.localdate() - dt.timedelta(days=3),
    )
    return alice, carol


def test_the_member_page_says_how_many_more_games_make_a_rating_official(client, two_games):
    alice = two_games[0]
    page = client.get(reverse("ratings:member", args=[alice.member_number]))
    assert OFFICIAL_SOON in page.content.decode()


def test_the_public_reads_no_status_to_come_of_a_withheld_rating(client, two_games):
    carol = two_games[1]
    page = client.get(reverse("ratings:member", args=[carol.member_number]))
    assert "Status to come" not in page.content.decode()


def test_the_officer_reads_the_status_to_come_of_a_withheld_rating(officer_client, two_games):
    carol = two_games[1]
    page = officer_client.get(reverse("ratings:member", args=[carol.member_number]))
    assert OFFICIAL_SOON in page.content.decode()


def test_my_page_tells_a_withheld_member_their_status_to_come(client, two_games):
    carol = consenting(two_games[1])
    page = client.get(reverse("ratings:my-page", args=[my_page_token(carol)]))
    assert page.content.decode().count(OFFICIAL_SOON) == 1


def test_the_published_list_mail_gives_the_status_to_come(
    two_games, django_capture_on_commit_callbacks
):
    alice = consenting(two_games[0])
    with django_capture_on_commit_callbacks(execute=True):
        services.list_publish_telling_members(site=SITE)
    (message,) = [m for m in mail.outbox if m.to == [alice.email]]
    assert "Status to come: official after 3 more rated games" in message.body


# -- told once, within the month: ecf-2020's lapse ----------------------------------------

TODAY = dt.date(2026, 11, 29)
LAPSE = dt.date(2026, 12, 1)  # the first month whose 36 months no longer reach the last game


def ecf_rated(member: Member, *, lapse: dt.date = LAPSE) -> Member:
    """``member`` fully rated on ecf-2020, their last game 37 months before ``lapse``."""
    use_system("ecf-2020")
    last = months_before(lapse, 37) + dt.timedelta(days=9)
    rating_state(
        member,
        rating=1700.0,
        display="1700",
        games=40,
        last_played=last,
        state={
            "id": str(member.pk),
            "rating": 1700,
            "games": 40,
            "category": "full",
            "last_played": last.isoformat(),
        },
    )
    return member


def tell(today: dt.date, capture) -> int:
    with capture(execute=True):
        return services.status_changes_tell(today=today, site=SITE)


def test_a_rating_lapsing_within_the_month_is_told_once(alice, django_capture_on_commit_callbacks):
    alice = consenting(ecf_rated(alice))
    assert tell(TODAY, django_capture_on_commit_callbacks) == 1
    assert tell(TODAY + dt.timedelta(days=1), django_capture_on_commit_callbacks) == 0
    (message,) = mail.outbox
    assert message.to == [alice.email]
    assert f"unrated from {day_words(LAPSE)} unless a rated game is played" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert MailMessage.objects.filter(key__startswith=f"status:{alice.pk}:").count() == 1


def test_a_lapse_further_off_than_a_month_is_not_told_yet(
    alice, django_capture_on_commit_callbacks
):
    consenting(ecf_rated(alice, lapse=dt.date(2027, 1, 1)))
    assert tell(TODAY, django_capture_on_commit_callbacks) == 0
    assert tell(dt.date(2026, 12, 2), django_capture_on_commit_callbacks) == 1


def test_a_member_who_did_not_ask_for_status_mail_is_not_told(
    alice, bob, django_capture_on_commit_callbacks
):
    consenting(ecf_rated(alice), NEW_RATING)
    ecf_rated(bob)  # no consent at all
    assert tell(TODAY, django_capture_on_commit_callbacks) == 0
    assert not mail.outbox


def test_the_command_tells_as_of_the_day_given(alice, django_capture_on_commit_callbacks):
    consenting(ecf_rated(alice))
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("tell_status_changes", site=SITE, today=TODAY.isoformat(), stdout=out)
    assert "Queued 1 message" in out.getvalue()


def test_the_command_refuses_a_day_it_cannot_read():
    with pytest.raises(CommandError, match="--today: a date YYYY-MM-DD"):
        call_command("tell_status_changes", site=SITE, today="2026-02-30")
