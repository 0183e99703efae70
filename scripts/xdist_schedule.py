"""When a run of the tests under xdist would end, on two workers, for each way of sending
the tests out: xdist 3.8's ``load`` (its default), ``load`` with ``--maxschedchunk``, and
``worksteal``, followed step by step on the tests' collected order.

    .venv/bin/python -m pytest -p no:xdist --collect-only -q > collected.txt
    .venv/bin/python scripts/xdist_schedule.py collected.txt durations.txt --default 0.3

``durations.txt`` is pytest's ``--durations`` list (``12.3s call tests/...::name``; setup,
call and teardown added up); a test it does not name takes ``--default`` seconds. Each
worker's start (its database, its browser) and xdist's messages are left out: the figures
compare the ways, they do not predict the run (docs/development.md, "The test loop").
"""

from __future__ import annotations

import argparse
import heapq
import re
from collections import defaultdict

LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S+)")


def load(durations: list[float], nodes: int, chunk: int | None = None) -> list[float]:
    """xdist's LoadScheduling: a first chunk to each worker, then a worker that runs low
    (and did not just run a test of 0.1 s or more with two still queued) is filled up to
    half its share of what is left, at most ``chunk`` at a time."""
    count = len(durations)
    most = chunk or count
    pending = list(range(count))
    queues: list[list[int]] = [[] for _ in range(nodes)]
    first = max(2, min(count // nodes // 4, most))
    for queue in queues:
        queue += pending[:first]
        del pending[:first]
    return _run(durations, queues, lambda node, took: _refill(pending, queues, node, took, most))


def _refill(pending: list[int], queues: list[list[int]], node: int, took: float, most: int):
    if not pending:
        return
    queue = queues[node]
    low = max(2, len(pending) // len(queues) // 4)
    high = max(2, len(pending) // len(queues) // 2)
    if len(queue) < low and not (took >= 0.1 and len(queue) >= 2):
        send = min(high - len(queue), max(2 - len(queue), most))
        queue += pending[:send]
        del pending[:send]


def worksteal(durations: list[float], nodes: int) -> list[float]:
    """xdist's WorkStealingScheduling: the tests split evenly; a worker down to its last
    test takes the second half of the longest queue, leaving it two."""
    count = len(durations)
    queues = [list(range(count * k // nodes, count * (k + 1) // nodes)) for k in range(nodes)]

    def steal(node: int, _took: float) -> None:
        if len(queues[node]) >= 2:
            return
        victim = max((k for k in range(nodes) if k != node), key=lambda k: len(queues[k]))
        take = min(len(queues[victim]) // 2, max(0, len(queues[victim]) - 2))
        if take:
            queues[node] += queues[victim][-take:]
            del queues[victim][-take:]

    return _run(durations, queues, steal)


def _run(durations: list[float], queues: list[list[int]], after) -> list[float]:
    """Each worker runs its queue in order; ``after`` is the scheduler's turn when a test
    ends. Returns when each worker ran out."""
    ends = [0.0] * len(queues)
    running = [(durations[queue[0]], node) for node, queue in enumerate(queues) if queue]
    heapq.heapify(running)
    while running:
        now, node = heapq.heappop(running)
        took = durations[queues[node].pop(0)]
        after(node, took)
        if queues[node]:
            heapq.heappush(running, (now + durations[queues[node][0]], node))
        else:
            ends[node] = now
    return ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collected", help="pytest --collect-only -q's output")
    parser.add_argument("durations", help="pytest --durations's list")
    parser.add_argument("--default", type=float, default=0.3, help="seconds of a test unnamed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--wall", type=float, help="the measured run's seconds under load: sets --default"
    )
    args = parser.parse_args()
    with open(args.collected) as file:
        order = [line.strip() for line in file if "::" in line]
    seconds: dict[str, float] = defaultdict(float)
    with open(args.durations) as file:
        for line in file:
            if match := LINE.match(line):
                seconds[match.group(2)] += float(match.group(1))

    def durations_at(default: float) -> list[float]:
        return [seconds.get(test, default) for test in order]

    default = args.default
    if args.wall:  # the unnamed tests' seconds that make ``load`` end when the run did
        low, high = 0.0, 60.0
        for _ in range(40):
            default = (low + high) / 2
            low, high = (
                (default, high)
                if max(load(durations_at(default), args.workers)) < args.wall
                else (low, default)
            )
        print(f"a test not named takes {default:.3f} s for load to end at {args.wall:.0f} s")
    durations = durations_at(default)
    named = sum(1 for test in order if test in seconds)
    total = sum(durations)
    print(f"{len(order)} tests, {named} with a measured duration; {total:.0f} s of work")
    print(f"shared evenly over {args.workers} workers: {total / args.workers:.0f} s")
    ways = {"load": load(durations, args.workers)}
    for chunk in (4, 16, 64):
        ways[f"load --maxschedchunk {chunk}"] = load(durations, args.workers, chunk)
    ways["worksteal"] = worksteal(durations, args.workers)
    for way, ends in ways.items():
        print(
            f"{way:26} ends {max(ends):6.0f} s; workers done at "
            + ", ".join(f"{e:.0f}" for e in ends)
        )


if __name__ == "__main__":
    main()
