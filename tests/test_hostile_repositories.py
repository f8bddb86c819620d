"""``pnp build --changed-since REF`` reads the game folder's own repository within limits (issue 33, items 2,
7 and 8): repositories built here with dulwich's object API (each a few hundred KB at most on disk) that
name one 64 MiB file thousands of times, declare a 1.5 GiB file, inflate a few KB into hundreds of MB,
nest folders thousands deep, list more files than any game, loop their deltas or their symbolic
references, miss objects, hold objects of the wrong type, a malformed listing or a damaged pack, keep
their git data in another folder of the machine (a .git file or link, alternates, core.worktree) or put
a FIFO among their files: each is refused with one line naming the reference, exit status 2, in bounded
time and memory, and nothing is left in the temporary folder. A real repository, loose or packed with
deltas, reads the same record."""

import hashlib
import os
import resource
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("dulwich")
from dulwich.objects import Blob, Commit, Tag, Tree  # noqa: E402
from dulwich.pack import write_pack_index_v2  # noqa: E402
from dulwich.repo import Repo  # noqa: E402

from pnp.reprint import gitref, gitstore, changes  # noqa: E402
from pnp.commands.cli import main  # noqa: E402
from pnp.components import BuildOptions  # noqa: E402
from pnp.errors import UserError  # noqa: E402
from pnp.loading.gamedata import load_game  # noqa: E402

FILE, FOLDER = 0o100644, 0o040000


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> Path:
    """A small game folder (pnp new's starter)."""
    folder = tmp_path_factory.mktemp("starter") / "game"
    assert CliRunner().invoke(main, ["new", str(folder)]).exit_code == 0
    return folder


@pytest.fixture
def temp(tmp_path, monkeypatch) -> Path:
    """The temporary folder pnp writes the game folder as it was into (checked empty after each test)."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == []


@pytest.fixture
def bounded_memory():
    """At most 2 GB of address space: reading within the limits needs far less; without them these
    repositories needed gigabytes."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = 2 * 2**30 if hard == resource.RLIM_INFINITY else min(2 * 2**30, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    yield
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


class Maker:
    """A repository at ``top`` whose work tree holds the starter game in ``game/``, and helpers that add
    objects to it by dulwich's object API (or by hand, for what dulwich would not write)."""

    def __init__(self, top: Path, starter: Path):
        self.top = top
        shutil.copytree(starter, top / "game")
        self.repo = Repo.init(str(top))
        self.objects = Path(self.repo.object_store.path)

    def add(self, obj):
        self.repo.object_store.add_object(obj)
        return obj.id

    def blob(self, data: bytes) -> bytes:
        return self.add(Blob.from_string(data))

    def tree(self, entries) -> bytes:
        tree = Tree()
        for name, mode, sha in entries:
            tree.add(name.encode() if isinstance(name, str) else name, mode, sha)
        return self.add(tree)

    def game_tree(self, extra=()) -> bytes:
        """The starter game's folder as a tree, with ``extra`` entries added to it."""
        return self.tree(self._entries(self.top / "game") + list(extra))

    def _entries(self, folder: Path) -> list:
        return [(p.name, FOLDER, self.tree(self._entries(p))) if p.is_dir()
                else (p.name, FILE, self.blob(p.read_bytes())) for p in sorted(folder.iterdir())]

    def commit(self, game_tree: bytes, tag: str = "v1") -> bytes:
        commit = Commit()
        commit.tree = self.tree([("game", FOLDER, game_tree)])
        commit.author = commit.committer = b"t <t@example.org>"
        commit.author_time = commit.commit_time = 0
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = b"m"
        self.add(commit)
        self.repo.refs[b"refs/tags/" + tag.encode()] = commit.id
        self.repo.refs[b"HEAD"] = commit.id
        return commit.id

    def loose(self, kind: bytes, body: bytes, declared: int | None = None, name: str | None = None) -> bytes:
        """A loose object written by hand (its header may declare another size than its body has)."""
        header = kind + b" %d\0" % (len(body) if declared is None else declared)
        # in pieces, never header + body: a 300 MB body copied twice more outgrew the 2 GB address space
        # that bounded_memory leaves a test worker that has run many tests before
        pieces = [header] + [memoryview(body)[i:i + 2**24] for i in range(0, len(body), 2**24)]
        if name is None:
            digest = hashlib.sha1()
            for piece in pieces:
                digest.update(piece)
            name = digest.hexdigest()
        path = self.objects / name[:2] / name[2:]
        path.parent.mkdir(exist_ok=True)
        packer = zlib.compressobj(1)
        with path.open("wb") as out:
            for piece in pieces:
                out.write(packer.compress(piece))
            out.write(packer.flush())
        return name.encode()

    def pack(self, entries) -> None:
        """A pack of ``entries`` (object name, the entry's bytes: header and zlib data), with its index."""
        body = b"PACK" + struct.pack(">LL", 2, len(entries))
        index = []
        for name, raw in entries:
            index.append((bytes.fromhex(name.decode()), len(body), zlib.crc32(raw)))
            body += raw
        checksum = hashlib.sha1(body).digest()
        stem = self.objects / "pack" / f"pack-{hashlib.sha1(body).hexdigest()}"
        stem.with_suffix(".pack").write_bytes(body + checksum)
        with open(stem.with_suffix(".idx"), "wb") as f:
            write_pack_index_v2(f, sorted(index), checksum)


