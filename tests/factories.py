"""Factories for the club's records: tests name the people (alice, bob) and say what matters."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth.models import Permission, User

from ratings.models import Event, Game, Member, Season, Subscription


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member
        django_get_or_create = ("member_number",)

    member_number = factory.Sequence(lambda n: f"M{n:04d}")
    name = factory.Sequence(lambda n: f"Player {n}")


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season
        django_get_or_create = ("name",)

    name = factory.LazyAttribute(lambda o: str(o.start.year))
    start = dt.date(2026, 1, 1)
    end = factory.LazyAttribute(lambda o: dt.date(o.start.year, 12, 31))


class SubscriptionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Subscription

    member = factory.SubFactory(MemberFactory)
    season = factory.SubFactory(SeasonFactory)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Club night {n}")
    start_date = dt.date(2026, 3, 2)
    end_date = factory.LazyAttribute(lambda o: o.start_date)
    rounds = 5
    kind = Event.Kind.SWISS


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    event = factory.SubFactory(EventFactory)
    round = 1
    white = factory.SubFactory(MemberFactory)
    black = factory.SubFactory(MemberFactory)
    result = Game.Result.WHITE_WIN


def officer_user(username: str = "olivia", password: str = "correct-horse-42") -> User:
    """A ratings officer: can keep members and results, is not a superuser."""
    user = User.objects.create_user(username, f"{username}@example.org", password)
    user.user_permissions.add(Permission.objects.get(codename="officer"))
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def paid_up(member: Member, *seasons: Season) -> Member:
    for season in seasons or (SeasonFactory(),):
        SubscriptionFactory(member=member, season=season)
    return member


def brought_in(member: Member, rating: float, *seasons: Season, games: int = 30) -> Member:
    """A member paid up for ``seasons`` who brought a rating from ``games`` games (30:
    settled in every system)."""
    member.initial_rating, member.initial_games = rating, games
    member.save()
    return paid_up(member, *seasons)


def pat_provisional(season: Season) -> Member:
    """Pat, paid up, brought in at 1500 from 8 games as acf-1993's provisional player."""
    pat = MemberFactory(
        name="Pat Provisional",
        initial_rating=1500,
        initial_games=8,
        brought_in={"status": "provisional"},
    )
    return paid_up(pat, season)


def rating_state(member, **fields):
    """Set a member's current rating as a re-rate would have left it (the row exists from
    the member's creation)."""
    from ratings.models import RatingState

    time_class = fields.pop("time_class", "standard")
    return RatingState.objects.update_or_create(
        member=member, time_class=time_class, defaults=fields
    )[0]
