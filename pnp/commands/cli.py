"""The ``pnp`` command line. Wiring only: each subcommand lives in ``pnp/commands/<name>.py``, imported
when the command runs (:data:`COMMANDS`), so ``pnp --help`` or ``pnp validate`` load neither the
drawing, the studio, the simulations nor the PDF and plotting libraries they do not use.

Bad input never produces a traceback: :class:`~pnp.errors.DataError` prints every problem as
``file:line: subject: message`` and exits with status 2; :class:`~pnp.errors.UserError` prints one line.
Anything else is a bug in pnp: one line asks for a report and the exit status is 70 (EX_SOFTWARE);
``pnp --debug`` (or PNP_DEBUG=1) shows the traceback instead. Ctrl-C ends any command with one line
(``pnp build: interrupted``) and exit status 130, as a shell expects of a program stopped by SIGINT;
the command's own clean-up (worker processes stopped, temporary files removed, the output folder as
it was or whole and new: see :mod:`pnp.build.output`) has run by then.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import os
import signal
import sys
import threading
import traceback

import click

from pnp import __version__
from pnp.errors import DataError, UserError, caused_by_ctrl_c

#: Exit status of an unexpected internal error (sysexits.h EX_SOFTWARE).
EXIT_INTERNAL = 70
#: Exit status after Ctrl-C (128 + SIGINT), what shells report for a program stopped by it.
EXIT_INTERRUPTED = 130
#: The latest date a PDF can carry: 9999-12-31.
MAX_EPOCH = 253402300799

#: Commands that run until Ctrl-C and end normally with it (status 0; the others end with 130).
RUN_UNTIL_CTRL_C = {"serve"}
#: The subcommands: name -> the line ``pnp --help`` shows for it (the first paragraph of its help, which
#: tests/test_startup.py compares with the command's own). Each is ``command`` in ``pnp/commands/<name>.py``,
#: imported only when it is run or its own help is asked for.
COMMANDS = {
    "balance": "Play seeded games of GAME with bots and write a balance report: win rates by seat, side, bot "
               "and card with 95% confidence intervals and the games behind each, game length, how games end "
               "and the game's component demand.",
    "check-engine": "Hold the installed rules engine NAME to its contract: seeded random games at every player "
                    "count (determinism, legal actions, hidden information, the declared bound), events in every "
                    "language of the game, scenario files and the data's ranges.",
    "build": "Build GAME's print-and-play kit (a bundled game's name or a game folder; default: the project's "
             "default game, see pyproject.toml [tool.pnp]).",
    "export": "Export images: card faces as PNG for print services, Tabletop Simulator deck sheets.",
    "lab": "Ask GAME a balance question and get an honest answer: every variant plays the same seeded games "
           "(common random numbers), and every difference comes with its paired 95% interval.",
    "new": "Write a small starter game into FOLDER (new or empty): game.yaml with a CSV deck whose card text "
           "uses the game's own SVG icon, a card layout extending pnp's classic one, a rulebook chapter, tokens "
           "and a box (with --double-sided, every card has a side B; with --roll-and-write, a score pad to write "
           "on too).",
    "preview": "Write a PNG of one card face or of one page of a component of GAME, and print its path.",
    "replay": "Play again the game of GAME with seed SEED (a game of a balance or lab report) and print what "
              "happened, event by event.",
    "scenario": "Play the scenario in FILE (a YAML file naming its game with `game:`) and print what happens.",
    "serve": "Show GAME in a live studio in the web browser and keep it current as its files change.",
    "simulate": "Play seeded games of GAME (a bundled game or a game folder; default: the project's default "
                "game) with bots and report wins, game length and the game's own statistics.",
    "validate": "Check GAME's data (a bundled game's name or a game folder; default: the project's default "
                "game), in its own language and in every translation it ships (--lang narrows it to one).",
    "watch": "Build GAME's kit, then rebuild it whenever a file in the game's folder or in templates/ changes.",
}


class _Sigint:
    """Ctrl-C during a command: KeyboardInterrupt, as Python's own handler raises it, remembered. Python
    swallows an exception raised inside a finalizer or a weakref callback (printing "Exception ignored"),
    so a Ctrl-C that lands there would otherwise be lost and the command end with status 0 as if nothing
    happened; remembered, it still ends the command with 130 (and nothing is printed for it).

    Run as a program (:func:`run`), pnp keeps this handler from its start to its very end: it raises
    only while the command runs (``raising``); before (parsing the command line) and after (printing
    the outcome, the interpreter's own shutdown) a Ctrl-C is only remembered (``late``), and :func:`run`
    says it and ends with status 130, with the signal blocked so that none lands where Python has put
    its default handler back (a Ctrl-C in the last instants of a command killed pnp by the signal, with
    no message)."""

    def __init__(self, raising: bool = True):
        self.seen = False
        self.late = False
        self.raising = raising
        self.command: str | None = None

    def __call__(self, signum, frame):
        self.seen = True
        if self.raising:
            raise KeyboardInterrupt
        self.late = True

    @contextlib.contextmanager
    def installed(self):
        if threading.current_thread() is not threading.main_thread() \
                or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            yield
            return
        hook = sys.unraisablehook
        signal.signal(signal.SIGINT, self)
        sys.unraisablehook = _quiet(hook)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.unraisablehook = hook


def _quiet(hook):
    """``sys.unraisablehook`` without the KeyboardInterrupts Python swallows (they are remembered)."""
    def quiet(unraisable):
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)
    return quiet


#: The handler of pnp run as a program (:func:`run`), None when :func:`main` is called otherwise (tests).
_program: _Sigint | None = None


class PnpGroup(click.Group):
    """The ``pnp`` group: subcommands from :data:`COMMANDS`, each imported when it is looked up."""

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            self.add_command(importlib.import_module(f"pnp.commands.{name.replace('-', '_')}").command, name)
        return self.commands.get(name)

    def format_commands(self, ctx, formatter):
        """The list of commands, as click writes it, from :data:`COMMANDS` (no command is imported)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, (self.commands.get(name) or click.Command(name, help=COMMANDS[name])).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx):
        program = _program
        if program is not None:             # run as a program: the handler is in place from start to end
            program.raising = True
            return self._invoke(ctx, program)
        sigint = _Sigint()
        with sigint.installed():
            return self._invoke(ctx, sigint)

    def _invoke(self, ctx, sigint):
        debug = ctx.params.get("debug") or os.environ.get("PNP_DEBUG", "") not in ("", "0")
        try:
            if sigint.late:                 # Ctrl-C before the command began
                sigint.late = False
                raise KeyboardInterrupt
            check_environment()
            result = super().invoke(ctx)
            sigint.raising = False          # a Ctrl-C from here on is remembered: run() says it at the end
            sigint.command = ctx.invoked_subcommand
            if sigint.seen and ctx.invoked_subcommand not in RUN_UNTIL_CTRL_C:
                raise KeyboardInterrupt
            return result
        except BaseException as exc:
            # (no Python code runs between the raise and this line: a Ctrl-C after it is remembered)
            sigint.raising = False
            sigint.command = ctx.invoked_subcommand
            self._ended(ctx, exc, debug)

    def _ended(self, ctx, exc: BaseException, debug: bool) -> None:
        """The command ended by ``exc``: one message and the documented exit status."""
        try:
            raise exc
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit,
                GeneratorExit):
            raise
        except KeyboardInterrupt as exc:
            interrupted(ctx.invoked_subcommand, str(exc))
        except DataError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            n = len(exc.problems)
            click.echo(f"{n} problem{'s' if n != 1 else ''} found; nothing was written.", err=True)
            sys.exit(2)
        except UserError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                _internal_error(exc, debug)
            sys.stderr.close()                      # the reader went away (pnp ... | head): stop quietly
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - everything else is a bug, reported in one line
            if caused_by_ctrl_c(exc):
                interrupted(ctx.invoked_subcommand)
            if _engine_import_error(exc) or _outside_fault(exc):   # an engine's or a bot's fault, named in one line
                click.echo(f"error: {exc}", err=True)
                sys.exit(2)
            _internal_error(exc, debug)


