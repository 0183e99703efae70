import io, time, os
import pytest
from django.core.management import call_command
from ratings.management.commands import bench

@pytest.mark.django_db(transaction=True)
def test_profile(monkeypatch):
    spent = {}
    for name in ("history","system_set","leftovers","full_rerate","new_event","correction","pages","trf_import"):
        orig = getattr(bench.Bench, name)
        def wrap(self, *a, _o=orig, _n=name, **k):
            t = time.process_time()
            r = _o(self, *a, **k)
            spent[_n] = spent.get(_n, 0) + time.process_time() - t
            return r
        monkeypatch.setattr(bench.Bench, name, wrap)
    args = ["--members", "80", "--games", "600", "--seed", "5", "--repeat", "1", "--no-memory"]
    t = time.process_time()
    call_command("bench", *args, "--system", os.environ.get("SYS", "all"), stdout=io.StringIO(), stderr=io.StringIO())
    print("TOTAL cpu", time.process_time() - t, {k: round(v, 2) for k, v in spent.items()}, os.getloadavg())