def entry_header(kind: int, size: int) -> bytes:
    byte, size, out = (kind << 4) | (size & 15), size >> 4, bytearray()
    while size:
        out.append(byte | 0x80)
        byte, size = size & 0x7F, size >> 7
    out.append(byte)
    return bytes(out)


def delta(source: int, target: int, inserts: bytes = b"") -> bytes:
    def varint(n):
        out = bytearray()
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not n:
                return bytes(out)
    return varint(source) + varint(target) + (bytes([len(inserts)]) + inserts if inserts else b"")


@pytest.fixture
def maker(tmp_path, starter) -> Maker:
    return Maker(tmp_path / "repo", starter)


def record(maker: Maker, value: str = "v1"):
    return changes.record_at(value, load_game(maker.top / "game"), BuildOptions())


def refused(maker: Maker, message: str, value: str = "v1") -> str:
    with pytest.raises(UserError) as info:
        record(maker, value)
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"--changed-since {value}: "), text
    assert message in text, text
    return text


# ----------------------------------------------------------------------------------------- limits

def test_one_64_mib_file_named_4096_times_is_refused_at_the_total(maker, temp, bounded_memory):
    """The audit's case: a few hundred KB of objects made pnp write 2.1 GiB in 20 s (256 GiB if left)."""
    big = maker.blob(bytes(64 * 2**20))
    maker.commit(maker.game_tree([(f"art{i:04}.png", FILE, big) for i in range(4096)]))
    assert sum(p.stat().st_size for p in maker.objects.rglob("*") if p.is_file()) < 1_000_000
    refused(maker, "holds more than 2,048 MB of files in the game folder at ")


def test_a_file_that_declares_1_5_gib_is_refused_before_it_is_inflated(maker, temp, bounded_memory):
    huge = maker.loose(b"blob", b"\0" * 1000, declared=3 * 2**29)
    maker.commit(maker.game_tree([("big.png", FILE, huge)]))
    refused(maker, "holds big.png of 1,536 MB at ")
    refused(maker, "more than pnp reads from a repository (files of at most 256 MB)")


def test_a_zlib_bomb_stops_at_its_declared_size(maker, temp, bounded_memory):
    bomb = maker.loose(b"blob", bytes(300 * 2**20), declared=10, name="ab" * 20)
    maker.commit(maker.game_tree([("small.png", FILE, bomb)]))
    refused(maker, "object ababab")
    refused(maker, "is damaged (its size is not the one it declares)")


