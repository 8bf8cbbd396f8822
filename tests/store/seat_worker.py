"""A player's screen in a process of its own (run by test_permissions.py): opened by its
seat's secret, as the start app opens a page, then one move per line read from stdin.

``python seat_worker.py DB CAMPAIGN SECRET``; each stdin line ``move`` makes a move on the
seat's own character (its Fatigue), answered ``ok`` or ``refused: <the one-line reason>``.
"""

from __future__ import annotations

import sys

from companion.errors import CompanionError
from companion.rulesets.cairn_srd.character import Character
from companion.store import open_store
from companion.store.campaign import Campaign
from companion.store.seats import seat_for_secret, seat_key


def main(argv: list[str]) -> int:
    db, name, secret = argv[:3]
    with open_store(db) as store:
        seat = seat_for_secret(store, name, secret)
        assert seat is not None, "the seat's secret opens nothing"
        campaign = Campaign.open(store, name, who=seat.who, role=seat.role)
        campaign.seat_key = seat_key(seat, secret)  # as the page binding sets it
        sheet = campaign.tracker(seat.who, Character)
        print("ready", flush=True)
        for line in sys.stdin:
            if line.strip() != "move":
                continue
            try:
                sheet.add_fatigue()
            except CompanionError as exc:
                print(f"refused: {exc}", flush=True)
            else:
                print("ok", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
