"""create_officer: a club's own officer logins, with the rights the officer pages need."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from ..factories import EventFactory, GameFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-club-password-7"


def create_officer(*args: str) -> str:
    out = io.StringIO()
    call_command("create_officer", *args, stdout=out)
    return out.getvalue()


def log_in(client, username: str, password: str) -> None:
    """Through the login page, as the officer does (django-axes watches it)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, response.content.decode()


def test_a_new_officer_is_staff_but_not_a_superuser(monkeypatch):
    monkeypatch.setenv("OFFICER_PASSWORD", PASSWORD)
    assert "created as a ratings officer" in create_officer("rachel", "--noinput")
    rachel = User.objects.get(username="rachel")
    assert rachel.is_staff and not rachel.is_superuser
    assert rachel.has_perm("ratings.officer")
    assert rachel.check_password(PASSWORD)


def test_an_officer_can_open_the_officer_pages(client, monkeypatch):
    monkeypatch.setenv("OFFICER_PASSWORD", PASSWORD)
    create_officer("rachel", "--noinput")
    log_in(client, "rachel", PASSWORD)
    assert client.get(reverse("ratings:officer-home")).status_code == 200


def test_an_officer_can_delete_a_wrong_game_in_the_admin(client, monkeypatch, alice, bob):
    monkeypatch.setenv("OFFICER_PASSWORD", PASSWORD)
    create_officer("rachel", "--noinput")
    log_in(client, "rachel", PASSWORD)
    game = GameFactory(event=EventFactory(), white=alice, black=bob, result="1-0")
    page = client.get(reverse("admin:ratings_game_delete", args=[game.pk]))
    assert page.status_code == 200


def test_an_officer_cannot_change_the_rating_system(client, monkeypatch):
    monkeypatch.setenv("OFFICER_PASSWORD", PASSWORD)
    rachel_user = User.objects.create_user("rachel", password=PASSWORD)
    create_officer("rachel", "--noinput")
    rachel_user.refresh_from_db()
    assert not rachel_user.has_perm("ratings.change_clubsettings")


def test_an_existing_user_becomes_an_officer_and_keeps_their_password(monkeypatch):
    monkeypatch.delenv("OFFICER_PASSWORD", raising=False)
    User.objects.create_user("sam", password=PASSWORD)
    assert "sam is now a ratings officer" in create_officer("sam", "--noinput")
    sam = User.objects.get(username="sam")
    assert sam.has_perm("ratings.officer") and sam.is_staff
    assert sam.check_password(PASSWORD)


def test_a_new_officer_needs_a_password(monkeypatch):
    monkeypatch.delenv("OFFICER_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="OFFICER_PASSWORD"):
        create_officer("rachel", "--noinput")
    assert not User.objects.filter(username="rachel").exists()


def test_a_weak_password_is_refused_and_nothing_saved(monkeypatch):
    monkeypatch.setenv("OFFICER_PASSWORD", "rachel")
    with pytest.raises(CommandError, match=r"too (similar|short|common)"):
        create_officer("rachel", "--noinput")
    assert not User.objects.filter(username="rachel").exists()