def test_folders_thousands_deep_are_refused_not_a_recursion_error(maker, temp):
    inner = maker.tree([("x.txt", FILE, maker.blob(b"x"))])
    for i in range(5000):
        inner = maker.tree([("d", FOLDER, inner)])
    maker.commit(maker.game_tree([("deep", FOLDER, inner)]))
    refused(maker, "has folders more than 64 deep in the game folder at ")


def test_a_folder_listing_more_files_than_any_game_is_refused(maker, temp):
    empty = maker.blob(b"")
    wide = maker.tree([(f"f{i}", FILE, empty) for i in range(100_001)])
    maker.commit(maker.game_tree([("wide", FOLDER, wide)]))
    refused(maker, "holds more than 100,000 files and folders in the game folder at ")


def test_reading_stops_at_its_time_limit(maker, temp, monkeypatch):
    maker.commit(maker.game_tree())
    monkeypatch.setattr(gitstore, "MAX_SECONDS", 0.0)
    refused(maker, "took longer than 0 s to read")


def test_packed_deltas_that_loop_or_lie_are_refused(maker, temp, bounded_memory):
    """A pack (written by hand: git would not) whose deltas refer to each other, one whose entry declares
    3 GiB, and one whose 10 declared bytes inflate to 300 MiB."""
    a, b, c, d = (hashlib.sha1(n).hexdigest().encode() for n in (b"a", b"b", b"c", b"d"))
    maker.pack([
        (a, entry_header(7, 4) + bytes.fromhex(b.decode()) + zlib.compress(delta(0, 0))),
        (b, entry_header(7, 4) + bytes.fromhex(a.decode()) + zlib.compress(delta(0, 0))),
        (c, entry_header(3, 3 * 2**30) + zlib.compress(b"x")),
        (d, entry_header(3, 10) + zlib.compress(bytes(300 * 2**20), 9)),
    ])
    for name, message in ((a, f"object {a[:7].decode()} is made of more than 4,096 deltas (or of deltas that "
                              f"refer to each other)"),
                          (c, "holds art.png of 3,072 MB at "),
                          (d, f"object {d[:7].decode()} is damaged (its size is not the one it declares)")):
        maker.commit(maker.game_tree([("art.png", FILE, name)]))
        refused(maker, message)


# ----------------------------------------------------------------------------------------- damage

def test_a_missing_object_is_named(maker, temp):
    maker.commit(maker.game_tree([("gone.png", FILE, b"1" * 40), ("gone", FOLDER, b"2" * 40)]))
    text = refused(maker, "is damaged: at ")
    assert "the content of gone.png (object 1111111) is missing" in text or \
           "the listing of gone (object 2222222) is missing" in text
    maker.repo.refs[b"refs/tags/v2"] = b"3" * 40
    refused(maker, "is damaged: object 3333333, which v2 leads to, is missing", "v2")


def test_objects_of_the_wrong_type_are_refused(maker, temp):
    text = maker.blob(b"text")
    maker.commit(maker.game_tree([("folder", FOLDER, text)]))
    refused(maker, "folder is listed as a folder but is not a folder's listing")
    maker.commit(maker.game_tree([("file.png", FILE, maker.tree([("x", FILE, text)]))]))
    refused(maker, "file.png is listed as a file but is a tree")
    tag = Tag()
    tag.object = (Blob, text)
    tag.name, tag.tagger, tag.tag_time, tag.tag_timezone, tag.message = b"v3", b"t <t@e>", 0, 0, b"m"
    maker.add(tag)
    maker.repo.refs[b"refs/tags/v3"] = tag.id
    refused(maker, "is damaged: v3 leads to a blob, not a commit", "v3")


def test_a_malformed_listing_is_refused(maker, temp):
    listing = maker.loose(b"tree", b"100644 no-name-end-or-object")
    maker.commit(maker.game_tree([("bad", FOLDER, listing)]))
    refused(maker, "cannot be read, it is damaged (ObjectFormatException")


