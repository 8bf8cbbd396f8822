"""A large JSON document (a campaign export, a log view) read from a file as a stream:
judged by its shape first, then its top-level fields and its ``events`` one at a time, so
``verify`` checks a 100 MB export without building a file's worth of objects (issue 29).

1. [scan_shape][companion.store.stream.scan_shape] reads the bytes in pieces and refuses,
   before anything is decoded, a file larger than the limit, nesting deeper than the
   limit, or holding more objects and lists than
   [MAX_CONTAINERS][companion.store.records.MAX_CONTAINERS] (the same lines as
   [check_json_input][companion.store.records.check_json_input], which judges a file held
   whole).
2. [JsonDocument][companion.store.stream.JsonDocument] reads the top-level object's fields
   but ``events`` (the envelope) and counts the events; ``events()`` reads the file again
   and yields them one by one. What is held at once is one piece of the file (1 MB) and
   one event.

Each pass opens its source again: give a [Snapshot][companion.files.Snapshot] (the file
opened once, its bytes copied) when the passes must read the same bytes, as ``verify`` and
``campaign import`` do (issue 49); a name is read afresh by every pass.

Standard library only.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from companion.files import FileError, Snapshot, shown_name
from companion.store.records import MAX_CONTAINERS, StoreError

__all__ = ["CHUNK", "MAX_ITEM_CHARS", "JsonDocument", "scan_shape"]

#: Bytes read at a time.
CHUNK = 1 << 20

#: Largest single value (an event, a field of the envelope), in characters.
MAX_ITEM_CHARS = 16_000_000

_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
# Unrolled ("normal* (special normal*)*"): a tight loop per character class, several
# times faster on text full of strings than an alternation tried at every character.
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
#: The longest start of a piece made of complete strings and anything but quotes: where
#: it stops, a string begins that the next piece finishes.
_WHOLE = re.compile(rb'[^"]*(?:"[^"\\]*(?:\\.[^"\\]*)*"[^"]*)*', re.DOTALL)
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


#: What a document is read from: a file's name, or a snapshot of its bytes (read once).
Source = str | Snapshot


def _name(source: Source) -> str:
    return source.shown if isinstance(source, Snapshot) else shown_name(source)


def _open(source: Source) -> BinaryIO:
    if isinstance(source, Snapshot):
        return source.reader()
    return Path(source).open("rb")


def scan_shape(path: Source, limit: int, what: str, max_depth: int) -> int:
    """Judge the file ``path`` by its shape before decoding any of it: at most ``limit``
    bytes, ``max_depth`` levels and MAX_CONTAINERS objects and lists (brackets inside
    strings do not count). Returns its size; one StoreError (or FileError) line."""
    name = _name(path)
    try:
        stream = _open(path)
    except FileNotFoundError:
        raise FileError(f"no file {name}") from None
    except OSError as exc:
        raise FileError(f"cannot read {name}: {exc.strerror}") from None
    size = depth = containers = 0
    carry = b""
    with stream:
        while True:
            try:
                piece = stream.read(CHUNK)
            except OSError as exc:
                raise FileError(f"cannot read {name}: {exc.strerror}") from None
            size += len(piece)
            if size > limit:
                raise FileError(f"{name} is larger than {limit:,} bytes")
            data = carry + piece
            whole = _WHOLE.match(data)
            end = whole.end() if whole is not None else 0
            if not piece:
                end = len(data)  # an unterminated string: the decoder says so
            carry = data[end:]
            if len(carry) > MAX_ITEM_CHARS:
                raise StoreError(f"{name} holds a string longer than {MAX_ITEM_CHARS:,} "
                                 f"bytes: not {what}")
            brackets = _STRINGS.sub(b"", data[:end]).translate(None, _NOT_BRACKETS)
            containers += brackets.count(b"{") + brackets.count(b"[")
            if containers > MAX_CONTAINERS:
                raise StoreError(f"{name} holds more than {MAX_CONTAINERS:,} objects and "
                                 f"lists: too large to be {what}")
            for mark in brackets:
                depth += 1 if mark in b"[{" else -1
                if depth > max_depth:
                    raise StoreError(f"{name} nests more than {max_depth} levels deep: "
                                     f"not {what}")
            if not piece:
                return size


class _Reader:
    """The file's text, decoded piece by piece, with a read position."""

    def __init__(self, path: Source, what: str) -> None:
        self.name, self.what = _name(path), what
        try:
            self.stream = _open(path)
        except OSError as exc:
            raise FileError(f"cannot read {self.name}: {exc.strerror}") from None
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
        self.buf, self.pos, self.eof = "", 0, False
        self.lines = 0  # lines of the text dropped from the buffer (for error lines)

    def close(self) -> None:
        self.stream.close()

    def more(self) -> None:
        try:
            piece = self.stream.read(CHUNK)
            text = self.decoder.decode(piece, final=not piece)
        except OSError as exc:
            raise FileError(f"cannot read {self.name}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise FileError(f"{self.name} is not {self.what} (not UTF-8 text)") from None
        self.eof = not piece
        self.lines += self.buf.count("\n", 0, self.pos)
        self.buf = self.buf[self.pos:] + text
        self.pos = 0

    def bad(self, why: str = "", at: int | None = None) -> StoreError:
        """Not JSON: one line naming the line of the file where it stops being JSON."""
        where = self.pos if at is None else at
        line = self.lines + self.buf.count("\n", 0, where) + 1
        return StoreError(f"{self.name} is not {self.what} (not JSON, line {line}{why})")

    def peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            match = _WS.match(self.buf, self.pos)
            self.pos = match.end() if match is not None else self.pos
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if self.eof:
                return ""
            self.more()

    def take(self, expected: str) -> str:
        char = self.peek()
        if char not in expected or not char:
            raise self.bad()
        self.pos += 1
        return char

    def value(self) -> Any:
        """The next JSON value (read on until it is whole)."""
        self.peek()
        failed = self.pos
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                value, end, failed = None, -1, exc.pos
            # A value that reaches the end of what is read may go on (a number cut short).
            if end != -1 and (end < len(self.buf) or self.eof):
                self.pos = end
                return value
            if self.eof:
                raise self.bad(at=failed)
            if len(self.buf) - self.pos > MAX_ITEM_CHARS:
                raise StoreError(f"{self.name} holds a value longer than "
                                 f"{MAX_ITEM_CHARS:,} characters: not {self.what}")
            self.more()


class JsonDocument:
    """A JSON object in a file, its ``events`` list read as a stream.

    ``envelope``: every top-level field but ``events``; ``count``: how many events;
    ``events_is_list``: whether ``events`` is a list (``None``: there is none). The file
    is judged by [scan_shape][companion.store.stream.scan_shape] first."""

    def __init__(self, path: Source, limit: int, what: str, max_depth: int) -> None:
        self.path, self.what = path, what
        scan_shape(path, limit, what, max_depth)
        self.envelope: dict[str, Any] = {}
        self.count = 0
        self.events_is_list: bool | None = None
        for kind, key, value in self._walk():
            if kind == "field":
                self.envelope[key] = value
            else:
                self.count += 1

    def events(self) -> Iterator[Any]:
        """The events, read from the file again, one at a time."""
        for kind, _key, value in self._walk():
            if kind == "event":
                yield value

    def _walk(self) -> Iterator[tuple[str, str, Any]]:
        reader = _Reader(self.path, self.what)
        try:
            if reader.peek() != "{":
                raise StoreError(f"{reader.name} is not {self.what} (expected a JSON "
                                 "object)")
            reader.take("{")
            seen: set[str] = set()
            if reader.peek() == "}":
                reader.take("}")
            else:
                while True:
                    key = reader.value()
                    if not isinstance(key, str):
                        raise reader.bad()
                    if key in seen:
                        raise reader.bad(f": the field {key[:20]!r} appears twice")
                    seen.add(key)
                    reader.take(":")
                    if key == "events" and reader.peek() == "[":
                        self.events_is_list = True
                        reader.take("[")
                        if reader.peek() == "]":
                            reader.take("]")
                        else:
                            while True:
                                yield "event", "", reader.value()
                                if reader.take(",]") == "]":
                                    break
                    else:
                        if key == "events":
                            self.events_is_list = False
                        yield "field", key, reader.value()
                    if reader.take(",}") == "}":
                        break
            if reader.peek() != "":
                raise reader.bad(": more after its end")
        finally:
            reader.close()
