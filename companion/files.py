"""Reading and writing the player's files safely (standard library only).

- [read_input][companion.files.read_input] reads a regular file, or standard input for
  ``-``, through a bounded read: a device (``/dev/zero``), a FIFO or a folder is refused
  at once (never read until memory runs out, never waited on), and no more than the limit
  is ever held. The bytes are decoded as UTF-8 (a byte-order mark allowed), whatever the
  locale says.
- [write_atomic][companion.files.write_atomic] writes a file whole or not at all: the text
  goes to a temporary file beside it, which is renamed over it only once completely
  written. A full disk or a file-size limit leaves the old file as it was.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

from companion.errors import CompanionError

__all__ = ["FileError", "Snapshot", "decode_text", "read_bytes", "read_input",
           "shown_name", "write_atomic"]

_BOM = b"\xef\xbb\xbf"


class FileError(CompanionError):
    """A file the player named cannot be read or written (one line naming it and why)."""


def shown_name(name: str, limit: int = 60) -> str:
    """A file name as an error line shows it: long names clipped in the middle."""
    name = name.encode("utf-8", "replace").decode("utf-8")
    return name if len(name) <= limit else f"{name[:limit // 2]}…{name[-(limit // 2):]}"


def _read_bounded(stream: BinaryIO, limit: int, name: str) -> bytes:
    # Read in pieces: a limit of 100 MB is not allocated up front for a 2-byte file.
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        piece = stream.read(min(1 << 20, limit + 1 - size))
        if not piece:
            break
        parts.append(piece)
        size += len(piece)
    if size > limit:
        raise FileError(f"{shown_name(name)} is larger than {limit:,} bytes")
    return b"".join(parts)


def read_bytes(name: str, limit: int, what: str) -> bytes:
    """The bytes of file ``name`` (``-``: standard input), at most ``limit`` of them;
    ``what`` names the kind of file expected ("a campaign file") in the one-line error."""
    with _opened(name, what) as stream:
        try:
            return _read_bounded(stream, limit, name if name != "-" else "standard input")
        except OSError as exc:
            raise FileError(f"cannot read {_shown_input(name)}: {exc.strerror}") from None


def _shown_input(name: str) -> str:
    return "standard input" if name == "-" else shown_name(name)


def _opened(name: str, what: str) -> BinaryIO:
    """``name`` opened for reading once (``-``: standard input, left open when closed): a
    regular file, else one FileError line (a device, FIFO or folder is never read)."""
    if name == "-":
        stdin = sys.stdin
        if stdin is None:
            raise FileError("standard input is closed")
        return io.BufferedReader(_Unclosed(stdin.buffer))
    shown = shown_name(name)
    try:
        # Non-blocking: opening a FIFO nobody writes to returns at once (then refused).
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileError(f"no file {shown}") from None
    except IsADirectoryError:
        raise FileError(f"{shown} is a folder, not {what}") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or "not a usable file name"
        raise FileError(f"cannot read {shown}: {reason}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise FileError(f"{shown} is a folder, not {what}")
        if not stat.S_ISREG(mode):
            raise FileError(f"{shown} is not a regular file (a device, FIFO or socket); "
                            f"give {what} or '-' for standard input")
        with contextlib.suppress(OSError, AttributeError):
            os.set_blocking(fd, True)
        stream = os.fdopen(fd, "rb", closefd=True)
    except OSError as exc:
        os.close(fd)
        raise FileError(f"cannot read {shown}: {exc.strerror}") from None
    except BaseException:
        os.close(fd)
        raise
    return stream


class _Unclosed(io.RawIOBase):
    """Standard input, read through a stream of its own that never closes it."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data: bytes = self.stream.read(len(view))
        view[:len(data)] = data
        return len(data)

    def close(self) -> None:  # standard input stays open
        super().close()


class Snapshot:
    """The bytes of a file (or standard input) as they were read, once: the file is opened
    once and copied, at most ``limit`` bytes, into a private temporary file (unnamed: no
    other process can reach it), which every later pass reads. A file renamed over, or
    written to, while a command is still reading it cannot change what the command
    judged and what it keeps (issue 49: an import read its file five times, and a file
    swapped between two reads was imported unchecked).

    ``reader()`` gives a new binary stream over the bytes from the start (each with its
    own position); ``size`` their length. Close it (or use it in a ``with``)."""

    def __init__(self, name: str, limit: int, what: str) -> None:
        self.name, self.what = name, what
        self.shown = _shown_input(name)
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.size = 0
        try:
            with _opened(name, what) as stream:
                while True:
                    try:
                        piece = stream.read(min(1 << 20, limit + 1 - self.size))
                    except OSError as exc:
                        raise FileError(f"cannot read {self.shown}: {exc.strerror}"
                                        ) from None
                    if not piece:
                        break
                    self.size += len(piece)
                    if self.size > limit:
                        raise FileError(f"{self.shown} is larger than {limit:,} bytes")
                    self._file.write(piece)
            self._file.flush()
        except BaseException:
            self._file.close()
            raise

    def reader(self) -> BinaryIO:
        """The bytes from the start, as a new stream of their own."""
        return io.BufferedReader(_SnapshotReader(self._file.fileno(), self.size),
                                 buffer_size=1 << 16)

    def read_all(self) -> bytes:
        """The bytes whole (an older document, read the older way)."""
        with self.reader() as stream:
            return stream.read()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Snapshot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _SnapshotReader(io.RawIOBase):
    """A snapshot's bytes read with ``os.pread`` (a position of its own)."""

    def __init__(self, fd: int, size: int) -> None:
        super().__init__()
        self.fd, self.size, self.pos = fd, size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        want = min(len(view), self.size - self.pos)
        if want <= 0:
            return 0
        data = os.pread(self.fd, want, self.pos)
        view[:len(data)] = data
        self.pos += len(data)
        return len(data)


def decode_text(data: bytes, name: str, what: str) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped); one line if it is not."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileError(f"{shown_name(name)} is not {what} (not UTF-8 text: byte "
                        f"{exc.start})") from None


def read_input(name: str, limit: int, what: str) -> str:
    """The text of ``name`` (``-``: standard input): a regular file or standard input, at
    most ``limit`` bytes, UTF-8; anything else is one [FileError][companion.files.FileError]
    line naming the file and the reason."""
    shown = "standard input" if name == "-" else name
    return decode_text(read_bytes(name, limit, what), shown, what)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all: into a temporary file
    in the same folder, flushed to disk, then renamed over ``path``. On any failure the
    temporary file is removed and ``path`` is as it was; raises ``OSError``."""
    target = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644  # (reading the umask would change it, under other threads' feet)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:50]}.",
                                suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
