"""A short seeded run of make chaos-hub in make test: syncs, hubs and PostgreSQL killed,
restores from older dumps and hostile pushes; every machine ends identical with every
acknowledged edit, verify clean, no account wedged (scripts/chaos_hub.py says how)."""
import glob
import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("chaos_hub", os.path.join(ROOT, "scripts", "chaos_hub.py"))
chaos_hub = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chaos_hub)


@pytest.mark.skipif(not glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                    reason="PostgreSQL's initdb is absent (scripts/bootstrap installs Debian's postgresql)")
def test_a_short_chaos_run_loses_nothing_acknowledged():
    counts, problems = chaos_hub.run(seed=11, faults=40)
    assert problems == [], problems
    assert counts["faults"] >= 40
    assert counts["restores"] > 0 and counts["hub-kills"] > 0 and counts["sync-kills"] > 0 and counts["postgres-stops"] > 0
    assert counts["acknowledged-edits"] > 20
