"""A game folder's git repository read with limits, for ``pnp build --changed-since REF`` (:mod:`pnp.reprint.gitref`).

A repository comes with the game folder, so whoever made the folder made it: its objects can name one
huge file thousands of times, inflate a few kilobytes into gigabytes (a zlib bomb), nest folders
thousands deep, chain deltas without end, lie about their sizes and types, or be damaged. dulwich reads
an object whole before it can say how large it is, so pnp reads the objects' bytes itself, in git's
documented formats (loose objects, and packs with their deltas): each is inflated through zlib a
bounded amount at a time, its declared size checked before it is inflated, and its content checked
against its name (the SHA-1 of its type, size and bytes) before it is used. dulwich still does the
rest: it finds a reference and reads revision syntax (``v1``, ``HEAD~3``), looks objects up in pack
indexes, applies deltas and parses commits, tags and trees (:class:`Reader` is its object store's
``get_raw``).

Only the game folder's own repository is read (:func:`open_repository`): the folder holding the
``.git`` nearest above the game folder, whose git data (the ``.git`` folder, or the folder a ``.git``
file names, its common folder and its objects) lies inside that folder, without objects borrowed
from another repository (``objects/info/alternates``); its own files are regular files (a FIFO is
refused, never waited for) of bounded size. The limits (:data:`LIMITS`, docs/security.md) are far
above any real game folder; past one, the reading stops with :class:`RepositoryRefused` saying which.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
import zlib

from pnp.loading.paths import open_regular

#: One file (blob) of the game folder read from a repository, inflated.
MAX_BLOB = 256 * 2**20
#: Any other object (a folder's listing, a commit, a tag), inflated.
MAX_LISTING = 16 * 2**20
#: The files written for the game folder as it was, in all (a file named twice counts twice).
MAX_TOTAL = 2 * 2**30
#: Files and folders under the game folder (every entry of its folders' listings).
MAX_ENTRIES = 100_000
#: Folders inside the game folder, one in another.
MAX_DEPTH = 64
#: Deltas one packed object may be made from (git itself makes at most 4,095).
MAX_DELTAS = 4_096
#: One of the repository's own files (config, HEAD, packed-refs, a reference), and how many it may hold.
MAX_CONTROL_FILE = 64 * 2**20
MAX_CONTROL_ENTRIES = 100_000
#: Reading the repository, from opening it to the last file written.
MAX_SECONDS = 120.0

TYPE_NAMES = {1: b"commit", 2: b"tree", 3: b"blob", 4: b"tag"}
_TYPE_NUMBERS = {name: number for number, name in TYPE_NAMES.items()}
_OFS_DELTA, _REF_DELTA = 6, 7
_CHUNK = 1 << 20


class RepositoryRefused(Exception):
    """A repository pnp does not read, or an object it cannot: the message says which and why."""


class ObjectTooLarge(RepositoryRefused):
    """An object larger than its limit, with its size (the caller names the file)."""

    def __init__(self, hexsha: str, size: int, limit: int):
        super().__init__(f"object {hexsha[:7]} is {megabytes(size)}, more than pnp reads from a repository "
                         f"({megabytes(limit)})")
        self.size, self.limit = size, limit


def megabytes(size: int) -> str:
    return f"{size / 2**20:,.0f} MB" if size >= 2**20 else f"{size:,} bytes"


def _damaged(hexsha: str, why: str) -> RepositoryRefused:
    return RepositoryRefused(f"object {hexsha[:7]} is damaged ({why})")


# ----------------------------------------------------------------------------- the repository's own files

def _inside(path: str, top: str) -> bool:
    real = os.path.realpath(path)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def git_folder(top: str) -> str:
    """The real path of the git data of the repository whose work tree is ``top`` (a real path): its
    ``.git`` folder, or the folder its ``.git`` file names; refused when it lies outside ``top``."""
    dotgit = os.path.join(top, ".git")
    mode = os.lstat(dotgit).st_mode
    if stat.S_ISLNK(mode) or stat.S_ISDIR(mode):
        target = os.path.realpath(dotgit)
        if not os.path.isdir(target):
            raise RepositoryRefused(".git is a link to something that is not a folder")
    else:
        try:
            with open_regular(dotgit) as f:
                text = f.read(4097)
        except OSError as exc:
            raise RepositoryRefused(f"its .git {exc.strerror or exc}") from None
        if len(text) > 4096 or not text.startswith(b"gitdir: "):
            raise RepositoryRefused("its .git is a file that does not name a git folder ('gitdir: PATH')")
        named = os.fsdecode(text[len(b"gitdir: "):].strip())
        target = os.path.realpath(os.path.join(top, named))
    if not _inside(target, top):
        raise RepositoryRefused("keeps its git data outside the folder it belongs to (its .git names another "
                                "folder, as a git worktree or a submodule does); pnp reads only a repository "
                                "kept inside that folder: give the folder of the earlier kit instead")
    return target


#: What dulwich may read of a git folder to find a reference: its own files and these folders (not
#: hooks, which pnp never runs, nor git-lfs's or a submodule's folders, which it never reads).
_READ_FOLDERS = (("refs",), ("logs",), ("info",), ("objects", "info"), ("objects", "pack"))


def check_control_files(gitdir: str, top: str) -> None:
    """What dulwich may read of the git folder (:data:`_READ_FOLDERS` and the files beside them) is
    folders and regular files inside ``top`` (a socket, which cannot be read, is passed over), each but a
    pack, a pack index and git's index at most :data:`MAX_CONTROL_FILE`: no FIFO or device that reading
    it could wait on or never end, no link that leads out."""
    seen = 0
    folders = [(gitdir, True)] + [(os.path.join(gitdir, *parts), False) for parts in _READ_FOLDERS]
    for start, alone in folders:
        if not os.path.isdir(start):
            continue
        for folder, dirs, files in os.walk(start):
            for name in ([] if alone else dirs) + files:
                seen += 1
                if seen > MAX_CONTROL_ENTRIES:
                    raise RepositoryRefused(f"its git folder holds more than {MAX_CONTROL_ENTRIES:,} files")
                _check_control_file(os.path.join(folder, name), name in dirs and not alone, top)
            if alone:
                break                                     # the git folder's own files only


def _check_control_file(path: str, folder: bool, top: str) -> None:
    shown = os.path.relpath(path, top)
    if not _inside(path, top):
        raise RepositoryRefused(f"{shown} is a link that leads outside the repository")
    mode, size = (info := os.stat(path)).st_mode, info.st_size
    if folder:
        if not stat.S_ISDIR(mode):
            raise RepositoryRefused(f"{shown} is not a folder")
        return
    if stat.S_ISSOCK(mode) or stat.S_ISDIR(mode):
        return
    if not stat.S_ISREG(mode):
        raise RepositoryRefused(f"{shown} is not a regular file (a FIFO or a device?)")
    if size > MAX_CONTROL_FILE and not shown.endswith((".pack", ".idx")) and os.path.basename(path) != "index":
        raise RepositoryRefused(f"{shown} holds {megabytes(size)}, more than pnp reads of a repository's own "
                                f"file ({megabytes(MAX_CONTROL_FILE)})")


# ----------------------------------------------------------------------------- objects

class _Inflated:
    """A zlib stream read from a file, inflated at most as much as is asked for at a time."""

    def __init__(self, file, tick, first: bytes = b""):
        self._file, self._tick = file, tick
        self._zlib = zlib.decompressobj()
        self._pending = first

    def read(self, n: int) -> bytes:
        """Up to ``n`` bytes (fewer only where the stream or the file ends)."""
        out, got = [], 0
        while got < n and not self._zlib.eof:
            if not self._pending:
                self._pending = self._file.read(_CHUNK)
                if not self._pending:
                    break
                self._tick()
            piece = self._zlib.decompress(self._pending, n - got)
            self._pending = self._zlib.unconsumed_tail
            out.append(piece)
            got += len(piece)
        return b"".join(out)

    def ends_after(self, hexsha: str) -> None:
        """That nothing follows what was read: the stream ends, and its checksum holds."""
        if self.read(1) or not self._zlib.eof:
            raise _damaged(hexsha, "its size is not the one it declares")


def _limit(kind: int) -> int:
    return MAX_BLOB if kind == 3 else MAX_LISTING


def _varint(data: bytes, i: int) -> tuple[int, int]:
    """A delta header's size (7 bits a byte, least significant first) at ``i``: (size, next index)."""
    size = shift = 0
    while True:
        if i >= len(data) or shift > 63:
            raise ValueError("a delta's header is cut short")
        byte = data[i]
        size |= (byte & 0x7F) << shift
        shift += 7
        i += 1
        if not byte & 0x80:
            return size, i


