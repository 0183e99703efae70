"""A comparison that helps decide: each list on its own games, a verdict in words whose
interval is worked out here again, nothing marked best within chance or on fill-ins."""

from __future__ import annotations

import datetime as dt
import math
import random

import pytest
from django.urls import reverse

from ratings.engine import SYSTEMS, get_system
from ratings.engine import Event as EngineEvent
from ratings.engine import Game as EngineGame
from ratings.engine.measures import BOOTSTRAP_SEED, deviance
from ratings.models import Comparison, ComparisonRating, Event, Game, RatingList, RatingState
from ratings.pages import comparisons
from ratings.services import compare, compare_verdict
from ratings.services.chain import member_initial_state

from ..factories import MemberFactory, SubscriptionFactory

pytestmark = pytest.mark.django_db
WIN, DRAW, LOSS = Game.Result.WHITE_WIN, Game.Result.DRAW, Game.Result.BLACK_WIN
START = dt.date(2026, 1, 5)


def run() -> Comparison:
    comparison = compare.comparison_start(params=None)
    comparison = Comparison.objects.get(pk=comparison.pk)
    if comparison.status == Comparison.Status.QUEUED:  # not run by a commit hook in a test
        compare.comparison_run(comparison=comparison)
    comparison.refresh_from_db()
    return comparison


def club_nights(rated_event, members, nights: int, *, time_class: str = "standard", seed: int = 5):
    """``nights`` weekly events, each player meeting another; the stronger (earlier in
    ``members``) usually wins."""
    rng = random.Random(seed)
    events = []
    for night in range(nights):
        order = list(members)
        rng.shuffle(order)
        games = []
        for board in range(0, len(order) - 1, 2):
            white, black = order[board], order[board + 1]
            edge = members.index(black) - members.index(white)  # > 0: white the stronger
            draw = rng.random()
            win = 0.5 + 0.12 * edge
            result = WIN if draw < win - 0.1 else DRAW if draw < win + 0.1 else LOSS
            games.append((1, white, black, result))
        day = START + dt.timedelta(weeks=night, days=0 if time_class == "standard" else 5)
        events.append(
            rated_event(
                games, date=day, name=f"{time_class} night {night + 1}", time_class=time_class
            )
        )
    return events


@pytest.fixture
def players(current_season):
    members = [MemberFactory(name=f"Player {n}") for n in range(6)]
    for member in members:
        SubscriptionFactory(member=member, season=current_season)
    return members


def deviance_by_event(sid: str, events: list[Event], rating_list: str = "standard"):
    """Each event's games and deviance summed under ``sid``, worked out here: the engine's
    expected score from the ratings before each event (a period system's: before its
    period), 0.5 where it has none."""
    system = get_system(sid, {"time_control": rating_list} if sid == "ecf-2020" else {})
    inputs = [
        EngineEvent(
            id=str(event.pk),
            date=event.end_date,
            games=tuple(
                EngineGame(str(g.white_id), str(g.black_id), Game.POINTS[g.result][0], g.round)
                for g in event.games.order_by("round", "board", "pk")
            ),
        )
        for event in events
    ]
    states = {}
    for event in events:
        for member in event.players.all():
            states.setdefault(
                str(member.pk), system.prepare(member_initial_state(member, system, rating_list))
            )
    games, sums, filled = [], {}, 0
    for label, group in system.group_events(inputs):
        for event in group:
            total = 0.0
            for game in event.games:
                expected = system.expected_score(states[game.a], states[game.b])
                filled += expected is None
                total += deviance(0.5 if expected is None else expected, game.score)
            sums[event.id] = total
        list(system.rate_period(states, group, label))
    for event in inputs:
        games.append(len(event.games))
    return games, [sums[e.id] for e in inputs], filled


def interval_by_hand(games, first, second, resamples=1000):
    rng = random.Random(BOOTSTRAP_SEED)
    means = []
    for _ in range(resamples):
        drawn = rng.choices(range(len(games)), k=len(games))
        means.append(sum(first[i] - second[i] for i in drawn) / sum(games[i] for i in drawn))
    means.sort()
    return means[math.floor(0.025 * resamples)], means[math.ceil(0.975 * resamples) - 1]


def test_the_verdicts_interval_is_the_event_bootstrap_worked_out_again(rated_event, players):
    events = club_nights(rated_event, players, 14)
    verdict = run().results["lists"]["standard"]["verdict"]
    assert (verdict["events"], verdict["games"]) == (14, 42)
    worked = {sid: deviance_by_event(sid, events) for sid in SYSTEMS}
    candidates = {sid for sid, (games, _, filled) in worked.items() if filled / sum(games) <= 0.10}
    assert set(verdict["filled_in"]) == set(SYSTEMS) - candidates
    best = min(candidates, key=lambda sid: sum(worked[sid][1]))
    assert verdict["best"] == best
    assert set(verdict["against"]) == candidates - {best}
    for other, stored in verdict["against"].items():
        games, first, _ = worked[best]
        _, second, _ = worked[other]
        assert stored["mean"] == pytest.approx((sum(first) - sum(second)) / sum(games))
        low, high = interval_by_hand(games, first, second)
        assert (stored["low"], stored["high"]) == pytest.approx((low, high))
        assert stored["beyond_chance"] == (high < 0 or low > 0)
    assert verdict["beyond_chance"] == all(d["beyond_chance"] for d in verdict["against"].values())


def test_a_short_history_is_too_few_games_to_tell(rated_event, players):
    club_nights(rated_event, players, 3)
    comparison = run()
    (section,) = comparisons.list_sections(comparison)
    assert "are too few to tell the systems apart" in section.verdict[0]
    assert "9 games in 3 events" in section.verdict[0]
    assert not any(best for row in section.rows for _, best in row.figures)


