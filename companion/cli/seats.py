"""``companion campaign seat|seats|unseat`` and ``log NAME --seat SECRET``: seats on the
command line, for whoever holds the database (see [companion.store.seats][]).

- ``campaign seat NAME WHO --role gm|player [--url BASE]`` makes (or renews) a seat and
  prints its link, the secret as ``seat=SECRET`` (shown this once; the database keeps its
  hash). A lost GM link, or a campaign made before seats, gets its GM seat this way.
- ``campaign seats NAME [--json]``: who, role and when made; never a secret.
- ``campaign unseat NAME WHO``: the seat's secret opens nothing from now on; a page
  open on it stores nothing more (its next move is refused).
- ``campaign trust NAME [--own-dice on|off] [--own-numbers on|off]``: the table's trust
  (whether players may enter their own dice for saves and checks, and edit their own
  numbers; both off until turned on), stored in the log as the GM's setting; without
  options, shows it.
- ``log NAME --seat SECRET`` (with ``--json`` or ``--csv`` as usual): the log as that
  seat sees it; a forged or revoked secret is one ``error:`` line, exit 2. An argument is
  visible to every user of the machine (``ps``), so the secret may come instead from
  standard input (``--seat -``), a file (``--seat-file PATH``, its first line) or the
  environment (``COMPANION_SEAT``, used when no other view is asked for).

The link's address is ``--url``, else ``COMPANION_URL``, else the address ``make app``
serves (``http://127.0.0.1:8866/``): [seat_link][companion.links.seat_link], the
app's own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.links import DEFAULT_URL, seat_link

__all__ = ["add_seat_commands"]


def add_seat_commands(campaign: Any, log: argparse.ArgumentParser, view: Any) -> None:
    """Add the seat commands to ``campaign``'s subparsers and ``--seat`` to ``log`` (in its
    group of views, ``view``)."""
    seat = campaign.add_parser("seat", help="make (or renew) a seat and print its link")
    seat.add_argument("name", help="the campaign")
    seat.add_argument("who", help="the seat's name (a player's character, or the GM)")
    seat.add_argument("--role", choices=("gm", "player"), required=True)
    seat.add_argument("--url", help="the app's address for the link (default: "
                      f"COMPANION_URL, else {DEFAULT_URL})")
    seat.set_defaults(func=_seat)

    seats = campaign.add_parser("seats", help="list a campaign's seats (never their secrets)")
    seats.add_argument("name")
    seats.add_argument("--json", action="store_true")
    seats.set_defaults(func=_seats)

    unseat = campaign.add_parser("unseat", help="revoke a seat: its link opens nothing")
    unseat.add_argument("name")
    unseat.add_argument("who")
    unseat.set_defaults(func=_unseat)

    trust = campaign.add_parser("trust", help="show or set the table's trust in its "
                                "players (own dice, own numbers)")
    trust.add_argument("name")
    trust.add_argument("--own-dice", choices=("on", "off"),
                       help="players may enter their own dice for saves and checks")
    trust.add_argument("--own-numbers", choices=("on", "off"),
                       help="players may edit their own numbers (maxima, armour, levels)")
    trust.set_defaults(func=_trust)

    view.add_argument("--seat", metavar="SECRET",
                      help="the log as the seat with this secret sees it; '-' reads the "
                      "secret from standard input. Given here, the secret is visible to "
                      "other users of this machine (ps, /proc): prefer '-', --seat-file "
                      f"or ${SEAT_ENV}")
    view.add_argument("--seat-file", metavar="PATH",
                      help="as --seat, the secret read from this file (its first line)")
    log.set_defaults(func=_seated_log(log.get_default("func")))


def _store() -> Any:
    from companion.store.db import open_store

    return open_store()


def _seat(args: argparse.Namespace) -> int:
    from companion.store.seats import check_who, make_seat, seat_named

    with _store() as store:
        info = store.get_campaign(args.name)
        who = check_who(args.who)
        link = seat_link(info.name, "SECRET", args.url)  # refuse a bad --url before
        secret = make_seat(store, info.name, who, args.role)
        seat = seat_named(store, info.name, who)
        who = seat.who if seat is not None else who  # a renewed seat keeps its spelling
    link = seat_link(info.name, secret, args.url)
    role = "GM" if args.role == "gm" else "player"
    sys.stdout.write(f"seat {who} ({role}) at {info.name}: the link below opens it; it is "
                     "shown this once (run this again for a new one)\n"
                     f"{link}\n")
    return 0


def _seats(args: argparse.Namespace) -> int:
    from companion.store.seats import list_seats

    with _store() as store:
        info = store.get_campaign(args.name)
        listed = list_seats(store, info.name)
    if args.json:
        sys.stdout.write(json.dumps({"campaign": info.name, "seats": [
            {"who": s.who, "role": s.role, "made": s.created} for s in listed]},
            ensure_ascii=False) + "\n")
        return 0
    if not listed:
        sys.stdout.write(f"{info.name}: no seats yet (campaign seat {info.name} WHO "
                         "--role gm makes the GM's)\n")
    for s in listed:
        sys.stdout.write(f"{s.who}  ({'GM' if s.role == 'gm' else 'player'}; made "
                         f"{s.created[:16].replace('T', ' ')})\n")
    return 0


def _unseat(args: argparse.Namespace) -> int:
    from companion.store.seats import revoke_seat

    with _store() as store:
        info = store.get_campaign(args.name)
        revoke_seat(store, info.name, args.who)
    sys.stdout.write(f"revoked {' '.join(args.who.split())}'s seat at {info.name}: its "
                     "link opens nothing now\n")
    return 0


def _trust(args: argparse.Namespace) -> int:
    from companion.table.session import Session

    def switch(value: str | None) -> bool | None:
        return None if value is None else value == "on"

    with _store() as store:
        session = Session.open(store, args.name)  # the database's holder
        if args.own_dice is not None or args.own_numbers is not None:
            session.set_trust(own_dice=switch(args.own_dice),
                              own_numbers=switch(args.own_numbers))
        trust = session.trust
    sys.stdout.write(f"{session.name}: players {'may' if trust.own_dice else 'may not'} "
                     f"enter their own dice for saves and checks; "
                     f"{'may' if trust.own_numbers else 'may not'} edit their own numbers\n")
    return 0


def _seated_log(original: Callable[[argparse.Namespace], int]
                ) -> Callable[[argparse.Namespace], int]:
    """``log`` as before, but with ``--seat`` the view is the seat's (GM: everything)."""

    def run(args: argparse.Namespace) -> int:
        secret = _seat_secret(args)
        if secret is not None:
            from companion.store.seats import seat_for_secret

            with _store() as store:
                info = store.get_campaign(args.name)
                seat = seat_for_secret(store, info.name, secret)
            if seat is None:  # never echo what was given: it may be a real secret
                raise CompanionError(f"that seat secret opens no seat at {info.name} "
                                     "(forged, revoked or renewed)")
            args.gm = seat.role == "gm"
            args.player = None if args.gm else seat.who
        return original(args)

    return run