class Reader:
    """The objects of one repository's object folder (``objects``: loose files and packs), read within
    the limits; ``packs``: (pack index, pack file) pairs; every object is checked against its name, and
    read only from a file inside ``top`` (a loose object that is a link out is refused)."""

    def __init__(self, objects: str, packs: list, top: str, seconds: float | None = None):
        self.objects = objects
        self.top = top
        self.packs = packs
        self.seconds = MAX_SECONDS if seconds is None else seconds
        self.deadline = time.monotonic() + self.seconds
        self.missing: list[str] = []
        self._open: dict = {}

    def close(self) -> None:
        for f in self._open.values():
            f.close()
        self._open.clear()

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise RepositoryRefused(f"took longer than {self.seconds:g} s to read")

    def raw(self, hexsha: str) -> tuple[int, bytes]:
        """(type number, bytes) of the object named ``hexsha`` (40 hex digits); KeyError when the
        repository does not hold it."""
        self.tick()
        loose = os.path.join(self.objects, hexsha[:2], hexsha[2:])
        if os.path.lexists(loose):
            kind, data = self._loose(loose, hexsha)
        else:
            found = self._find(hexsha)
            if found is None:
                self.missing.append(hexsha)
                raise KeyError(hexsha)
            kind, data = self._packed(*found, hexsha)
        digest = hashlib.sha1(TYPE_NAMES[kind] + b" %d\0" % len(data))
        digest.update(data)
        if digest.hexdigest() != hexsha:
            raise _damaged(hexsha, "its content does not match its name")
        return kind, data

    def _loose(self, path: str, hexsha: str) -> tuple[int, bytes]:
        if not _inside(path, self.top):
            raise RepositoryRefused(f"object {hexsha[:7]} is a link that leads outside the repository")
        with open_regular(path) as f:
            stream = _Inflated(f, self.tick)
            head = stream.read(64)
            nul = head.find(b"\0")
            name, _, size_text = head[:max(nul, 0)].partition(b" ")
            kind = _TYPE_NUMBERS.get(name)
            if nul < 0 or kind is None or not size_text.isdigit() or len(size_text) > 15:
                raise _damaged(hexsha, "its header is not git's")
            size = int(size_text)
            if size > _limit(kind):
                raise ObjectTooLarge(hexsha, size, _limit(kind))
            body = head[nul + 1:]
            if len(body) > size:
                raise _damaged(hexsha, "its size is not the one it declares")
            body += stream.read(size - len(body))
            if len(body) != size:
                raise _damaged(hexsha, "its size is not the one it declares")
            stream.ends_after(hexsha)
        return kind, body

    def _file(self, path: str):
        if path not in self._open:
            self._open[path] = open_regular(path)
        return self._open[path]

    def _find(self, hexsha: str):
        binary = bytes.fromhex(hexsha)
        for index, path in self.packs:
            try:
                return path, index.object_offset(binary)
            except KeyError:
                continue
        return None

    def _entry(self, path: str, offset: int, hexsha: str) -> tuple[int, int, object, int]:
        """(type, declared size, base: an offset or an object's name or None, where its zlib data starts)
        of the pack entry at ``offset``."""
        f = self._file(path)
        f.seek(offset)
        head = f.read(64)
        if not head:
            raise _damaged(hexsha, "its pack is cut short")
        byte = head[0]
        kind, size, shift, i = (byte >> 4) & 7, byte & 15, 4, 1
        while byte & 0x80:
            if i >= len(head) or shift > 60:
                raise _damaged(hexsha, "its pack entry's header is not git's")
            byte = head[i]
            size |= (byte & 0x7F) << shift
            shift, i = shift + 7, i + 1
        base = None
        if kind == _OFS_DELTA:
            if i >= len(head):
                raise _damaged(hexsha, "its pack entry's header is not git's")
            byte = head[i]
            back, i = byte & 0x7F, i + 1
            while byte & 0x80:
                if i >= len(head) or back > offset:
                    raise _damaged(hexsha, "its pack entry's header is not git's")
                byte = head[i]
                back, i = ((back + 1) << 7) | (byte & 0x7F), i + 1
            if not 0 < back <= offset - 12:
                raise _damaged(hexsha, "a delta's base is not in its pack")
            base = offset - back
        elif kind == _REF_DELTA:
            if len(head) < i + 20:
                raise _damaged(hexsha, "its pack entry's header is not git's")
            base, i = head[i:i + 20].hex(), i + 20
        elif kind not in TYPE_NAMES:
            raise _damaged(hexsha, f"its pack entry has the type {kind}, which git does not write")
        return kind, size, base, offset + i

    def _inflate(self, path: str, start: int, size: int, hexsha: str) -> bytes:
        f = self._file(path)
        f.seek(start)
        stream = _Inflated(f, self.tick)
        data = stream.read(size)
        if len(data) != size:
            raise _damaged(hexsha, "its size is not the one it declares")
        stream.ends_after(hexsha)
        return data

    def _packed(self, path: str, offset: int, hexsha: str) -> tuple[int, bytes]:
        """A packed object: its base's bytes, then each delta on the way back to it applied in turn."""
        from dulwich.pack import apply_delta

        deltas, data = [], None
        while True:
            kind, size, base, start = self._entry(path, offset, hexsha)
            if kind in TYPE_NAMES:
                break
            if len(deltas) >= MAX_DELTAS:
                raise RepositoryRefused(f"object {hexsha[:7]} is made of more than {MAX_DELTAS:,} deltas (or of "
                                        f"deltas that refer to each other)")
            if size > MAX_BLOB:
                raise ObjectTooLarge(hexsha, size, MAX_BLOB)
            deltas.append((path, start, size))
            if kind == _OFS_DELTA:
                offset = base
            else:
                found = self._find(base)
                if found is None:
                    if not os.path.lexists(os.path.join(self.objects, base[:2], base[2:])):
                        self.missing.append(base)
                        raise RepositoryRefused(f"object {base[:7]}, a delta's base, is missing")
                    kind, data = self.raw(base)
                    break
                path, offset = found
            self.tick()
        if data is None:
            if size > _limit(kind):
                raise ObjectTooLarge(hexsha, size, _limit(kind))
            data = self._inflate(path, start, size, hexsha)
        for path, start, size in reversed(deltas):
            delta = self._inflate(path, start, size, hexsha)
            source, i = _varint(delta, 0)
            target, _ = _varint(delta, i)
            if source != len(data):
                raise _damaged(hexsha, "a delta does not fit its base")
            if target > _limit(kind):
                raise ObjectTooLarge(hexsha, target, _limit(kind))
            applied = apply_delta(data, delta)
            data = applied if isinstance(applied, bytes) else b"".join(applied)
            if len(data) != target:
                raise _damaged(hexsha, "a delta makes another size than it declares")
            self.tick()
        return kind, data


def bounded_store(objects: str, top: str, seconds: float | None = None):
    """A dulwich object store of the folder ``objects`` (inside ``top``) whose objects are read by a
    :class:`Reader` (the store's ``reader``: close it when done)."""
    from dulwich.object_store import DiskObjectStore

    class BoundedStore(DiskObjectStore):
        def get_raw(self, name):
            hexsha = name.hex() if len(name) == 20 else name.decode("ascii") if isinstance(name, bytes) else name
            if len(hexsha) != 40 or not all(c in "0123456789abcdef" for c in hexsha):
                raise KeyError(name)
            return self.reader.raw(hexsha)

    store = BoundedStore(objects)
    packs = [(pack.index, os.path.join(store.pack_dir, os.path.basename(pack.data.filename)))
             for pack in store.packs]
    store.reader = Reader(objects, packs, top, seconds)
    return store
