"""The demo club (Riverside Chess Club): members, a season of rated events, publications,
its officer's and admin's logins, all drawn from one seed.

Every run gives the same club (dates are counted back from today, so the season is always
the last ten months). One seed draws the whole club in order, so its parts change
together; how its tournaments are played out is ``tournaments.py``.
``manage.py load_demo`` is its command; the first-day browser test reads its names.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import dj_database_url
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from ratings import services
from ratings.demo.tournaments import DemoTournaments, Pairing, Person
from ratings.models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    Publication,
    RatingList,
    Season,
    Subscription,
)
from ratings.rules.places_of_play import online_list
from ratings.rules.time_classes import RAPID, STANDARD
from ratings.services.accounts import officer_create

ONLINE_RAPID = online_list(RAPID)
CLUB_NAME = "Riverside Chess Club"
OFFICER = ("officer", "officer-demo-2026")
ADMIN = ("admin", "admin-demo-2026")
SEED = 2026

REGIONS = ("Riverside", "Northshore", "Eastvale", "Westmere", "Southbank")
# (name, gender): the club's members after the three titled players.
NAMES = (
    ("Aroha Ngata", "F"), ("James Whitfield", "M"), ("Priya Sharma", "F"),
    ("Tomasz Kowalski", "M"), ("Wiremu Tane", "M"), ("Chen Li", "M"), ("Sophie Brown", "F"),
    ("Rajesh Patel", "M"), ("Hannah Stewart", "F"), ("David Wilson", "M"),
    ("Sione Fifita", "M"), ("Grace Kim", "F"), ("Liam O'Connor", "M"), ("Ana Tuilagi", "F"),
    ("Peter Campbell", "M"), ("Arjun Singh", "M"), ("Margaret Fraser", "F"),
    ("Kenji Takahashi", "M"), ("Rangi Henare", "M"), ("Elena Rossi", "F"),
    ("Samuel Reid", "M"), ("Daniel Nguyen", "M"), ("Ingrid Jansen", "F"),
    ("Graham MacDonald", "M"), ("Ahmed Ali", "M"), ("Yuki Tanaka", "F"),
    ("Stefan Müller", "M"), ("Olivia Harris", "F"), ("Hamish Anderson", "M"),
    ("Viktor Novak", "M"), ("Leilani Mahe", "F"), ("Ben Clarke", "M"), ("Noah Te Whare", "M"),
    ("Fatima Begum", "F"), ("Jack Morgan", "M"), ("Ruth Doyle", "F"), ("Ethan Walker", "M"),
    ("Isla Campbell", "F"), ("Lucas Ferreira", "M"), ("Mikaere Pohatu", "M"),
    ("Chloe Taylor", "F"), ("Oliver Wright", "M"), ("Anil Chatterjee", "M"),
    ("Tui Rāwiri", "F"), ("Dmitri Ivanov", "M"), ("Emma Lindsay", "F"),
    ("Hiroshi Sato", "M"), ("Zoe Mitchell", "F"), ("Connor Reid", "M"), ("Mere Tawhiri", "F"),
    ("William Chen", "M"), ("Lily Zhang", "F"), ("Aditya Rao", "M"), ("Josh Harrison", "M"),
    ("Ella Thompson", "F"), ("Matiu Kingi", "M"), ("Nina Petersen", "F"),
    ("Robert Lowe", "M"), ("Sam Faleolo", "M"),
)  # fmt: skip
HILLCREST = (
    "Peter Hughes", "Raewyn Tipene", "Kevin Zhang", "Alastair Burns", "Sunita Rao",
    "Matthew Cole",
)  # fmt: skip


def is_demo_database() -> bool:
    """Whether the default database is the demo's own (``DEMO_DATABASE_URL``)."""
    here = connection.settings_dict
    demo = dj_database_url.parse(settings.DEMO_DATABASE_URL)
    return (
        here["ENGINE"],
        str(here["NAME"]),
        here.get("HOST") or "",
        str(here.get("PORT") or ""),
    ) == (
        demo["ENGINE"],
        str(demo["NAME"]),
        demo.get("HOST") or "",
        str(demo.get("PORT") or ""),
    )


def holds_the_demo() -> bool:
    """Whether what the database holds is the demo club (its name and its officer's login)."""
    return (
        ClubSettings.load().name == CLUB_NAME and User.objects.filter(username=OFFICER[0]).exists()
    )