def _engine_import_error(exc: BaseException) -> bool:
    """Whether ``exc`` is an engine plugin's failed import (:class:`rules_engine.EngineImportError`;
    rules_engine is loaded only by the commands that need it)."""
    engines = sys.modules.get("rules_engine")
    return engines is not None and isinstance(exc, engines.EngineImportError)


def _outside_fault(exc: BaseException) -> bool:
    """Whether ``exc`` is the fault of a rules engine or bot outside pnp, or a game past a limit the user
    set (:class:`rules_engine.core.faults.GameFault`, which names the engine, the seat, the seed and the
    replay; :class:`~rules_engine.core.faults.EngineFault`, an outside engine's hook that raised). A
    bundled engine's or bot's fault is a bug in pnp."""
    faults = sys.modules.get("rules_engine.core.faults")
    if faults is None or not isinstance(exc, (faults.GameFault, faults.EngineFault)):
        return False
    if isinstance(exc, faults.GameFault) and exc.kind in ("decisions", "seconds"):
        return True
    from rules_engine import bundled_engines

    return exc.engine not in bundled_engines()


def interrupted(command: str | None, note: str = "") -> None:
    """Ctrl-C: one line on stderr, exit status 130. ``note`` says what was done already (a
    KeyboardInterrupt raised after the new files were put in place carries it)."""
    name = f"pnp {command}" if command else "pnp"
    click.echo(f"{name}: interrupted{f' {note}' if note else ''}", err=True)
    sys.exit(EXIT_INTERRUPTED)