def test_a_system_resting_on_fill_ins_is_never_put_forward(rated_event, players):
    club_nights(rated_event, players, 14)
    comparison = run()
    data = comparison.results["lists"]["standard"]
    acf = data["systems"]["acf-1993"]
    share = 1 - acf["expected_games"] / acf["games"]
    assert share > 0.10  # new players have no acf-1993 rating: their games count at 0.5
    assert data["verdict"]["best"] != "acf-1993" and "acf-1993" in data["verdict"]["filled_in"]
    (section,) = comparisons.list_sections(comparison)
    acf_title = comparisons.short_title("acf-1993")
    sentences = " ".join(section.verdict)
    assert (
        f"Not put forward: {acf_title}, which had no rating of its own for a player in "
        f"{share:.0%} of the games"
    ) in sentences
    acf_row = next(row for row in section.rows if row.system == "acf-1993")
    assert not any(best for _, best in acf_row.figures)


def test_only_a_best_beyond_chance_is_in_bold(rated_event, players, officer_client):
    club_nights(rated_event, players, 14)
    comparison = run()
    verdict = comparison.results["lists"]["standard"]["verdict"]
    (section,) = comparisons.list_sections(comparison)
    marked = [
        (row.system, i) for row in section.rows for i, (_, best) in enumerate(row.figures) if best
    ]
    if verdict["beyond_chance"]:
        assert marked == [(verdict["best"], 0)]
        assert "more than chance" in section.verdict[0]
    else:
        assert marked == []
        assert section.verdict[0].startswith("Too few games to tell:")
    page = officer_client.get(reverse("ratings:compare-detail", args=[comparison.pk])).content
    assert section.verdict[0].encode() in page.replace(b"&#x27;", b"'")


def test_each_list_is_compared_on_its_own_games_and_an_unrated_class_on_none(rated_event, players):
    RatingList.objects.create(time_class="rapid", kept=RatingList.Kept.OWN)
    RatingList.objects.create(time_class="blitz", kept=RatingList.Kept.UNRATED)
    club_nights(rated_event, players, 4)
    club_nights(rated_event, players, 3, time_class="rapid", seed=6)
    club_nights(rated_event, players, 2, time_class="blitz", seed=7)
    comparison = run()
    lists = comparison.results["lists"]
    assert set(lists) == {"standard", "rapid"}
    assert (lists["standard"]["events"], lists["standard"]["games"]) == (4, 12)
    assert (lists["rapid"]["events"], lists["rapid"]["games"]) == (3, 9)
    assert (comparison.events, comparison.games) == (7, 21)
    # The club's system on the standard list is the live standard list, member by member.
    live = dict(RatingState.objects.filter(time_class="standard").values_list("member", "rating"))
    compared = dict(
        ComparisonRating.objects.filter(comparison=comparison, system="nz-club-elo").values_list(
            "member", "rating"
        )
    )
    assert compared == pytest.approx(live)
    names = [section.name for section in comparisons.list_sections(comparison)]
    assert names == ["Standard list", "Rapid list"]


def test_members_are_ranked_only_from_the_published_list(rated_event, players, current_season):
    RatingList.objects.create(time_class="rapid", kept=RatingList.Kept.OWN)
    club_nights(rated_event, players[:4], 3)
    # Player 4 and 5 play rapid only: no standard rating, not on the standard list.
    club_nights(rated_event, players, 2, time_class="rapid")
    comparison = run()
    ranked = set(
        ComparisonRating.objects.filter(comparison=comparison, rank__isnull=False).values_list(
            "member", flat=True
        )
    )
    assert ranked == {member.pk for member in players[:4]}


def results_of(deviances: dict[str, float], filled_in: dict[str, float]) -> dict:
    """A list's results as a comparison stores them: each system's deviance per game over
    100 games in 3 events, ``filled_in`` the share of its games with no rating of its own."""
    systems = {
        sid: {
            "deviance": value,
            "games": 100,
            "expected_games": round(100 * (1 - filled_in.get(sid, 0.0))),
        }
        for sid, value in deviances.items()
    }
    verdict = compare_verdict.verdict(systems, [40, 30, 30], {})
    return {"systems": systems, "games": 100, "verdict": verdict}


def test_the_verdict_names_the_set_it_speaks_of_and_why_lower_figures_are_left_out():
    """The table shows acf-1993 and ecf-2020 lower than nz-club-elo: they rest on fill-ins,
    so the verdict's "lowest" is of the systems put forward, and it says why the others
    are not."""
    results = results_of(
        {"nz-club-elo": 0.2701, "acf-1993": 0.2516, "ecf-2020": 0.2517, "st-charles": 0.2800},
        {"acf-1993": 0.15, "ecf-2020": 0.12},
    )
    sentences = comparisons.verdict_sentences(results)
    assert sentences[0].startswith(
        f"{comparisons.short_title('nz-club-elo')} had the lowest deviance per game of the "
        "systems put forward (0.2701)"
    )
    assert sentences[1] == (
        f"{comparisons.short_title('acf-1993')} and {comparisons.short_title('ecf-2020')} "
        "had lower deviance per game (0.2516, 0.2517) but rest on fill-ins for over 10% of "
        "their games, so are not put forward."
    )


def test_with_every_system_put_forward_the_verdict_needs_no_qualifier():
    results = results_of({"nz-club-elo": 0.2701, "st-charles": 0.2800}, {})
    sentence = comparisons.verdict_sentences(results)[0]
    assert "had the lowest deviance per game (0.2701)" in sentence
