"""The web table: ``fogofwar serve``. Each player sits at their own browser with a
secret link to their seat; the server alone holds the truth (docs/server.md).

* :mod:`~fogofwar.server.store` — SQLite: tables, hashed link tokens, every action;
* :mod:`~fogofwar.server.hall` — tables, seats, what each link may see and do, bots at
  seats, recovery after a restart (no web here);
* :mod:`~fogofwar.server.app` — the FastAPI application: the JSON API, the websocket
  and the pages (:mod:`~fogofwar.server.pages`, ``static/``).
"""
