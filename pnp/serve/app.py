"""The studio's web application (Starlette) and the server that runs it (uvicorn).

What it answers, and nothing else (every other path is a 404):

=============================  ==========================================================================
``/``                          the page (``static/index.html``)
``/static/<name>``             the page's CSS and JavaScript: a fixed list read from the package
``/api/game``                  JSON: title, decks, cards (id, name, deck, copies, fields, file and line),
                               problems, components' pages, engine figures, downloads
``/api/cards/<id>.png``        the current picture of a card face (``?dpi=``, and the view's options)
``/img/<hash>.png``            a picture by content hash (cached for good by the browser)
``/api/events``                server-sent events: ``changed`` (files edited), ``update`` (a new view),
                               ``engine``, ``downloads``
``/api/engine`` (POST)         play the engine's seeded 1,000-game summary
``/api/build`` (POST)          build the kit (``?what=kit``), card images (``cards``) or TTS sheets (``tts``)
``/download/<name>``           a file the studio built (looked up by name among those it built)
``/game/<path>``               a file of the game folder, as text or picture (the page's source viewer)
``/replay``                    the replay page (``static/replay.html``): a reported game step by step
``/api/replays``               JSON: the games the ``--report`` files name (label, seed as text, seats' bots, variant)
``/api/replay``                JSON: one game's steps (``?game=K`` of that list, or ``?seed=S&players=N&bots=``;
                               ``&from=N`` pages on): each step's transcript lines and the table after it
=============================  ==========================================================================

The pictures and the page's data come from the studio's preview process (:mod:`pnp.serve.supervisor`);
when the work a request waits for is stopped there (past the preview limits), the answer is 503 with
the reason.

View options come as query parameters: ``paper`` (letter, a4), ``lang`` (a language code, empty for
the game's own) and ``bleed`` (mm, 0 to 10). Paths under ``/game/`` go through
:func:`pnp.loading.paths.resolve_in`: absolute paths, ``..`` (also when percent-encoded: the server decodes
before routing) and links leading out are answered 404, as are hidden files.

Every request's Host header must name this server, on every address it listens on (no DNS
rebinding): ``localhost`` and the loopback addresses; the address given to ``--host``; with ``0.0.0.0``
or ``::``, the machine's own names and addresses only (:func:`own_names`). POST requests (the ones that
change something: a build, an engine run) must carry the session's token, ``X-Pnp-Token``, which the
page gets inside ``/`` and which a page of another site can neither read nor guess; and when they name
an ``Origin``, it must be this server's.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import mimetypes
import secrets
import socket
from importlib import resources
from ipaddress import ip_address
from pathlib import PurePosixPath

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from pnp.errors import DataError, UserError
from pnp.loading.paths import LANGUAGE, OutsidePath, resolve_in
from pnp.serve.options import CARD_DPI
from pnp.serve.studio import Options, Studio
from pnp.serve.tasks import BUILDS
from pnp.serve.worker import Stopped, Undrawable
from pnp.units import PAPERS

#: The page's own files, shipped in the package (``pnp/serve/static/``).
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
#: What the page may load: only this server's own files (no CDN, no inline script).
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
#: Game files are shown as data: no script runs in them, whatever they hold.
FILE_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"
#: Game files the page may show, by suffix, and the type they are sent as.
GAME_FILE_TYPES = {".yaml": "text/plain", ".yml": "text/plain", ".csv": "text/plain", ".txt": "text/plain",
                   ".md": "text/plain", ".j2": "text/plain", ".json": "text/plain", ".svg": "text/plain",
                   ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
GAME_FILE_LIMIT = 8 * 2**20
TOKEN_HEADER = "x-pnp-token"


def static_files() -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, media type) of every file in the package's ``static`` folder."""
    out = {}
    for entry in resources.files("pnp.serve").joinpath("static").iterdir():
        suffix = PurePosixPath(entry.name).suffix
        if entry.is_file() and suffix in STATIC_TYPES and not entry.name.startswith("."):
            out[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return out


def not_found(message: str = "not found") -> PlainTextResponse:
    return PlainTextResponse(message, status_code=404)


def bad_request(message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=400)


def view_options(request: Request, default: Options) -> Options:
    """The view options of a request's query (UserError naming the bad one)."""
    q = request.query_params
    paper = q.get("paper") or default.paper
    if paper not in PAPERS:
        raise UserError(f"paper: {paper[:20]!r} is not one of {', '.join(sorted(PAPERS))}")
    lang = q.get("lang", default.lang or "") or None
    if lang is not None and not LANGUAGE.fullmatch(lang):
        raise UserError(f"lang: {lang[:20]!r} is not a language code such as en or es")
    try:
        bleed = float(q.get("bleed", default.bleed))
    except ValueError:
        raise UserError("bleed: expected a number of millimetres") from None
    if not 0 <= bleed <= 10:
        raise UserError("bleed: give 0 to 10 mm")
    return Options(paper, lang, round(bleed, 2))


def png(image, cache: str) -> Response:
    return Response(image.png, media_type="image/png", headers={"Cache-Control": cache})


def create_app(studio: Studio, allowed_hosts=("127.0.0.1", "localhost", "[::1]"), token: str | None = None,
               reports=()) -> Starlette:
    """The studio's application; ``token``: the session's secret every POST must send (made here when
    not given); ``reports``: report.json files of ``pnp balance`` or ``pnp lab`` whose games the replay
    page offers."""
    from pnp.serve.replay import PAGE, Replays

    statics = static_files()
    replays = Replays(studio.root, reports, version=lambda: studio.version, play=studio.replay,
                      pictures=studio.piece_pictures)
    token = token or secrets.token_urlsafe(32)
    page = statics["index.html"][0].replace(
        b"<head>", b'<head>\n<meta name="pnp-token" content="' + token.encode() + b'">', 1)

    async def previewed(future):
        """The preview process's answer, or None with the reason it could not give one and the status
        that says so: 404 for a picture the data cannot give, else 503 (the work it waited for was
        stopped, or the studio is stopping)."""
        try:
            return await asyncio.wrap_future(future), None, 200
        except Undrawable as exc:
            return None, str(exc), 404
        except UserError as exc:
            return None, str(exc), 503

    async def index(request):
        return Response(page, media_type=statics["index.html"][1], headers={"Cache-Control": "no-store"})

    async def static(request):
        found = statics.get(request.path_params["name"])
        if found is None:
            return not_found()
        return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache"})

    async def game(request):
        try:
            options = view_options(request, studio.default)
        except UserError as exc:
            return bad_request(str(exc))
        data, stopped, status = await previewed(studio.game_json(options))
        if data is None:
            return JSONResponse({"error": stopped}, status_code=status, headers={"Cache-Control": "no-store"})
        return JSONResponse(data, headers={"Cache-Control": "no-store"})

    async def card_png(request):
        try:
            options = view_options(request, studio.default)
            dpi = int(request.query_params.get("dpi", CARD_DPI))
        except (UserError, ValueError) as exc:
            return bad_request(str(exc) or "dpi: expected a whole number")
        if not 20 <= dpi <= 600:
            return bad_request("dpi: give 20 to 600")
        key = request.path_params["key"]
        image, why, status = await previewed(studio.face_picture(key, options, dpi))
        if why is not None:
            return PlainTextResponse(why, status_code=status, headers={"Cache-Control": "no-store"})
        if image is None:
            return not_found(f"no card or face {key[:60]!r} in this game")
        return png(image, "no-cache")

    async def picture(request):
        image, why, status = await previewed(studio.picture(request.path_params["key"]))
        if why is not None:
            return PlainTextResponse(why, status_code=status, headers={"Cache-Control": "no-store"})
        if image is None:
            return not_found("no such picture in the current view (the files changed, or it could not be drawn: "
                             "see /api/game)")
        return png(image, "public, max-age=31536000, immutable")

    async def events(request):
        q = studio.subscribe(asyncio.get_running_loop())

        async def stream():
            try:
                yield f"event: hello\ndata: {json.dumps({'version': studio.version})}\n\n"
                quiet = 0.0
                while not studio.stopping.is_set():
                    try:
                        event = await asyncio.wait_for(q.get(), 0.25)
                    except asyncio.TimeoutError:
                        quiet += 0.25
                        if quiet >= 15:
                            quiet = 0.0
                            yield ": still here\n\n"
                        continue
                    quiet = 0.0
                    yield f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
            finally:
                studio.unsubscribe(q)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def guarded(handler):
        async def run(request):
            sent = request.headers.get(TOKEN_HEADER, "")
            if not hmac.compare_digest(sent.encode(), token.encode()):
                return JSONResponse({"error": "send the studio's token (X-Pnp-Token, from its page)"}, status_code=403)
            origin = request.headers.get("origin")
            if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
                return JSONResponse({"error": "a request from another site's page"}, status_code=403)
            return await handler(request)
        return run

    async def engine(request):
        try:
            result = await asyncio.to_thread(studio.play)
        except UserError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        return JSONResponse(result)

    async def build(request):
        what = request.query_params.get("what", "kit")
        if what not in BUILDS:
            return bad_request(f"what: one of {', '.join(BUILDS)}")
        try:
            options = view_options(request, studio.default)
            made = await asyncio.to_thread(studio.build, what, options)      # in a process it can stop
        except DataError as exc:
            return JSONResponse({"error": f"{len(exc.problems)} problem(s): fix them to build",
                                 "problems": [studio.problem_json(p) for p in exc.problems]}, status_code=409)
        except UserError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        return JSONResponse({"files": made})

    async def download(request):
        item = studio.downloads.get(request.path_params["name"])
        if item is None:
            return not_found()
        headers = {"Content-Disposition": f'attachment; filename="{item.name}"', "Cache-Control": "no-store"}
        media = mimetypes.guess_type(item.name)[0] or "application/octet-stream"
        if item.data is not None:
            return Response(item.data, media_type=media, headers=headers)
        if not item.path.is_file():
            return not_found()
        return FileResponse(item.path, media_type=media, headers=headers)

    async def game_file(request):
        path = game_path(studio.root, request.path_params["path"])
        if path is None:
            return not_found()
        media = GAME_FILE_TYPES[path.suffix.lower()]
        data = path.read_bytes()
        if media == "text/plain":
            media = "text/plain; charset=utf-8"
        return Response(data, media_type=media, headers={"Content-Security-Policy": FILE_POLICY,
                                                        "Cache-Control": "no-cache"})

    async def replay_page(request):
        return Response(statics["replay.html"][0], media_type=statics["replay.html"][1],
                        headers={"Cache-Control": "no-store"})

    async def replay_list(request):
        return JSONResponse({"games": replays.listed()}, headers={"Cache-Control": "no-store"})

    async def replay(request):
        q = request.query_params
        try:
            start = int(q.get("from", 0))
            count = int(q.get("count", PAGE))
        except ValueError:
            return bad_request("from and count: whole numbers")
        if start < 0 or not 1 <= count <= PAGE:
            return bad_request(f"from: 0 or more; count: 1 to {PAGE}")
        try:
            spec = replays.spec(q)
            data = await asyncio.to_thread(replays.steps, spec, start, count)   # played in the preview process
        except Stopped as exc:            # past the preview limits, or the studio is stopping
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"Cache-Control": "no-store"})
        except UserError as exc:
            return bad_request(str(exc))
        return JSONResponse(data, headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", index),
        Route("/replay", replay_page),
        Route("/api/replays", replay_list),
        Route("/api/replay", replay),
        Route("/static/{name}", static),
        Route("/api/game", game),
        Route("/api/cards/{key}.png", card_png),
        Route("/img/{key}.png", picture),
        Route("/api/events", events),
        Route("/api/engine", guarded(engine), methods=["POST"]),
        Route("/api/build", guarded(build), methods=["POST"]),
        Route("/download/{name}", download),
        Route("/game/{path:path}", game_file),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    app = Starlette(routes=routes, middleware=middleware)
    return SecurityHeaders(app)


def game_path(root, value: str):
    """The game file ``value`` names (a path relative to the game folder), or None when it may not be
    shown: outside the folder (absolute, ``..``, a link leading out), hidden, not a file, of a type the
    page does not show, or too large."""
    try:
        path = resolve_in(root, value)
    except OutsidePath:
        return None
    parts = PurePosixPath(value).parts
    if any(part.startswith(".") for part in parts) or path.suffix.lower() not in GAME_FILE_TYPES:
        return None
    try:
        if not path.is_file() or path.stat().st_size > GAME_FILE_LIMIT:
            return None
    except OSError:
        return None
    return path


class SecurityHeaders:
    """ASGI middleware adding the page's content policy and no-sniffing to every response."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY")]
                if b"content-security-policy" not in names:
                    extra.append((b"content-security-policy", PAGE_POLICY.encode()))
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: any free one); UserError when it cannot be."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UserError(f"--host {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        hint = " (another program uses that port: give --port another number, or 0 for any free port)" \
            if exc.errno in (98, 48) else ""
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror}{hint}") from None
    sock.listen(128)        # connections wait from now on, even before the server takes them
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


class StudioServer:
    """uvicorn running the studio's app on a bound socket; :meth:`run` returns after Ctrl-C (or
    :meth:`stop`), once open pages' event streams have been closed."""

    def __init__(self, studio: Studio, sock: socket.socket, host: str, reports=()):
        import uvicorn

        allowed = ["127.0.0.1", "localhost", "[::1]", "::1"]
        if not is_loopback(host):
            allowed = sorted(set(allowed) | own_names()) if ip_address_any(host) else \
                allowed + [host, sock.getsockname()[0]]
        self.allowed_hosts = allowed
        self.token = secrets.token_urlsafe(32)          # this session's: the page gets it, other sites cannot
        self.studio = studio
        self.sock = sock
        config = uvicorn.Config(create_app(studio, allowed, self.token, reports), log_level="warning", access_log=False,
                                lifespan="off", timeout_graceful_shutdown=3)
        studio_ref = studio

        class Server(uvicorn.Server):
            def handle_exit(self, sig, frame):
                studio_ref.interrupt()         # event streams end, and what waits for the previews is answered,
                super().handle_exit(sig, frame)  # so the shutdown need not wait

        self.server = Server(config)

    @property
    def url(self) -> str:
        return url_of(self.sock)

    def run(self) -> None:
        self.server.run(sockets=[self.sock])

    def stop(self) -> None:
        self.studio.interrupt()
        self.server.should_exit = True

    @property
    def started(self) -> bool:
        return self.server.started


def ip_address_any(host: str) -> bool:
    try:
        return ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def own_names() -> set:
    """The names and addresses of this machine, as a Host header may give them when the studio listens
    on every address (``0.0.0.0`` or ``::``): its host names, and every address they and the network
    interfaces have (psutil when installed; else those the host names resolve to)."""
    names = {"localhost", "127.0.0.1", "::1", "[::1]"}
    for name in {socket.gethostname(), socket.getfqdn()}:
        if not name:
            continue
        names.add(name.lower())
        try:
            for info in socket.getaddrinfo(name, None):
                names.add(info[4][0])
        except OSError:
            pass
    try:
        import psutil

        for addresses in psutil.net_if_addrs().values():
            for address in addresses:
                if address.family in (socket.AF_INET, socket.AF_INET6):
                    names.add(address.address.split("%")[0])
    except ImportError:
        pass
    return names | {f"[{n}]" for n in names if ":" in n and not n.startswith("[")}
