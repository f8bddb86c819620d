"""``pnp serve``: a live studio in the browser, showing a whole game and keeping it current. It may import every
package of pnp but the commands (the build, the exports, the lab, validation and everything below them).

The parts, each in its own module:

* :mod:`pnp.serve.images`: rendered pictures kept by content hash, and the fingerprints that name them
  (a hash of the layout a picture is drawn from, plus the bytes of every file it shows);
* :mod:`pnp.serve.previews`: what the page shows for a set of options (paper, language, bleed), made
  in the studio's preview process on one drawing thread in two steps: the data and card faces first
  (fast), then the full validation and the component pages; only pictures whose fingerprint changed
  are drawn again;
* :mod:`pnp.serve.supervisor`: the studio's side of the preview process: questions as futures, the
  pictures it was sent, and the clock that kills and restarts it when a piece of work takes too long
  or needs too much memory;
* :mod:`pnp.serve.studio`: the studio itself: the open pages, builds, engine figures;
* :mod:`pnp.serve.child` and :mod:`pnp.serve.tasks`: the processes it starts (fresh interpreters in a
  process group of their own) and what runs in them: builds, exports, the engine's figures;
* :mod:`pnp.serve.watcher`: the change watcher (watchdog, and the edit filter ``pnp watch`` shares) telling
  the studio which files changed;
* :mod:`pnp.serve.app`: the Starlette application: the page and its static files, the JSON endpoints,
  server-sent events, pictures, the game's own files and the built files, nothing else;
* ``static/``: the page's HTML, CSS and JavaScript, shipped with the package (no CDN, no build step).
"""
