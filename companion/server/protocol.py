"""The table socket's frames, read and checked before anything is judged (issue 44).

Pure data, no tornado: [read_frame][companion.server.protocol.read_frame] turns one text
frame into a [Hello][companion.server.protocol.Hello] or an
[ActFrame][companion.server.protocol.ActFrame], or raises
[ProtocolError][companion.server.protocol.ProtocolError] with the one line the client is
sent back. ``docs/protocol.md`` describes the frames for whoever writes a client.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError, clipped
from companion.table.acts import MAX_ACT_BYTES, MAX_ACT_DEPTH, Act, ActError

__all__ = ["MAX_FRAME_BYTES", "PROTOCOL_VERSION", "ActFrame", "Hello", "ProtocolError",
           "read_frame"]

#: The protocol's version; a hello naming another is refused (the page is out of date).
PROTOCOL_VERSION = 1

#: The largest frame answered with a refusal: the largest act plus its envelope. Larger
#: frames are refused unread (tornado's own cap, further out, closes the socket).
MAX_FRAME_BYTES = MAX_ACT_BYTES + 4096

_HELLO_FIELDS = {"type", "v", "campaign", "secret", "last_seen", "client"}
_ACT_FIELDS = {"type", "act"}


class ProtocolError(CompanionError):
    """A frame that is not one the protocol knows (its one line goes back to the client)."""


@dataclass(frozen=True)
class Hello:
    """The first frame: which campaign, the seat's proof and the last event the client
    holds (0: none)."""

    campaign: str
    secret: str
    last_seen: int
    #: The device's name its acts carry (optional): the welcome then says the last of its
    #: acts this server judged.
    client: str = ""


@dataclass(frozen=True)
class ActFrame:
    """An act to judge; its ``client`` and ``seq`` make it idempotent."""

    act: Act


def _depth(text: str) -> int:
    """How deeply ``text`` nests (brackets outside strings), before json reads it: the
    parser's own recursion would otherwise meet a crafted 100,000-deep list."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _unknown(data: dict[str, Any], known: set[str], what: str) -> None:
    extra = sorted(set(data) - known)
    if extra:
        raise ProtocolError(f"a {what} frame has no field {clipped(extra[0], 40)!r}")


def read_frame(message: str | bytes) -> Hello | ActFrame:
    """One frame from the client, checked; raises ProtocolError (one line)."""
    if isinstance(message, bytes):
        raise ProtocolError("frames are JSON text, not binary")
    if len(message) > MAX_FRAME_BYTES:
        raise ProtocolError(f"a frame is at most {MAX_FRAME_BYTES:,} bytes")
    # Acts nest at most MAX_ACT_DEPTH inside their args; the envelope adds three levels.
    if _depth(message) > MAX_ACT_DEPTH + 4:
        raise ProtocolError(f"a frame nests at most {MAX_ACT_DEPTH + 4} levels")
    try:
        data = json.loads(message)
    except ValueError as exc:
        raise ProtocolError(f"a frame is one JSON object ({str(exc).split(':')[0]})") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a frame is one JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == "hello":
        _unknown(data, _HELLO_FIELDS, "hello")
        version = data.get("v")
        if version != PROTOCOL_VERSION or type(version) is not int:
            raise ProtocolError(f"this table speaks protocol version {PROTOCOL_VERSION}, not "
                                f"{clipped(json.dumps(version), 20)} (reload the page)")
        campaign, secret = data.get("campaign"), data.get("secret")
        if not isinstance(campaign, str) or not campaign or len(campaign) > 200:
            raise ProtocolError("hello: 'campaign' is the campaign's name (text)")
        if not isinstance(secret, str) or len(secret) > 200:
            raise ProtocolError("hello: 'secret' is the seat's secret (text)")
        last_seen = data.get("last_seen", 0)
        if type(last_seen) is not int or not 0 <= last_seen < 2**53:
            raise ProtocolError("hello: 'last_seen' is the number of the last event held "
                                "(0: none)")
        client = data.get("client", "")
        if not isinstance(client, str) or len(client) > 80:
            raise ProtocolError("hello: 'client' names this device, as its acts do (text, "
                                "up to 80 characters)")
        return Hello(campaign, secret, last_seen, client)
    if kind == "act":
        _unknown(data, _ACT_FIELDS, "act")
        try:
            act = Act.from_dict(data.get("act"))
        except ActError as exc:
            raise ProtocolError(str(exc)) from None
        if not act.client:
            raise ProtocolError("act: 'client' names this device (any text up to 80 "
                                "characters), so a resent act is not made twice")
        if act.seq < 1:
            raise ProtocolError("act: 'seq' numbers this device's acts from 1")
        return ActFrame(act)
    shown = clipped(json.dumps(kind), 30)
    raise ProtocolError(f"no frame of type {shown} (a client sends hello or act)")