def club_record_held() -> str:
    """What the database holds of a club ("3 members, 1 login"), or "" when empty."""
    counts = (
        (Member.objects.count(), "member"),
        (Event.objects.count(), "event"),
        # The demo's own logins are no club's: a demo whose members were cleared reloads.
        (User.objects.exclude(username__in=(OFFICER[0], ADMIN[0])).count(), "login"),
    )
    return ", ".join(f"{n} {word}{'s' if n != 1 else ''}" for n, word in counts if n)


def demo_logins_create() -> None:
    """The demo's officer and admin logins, unless they are there already."""
    username, password = OFFICER
    if not User.objects.filter(username=username).exists():
        officer_create(
            username=username,
            password=password,
            email=f"{username}@example.org",
            first_name="Olivia",
            last_name="Officer",
        )
    username, password = ADMIN
    if not User.objects.filter(username=username).exists():
        User.objects.create_superuser(username, f"{username}@example.org", password)


class DemoClub(DemoTournaments):
    def __init__(self, rng: random.Random, today: dt.date, system_id: str) -> None:
        self.rng = rng
        self.today = today
        self.system_id = system_id
        self.people: list[Person] = []
        self.counts: dict[str, int] = {}
        self.events: list[tuple[Event, list[Pairing], list[Person]]] = []

    # -- members --------------------------------------------------------------------

    def build(self) -> None:
        club = ClubSettings.load()
        club.name = CLUB_NAME
        club.rating_system = self.system_id
        club.system_params = {}
        club.save()
        self.make_members()
        self.make_subscriptions()
        self.make_events()
        self.save_events()
        RatingList.objects.update_or_create(
            time_class=RAPID,
            online=False,
            defaults={"kept": RatingList.Kept.OWN, "rating_system": self.system_id},
        )
        # The club's online rapid evenings on Lichess: a list of their own, apart from
        # every game over the board.
        RatingList.objects.update_or_create(
            time_class=RAPID,
            online=True,
            defaults={"kept": RatingList.Kept.OWN, "rating_system": self.system_id},
        )
        self.publish_before_the_season()
        for rating_list in (STANDARD, RAPID, ONLINE_RAPID):
            services.periods_close_past(
                system=club.engine(rating_list), today=self.today, time_class=rating_list
            )
        services.ratings_rerate(services.RerateRequest(reason="Demo club loaded"))
        self.publish_the_season()
        members = [p for p in self.people if p.status != "guest"]
        self.counts.update(
            members=len(members),
            arrears=sum(p.status == "arrears" for p in self.people),
            guests=sum(p.status == "guest" for p in self.people),
            events=Event.objects.count(),
            games=Game.objects.count(),
            publications=Publication.objects.count(),
        )

    # -- publications -----------------------------------------------------------------

    def publish_before_the_season(self) -> None:
        """The standard list as it stood the evening before the season's first event: the
        ratings members brought from the club's earlier records (juniors start new). The
        season's changes page compares the list published now with it."""
        services.member_states_create(members=Member.objects.all())
        first = Event.objects.order_by("start_date").values_list("start_date", flat=True)[0]
        eve = dt.datetime.combine(first - dt.timedelta(days=1), dt.time(19, 0))
        services.list_publish(
            note="Before the season: the ratings members brought from the club's records.",
            now=timezone.make_aware(eve),
        )

    def publish_the_season(self) -> None:
        """The standard and rapid lists after the season's rated events."""
        now = timezone.now()
        services.list_publish(note="The season so far, every finished event rated.", now=now)
        services.list_publish(
            note="The rapid list after the season's four rapid Saturdays.",
            now=now,
            time_class=RAPID,
        )
        services.list_publish(
            note="The online rapid list after the season's Lichess evenings.",
            now=now,
            time_class=ONLINE_RAPID,
        )

    def born(self, age: int) -> dt.date:
        return self.today - dt.timedelta(days=int(age * 365.25) + self.rng.randrange(365))

    def make_members(self) -> None:
        rng = self.rng
        specs: list[dict[str, Any]] = []
        # Titled players first: the club's strongest, with FIDE ids.
        specs.append(
            dict(
                name="Mikhail Petrov",
                gender="M",
                title="FM",
                fide_id="4130545",
                age=46,
                strength=2280,
            )
        )
        specs.append(
            dict(
                name="Mei Wong", gender="F", title="WIM", fide_id="5015987", age=29, strength=2130
            )
        )
        specs.append(
            dict(
                name="Hemi Ngata", gender="M", title="CM", fide_id="4300173", age=35, strength=2050
            )
        )
        for index, (name, gender) in enumerate(NAMES):
            junior = index % 4 == 1  # one in four: the club's junior section
            age = 8 + index % 10 if junior else rng.randint(19, 81)
            strength = rng.gauss(1250 + 25 * age, 120) if junior else rng.gauss(1600, 230)
            specs.append(dict(name=name, gender=gender, age=age, strength=max(1050, strength)))
        members = []
        for number, spec in enumerate(specs, start=1):
            junior = spec["age"] < 18
            known = "title" in spec or (not junior and rng.random() < 0.75)
            members.append(
                Member(
                    member_number=f"R{1000 + number}",
                    name=spec["name"],
                    gender=spec["gender"],
                    # Some adults never gave a date of birth; juniors always do.
                    born=self.born(spec["age"]) if junior or rng.random() < 0.8 else None,
                    region=rng.choice(REGIONS),
                    title=spec.get("title", ""),
                    fide_id=spec.get("fide_id", "4" + str(rng.randrange(10**6, 10**7)))
                    if spec.get("title") or rng.random() < 0.08
                    else "",
                    # Most adults bring a rating from earlier club records; juniors start new.
                    initial_rating=round(spec["strength"] + rng.gauss(0, 60)) if known else None,
                    initial_games=rng.randint(25, 300) if known else 0,
                )
            )
        guests = [
            Member(member_number=f"V{n:02d}", name=name, gender=gender, region="", is_guest=True)
            for n, (name, gender) in enumerate(
                [("Carlos Mendes", "M"), ("Anna Lindqvist", "F"), ("Tevita Mahe", "M")], start=1
            )
        ]
        guests += [
            Member(member_number=f"H{n:02d}", name=name, is_guest=True, region="Hillcrest")
            for n, name in enumerate(HILLCREST, start=1)
        ]
        bulk_create_with_history(members + guests, Member, default_change_reason="demo")
        by_number = {m.member_number: m for m in Member.objects.all()}
        strengths = {m.member_number: s["strength"] for m, s in zip(members, specs, strict=True)}
        for m in members:
            self.people.append(Person(by_number[m.member_number], strengths[m.member_number]))
        for g in guests:
            hillcrest = g.member_number.startswith("H")
            level = 2000 - 70 * int(g.member_number[1:]) if hillcrest else rng.gauss(1750, 150)
            self.people.append(Person(by_number[g.member_number], level, status="guest"))
        # Several members paid last season but not this one: rated, not published.
        club_members = [p for p in self.people if p.status != "guest"]
        for person in rng.sample(club_members[3:], 7):
            person.status = "arrears"

    def make_subscriptions(self) -> None:
        current = Season.for_day(self.today)
        last = Season.for_day(current.start - dt.timedelta(days=1))
        subs = []
        for person in self.people:
            if person.status == "guest":
                continue
            seasons = [last, current] if person.status == "financial" else [last]
            for season in seasons:
                paid = min(self.today, season.start + dt.timedelta(days=self.rng.randrange(75)))
                age = person.member.age_on(paid)
                fee = 40 if age is not None and age < 18 else 80  # juniors pay half
                subs.append(
                    Subscription(member=person.member, season=season, paid_on=paid, amount=fee)
                )
        bulk_create_with_history(subs, Subscription, default_change_reason="demo")

    # -- events -----------------------------------------------------------------------

    def club(self) -> list[Person]:
        """Everyone who can turn up at the club: members and the occasional visitor."""
        return [p for p in self.people if not p.member.member_number.startswith("H")]

    def make_events(self) -> None:
        rng, today = self.rng, self.today
        # Tuesdays are club nights; the season runs ten months back from last week.
        first_tuesday = today - dt.timedelta(days=300 + (today.weekday() - 1) % 7)
        championship = [first_tuesday + dt.timedelta(weeks=14 + w) for w in range(7)]
        tuesdays = [first_tuesday + dt.timedelta(weeks=w) for w in range(43)]
        members = [p for p in self.club() if p.status != "guest"]
        strong = sorted(members, key=lambda p: -p.strength)
        for night in tuesdays:
            if night in championship or night >= today - dt.timedelta(days=14):
                continue
            present = rng.sample(self.club(), rng.randint(12, 22))
            self.add_swiss(
                f"Club night {night.day} {night:%b %Y}",
                Event.Kind.CLUB_NIGHT,
                night,
                night,
                present,
                rounds=1,
                time_control="45+15",
            )
        entrants = rng.sample(strong[:30], 20)
        self.add_swiss(
            "Club Championship",
            Event.Kind.SWISS,
            championship[0],
            championship[-1],
            entrants,
            rounds=7,
            time_control="75+30",
        )
        reserves = [p for p in members if 1350 <= p.strength <= 1650][:6]
        thursday = first_tuesday + dt.timedelta(weeks=23, days=2)
        self.add_round_robin("Reserve Championship", thursday, reserves)
        saturday = first_tuesday + dt.timedelta(weeks=30, days=4)
        weekender = rng.sample(members, 20) + [
            p for p in self.people if p.member.member_number in ("V01", "V02", "V03")
        ]
        self.add_weekender("Riverside Weekender", saturday, weekender)
        self.add_match(
            "Interclub v Hillcrest", first_tuesday + dt.timedelta(weeks=34, days=3), strong[:6]
        )
        rapid_day = first_tuesday + dt.timedelta(weeks=37, days=4)
        self.add_swiss(
            "Saturday Rapid",
            Event.Kind.SWISS,
            rapid_day,
            rapid_day,
            rng.sample(self.club(), 16),
            rounds=6,
            time_control="15+5",
        )
        # The officer is entering results for this one: two rounds of five played so far.
        start = today - dt.timedelta(days=(today.weekday() - 1) % 7 + 7)
        self.add_swiss(
            "Club Cup",
            Event.Kind.SWISS,
            start,
            start + dt.timedelta(weeks=4),
            rng.sample(strong[:40], 14),
            rounds=5,
            played_rounds=2,
            time_control="75+30",
            status=Event.Status.DRAFT,
        )
        # Rapid is kept on a list of its own (``build``): three more Saturdays of it, and
        # a blitz night played for fun, not rated.
        for weeks, name in ((9, "Autumn Rapid"), (21, "Winter Rapid"), (31, "Spring Rapid")):
            day = first_tuesday + dt.timedelta(weeks=weeks, days=4)
            self.add_swiss(
                name,
                Event.Kind.SWISS,
                day,
                day,
                rng.sample(self.club(), 14),
                rounds=5,
                time_control="20+5",
            )
        blitz = first_tuesday + dt.timedelta(weeks=40)
        self.add_swiss(
            "Blitz night",
            Event.Kind.CLUB_NIGHT,
            blitz,
            blitz,
            rng.sample(self.club(), 12),
            rounds=5,
            time_control="3+2",
            rated=False,
        )
        # Last, so that every draw before them is as it was: three evenings on Lichess,
        # rated on the online rapid list alone (``build``).
        for weeks, name in (
            (12, "Lichess Rapid Arena"),
            (24, "Lichess Rapid Swiss"),
            (36, "Lichess Spring Rapid"),
        ):
            evening = first_tuesday + dt.timedelta(weeks=weeks, days=2)
            self.add_swiss(
                name,
                Event.Kind.SWISS,
                evening,
                evening,
                rng.sample(self.club(), 12),
                rounds=5,
                time_control="15+10",
                online=True,
            )

    def save_events(self) -> None:
        events = bulk_create_with_history(
            [e for e, _, _ in self.events], Event, default_change_reason="demo"
        )
        if any(e.pk is None for e in events):  # backends that do not return keys
            events = list(Event.objects.order_by("pk"))
        entries, games = [], []
        for event, (_, pairings, players) in zip(events, self.events, strict=True):
            entries += [Entry(event=event, member=p.member) for p in players]
            games += [
                Game(
                    event=event,
                    round=g.round,
                    board=g.board,
                    white=g.white.member,
                    black=g.black.member if g.black else None,
                    result=g.result,
                )
                for g in pairings
            ]
        bulk_create_with_history(entries, Entry, default_change_reason="demo")
        bulk_create_with_history(games, Game, default_change_reason="demo", batch_size=1000)