def _internal_error(exc: BaseException, debug: bool) -> None:
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    else:
        what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        click.echo(f"pnp: internal error ({what[:200]}). This is a bug in pnp: please report it with the "
                   f"command you ran; 'pnp --debug ...' shows the details.", err=True)
    sys.exit(EXIT_INTERNAL)


def check_environment() -> None:
    """Environment variables pnp reads, checked before anything uses them."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isdigit() and int(epoch) <= MAX_EPOCH):
        raise UserError(f"SOURCE_DATE_EPOCH={epoch[:30]!r}: expected a whole number of seconds since "
                        f"1970-01-01 (the date written into the PDFs), e.g. 1700000000")
    faults = sys.modules.get("rules_engine.core.faults")
    if faults is not None:          # a command that gives no limits plays with the defaults (tests run many)
        faults.configure()
    if os.environ.get("PNP_ENGINE_IMPORT_SECONDS", "").strip():
        from rules_engine import import_seconds

        try:
            import_seconds()
        except ValueError as exc:
            raise UserError(str(exc)) from None


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--debug", is_flag=True,
              help="Show the full traceback of an unexpected internal error (a bug in pnp) instead of one line.")
def main(debug):
    """Build print-and-play kits from YAML game data, check the data, and play the games.

    Game folders are untrusted input: building one you downloaded cannot run code, read files outside
    it or write outside --out (docs/security.md).
    """


def run() -> None:
    """The ``pnp`` program (its console script and ``python -m pnp``): :func:`main`, ending the process
    as any Python program ends (so that ``python -m cProfile -m pnp build`` and coverage see the whole
    command). Tests call :func:`main` too. (:func:`pnp.program.run`, the program's entry point, tunes
    the process first.)"""
    global _program
    sigint = _Sigint(raising=False)
    if threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, sigint)
        sys.unraisablehook = _quiet(sys.unraisablehook)
        _program = sigint
    code = 0
    try:
        try:
            main()
        finally:
            _flush_output()
    except SystemExit as done:
        code = done.code
    finally:
        if _program is sigint:
            code = _last_word(sigint, code)
    sys.exit(code)


def _last_word(sigint: _Sigint, code):
    """The exit status once the command ended, SIGINT blocked from now until the process ends (the
    interpreter's shutdown puts the default handler back, and a Ctrl-C then killed pnp by the signal,
    with no message): a Ctrl-C that came after the command's own end is said in one line, status 130
    (a command run until Ctrl-C, the studio, ends as it ended). What remains is the interpreter's
    shutdown, kept to a few hundredths of a second by freezing the objects the command left (``gc.freeze``:
    the shutdown's collections skip them, and the system takes the memory back; it took half a
    second); a Ctrl-C then is too late to stop anything, and the status the command ended with stands."""
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError):         # pragma: no cover - a system without signal masks
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _handlers_run()
    gc.freeze()
    if signal.SIGINT in _pending() and not sigint.seen:
        sigint.seen = sigint.late = True
    if not sigint.late or code == EXIT_INTERRUPTED or sigint.command in RUN_UNTIL_CTRL_C:
        return code
    name = f"pnp {sigint.command}" if sigint.command else "pnp"
    after = " after it finished" if sigint.command else ""
    try:
        click.echo(f"{name}: interrupted{after}", err=True)
    except (OSError, ValueError):
        pass
    return EXIT_INTERRUPTED


def _handlers_run() -> None:
    """A Python call: Python runs the handlers of signals that arrived before the mask at such points."""


def _pending() -> set:
    try:
        return signal.sigpending()
    except (AttributeError, OSError):         # pragma: no cover
        return set()


def _flush_output() -> None:
    """Flush what the command wrote. A reader that went away (``pnp ... | head``) is no error: what is
    left goes to the null device, as Python's documentation advises, so the interpreter's own flush at
    exit has nothing to complain about."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):          # no file descriptor behind it (closed on purpose)
            pass
