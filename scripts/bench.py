"""Time the engine's command line on a big, realistic history (``make bench``).

Generates (once, from a fixed seed) a JSON history of 1,000,000 games among 20,000 players
into ``bench/`` — events of 10 to 90 players (about 50) over 5 rounds, spread over three
years so the period systems see many periods — then runs ``python -m ratings.engine FILE``
as a whole process for each system, a few times, and prints the median wall and CPU times
and peak memory (docs/performance.md). It only reports: there is no time target.

    python scripts/bench.py                      # every system, 3 runs each
    python scripts/bench.py --system nz-club-elo --games 100000 --runs 5
    python scripts/bench.py --no-explain         # also time the --no-explain output
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
SYSTEMS = ("nz-club-elo", "st-charles", "nscl", "acf-1993", "ecf-2020")
GENERATOR_VERSION = 1
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")


def generate(path: Path, *, games: int, players: int, seed: int) -> None:
    """Write a history of about ``games`` games among ``players`` players to ``path``."""
    rng = random.Random(seed)
    ids = [f"p{n:05d}" for n in range(players)]
    strength = [rng.gauss(1500, 300) for _ in ids]
    listed = []
    for n, pid in enumerate(ids):
        roll = rng.random()
        if roll < 0.005:
            listed.append({"id": pid, "guest": True})
        elif roll < 0.6:  # an established player, with a rating and some games behind them
            player: dict[str, object] = {
                "id": pid,
                "rating": round(min(2700, max(1000, strength[n] + rng.gauss(0, 100))), 1),
                "games": rng.randint(1, 200),
            }
            if rng.random() < 0.3:
                player["born"] = date(rng.randint(1940, 2015), rng.randint(1, 12), 1).isoformat()
                player["gender"] = rng.choice("MF")
            if strength[n] > 2150 and rng.random() < 0.5:
                player["title"] = rng.choice(TITLES)
            listed.append(player)
        # the rest are new players, met first in a game
    start = date(2021, 1, 1)
    span = 3 * 365
    events = []
    total = 0
    n = 0
    while total < games:
        size = min(rng.randint(10, 90), 2 * ((games - total) // 5 + 1))
        size += size % 2
        # Most of an event's players come from one club (a window of ids), a few from anywhere.
        centre = rng.randrange(players)
        field: set[int] = set()
        while len(field) < size:
            if rng.random() < 0.8:
                field.add((centre + int(rng.gauss(0, 150))) % players)
            else:
                field.add(rng.randrange(players))
        entrants = list(field)
        event_games = []
        for round_ in range(1, 6):
            rng.shuffle(entrants)
            for i in range(0, size, 2):
                a, b = entrants[i], entrants[i + 1]
                p_a = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
                roll = rng.random()
                draw = 0.25
                score = 1 if roll < p_a - draw / 2 else 0.5 if roll < p_a + draw / 2 else 0
                event_games.append({"a": ids[a], "b": ids[b], "score": score, "round": round_})
        day = start + timedelta(days=rng.randrange(span))
        events.append({"id": f"e{n:05d}", "date": day.isoformat(), "games": event_games})
        total += len(event_games)
        n += 1
    events.sort(key=lambda e: e["date"])
    document = {"system": "nz-club-elo", "players": listed, "events": events}
    BENCH.mkdir(exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(document, separators=(",", ":")))
    tmp.replace(path)


def with_system(source: Path, system: str) -> Path:
    """The history with ``system`` in place of the generated one (a copy per system)."""
    if system == "nz-club-elo":
        return source
    target = source.with_name(f"{source.stem}-{system}.json")
    if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
        text = source.read_text()
        head = '{"system":"nz-club-elo",'
        assert text.startswith(head)
        target.write_text('{"system":"' + system + '",' + text[len(head) :])
    return target


def run_once(path: Path, extra: list[str]) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds (user + system), peak memory (MiB) and exit status of one
    engine run."""
    with tempfile.TemporaryFile() as errors:
        clock = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "ratings.engine", str(path), *extra],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - clock
        child.returncode = code = os.waitstatus_to_exitcode(status)
        if code != 0:
            errors.seek(0)
            sys.stderr.write(errors.read(2000).decode(errors="replace"))
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024, code  # ru_maxrss is in KiB on Linux


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", choices=SYSTEMS, action="append", help="(repeatable)")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=20240302)
    parser.add_argument("--runs", type=int, default=3, help="runs per system (median shown)")
    parser.add_argument(
        "--no-explain", action="store_true", help="also time each system with --no-explain"
    )
    args = parser.parse_args(argv)

    name = f"history-v{GENERATOR_VERSION}-{args.games}g-{args.players}p-{args.seed}.json"
    source = BENCH / name
    if not source.exists():
        print(f"generating {source.relative_to(ROOT)} ...", flush=True)
        clock = time.perf_counter()
        generate(source, games=args.games, players=args.players, seed=args.seed)
        print(f"  done in {time.perf_counter() - clock:.1f}s", flush=True)
    size = source.stat().st_size / 2**20
    print(
        f"{args.games:,} games, {args.players:,} players, {size:.0f} MiB; "
        f"{args.runs} run(s) each, median; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    variants = [[]] + ([["--no-explain"]] if args.no_explain else [])
    print(f"{'system':<13} {'output':<11} {'wall s':>7} {'cpu s':>7} {'peak MiB':>9}  runs (wall)")
    failed = False
    for system in args.system or SYSTEMS:
        path = with_system(source, system)
        for extra in variants:
            results = [run_once(path, extra) for _ in range(args.runs)]
            if any(r[3] != 0 for r in results):
                print(f"{system:<13} exit status {[r[3] for r in results]}")
                failed = True
                continue
            wall = statistics.median(r[0] for r in results)
            cpu = statistics.median(r[1] for r in results)
            peak = statistics.median(r[2] for r in results)
            runs = " ".join(f"{r[0]:.2f}" for r in results)
            label = "no-explain" if extra else "full"
            print(
                f"{system:<13} {label:<11} {wall:7.2f} {cpu:7.2f} {peak:9.0f}  {runs}",
                flush=True,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
