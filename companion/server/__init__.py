"""The table server: phones join the table without a kernel (issue 44).

Not core: it imports tornado (the jupyter server ``companion app`` runs has it). A phone
holds one websocket, [TableSocket][companion.server.table.TableSocket], mounted at
``<base_url>table/ws`` of the same server as the Voila apps (``server/voila.py`` adds it),
and speaks the small JSON protocol of [companion.server.protocol][] (``docs/protocol.md``):
a hello with the seat's secret and the last event it holds; acts judged by the seat's own
[Session][companion.table.session.Session]; every new event of the campaign pushed,
filtered for that seat.
"""

from __future__ import annotations

from companion.server.protocol import MAX_FRAME_BYTES, PROTOCOL_VERSION, ProtocolError
from companion.server.table import SOCKET_PATH, TableServer, TableSocket, table_handlers

__all__ = ["MAX_FRAME_BYTES", "PROTOCOL_VERSION", "SOCKET_PATH", "ProtocolError",
           "TableServer", "TableSocket", "table_handlers"]
