"""A seat's link: the start app's address that opens a campaign as one seat.

Every face that hands out a seat makes its link here (the GM's seats panel, ``companion
campaign seat``), so a link made on the command line and one made in the app open the
same page. The address is the one given, else ``COMPANION_URL``, else the address
``make app`` serves ([DEFAULT_URL][companion.links.DEFAULT_URL]).
"""

from __future__ import annotations

import os
from urllib.parse import urlencode

from companion.errors import CompanionError

__all__ = ["DEFAULT_URL", "seat_link"]

#: Where ``make app`` serves the start app.
DEFAULT_URL = "http://127.0.0.1:8866/"


def seat_link(campaign: str, secret: str, base: str | None = None) -> str:
    """The start app's address for ``campaign`` opened by the seat ``secret``.

    >>> seat_link("Tuesday", "s3cret", "https://table.example/")
    'https://table.example/?campaign=Tuesday&seat=s3cret'
    """
    base = (base or os.environ.get("COMPANION_URL", "") or DEFAULT_URL).strip()
    if "?" in base or "#" in base:
        raise CompanionError("the app's address ends before any '?' or '#'")
    if not base.endswith((".ipynb", "/")):
        base += "/"
    return f"{base}?{urlencode({'campaign': campaign, 'seat': secret})}"
