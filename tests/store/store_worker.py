"""A separate process that writes to a campaign (run by test_durability.py).

``append DB NAME WHO COUNT``: COUNT rounds of one move (a player named WHO-i joins the
table; a stale move is made again on the fresh state) and one dice roll, then exit.
``forever DB NAME``: rolls and moves until killed, printing the head after each commit.
"""

from __future__ import annotations

import sys

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import open_campaign, open_store


def main(argv: list[str]) -> int:
    mode, db, name = argv[:3]
    with open_store(db) as store:
        campaign = open_campaign(store, name, who=argv[3] if len(argv) > 3 else "worker")
        table = campaign.tracker("Table")
        assert isinstance(table, PlotPointSession)
        if mode == "append":
            who, count = argv[3], int(argv[4])
            for i in range(count):
                table.add_player(f"{who}-{i}")
                campaign.roll("1d20")
            return 0
        i = 0
        while True:
            if i % 2:
                table.remove_player("Runner")
            else:
                table.add_player("Runner")
            campaign.roll("1d6")
            sys.stdout.write(f"{campaign.head}\n")
            sys.stdout.flush()
            i += 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
