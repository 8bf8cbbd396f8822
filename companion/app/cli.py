"""``companion app``: serve the apps on this machine (see ``companion.app``)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.app import (
    DEFAULT_IP,
    DEFAULT_MAX_KERNELS,
    DEFAULT_PORT,
    Settings,
    new_token,
    serve,
)

DESCRIPTION = """Serve the apps with Voila, from any folder: / opens the start app, every app
is listed at /voila/tree. Kernels whose page is gone are shut down within 90 s, and at
most --max-kernels run at once. Needs the app extra: pip install "table-companion[app]"."""


def add_commands(sub: Any) -> None:
    parser = sub.add_parser("app", help="serve the apps (Voila) on this machine",
                            description=DESCRIPTION)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the port to listen on (default {DEFAULT_PORT})")
    parser.add_argument("--ip", default=DEFAULT_IP,
                        help=f"the address to listen on (default {DEFAULT_IP}: this machine "
                             "only; 0.0.0.0 for every network, with --token)")
    parser.add_argument("--token", nargs="?", const=True, default=None, metavar="SECRET",
                        help="refuse visitors without this secret (16+ letters, digits, "
                             "- _ . ~); alone: a random one, printed in the address")
    parser.add_argument("--db", default=None,
                        help="where campaigns are kept: a file path or postgresql:// URL "
                             "(default: COMPANION_DB, else the default file)")
    parser.add_argument("--max-kernels", type=int, default=DEFAULT_MAX_KERNELS,
                        help=f"most apps running at once, about 60 MB each (default "
                             f"{DEFAULT_MAX_KERNELS}; 0: no cap)")
    parser.add_argument("--preheat", action="store_true",
                        help="start a kernel per app up front (faster first page, more "
                             "memory)")
    parser.add_argument("--open-table", action="store_true",
                        help="let any page create campaigns and see where they are kept, "
                             "even beyond this machine (always so on 127.0.0.1)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the address and the Voila command, serve nothing")
    parser.set_defaults(func=run)

    hub = sub.add_parser("hub-config", help="print a jupyterhub_config.py fragment: the "
                         "table as the club hub's service", description=HUB_DESCRIPTION)
    hub.add_argument("--db", default=None,
                     help="where campaigns are kept: a postgresql:// URL or a file path "
                          "(default: COMPANION_DB, else the default file)")
    hub.add_argument("--port", type=int, default=8867,
                     help="the port the service listens on, on 127.0.0.1 (default 8867)")
    hub.add_argument("--max-kernels", type=int, default=DEFAULT_MAX_KERNELS,
                     help=f"most apps running at once (default {DEFAULT_MAX_KERNELS})")
    hub.add_argument("--open-table", action="store_true",
                     help="let a page with no seat create campaigns and see where they "
                          "are kept (default: only hub admins and GMs)")
    hub.set_defaults(func=run_hub_config)


HUB_DESCRIPTION = """Print the lines to add to jupyterhub_config.py so that the hub runs the
table as one service behind its login: the hub user is the seat, players reach only the
apps. See docs/club.md."""


def run_hub_config(args: argparse.Namespace) -> int:
    import os

    from companion.app import check_max_kernels
    from companion.app.hub import hub_config

    check_max_kernels(args.max_kernels)
    print(hub_config(db=args.db, environ=os.environ, port=args.port,
                     max_kernels=args.max_kernels, open_table=args.open_table), end="")
    return 0


def run(args: argparse.Namespace) -> int:
    # --token alone (True): a random secret; --token SECRET: that one; neither: no token.
    token = new_token() if args.token is True else args.token
    settings = Settings(port=args.port, ip=args.ip, token=token, db=args.db,
                        max_kernels=args.max_kernels, preheat=args.preheat,
                        open_table=args.open_table)
    return serve(settings, dry_run=args.dry_run)
