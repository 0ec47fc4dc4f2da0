"""The browser app (``ether-envs serve``, ``python -m webapp``): play the games and watch
game records in a web browser.

Modules, by role:

* :mod:`webapp.sessions`: a game being played and a replay being watched (games, agents,
  the table of both); no HTTP.
* :mod:`webapp.views`: what a seat is shown (its text, the public picture) and how values
  are written for the page (seeds as strings, echoed values cut short).
* :mod:`webapp.explain`: what the page says about cards, moves and decisions, and the
  new-game form's options.
* :mod:`webapp.specs`: the agent specs the server builds: what it refuses (``python:``,
  files outside ``--allow-weights-dir``) and the search caps.
* :mod:`webapp.app`: the HTTP layer (Starlette routes, body limits, the Host and Origin
  checks) and :class:`webapp.app.Server`, which runs it on uvicorn.
* :mod:`webapp.cli`: the command-line options (``ether-envs serve``, ``python -m webapp``).
* :mod:`webapp.measure`: times the search budgets (``python -m webapp.measure``), from which
  the caps are chosen.
* ``page.html``: the one page, plain HTML and JavaScript (nothing fetched from the network).

Layers (``tests/test_layers.py``): ``webapp`` sits above ``agents`` and ``ether_envs``, which
never import it, and imports nothing from ``training`` (whose command line wires it).
"""