#: The environment variable a seat's secret may come from (``log NAME`` with no view
#: option): unlike an argument, the environment is not shown to other users by ``ps``.
SEAT_ENV = "COMPANION_SEAT"

#: Most bytes read for a secret (a file or standard input): a secret is 43 characters.
_MAX_SECRET_BYTES = 4096


def _seat_secret(args: argparse.Namespace) -> str | None:
    """The seat secret ``log`` was given: ``--seat SECRET``, ``--seat -`` (standard
    input), ``--seat-file PATH``, else ``$COMPANION_SEAT`` when no other view is asked
    for; ``None`` without one. Never echoed in an error."""
    from companion.files import read_input

    given, path = getattr(args, "seat", None), getattr(args, "seat_file", None)
    if given == "-" or path is not None:
        name = "-" if path is None else path
        text = read_input(name, _MAX_SECRET_BYTES, "a seat secret")
        lines = text.strip().splitlines()
        secret = lines[0].strip() if lines else ""
        if not secret:
            where = "standard input" if name == "-" else "the seat file"
            raise CompanionError(f"{where} holds no seat secret")
        return secret
    if given is not None:
        return str(given)
    if getattr(args, "gm", False) or getattr(args, "player", None) is not None:
        return None
    from_env = os.environ.get(SEAT_ENV, "").strip()
    return from_env or None
