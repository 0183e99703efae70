"""The club's logins from the browser (services/accounts.py, views/people.py): the
administrator invites a person with their roles (a one-time link to choose a password),
changes their roles and removes them; nobody else may, and the club always keeps an
administrator."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from ratings.rules import access
from ratings.rules.roles import DIRECTOR, OFFICER, TREASURER
from ratings.services.accounts import (
    PersonRefused,
    administrator_create,
    person_remove,
    person_roles_set,
    role_give,
)

from ..factories import EventFactory, officer_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-bishop-on-the-long-diagonal"


@pytest.fixture
def ada():
    return administrator_create(username="ada", password="x", email="ada@example.org")


@pytest.fixture
def admin_client(client, ada):
    client.force_login(ada)
    return client


def invite(client, capture, **fields):
    data = {"email": "dora@example.org", "name": "Dora Diaz", "roles": [DIRECTOR], **fields}
    with capture(execute=True):
        return client.post(reverse("ratings:officer-people"), data)


def logs_in(client, username: str, password: str) -> bool:
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def the_link_in(message) -> str:
    (link,) = re.findall(r"https?://\S+/accounts/invitation/\S+", message.body)
    return link.split("testserver", 1)[1]


def test_an_invitation_mails_a_link_that_sets_the_password_and_logs_in_with_the_roles(
    admin_client, django_capture_on_commit_callbacks
):
    night = EventFactory(name="Club night")
    response = invite(admin_client, django_capture_on_commit_callbacks, events=[night.pk])
    assert response.status_code == 302

    (message,) = mail.outbox
    assert message.to == ["dora@example.org"]
    assert "as tournament director. You direct Club night." in message.body
    admin_client.logout()
    form = admin_client.get(the_link_in(message), follow=True)
    assert "choose your password" in form.content.decode()
    done = admin_client.post(
        form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD}
    )
    assert done.url == reverse("password_reset_complete")

    assert logs_in(admin_client, "dora@example.org", PASSWORD)
    dora = User.objects.get(username="dora@example.org")
    assert access.roles_of(dora) == [DIRECTOR]
    assert access.can_direct(dora, night)


def an_invitation_accepted(client, ada, capture) -> str:
    """Ada invites Dora, who chooses her password by the mailed link: the link."""
    client.force_login(ada)
    invite(client, capture)
    link = the_link_in(mail.outbox[0])
    client.logout()
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD})
    return link


def test_an_invitation_link_works_once(client, ada, django_capture_on_commit_callbacks):
    link = an_invitation_accepted(client, ada, django_capture_on_commit_callbacks)
    again = client.get(link, follow=True)
    assert "This invitation no longer works" in again.content.decode()


def test_an_invitation_mail_says_a_lapsed_link_is_renewed_from_the_login_page(
    admin_client, django_capture_on_commit_callbacks
):
    # The people page refuses an address with a login, so "invite me again" cannot be done:
    # the login page's reset finds a login invited but without a password.
    invite(admin_client, django_capture_on_commit_callbacks)
    (message,) = mail.outbox
    ((html, _),) = message.alternatives
    for text in (message.body, html):
        assert "invite you again" not in text
        assert "Forgotten your password?" in text
        assert "/accounts/login/" in text


def test_an_invitation_mail_names_the_events_a_director_is_given(
    admin_client, django_capture_on_commit_callbacks
):
    night = EventFactory(name="Club Cup")
    invite(admin_client, django_capture_on_commit_callbacks, events=[night.pk])
    (message,) = mail.outbox
    assert "You direct Club Cup." in message.body


def test_a_lapsed_invitation_offers_a_new_link(client, ada, django_capture_on_commit_callbacks):
    link = an_invitation_accepted(client, ada, django_capture_on_commit_callbacks)
    page = client.get(link, follow=True).content.decode()
    assert "invite you again" not in page
    assert f'href="{reverse("password_reset")}"' in page


def test_an_invited_person_cannot_log_in_before_choosing_a_password(
    admin_client, django_capture_on_commit_callbacks
):
    invite(admin_client, django_capture_on_commit_callbacks)
    assert not User.objects.get(username="dora@example.org").has_usable_password()


def test_an_address_with_a_login_is_refused_at_its_field(
    admin_client, django_capture_on_commit_callbacks
):
    response = invite(admin_client, django_capture_on_commit_callbacks, email="ada@example.org")
    assert response.status_code == 200
    assert "has a login already" in response.context["form"].errors["email"][0]
    assert mail.outbox == []


def test_an_invitation_needs_a_role(admin_client, django_capture_on_commit_callbacks):
    response = invite(admin_client, django_capture_on_commit_callbacks, roles=[])
    assert response.context["form"].errors["roles"]
    assert not User.objects.filter(email="dora@example.org").exists()


def test_only_the_administrator_may_invite(client, django_capture_on_commit_callbacks):
    client.force_login(officer_user())
    assert client.get(reverse("ratings:officer-people")).status_code == 403
    assert invite(client, django_capture_on_commit_callbacks).status_code == 403
    assert not User.objects.filter(email="dora@example.org").exists()


def test_the_administrator_changes_a_persons_roles_and_events(admin_client):
    tess = role_give(user=User.objects.create_user("tess", password="x"), role=TREASURER)
    night = EventFactory(name="Club night")
    response = admin_client.post(
        reverse("ratings:officer-person", args=[tess.pk]),
        {"roles": [DIRECTOR, OFFICER], "events": [night.pk]},
    )
    assert response.status_code == 302
    tess = User.objects.get(pk=tess.pk)
    assert access.roles_of(tess) == [OFFICER, DIRECTOR]
    assert list(tess.directed_events.all()) == [night]
    assert tess.is_staff


def test_the_people_page_lists_each_login_with_its_roles(admin_client):
    role_give(user=User.objects.create_user("tess", password="x"), role=TREASURER)
    page = admin_client.get(reverse("ratings:officer-people")).content.decode()
    assert "tess" in page and "Treasurer" in page


def test_a_removed_login_can_no_longer_log_in(admin_client, client):
    tess = role_give(user=User.objects.create_user("tess", password=PASSWORD), role=TREASURER)
    response = admin_client.post(reverse("ratings:officer-person-remove", args=[tess.pk]))
    assert response.status_code == 302
    assert not User.objects.get(pk=tess.pk).is_active
    assert not logs_in(client, "tess", PASSWORD)


def test_the_administrator_cannot_remove_themselves(ada):
    with pytest.raises(PersonRefused, match="your own login"):
        person_remove(user=ada, removed_by=ada)


def test_the_last_administrator_cannot_be_removed(ada):
    other = administrator_create(username="bea", password="x")
    person_remove(user=ada, removed_by=other)  # another is left: allowed
    with pytest.raises(PersonRefused, match="last administrator"):
        person_remove(user=other, removed_by=officer_user())
    assert User.objects.get(pk=other.pk).is_active


def test_the_last_administrator_keeps_the_role(admin_client, ada):
    response = admin_client.post(
        reverse("ratings:officer-person", args=[ada.pk]), {"roles": [OFFICER]}
    )
    assert "last administrator" in response.context["form"].errors["roles"][0]
    assert access.is_administrator(User.objects.get(pk=ada.pk))


def test_a_role_taken_away_is_gone(ada):
    tess = role_give(user=User.objects.create_user("tess", password="x"), role=TREASURER)
    person_roles_set(user=tess, roles=[DIRECTOR])
    assert access.roles_of(User.objects.get(pk=tess.pk)) == [DIRECTOR]


def test_a_directors_rated_event_stays_theirs_when_their_roles_are_saved(admin_client):
    dora = User.objects.create_user("dora", password="x")
    rated = EventFactory(name="Autumn open", status="complete")
    person_roles_set(user=dora, roles=[DIRECTOR], events=[rated])
    response = admin_client.post(
        reverse("ratings:officer-person", args=[dora.pk]),
        {"roles": [DIRECTOR], "events": [rated.pk]},
    )
    assert response.status_code == 302
    assert list(dora.directed_events.all()) == [rated]
