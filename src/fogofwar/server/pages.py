"""The web table's two pages: the lobby (rule sets, a form from each one's options, a
player per seat) and a table (one seat's view, drawn by ``static/table.js`` from the
messages of the API alone)."""

from __future__ import annotations

import html
import json

__all__ = ["error_page", "lobby_page", "table_page"]

_HEAD = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/cards.css">
</head>
"""


def lobby_page() -> str:
    """The lobby: choose a rule set, its options and who sits where; create the table."""
    return (
        _HEAD.format(title="fogofwar — new table")
        + """<body class="lobby">
<header><h1>fogofwar</h1><p>A digital umpire: it holds the truth, rolls the dice and
shows each player only what the rules let them know.</p></header>
<main>
<form id="new-table">
  <label>Rule set <select id="ruleset" name="ruleset"></select></label>
  <p id="description"></p>
  <fieldset id="options"><legend>Options</legend></fieldset>
  <fieldset id="seats"><legend>Seats</legend></fieldset>
  <p id="seats-error" class="error" role="alert" hidden></p>
  <fieldset id="clock-options"><legend>Clocks (optional)</legend>
    <label>Minutes per human seat <input id="clock" type="number" min="0" max="1440" step="any"
      placeholder="none"></label>
    <label>Seconds added each time a seat has acted <input id="clock-increment"
      type="number" min="0" max="3600" step="any" value="0"></label>
    <p class="hint">A seat out of time has its turn played by its default bot, and
    every seat is told.</p></fieldset>
  <label>Seconds a bot waits before it acts, so people can follow (0 to 10)
    <input id="bot-pause" type="number" min="0" max="10" step="any"
      placeholder="the server's"></label>
  <label>Seed (optional, for a game to reproduce: a seeded table is marked so, and any
    player can find a small seed from what they see, and with it every secret; without
    one the table gets a secret of 256 bits) <input id="seed" name="seed"
    inputmode="numeric"></label>
  <button type="submit" id="create">Create the table</button>
</form>
<section id="links" hidden>
  <h2>Your table</h2>
  <p>Send each player their own link: a link acts for its seat only. The spectator's
  link shows what everyone may see. The server shows the links this once; this tab keeps
  them until it is closed.</p>
  <ul id="link-list"></ul>
  <p class="commitment">Commitment to the table's secret: <code id="commitment"></code></p>
</section>
<p id="error" class="error" role="alert"></p>
</main>
<script src="/static/lobby.js"></script>
</body></html>
"""
    )


def table_page(ruleset: str, seat: str | None, name: str | None = None) -> str:
    """A table as one link sees it; the script fetches everything else with the link's
    token (from the page's address). ``name``: the rule set's name for people (its id
    when not given)."""
    who = "spectator" if seat is None else seat
    shown = html.escape(name or ruleset)
    # JSON inside <script> (data, not run: the pages' policy runs no inline script): a
    # "<" written as \u003c, so that no name can close the tag.
    boot = json.dumps({"ruleset": ruleset, "seat": seat}).replace("<", "\\u003c")
    return (
        _HEAD.format(title=f"{html.escape(who)} — {shown} — fogofwar")
        + f"""<body class="table" data-ruleset="{html.escape(ruleset)}">
<header>
  <h1><span id="game-name">{shown}</span> —
    <span id="who">{html.escape(who)}</span></h1>
  <p id="status" aria-live="polite"></p>
  <p id="replay-banner" role="status" hidden></p>
  <p id="connection" class="error" role="status" hidden>The connection to the server is
    lost: trying again. Nothing can be sent meanwhile.</p>
  <p id="clocks" hidden></p>
  <p class="commitment">Commitment to the table's secret: <code id="commitment"></code>
    <span id="seeded" hidden>(seeded table: whoever knows its seed knows every secret,
    and a player can find a small seed from what they see: play it where secrets do not
    matter)</span></p>
</header>
<main>
  <section id="board-area"><div id="board"></div></section>
  <aside>
    <section id="turn"><h2 id="turn-title">Your move</h2>
      <div id="path-bar" hidden><span id="path-text"></span>
        <button id="path-send" type="button">Send path</button>
        <button id="path-clear" type="button">Clear</button></div>
      <div id="prompt" hidden></div>
      <p id="narrowed" hidden><span id="narrowed-text"></span>
        <button id="narrowed-all" type="button">Show every action</button></p>
      <div id="actions"></div>
      <form id="notation-form"><input id="notation" autocomplete="off"
        placeholder="an action, as its button reads" aria-label="notation">
        <button type="submit">Send</button></form>
      <p id="refusal" class="error" role="alert"></p>
    </section>
    <section id="facts"><h2>What you know</h2><div id="summary"></div></section>
    <section id="log-area"><h2>Events</h2><ol id="log"></ol></section>
    <section id="end" hidden><h2>The end</h2><p id="outcome"></p>
      <p>The table's secret: <code id="secret"></code></p><p id="verified"></p>
      <p><a id="download" href="#">Download the record</a></p>
      <div id="replay"><h3>Replay</h3>
        <p><label>Seen by <select id="replay-seat"></select></label></p>
        <p><button id="replay-back" type="button" aria-label="one action back">&#9664;</button>
          <input id="replay-at" type="range" min="0" value="0" aria-label="actions played">
          <button id="replay-on" type="button" aria-label="one action on">&#9654;</button>
          <button id="replay-close" type="button">Back to the end</button></p>
        <p id="replay-text" aria-live="polite"></p>
        <ol id="replay-events"></ol></div></section>
  </aside>
</main>
<script type="application/json" id="boot">{boot}</script>
<script src="/static/boot.js"></script>
<script src="/static/marks.js"></script>
<script src="/static/zerodark.js"></script>
<script src="/static/board.js"></script>
<script src="/static/cards.js"></script>
<script src="/static/table.js"></script>
</body></html>
"""
    )


def error_page(title: str, message: str) -> str:
    """A page for a link that opens no table: what went wrong, in the pages' style, and
    the way back to the lobby. ``message`` is quoted escaped (it may hold the address's
    table id, which anyone can write)."""
    return (
        _HEAD.format(title=f"fogofwar — {html.escape(title.lower())}")
        + f"""<body class="lobby">
<header><h1>fogofwar</h1></header>
<main>
<h2>{html.escape(title)}</h2>
<p class="error">{html.escape(message)}</p>
<p>A table's link is handed out when the table is made, one for each seat: check that
the whole link arrived (it ends in <code>?token=</code> and a long code). A link opens
its own table only.</p>
<p><a href="/">Make a new table</a></p>
</main>
</body></html>
"""
    )
