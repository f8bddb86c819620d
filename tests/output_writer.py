"""A write of pnp.build.output in a process of its own, stepped by the test that runs it (tests/test_output.py).

``python tests/output_writer.py OUT SPEC.json`` writes the files of SPEC (``{"files": {name: text},
"record": name or null, "mode": "exchange" | "rename" | "files"}``) into OUT with
:func:`pnp.build.output.write_atomically`. Before and after every step that changes the file system (a rename,
a link, a file written, the folders exchanged, a folder removed, the journal written) it prints a line
``step N before|after WHAT`` and waits for a line on stdin, so the test can kill it (SIGKILL or SIGINT) at
exactly that point; with ``--free`` it does not wait. The last line is ``done`` (exit 0) or
``interrupted NOTE`` (exit 130).
"""

import json
import os
import shutil
import sys
from pathlib import Path

import pnp.build.output as output

COUNTER = [0]
FREE = "--free" in sys.argv


def stepped(what, function):
    def run(*args, **kwargs):
        COUNTER[0] += 1
        n = COUNTER[0]
        for when in ("before", "after"):
            print(f"step {n} {when} {what}", flush=True)
            if not FREE:
                sys.stdin.readline()
            if when == "before":
                result = function(*args, **kwargs)
        return result
    return run


def main():
    out, spec = sys.argv[1], json.loads(Path(sys.argv[2]).read_text())
    for name in ("rename", "replace", "link", "mkdir", "unlink", "rmdir", "chmod"):
        setattr(os, name, stepped(name, getattr(os, name)))
    shutil.rmtree = stepped("rmtree", shutil.rmtree)
    Path.write_bytes = stepped("write", Path.write_bytes)
    output._Journal.write = stepped("journal", output._Journal.write)
    if spec.get("mode") in ("rename", "files"):
        output.exchange = lambda a, b: False          # a system without renameat2's exchange
    if spec.get("mode") == "files":
        real_rename = os.rename

        def no_folder_rename(src, dst):               # ... nor renames of the folder (another file system)
            if Path(src) == Path(out).resolve():
                import errno
                raise OSError(errno.EXDEV, "Invalid cross-device link")
            return real_rename(src, dst)
        os.rename = no_folder_rename
    output.exchange = stepped("exchange", output.exchange)
    files = {name: text.encode() for name, text in spec["files"].items()}
    try:
        output.write_atomically(out, files, record=spec.get("record"))
    except KeyboardInterrupt as exc:
        print(f"interrupted {exc}", flush=True)
        sys.exit(130)
    print("done", flush=True)


if __name__ == "__main__":
    main()
