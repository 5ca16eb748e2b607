// A table as one link sees it: every message comes from the API (the websocket pushes
// the link's view after each change); nothing here knows more than the link may.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const boot = window.FOGOFWAR;
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const tableId = location.pathname.split("/").pop();
  const api = (path) => "/api/tables/" + tableId + path + "?token=" + encodeURIComponent(token);
  // The path being entered on the board (squares) and the steps legal after it, as the
  // server's preview answers them (null: no path yet, the message's own legal list).
  let message = null, socket = null, board = null, path = [], pathLegal = null, pathVersion = -1;

  // The version the last action sent answers, until a new view or a refusal comes: a
  // second click meanwhile (a double click) would be refused as stale and read as a
  // failure, so it is not sent.
  // The second click of a double click may also come after the new view, on one of its
  // buttons: the browser counts it (detail 2), so no action is sent from it either.
  // (The guard lapses after 3 s: an action that changed nothing this link shows brings
  // no new view, and must not leave the page unable to send.)
  let sentAt = -1, sentWhen = 0, clickCount = 0;
  document.addEventListener("click", (ev) => { clickCount = ev.detail; setTimeout(() => { clickCount = 0; }, 0); }, true);
  function send(body) {
    if (clickCount > 1) return;
    if (message && sentAt === message.version && Date.now() - sentWhen < 3000) return;
    $("refusal").textContent = "";
    body.version = message ? message.version : undefined;
    sentAt = message ? message.version : -1;
    sentWhen = Date.now();
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(body));
    else fetch(api("/actions"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      .then(async (r) => { const d = await r.json(); if (!r.ok) refused(d); else show(d); })
      .catch(unreachable);
  }
  // A request that got no answer: the action (or question) was not taken, and saying
  // so beats a click that does nothing.
  let lostSaid = false;  // the refusal shown is the lost connection's
  function unreachable() {
    refused({ message: "not sent: the server cannot be reached (the page keeps trying to reconnect)" });
    lostSaid = true;
  }
  function refused(d) {
    sentAt = -1;
    lostSaid = false;
    $("refusal").textContent = "Refused: " + d.message + (d.rule ? " [" + d.rule + "]" : "");
  }
  window.FOGOFWAR.send = send;
  // A click on a square that several actions name shows only their buttons (the #actions
  // buttons are the legal actions, in order), with a bar that says so and brings the
  // rest back: a hidden "stop" or card with no way back but a reload stranded players.
  function narrow(options, square) {
    const keep = new Set(options);
    document.querySelectorAll("#actions button").forEach((b, i) => { b.hidden = !keep.has(i); });
    $("narrowed-text").textContent = "The actions on " + square + " (" + options.length + " of " + message.legal.length + ")";
    $("narrowed").hidden = false;
  }
  // Every button back (a step's only while no path is being entered: those go by the
  // board and "Send path").
  function unnarrow() {
    $("narrowed").hidden = true;
    for (const b of document.querySelectorAll("#actions button")) b.hidden = path.length > 0 && b.dataset.action.startsWith("step ");
  }
  window.FOGOFWAR.narrow = narrow;
  $("narrowed-all").addEventListener("click", unnarrow);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !$("narrowed").hidden) unnarrow(); });

  // An event as a line of the log: the rule set's sentence for people (the terminal's
  // log), its fields when the message has none, nothing when the rule set leaves it out
  // of a person's log (a null sentence). The event's own fields show on hover.
  function eventLine(e, sentence) {
    const { kind, ...rest } = e;
    const li = document.createElement("li");
    if (kind === "out_of_time") {
      li.classList.add("notice");
      li.textContent = rest.seat + " is out of time: its default bot (" + rest.bot + ") plays its turn";
      return li;
    }
    if (sentence === null) return null;
    const fields = kind + " " + Object.entries(rest).map(([k, v]) => k + "=" + JSON.stringify(v)).join(" ");
    li.textContent = sentence === undefined ? fields : sentence;
    li.title = fields;
    li.dataset.kind = kind;
    return li;
  }

  function status(m) {
    if (m.over) return "The game is over.";
    const me = m.seat && m.to_act.includes(m.seat);
    // "Your turn. Waiting for: vpa" told vpa it waited for itself: name only the others.
    const others = m.to_act.filter((s) => s !== m.seat);
    if (me) return "Your turn." + (others.length ? " Also to act: " + others.join(", ") : "");
    return "Waiting for: " + m.to_act.join(", ");
  }
  // The clocks: each message gives every timed seat's time left; the page counts the
  // running ones down between messages.
  let clocksAt = 0;
  function clockText(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function drawClocks() {
    const host = $("clocks");
    if (!message || !message.clocks) { host.hidden = true; return; }
    host.hidden = false;
    const spent = (performance.now() - clocksAt) / 1000;
    host.replaceChildren(...Object.entries(message.clocks).map(([seat, c]) => {
      const span = document.createElement("span");
      span.className = "clock" + (c.running ? " running" : "") + (seat === message.seat ? " mine" : "");
      span.dataset.seat = seat;
      span.textContent = seat + " " + clockText(c.running && !message.over ? c.left - spent : c.left);
      return span;
    }));
  }
  setInterval(drawClocks, 250);

  function show(m) {
    if (replaying) { message = m; return; }  // the replay keeps the board until closed
    // A refusal answers what the link showed when it was sent: once that changes (the
    // other side moved, the connection came back), it no longer applies.
    if (message && m.version !== message.version) $("refusal").textContent = "";
    message = m;
    clocksAt = performance.now();
    drawClocks();
    if (m.version !== pathVersion) { path = []; pathLegal = null; pathVersion = m.version; }
    $("narrowed").hidden = true;
    $("path-bar").hidden = path.length === 0;
    $("status").textContent = status(m);
    // What the link shows, as a version (it changes with it): for scripts and tests.
    $("status").dataset.version = String(m.version);
    $("commitment").textContent = m.commitment;
    $("seeded").hidden = !m.seeded;
    const actions = $("actions"); actions.replaceChildren();
    m.notation.forEach((text, i) => {
      const b = document.createElement("button"); b.type = "button"; b.textContent = text;
      b.dataset.action = text;
      b.addEventListener("click", () => send({ action: m.legal[i] }));
      actions.append(b);
    });
    // What the seat is asked, in words (a card game's rule set says: cards.js).
    const said = window.FogCards && window.FogCards.prompt ? window.FogCards.prompt(m) : null;
    $("prompt").replaceChildren(...(said ? [said] : []));
    $("prompt").hidden = !said;
    $("turn").hidden = !m.seat || m.over;
    $("turn-title").textContent = m.seat && m.to_act.includes(m.seat) ? "Your move" : "Not your turn";
    m.events.forEach((e, i) => { const li = eventLine(e, m.sentences && m.sentences[i]); if (li) $("log").append(li); });
    $("log").scrollTop = $("log").scrollHeight;
    // A grid game is drawn on its board; a card game as a card table (static/cards.js).
    const drawn = (window.FogBoard && board ? window.FogBoard.draw($("board"), board, m, ui()) : false)
      || (window.FogCards ? window.FogCards.draw($("board"), m) : false);
    summarize(m);
    if (!drawn) { $("board-area").hidden = true; document.querySelector("main").classList.add("no-board"); }
    if (m.over) {
      $("end").hidden = false;
      const o = m.outcome;
      $("outcome").textContent = (o.sides.length ? o.sides.join(", ") + " won" : "nobody won") + ": " + o.reason + (o.rule ? " [" + o.rule + "]" : "");
      $("secret").textContent = m.secret;
      $("verified").textContent = m.verified.verified ? "Verified: " + m.verified.checks.join(" ") : "NOT verified: " + m.verified.problem;
      $("download").href = api("/record");
      setUpReplay(m);
    }
  }
  // "What you know": the server's drawing of the view (the terminal's, as HTML), the
  // rule set's panel or the view's facts, and the view itself — of the live view, or of
  // the replayed one (which must not sit beside the end's).
  function summarize(m) {
    const summary = $("summary");
    const panel = window.FogMarks && window.FogMarks.panel && window.FogMarks.panel[m.ruleset];
    if (m.drawing) summary.innerHTML = m.drawing;
    else if (panel) summary.replaceChildren(panel(m));
    else summary.replaceChildren(facts(m.view.view || {}));
    const raw = document.createElement("details");
    const label = document.createElement("summary"); label.textContent = "the view as JSON";
    const pre = document.createElement("pre"); pre.textContent = JSON.stringify(m.view.view, null, 1);
    raw.append(label, pre);
    summary.append(raw);
  }
  // After the end: the whole game again, action by action, as any seat saw it (every
  // secret is public by then). The board or card table shows the replayed view.
  let replaying = false;
  function setUpReplay(m) {
    const seatBox = $("replay-seat");
    if (!seatBox.options.length) {
      for (const s of [...Object.keys(m.players), "spectator"]) {
        const o = document.createElement("option"); o.value = o.textContent = s; seatBox.append(o);
      }
      seatBox.value = m.seat || "spectator";
    }
    $("replay-at").max = m.actions;
    if (!replaying) $("replay-at").value = m.actions;
  }
  function replayAt(at) {
    const seat = $("replay-seat").value;
    const url = api("/replay") + "&at=" + at + "&seat=" + encodeURIComponent(seat);
    fetch(url).then((r) => r.json()).catch(() => ({ error: "unreachable", message: "the server cannot be reached" })).then((d) => {
      if (d.error) { refused(d); return; }
      replaying = true;
      $("replay-at").value = d.version;
      // The page's header says whose view the board shows now, and where in the game:
      // the seat the server answered for (the spectator's is the public view).
      const whose = d.seat === null ? "the spectator's view (what every seat may see)"
        : d.seat + "'s view" + (message && d.seat === message.seat ? " (yours)" : "");
      $("replay-banner").textContent = "Replay: " + whose + ", " + (d.version === 0 ? "at the start, before action 1 of " + d.of
        : "after action " + d.version + " of " + d.of + (d.action ? " (" + d.action + ")" : ""));
      $("replay-banner").hidden = false;
      $("replay-text").textContent = "After " + d.version + " of " + d.of + " actions" + (d.action ? " (last: " + d.action + ")" : "") + (d.to_act.length ? "; to act: " + d.to_act.join(", ") : "");
      $("replay-events").replaceChildren(...d.events.map((e, i) => eventLine(e, d.sentences && d.sentences[i])).filter((li) => li));
      void ((window.FogBoard && board ? window.FogBoard.draw($("board"), board, d, { path: [], setPath: () => {}, pathLegal: null }) : false)
        || (window.FogCards ? window.FogCards.draw($("board"), { ...d, replay: true }) : false));
      summarize(d);
    });
  }
  $("replay-at").addEventListener("input", () => replayAt(Number($("replay-at").value)));
  $("replay-back").addEventListener("click", () => replayAt(Math.max(0, Number($("replay-at").value) - 1)));
  $("replay-on").addEventListener("click", () => replayAt(Number($("replay-at").value) + 1));
  $("replay-seat").addEventListener("change", () => replayAt(Number($("replay-at").value)));
  $("replay-close").addEventListener("click", () => { replaying = false; $("replay-banner").hidden = true; $("replay-text").textContent = ""; $("replay-events").replaceChildren(); if (message) show({ ...message, events: [] }); });
  // A board game's page: the view's plain facts (round, phase, health, ...) as a list;
  // the board shows the rest.
  function facts(view) {
    const dl = document.createElement("dl");
    const add = (k, v) => {
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.textContent = v;
      dl.append(dt, dd);
    };
    for (const [k, v] of Object.entries(view)) {
      if (v === null || k === "events") continue;
      if (typeof v !== "object") add(k, String(v));
      else if (!Array.isArray(v) && Object.values(v).every((x) => x === null || typeof x !== "object"))
        add(k, Object.entries(v).map(([a, b]) => a + ": " + b).join(", "));
    }
    return dl;
  }
  function ui() { return { path, setPath, pathLegal }; }
  function redraw() {
    $("path-bar").hidden = path.length === 0;
    $("path-text").textContent = path.join(" ");
    // While a path is entered, its steps go by the board and "Send path", not one by one;
    // a path begun or changed shows every other button again.
    unnarrow();
    if (message) window.FogBoard.draw($("board"), board, message, ui());
  }
  // A click adds a step to the path: the server tries the path (nothing is sent) and
  // answers the steps legal after it, which the board then highlights; "Send path"
  // sends the whole path at once, checked as a whole (all or nothing).
  function setPath(p) {
    $("refusal").textContent = "";
    if (!p.length) { path = []; pathLegal = null; redraw(); return; }
    const version = message.version;
    const actions = p.map((sq) => ({ seat: message.seat, kind: "step", args: [sq] }));
    fetch(api("/preview"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ actions, version }) })
      .then(async (r) => {
        const d = await r.json();
        if (!message || message.version !== version) return;
        if (!r.ok) { refused(d); return; }
        path = p; pathLegal = d.legal; redraw();
      })
      .catch(unreachable);
  }
  $("path-clear").addEventListener("click", () => setPath([]));
  $("path-send").addEventListener("click", () => {
    if (path.length) { send({ notation: "move " + path.join(" ") }); path = []; pathLegal = null; redraw(); }
  });
  $("notation-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("notation").value.trim();
    if (text) { send({ notation: text }); $("notation").value = ""; }
  });

  function connect(since) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(proto + "//" + location.host + "/ws/tables/" + tableId + "?token=" + encodeURIComponent(token) + "&since=" + since);
    socket.onopen = () => {
      $("connection").hidden = true;
      if (lostSaid) { $("refusal").textContent = ""; lostSaid = false; }  // it is back
    };
    socket.onmessage = (ev) => {
      const d = JSON.parse(ev.data);
      if (d.type === "state") show(d); else if (d.type === "error") refused(d);
    };
    socket.onclose = (ev) => {
      sentAt = -1;  // an action lost with the connection may be sent again
      // A link that is not this table's, or no such table: trying again changes nothing.
      if (ev.code === 4403 || ev.code === 4404) { refused({ message: ev.reason || "this link cannot open the table" }); return; }
      $("connection").hidden = false;  // a lost connection must not look like a quiet table
      // Too many pages of this link open: say so, and try now and then (one may close).
      if (ev.code === 4429) { refused({ message: ev.reason }); lostSaid = true; }
      setTimeout(() => connect(message ? message.next : 0), ev.code === 4429 ? 5000 : 1000);
    };
  }
  fetch(api("/board")).then((r) => r.json()).then((b) => { board = b.board; connect(0); })
    .catch(() => { $("connection").hidden = false; setTimeout(() => location.reload(), 3000); });
})();
