"""The one host check of the table server's own handlers (the socket and the phone apps)."""

from __future__ import annotations

import re

from tornado import web


def refuse_foreign_host(handler: web.RequestHandler) -> None:
    """403 unless the request's Host is one of the Voila server's exact host names
    (``table_allowed_hosts``, from server/voila.py), when it has such a list: the same
    defence against DNS rebinding as its pages."""
    allowed = handler.settings.get("table_allowed_hosts")
    if allowed is not None:
        host = re.sub(r":\d+$", "", handler.request.host or "").strip("[]").lower()
        if host not in allowed:
            raise web.HTTPError(403)
