"""Time a long members file read and saved the way the worker does it (issue 40).

    DATABASE_URL=sqlite:////tmp/imports.sqlite3 .venv/bin/python manage.py migrate
    DATABASE_URL=sqlite:////tmp/imports.sqlite3 .venv/bin/python scripts/member_import_bench.py \
        --rows 60000 [--csv /tmp/register.csv]

Writes a register of ``--rows`` members (every column, about 80 bytes a row: 60,000 rows
make a file of about 5 MB, the upload's limit), keeps it as a ``MemberImport``, then reads
it and saves it with the worker's own steps (``services.member_import_jobs``), printing
the seconds of each, the progress the page saw, and the machine's load beside them. Run
it on a database of its own: it adds the members.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")

import django

django.setup()

from ratings.models import MemberImport  # noqa: E402
from ratings.services import member_import_jobs  # noqa: E402

FIRST = [
    "Ana", "Ben", "Cara", "Dev", "Ema", "Finn", "Gia", "Hemi", "Isla", "Jack", "Kiri", "Liam",
    "Mia", "Noah", "Olive", "Pita", "Quinn", "Rosa", "Sam", "Tia", "Uma", "Vic", "Wiremu",
    "Xena", "Yusuf", "Zoe", "Aroha", "Bruno", "Chen", "Dina", "Elif", "Farid", "Greta",
    "Hugo", "Ines", "Jonas", "Kenji", "Lena", "Marta", "Nikos", "Oskar", "Priya", "Rahul",
    "Sofia", "Tane", "Ugo", "Vera", "Wen", "Yara", "Zaid",
]  # fmt: skip
LAST = [
    "Archer", "Brown", "Carter", "Dixon", "Evans", "Fisher", "Grant", "Hughes", "Irwin",
    "Jones", "King", "Lewis", "Moore", "Ngata", "Owen", "Parata", "Quill", "Reid", "Smith",
    "Tuilagi", "Upton", "Vance", "Walker", "Xu", "Young", "Zhang", "Petrov", "Novak",
    "Kowalski", "Rossi", "Silva", "Tanaka", "Kim", "Nguyen", "Haddad", "Okafor", "Larsen",
    "Muller", "Dubois", "Garcia",
]  # fmt: skip
REGIONS = ["North", "South", "East", "West", "Central"]
MEMBERSHIP = ["financial"] * 7 + ["arrears"] * 2 + ["guest"]


def register(rows: int, seed: int = 40) -> str:
    """A members file of ``rows`` people, no two of one name (a real register's few
    namesakes aside), each with every column."""
    pick = random.Random(seed)
    lines = ["id,name,born,gender,region,fide_id,email,rating,games,membership"]
    for n in range(1, rows + 1):
        # Unique names: a first and last name and, past the pairs there are, a middle initial.
        first, last = FIRST[n % len(FIRST)], LAST[(n // len(FIRST)) % len(LAST)]
        middle = chr(ord("A") + (n // (len(FIRST) * len(LAST))) % 26)
        born = dt.date(1940, 1, 1) + dt.timedelta(days=pick.randrange(0, 365 * 70))
        lines.append(
            f"R{n:06d},{first} {middle}. {last},{born},{pick.choice('MF')},"
            f"{pick.choice(REGIONS)},{'' if n % 5 else 5_000_000 + n},"
            f"{'' if n % 3 else f'm{n}@example.org'},{pick.randrange(800, 2400)},"
            f"{pick.randrange(0, 400)},{pick.choice(MEMBERSHIP)}"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=60_000)
    parser.add_argument("--csv", type=Path, help="also write the file here")
    args = parser.parse_args()
    text = register(args.rows)
    if args.csv:
        args.csv.write_text(text)
    print(f"{args.rows:,} rows, {len(text.encode()) / 1e6:.1f} MB; load {os.getloadavg()}")
    job = member_import_jobs.member_import_queue(
        text=text, filename="register.csv", notice="", user=None
    )
    began = time.perf_counter()
    job = member_import_jobs.member_import_read(job=job)
    read = time.perf_counter() - began
    print(f"read (the preview): {read:.1f} s, {job.get_status_display()}; load {os.getloadavg()}")
    if job.preview.get("problems"):
        sys.exit(f"problems: {job.preview['problems'][:5]}")
    member_import_jobs.member_import_confirm(job=job, user=None)
    began = time.perf_counter()
    job = member_import_jobs.member_import_save(job=MemberImport.objects.get(pk=job.pk))
    saved = time.perf_counter() - began
    print(f"save: {saved:.1f} s, {job.get_status_display()}: {job.report}")
    print(f"load {os.getloadavg()}")


if __name__ == "__main__":
    main()
