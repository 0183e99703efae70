"""Writes a slice of FIDE's combined rating list (players_list_foa.txt's columns) of a
given size, for timing its reading (docs/performance.md). The players are made up: each
line is one of tests/data/fide/players_list_foa.txt's with a new FIDE id.

    .venv/bin/python scripts/fide_list_slice.py 2 /tmp/players_list_foa.txt   # 2 MB
    time .venv/bin/python manage.py import_fide_list /tmp/players_list_foa.txt
"""

import sys
from pathlib import Path

SAMPLE = (
    Path(__file__).resolve().parent.parent / "tests" / "data" / "fide" / "players_list_foa.txt"
)


def main() -> None:
    megabytes, target = float(sys.argv[1]), Path(sys.argv[2])
    header, *lines = SAMPLE.read_bytes().splitlines(keepends=True)
    wanted = int(megabytes * 1_000_000)
    written = len(header)
    with target.open("wb") as out:
        out.write(header)
        n = 0
        while written < wanted:
            line = lines[n % len(lines)]
            line = f"{10_000_000 + n:<15}".encode() + line[15:]
            out.write(line)
            written += len(line)
            n += 1
    print(f"{target}: {n} players, {written:,} bytes")


if __name__ == "__main__":
    main()