def test_an_object_whose_content_is_not_its_name_is_refused(maker, temp):
    maker.loose(b"blob", b"forged", name="cd" * 20)
    maker.commit(maker.game_tree([("art.png", FILE, b"cd" * 20)]))
    refused(maker, "object cdcdcdc is damaged (its content does not match its name)")


def test_a_loop_of_symbolic_references_is_refused(maker, temp):
    maker.commit(maker.game_tree())
    (maker.top / ".git" / "refs" / "heads" / "a").write_text("ref: refs/heads/b\n")
    (maker.top / ".git" / "refs" / "heads" / "b").write_text("ref: refs/heads/a\n")
    (maker.top / ".git" / "HEAD").write_text("ref: refs/heads/a\n")
    text = refused(maker, "cannot be read, it is damaged (SymrefLoop", "HEAD")
    assert len(text) < 400


def _git(folder, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false",
                    *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture
def packed(tmp_path, starter) -> Path:
    """A repository made by git: the starter game, tag v1, three more commits, packed with deltas."""
    top = tmp_path / "packed"
    shutil.copytree(starter, top / "game")
    _git(top, "init", "-q")
    _git(top, "add", "-A")
    _git(top, "commit", "-qm", "first")
    _git(top, "tag", "v1")
    for i in range(3):
        with open(top / "game" / "cards.csv", "a") as f:
            f.write("\n" * (i + 1))
        _git(top, "commit", "-qam", f"edit {i}")
    _git(top, "gc", "-q", "--aggressive")
    return top


def test_a_packed_repository_with_deltas_reads_as_a_loose_one(packed, tmp_path, temp):
    game = load_game(packed / "game")
    listed = subprocess.run(["git", "verify-pack", "-v", *map(str, (packed / ".git/objects/pack").glob("*.idx"))],
                            capture_output=True, text=True).stdout
    assert any(len(line.split()) >= 7 for line in listed.splitlines())      # some objects are deltas
    loose = tmp_path / "loose"
    shutil.copytree(packed, loose)
    for pack in (loose / ".git/objects/pack").glob("pack-*.pack"):         # every object as a loose file
        moved = tmp_path / pack.name
        pack.rename(moved)
        pack.with_suffix(".idx").unlink()
        with open(moved, "rb") as stdin:
            subprocess.run(["git", "unpack-objects", "-q"], cwd=loose, stdin=stdin, check=True)
    assert not list((loose / ".git/objects/pack").glob("*.pack"))
    for value in ("v1", "HEAD~1", "HEAD"):
        assert changes.record_at(value, game, BuildOptions())["components"] == \
            changes.record_at(value, load_game(loose / "game"), BuildOptions())["components"]


def test_a_damaged_pack_is_refused(packed, temp):
    game = load_game(packed / "game")
    pack = next((packed / ".git/objects/pack").glob("*.pack"))
    pack.chmod(0o644)
    good = pack.read_bytes()
    listed = subprocess.run(["git", "verify-pack", "-v", str(pack.with_suffix(".idx"))], capture_output=True,
                            text=True).stdout.splitlines()
    # each object's entry: name, type, size, size in the pack, offset (git verify-pack -v)
    entries = [(int(f[3]), int(f[4])) for f in map(str.split, listed) if len(f) >= 5 and f[1] in
               ("commit", "tree", "blob", "tag")]
    spoiled = bytearray(good)
    for size, offset in entries:
        spoiled[offset + size // 2] ^= 0x55                    # a byte inside each object's packed data
    damages = {"flipped inside every object": bytes(spoiled), "cut short": good[: len(good) // 2],
               "its checksum flipped": good[:-1] + bytes([good[-1] ^ 1])}
    for name, data in damages.items():
        pack.write_bytes(data)
        with pytest.raises(UserError) as info:
            changes.record_at("v1", game, BuildOptions())
        assert str(info.value).startswith(f"--changed-since v1: the git repository at {packed} "), name
        assert "\n" not in str(info.value), name


# ----------------------------------------------------------------------------------------- whose repository

@pytest.fixture
def secret(tmp_path, starter) -> Path:
    """Another repository on the machine, with a tag v1."""
    other = Maker(tmp_path / "secret", starter)
    other.commit(other.game_tree([("secret.txt", FILE, other.blob(b"the neighbour's notes"))]))
    return tmp_path / "secret"


@pytest.fixture
def downloaded(tmp_path, starter) -> Path:
    """A game folder someone sent, not in a repository of its own (yet)."""
    folder = tmp_path / "downloads" / "game"
    shutil.copytree(starter, folder)
    return folder


@pytest.mark.parametrize("how", ["a .git file", "a .git link"])
def test_a_git_file_or_link_pointing_elsewhere_is_refused(downloaded, secret, temp, how):
    if how == "a .git file":
        (downloaded / ".git").write_text(f"gitdir: {secret / '.git'}\n")
    else:
        (downloaded / ".git").symlink_to(secret / ".git")
    result = CliRunner().invoke(main, ["build", str(downloaded), "--changed-since", "v1", "--out",
                                       str(downloaded.parent / "out")])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"error: --changed-since v1: the git repository at {downloaded} keeps its git data outside the folder it "
        f"belongs to (its .git names another folder, as a git worktree or a submodule does); pnp reads only a "
        f"repository kept inside that folder: give the folder of the earlier kit instead"]
    assert not (downloaded.parent / "out").exists()


def test_borrowed_objects_and_another_work_tree_are_refused(maker, secret, temp):
    maker.commit(maker.game_tree())
    alternates = maker.objects / "info" / "alternates"
    alternates.parent.mkdir(exist_ok=True)
    alternates.write_text(str(secret / ".git" / "objects") + "\n")
    refused(maker, "borrows objects from another repository (objects/info/alternates)")
    alternates.unlink()
    with open(maker.top / ".git" / "config", "a") as f:
        f.write(f"[core]\n\tworktree = {secret}\n")
    refused(maker, "names another folder as its work tree (core.worktree)")


def test_a_loose_object_linked_from_another_repository_is_refused(maker, secret, temp):
    theirs = next(p for p in (secret / ".git" / "objects").rglob("*") if p.is_file() and len(p.parent.name) == 2)
    name = theirs.parent.name + theirs.name
    (maker.objects / name[:2]).mkdir(exist_ok=True)
    (maker.objects / name[:2] / name[2:]).symlink_to(theirs)
    maker.commit(maker.game_tree([("notes.txt", FILE, name.encode())]))
    refused(maker, f"object {name[:7]} is a link that leads outside the repository")


@pytest.mark.parametrize("where", ["HEAD", "refs/tags/v2", "config", "packed-refs"])
def test_a_fifo_among_the_repositorys_files_is_refused_without_waiting(maker, temp, where):
    maker.commit(maker.game_tree())
    path = maker.top / ".git" / where
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    refused(maker, f"the git repository at {maker.top} .git/{where} is not a regular file (a FIFO or a device?)")


def test_an_oversized_file_of_the_repository_is_refused(maker, temp):
    maker.commit(maker.game_tree())
    with open(maker.top / ".git" / "packed-refs", "wb") as f:
        f.truncate(65 * 2**20)
    refused(maker, ".git/packed-refs holds 65 MB, more than pnp reads of a repository's own file (64 MB)")


# ----------------------------------------------------------------------------------------- what still works

def test_what_pnp_never_reads_of_the_git_folder_does_not_matter(maker, tmp_path, temp):
    """Hooks linked to a folder elsewhere (pnp runs none), git-lfs's large files, a socket of a tool."""
    maker.commit(maker.game_tree())
    (tmp_path / "shared-hooks").mkdir()
    (tmp_path / "shared-hooks" / "pre-commit").write_text("#!/bin/sh\n")
    hooks = maker.top / ".git" / "hooks"
    shutil.rmtree(hooks, ignore_errors=True)
    hooks.symlink_to(tmp_path / "shared-hooks")
    lfs = maker.top / ".git" / "lfs" / "objects" / "ab"
    lfs.mkdir(parents=True)
    with open(lfs / ("ab" * 32), "wb") as f:
        f.truncate(100 * 2**20)
    import socket
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(maker.top / ".git" / "daemon.ipc"))
        assert record(maker)["components"]


def test_a_file_named_twice_is_written_once_and_linked(maker, temp, monkeypatch):
    art = maker.blob(b"\x89PNG same bytes")
    maker.commit(maker.game_tree([("a.bin", FILE, art), ("b.bin", FILE, art)]))
    seen = {}
    real = gitref.extract

    def watched(repository, commit, inside, dest, value):
        real(repository, commit, inside, dest, value)
        seen["a"], seen["b"] = (dest / "a.bin").stat(), (dest / "b.bin").stat()
    monkeypatch.setattr(gitref, "extract", watched)
    assert record(maker)["components"]
    assert seen["a"].st_ino == seen["b"].st_ino and seen["a"].st_nlink == 2


def test_the_cli_says_one_line_for_a_hostile_repository(maker, temp):
    inner = maker.tree([("x.txt", FILE, maker.blob(b"x"))])
    for _ in range(200):
        inner = maker.tree([("d", FOLDER, inner)])
    maker.commit(maker.game_tree([("deep", FOLDER, inner)]))
    result = CliRunner().invoke(main, ["build", str(maker.top / "game"), "--changed-since", "v1", "--out",
                                       str(maker.top.parent / "out"), "--no-cache"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --changed-since v1: the git repository at {maker.top} "
                                                   f"has folders more than 64 deep in the game folder at ")
    assert not (maker.top.parent / "out").exists()


# ----------------------------------------------------------------------------------------- at random

@pytest.fixture(scope="module")
def packed_once(tmp_path_factory, starter):
    """A git-made repository with loose and packed objects (and its clean record of v1)."""
    top = tmp_path_factory.mktemp("random") / "repo"
    shutil.copytree(starter, top / "game")
    _git(top, "init", "-q")
    _git(top, "add", "-A")
    _git(top, "commit", "-qm", "first")
    _git(top, "tag", "v1")
    _git(top, "gc", "-q")
    with open(top / "game" / "cards.csv", "a") as f:
        f.write("\n")
    _git(top, "commit", "-qam", "loose")
    _git(top, "pack-refs", "--all")
    return top, changes.record_at("v1", load_game(top / "game"), BuildOptions())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_to_a_repository_is_one_line_or_the_same_record(packed_once, data):
    """Bits flipped in any file of the git folder pnp may read (packs, indexes, loose objects, refs, HEAD,
    config), or the file cut short: the record is the clean one, or one line naming the reference; never
    another error, a hang or a wrong record."""
    top, clean = packed_once
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(top, copy)
        files = sorted(p for p in (copy / ".git").rglob("*") if p.is_file() and "hooks" not in p.parts
                       and p.name not in ("index", "description") and "logs" not in p.parts)
        path = data.draw(st.sampled_from(files), label="file")
        raw = bytearray(path.read_bytes())
        path.chmod(0o644)
        if raw and data.draw(st.booleans(), label="flip"):
            for _ in range(data.draw(st.integers(1, 3), label="flips")):
                raw[data.draw(st.integers(0, len(raw) - 1), label="at")] ^= 1 << data.draw(st.integers(0, 7))
        else:
            raw = raw[: data.draw(st.integers(0, max(len(raw) - 1, 0)), label="cut")]
        path.write_bytes(bytes(raw))
        try:
            got = changes.record_at("v1", load_game(copy / "game"), BuildOptions())
        except UserError as exc:
            assert "\n" not in str(exc) and str(exc).startswith("--changed-since v1: "), str(exc)
        else:
            assert got["components"] == clean["components"]
