"""``pnp serve``: a live studio in the browser, showing a whole game and keeping it current.

The parts, each in its own module:

* :mod:`pnp.serve.images`: rendered pictures kept by content hash, and the fingerprints that name them
  (a hash of the layout a picture is drawn from, plus the bytes of every file it shows);
* :mod:`pnp.serve.studio`: what the page shows for a set of options (paper, language, bleed), computed
  on one worker thread in two steps: the data and card faces first (fast), then the full validation
  and the component pages; only pictures whose fingerprint changed are drawn again;
* :mod:`pnp.serve.watcher`: the change watcher (watchdog, through ``pnp watch``'s edit filter) telling
  the studio which files changed;
* :mod:`pnp.serve.app`: the Starlette application: the page and its static files, the JSON endpoints,
  server-sent events, pictures, the game's own files and the built files, nothing else;
* ``static/``: the page's HTML, CSS and JavaScript, shipped with the package (no CDN, no build step).
"""
