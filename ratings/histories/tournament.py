"""A made-up tournament report (TRF), for the bench's import (``manage.py bench``).

Its players are drawn by name from the club's members, as a real report names them, and
some new ones, named as no generated member is: the import matches the first and brings
the rest in. The names are the generated club's (``generated.py``).
"""

from __future__ import annotations

import random

from django.utils import timezone

from ratings.formats import trf
from ratings.models import Member

from .generated import GIVEN_F, GIVEN_M, SURNAMES


def tournament_report_generate(*, rng: random.Random, name: str, players: int, rounds: int) -> str:
    """A Swiss tournament report (TRF) of ``players`` and ``rounds``, dated today, for the
    bench's import: four in five players are members here (by name), the rest new."""
    members = list(
        Member.objects.active()
        .filter(is_guest=False)
        .order_by("pk")
        .values_list("name", flat=True)
    )
    names = rng.sample(members, min(len(members), players * 4 // 5))
    while len(names) < players:
        # Double-barrelled: no generated member has such a name, so these are new.
        names.append(
            f"{rng.choice(GIVEN_F + GIVEN_M)} {rng.choice(SURNAMES)}-{rng.choice(SURNAMES)}"
        )
    ranks = range(1, len(names) + 1)
    score = dict.fromkeys(ranks, 0.0)
    results: dict[int, list[str]] = {rank: [] for rank in ranks}
    met: set[tuple[int, int]] = set()
    for _ in range(rounds):
        order = sorted(ranks, key=lambda r: (-score[r], r))
        while order:
            a = order.pop(0)
            at = next((i for i, b in enumerate(order) if (a, b) not in met), 0)
            b = order.pop(at)
            met |= {(a, b), (b, a)}
            code = rng.choice("1=0")
            back = {"1": "0", "=": "=", "0": "1"}[code]
            score[a] += trf.CODE_POINTS[code]
            score[b] += trf.CODE_POINTS[back]
            results[a].append(f"  {b:4d} w {code}")
            results[b].append(f"  {a:4d} b {back}")
    today = timezone.localdate()
    lines = [
        f"012 {name}",
        "022 Bench City",
        f"042 {today:%Y/%m/%d}",
        f"052 {today:%Y/%m/%d}",
        "092 Individual: Swiss-System",
        f"XXR {rounds}",
    ]
    place = {r: n for n, r in enumerate(sorted(ranks, key=lambda r: -score[r]), 1)}
    for rank, player in zip(ranks, names, strict=True):
        first, _, last = player.rpartition(" ")
        rating = f"{rng.randint(1000, 2400):4d}" if rng.random() < 0.5 else "    "
        lines.append(
            f"001 {rank:4d}      {f'{last}, {first}'[:33]:<33} {rating} NZL "
            f"{'':>11} {'':>10} {score[rank]:4.1f} {place[rank]:4d}" + "".join(results[rank])
        )
    return "\n".join(lines) + "\n"
