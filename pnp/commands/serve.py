"""``pnp serve``: the live studio, a local web page showing the whole game and keeping it current."""

from __future__ import annotations

import click

from pnp.errors import display_path
from pnp.units import PAPERS


@click.command("serve")
@click.argument("game", required=False)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port; the address is printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. The default lets only this computer in; another address (0.0.0.0) "
                   "lets anyone who can reach this computer read the game's files and the kit.")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="letter", show_default=True,
              help="Sheet size the page opens with (the page can switch).")
@click.option("--lang", default=None, metavar="LANG",
              help="Language the page opens with (e.g. es; the page can switch). Default: the game's.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder the page's build buttons write to: the kit's PDFs, card images in OUT/cards, TTS "
                   "sheets in OUT/tts (as pnp build and pnp export write them).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default web browser.")
@click.option("--report", "reports", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A report.json of pnp balance or pnp lab whose games the replay page (/replay) offers "
                   "(repeatable).")
@click.option("--preview-limit", "preview_limit", type=click.FloatRange(1, 86400), default=60, show_default=True,
              metavar="SECONDS",
              help="Stop a piece of preview work (a card, a component's pages, the check of the files) that takes "
                   "longer than this; the page says what was stopped. Raise it for a game whose check "
                   "legitimately takes longer.")
def command(game, port, host, paper, lang, out_dir, open_browser, reports, preview_limit):
    """Show GAME in a live studio in the web browser and keep it current as its files change.

    The page shows every card of every deck, grouped by deck and faction or category with copies
    counted (a filter box finds cards by name, id or any field; a click shows a card large with its data
    and the file and line it comes from); every other component's pages; the problems, with file and
    line, at the top, in place of the pictures they break; toggles for the trim line, bleed, safe zone,
    paper and language; the engine's seeded 1,000-game summary on demand; and buttons that build the
    kit, the card images and the Tabletop Simulator sheets into --out, with download links. Its replay page
    (/replay) steps through any game of the --report files (or any seed with bots that do not search):
    the transcript, scores, hands and the board after each step.

    Editing any file of the game folder (or pnp's templates/) updates the open page within a second or
    two, drawing again only what changed. The server listens on 127.0.0.1 (this computer only), serves
    only the page, the pictures and files it built and the game's own files, works offline, and stops
    with Ctrl-C.
    """
    from pnp.loading.paths import check_language
    from pnp.serve.app import StudioServer, bind, is_loopback
    from pnp.serve.studio import Options, Studio

    check_language(lang)
    studio = Studio(game, Options(paper=paper, lang=lang), out_dir, preview_seconds=preview_limit)
    if reports:
        from pnp.serve.replay import reported_games

        reported_games(reports)                   # a file that is no report: one line, before the server starts
    sock = bind(host, port)
    server = StudioServer(studio, sock, host, reports)
    if not is_loopback(host):
        click.echo(f"warning: listening on {host}: the studio is reachable from the network; anyone who can "
                   f"reach this computer can open it, read the game's files and build (there is no password)",
                   err=True)
    studio.start()
    click.echo(f"pnp studio for {display_path(studio.root)} at {server.url} (Ctrl-C stops)")
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        studio.close()
        sock.close()
    click.echo("Stopped.")
