"""Every seed the store keeps fits its 64-bit column (issue 29): a larger one is refused
in one line before anything is written, on SQLite and PostgreSQL alike; the largest that
fits is kept exactly and verifies after an export and an import."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import Campaign, create_campaign, open_campaign, open_store
from companion.store.db import StoreError
from tests.store.conftest import run_cli as _run

pytestmark = pytest.mark.timeout(120)




@pytest.mark.parametrize("seed", [str(2**64), str(2**63), str(-2**63 - 1), "9" * 400])
def test_a_seed_beyond_64_bits_is_refused_in_one_line(
        env_db: str, capsys: pytest.CaptureFixture[str], seed: str) -> None:
    _run(capsys, "campaign", "new", "S", "--ruleset", "plot_points")
    status, out, err = _run(capsys, "roll", "1d6", "--campaign", "S", f"--seed={seed}")
    assert (status, out) == (2, "")
    assert err.startswith("error: seed ") and "too large for a campaign's log" in err
    assert err.count("\n") == 1 and len(err) < 300
    with open_store(env_db) as store:
        assert store.get_campaign("S").head == 0  # nothing written


def test_the_largest_seed_that_fits_is_kept_exactly(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _run(capsys, "campaign", "new", "S", "--ruleset", "plot_points")
    for seed in (2**63 - 1, -2**63):
        status, _, err = _run(capsys, "roll", "1d6", "--campaign", "S", f"--seed={seed}")
        assert status == 0, err
    status, exported, _ = _run(capsys, "campaign", "export", "S")
    assert [e["seed"] for e in json.loads(exported)["events"]] == [2**63 - 1, -2**63]
    file = tmp_path / "s.json"
    file.write_text(exported)
    assert _run(capsys, "verify", str(file))[0] == 0
    status, _, err = _run(capsys, "campaign", "import", str(file), "--name", "Copy")
    assert status == 0, err


def test_a_move_given_a_seed_beyond_64_bits_is_refused_before_it_is_made(db: str) -> None:
    with open_store(db) as store:
        gm = create_campaign(store, "S", ["plot_points"], who="Mira", role="gm")
        table: Any = gm.add("Table", PlotPointSession(), role="minigame")
        table.add_player("Ash")
        before = table.snapshot()
        with pytest.raises(StoreError, match="too large for a campaign's log"):
            table.roll_check("Ash", seed=2**64)
        assert table.snapshot() == before and open_campaign(store, "S").head == 2
        table.roll_check("Ash", rng=random.Random(1))  # an ordinary move still works
        with pytest.raises(StoreError, match="too large"):
            gm.roll_entry("1d6", seed=2**70)
        assert isinstance(Campaign.open(store, "S"), Campaign)
