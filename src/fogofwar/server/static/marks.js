// What a seat's view puts on a grid board, read from the view alone: pieces (any object
// with an "id" and a "square" or "squares"), squares the seat's legal actions name
// (clickable), and per rule set the squares to shade (Specter Ops' possibility map for
// hunters, the agent's own path, Last Seen, objectives).
"use strict";
window.FogMarks = (function () {
  const SQUARE = /^[A-Z]{1,2}[0-9]{1,3}$/;
  function pieces(node, out) {
    if (Array.isArray(node)) { for (const x of node) pieces(x, out); return; }
    if (!node || typeof node !== "object") return;
    const id = node.id || node.name;
    const at = typeof node.square === "string" ? [node.square] : (Array.isArray(node.squares) ? node.squares : []);
    if (id && at.length) for (const sq of at) if (SQUARE.test(sq)) out.push([sq, String(id), node]);
    for (const v of Object.values(node)) if (v && typeof v === "object") pieces(v, out);
  }
  // The legal actions that name a square, by square: clicking one sends it (or, when
  // several actions name that square, offers them). An action whose last argument names
  // a figure (Specter Ops' "next H2", "use venom-dart H2") is clicked on that figure's
  // square, not on the board square of the same name: a family of actions (the same
  // kind and first arguments) names figures when every one of its last arguments is a
  // figure's id, as no family of square actions does.
  function targets(message, figures) {
    const by = new Map();
    const family = (a) => [a.kind, ...a.args.slice(0, -1)].join(" ");
    const named = new Map();  // family -> whether every last argument names a figure
    for (const a of message.legal) {
      const last = a.args[a.args.length - 1];
      const f = family(a), isFigure = typeof last === "string" && figures.has(last);
      named.set(f, (named.has(f) ? named.get(f) : true) && isFigure);
    }
    message.legal.forEach((a, i) => {
      const last = a.args[a.args.length - 1];
      let sq = null;
      if (named.get(family(a))) sq = figures.get(last);
      else if (typeof last === "string" && SQUARE.test(last)) sq = last;
      if (sq) { if (!by.has(sq)) by.set(sq, []); by.get(sq).push(i); }
    });
    return by;
  }
  // ``confirm(action)``: an action a click on its square only offers (its button, one
  // more click) instead of sending, for choices that cannot be taken back.
  function generic(message, ui, shade, confirm) {
    const view = message.view.view || {};
    const squares = {}, labels = {};
    for (const [sq, colour] of Object.entries(shade || {})) squares[sq] = colour;
    const found = [];
    pieces(view, found);
    const figures = new Map();
    for (const [sq, id] of found) {
      labels[sq] = labels[sq] ? labels[sq] + "," + id : id;
      if (!figures.has(id)) figures.set(id, sq);
    }
    const by = targets(message, figures);
    // The squares whose click only offers buttons (every action there confirmed, a
    // card's use): drawn apart from those a click acts on (board.js, "offer").
    const offers = new Set(confirm ? [...by].filter(([, opts]) => opts.every((i) => confirm(message.legal[i]))).map(([sq]) => sq) : []);
    return {
      squares, labels, offers, legal: new Set(by.keys()),
      click(sq) {
        const options = by.get(sq) || [];
        const only = options.length === 1 ? message.legal[options[0]] : null;
        if (only && !(confirm && confirm(only))) window.FOGOFWAR.send({ action: only });
        // Several actions name the square: only their buttons stay shown, until the
        // page's "Show every action" (table.js) or the next change.
        else if (options.length) window.FOGOFWAR.narrow(options, sq);
      },
    };
  }
  // Specter Ops' shades by what they mean: the board and its legend (soLegend) both
  // take them from here, so the legend cannot say another colour than the board's.
  const SO_SHADE = {
    possible: "#f2c4c4", possible2: "#c4d4f2", possibleBoth: "#dcc4f2",
    site: "#ffe28a", siteDone: "#b5d99c", lastSeen: "#e07a5f", lastSeen2: "#5f8fe0",
    path: "#f3c677", square: "#d1495b",
  };
  function specterOps(message, ui) {
    const v = message.view.view || {};
    const shade = {};
    // Where each agent still on the board may be (an escaped agent's map is only the
    // square it left from): the first agent's map, and the revealed traitor's second
    // agent's (SO-T5) in blue.
    const second = v.agent2 || null;
    if (!(v.agent && v.agent.escaped)) for (const sq of v.possible || []) shade[sq] = SO_SHADE.possible;
    if (second && !second.escaped) for (const sq of v.possible2 || []) shade[sq] = shade[sq] ? SO_SHADE.possibleBoth : SO_SHADE.possible2;
    for (const o of v.objectives || []) if (o.site) shade[o.site] = o.done ? SO_SHADE.siteDone : SO_SHADE.site;
    // With 4-5 players the sites are hidden from hunters; the agent knows its own.
    for (const sq of (v.secret && v.secret.objective_sites) || []) if (!shade[sq]) shade[sq] = SO_SHADE.site;
    if (v.agent && v.agent.last_seen) shade[v.agent.last_seen] = SO_SHADE.lastSeen;
    if (second && second.last_seen) shade[second.last_seen] = SO_SHADE.lastSeen2;
    const secret = v.secret;
    if (secret) { for (const sq of secret.path || []) shade[sq] = SO_SHADE.path; shade[secret.square] = SO_SHADE.square; }
    // A card is used by its button: a click on a square it may name only offers it (a
    // click meant for a step would otherwise throw a Flash Bang).
    const marks = generic(message, ui, shade, (a) => a.kind === "use");
    // A seat that steps enters its path square by square (table.js asks the server
    // which steps are legal after it); its other square actions are clicked as usual.
    const steps = (ui.pathLegal || message.legal).filter((a) => a.kind === "step");
    if (steps.length || ui.path.length) {
      const next = new Set(steps.map((a) => a.args[0]));
      const plain = ui.path.length ? new Set() : marks.legal;
      const click = marks.click;
      const last = ui.path[ui.path.length - 1];
      // A hunter aboard drives the vehicle a road square a click (SO-V1), where a step
      // onto the same square would get it out (SO-V2): aboard, a click on a square both
      // name drives, and getting out there is its "step" button. The Puppet on foot
      // drives from afar instead of walking: a square both name offers both buttons.
      const drives = new Map();
      if (!ui.path.length) for (const a of message.legal) if (a.kind === "drive") drives.set(a.args[0], a);
      const acting = v.current && (v.hunters || []).find((h) => h.id === v.current.hunter);
      marks.legal = new Set([...plain, ...next, ...(last ? [last] : [])]);
      for (const sq of [...next, ...(last ? [last] : [])]) marks.offers.delete(sq);  // a step first
      marks.click = (sq) => {
        if (sq === last) ui.setPath(ui.path.slice(0, -1));          // a step back
        else if (drives.has(sq) && acting && acting.aboard) window.FOGOFWAR.send({ action: drives.get(sq) });
        else if (drives.has(sq)) click(sq);
        else if (next.has(sq)) ui.setPath([...ui.path, sq]);
        else click(sq);
      };
    }
    const label = (sq, text) => { marks.labels[sq] = (marks.labels[sq] ? marks.labels[sq] + "," : "") + text; };
    if (v.vehicle && v.vehicle.square) label(v.vehicle.square, "V");
    if (secret) label(secret.square, "A");
    // A revealed agent's figure stands on the board for every seat (SO-A5).
    for (const [who, text] of [[v.agent, "A"], [second, "A2"]]) {
      const at = who && !who.escaped && who.revealed_at;
      if (at && !(secret && secret.square === at && text === "A")) label(at, text);
    }
    if (v.agent && v.agent.last_seen) marks.labels[v.agent.last_seen] = (marks.labels[v.agent.last_seen] || "") + "LS";
    if (second && second.last_seen) marks.labels[second.last_seen] = (marks.labels[second.last_seen] || "") + "LS2";
    marks.overlay = (svg, g) => { smoke(svg, g, v); boardMarkers(svg, g, v); sensorBearings(svg, g, v); soLegend(v); };
    return marks;
  }
  // The smoke standing now (the view's "smoke": a Smoke Grenade's squares, which block
  // sight while it lasts): a see-through grey veil over each square.
  function smoke(svg, g, v) {
    const at = new Map(g.board.squares.map((sq) => [sq.name, sq]));
    for (const name of v.smoke || []) {
      const sq = at.get(name);
      if (sq) svg.append(g.el("rect", { x: sq.x * g.size, y: sq.y * g.size, width: g.size, height: g.size, class: "smoke", "data-smoke": name }));
    }
  }
  // What the board's colours and marks mean, under the board: each sample drawn as the
  // board draws it (the same classes, the same SO_SHADE colours, board.js's terrain
  // fills), so the two cannot part. Folded (a <details>) and under the board, never
  // over it; on a phone it starts folded. Only what this seat's board may show: the
  // agent's own square and path for the agent, the second agent's once there is one.
  function soLegend(v) {
    const area = document.getElementById("board-area");
    if (!area) return;
    let box = document.getElementById("so-legend");
    if (!box) {
      box = document.createElement("details"); box.id = "so-legend"; box.className = "legend";
      box.open = !window.matchMedia("(max-width: 48rem)").matches;
      const title = document.createElement("summary"); title.textContent = "What the board shows";
      box.append(title, document.createElement("div"));
      area.append(box);
    }
    const NS = "http://www.w3.org/2000/svg";
    const items = [];
    const item = (key, text, ...shapes) => {
      const span = document.createElement("span"); span.className = "legend-item"; span.dataset.legend = key;
      const svg = document.createElementNS(NS, "svg");
      // A square of the board, a little larger than the board's own (1.6 times 16).
      svg.setAttribute("width", "22"); svg.setAttribute("height", "22"); svg.setAttribute("viewBox", "0 0 16 16");
      for (const [name, attrs, label] of shapes) {
        const e = document.createElementNS(NS, name);
        for (const [k, x] of Object.entries(attrs)) e.setAttribute(k, x);
        if (label) e.textContent = label;
        svg.append(e);
      }
      const words = document.createElement("span"); words.textContent = text;
      span.append(svg, words); items.push(span);
    };
    const terrain = (o) => window.FogBoard.fill(Object.assign({ passable: true, opaque: false, cyl: 0, road: [], terrain: "open" }, o));
    const square = (fill, cls) => ["rect", { x: 0, y: 0, width: 16, height: 16, class: "square" + (cls ? " " + cls : ""), fill }];
    const open = square(terrain({}));
    const label = (text) => ["text", { x: 1, y: 11 }, text];
    const site = ["rect", { x: 3, y: 3, width: 10, height: 10, class: "site" }];
    item("open", "open ground", open);
    item("structure", "structure: blocks moves and sight", square(terrain({ passable: false, opaque: true, terrain: "structure" })));
    item("road", "road (the vehicle drives on it)", square(terrain({ road: ["road"], terrain: "road" })));
    item("site", "objective site", square(terrain({ passable: false, opaque: true, terrain: "objective" })), site);
    item("site-open", "objective site, to do", square(SO_SHADE.site), site);
    item("site-done", "objective site, done", square(SO_SHADE.siteDone), site);
    item("escape", "escape point", open, ["rect", { x: 1, y: 1, width: 14, height: 14, class: "escape" }]);
    item("sector", "sector border", open, ["line", { x1: 8, y1: 0, x2: 8, y2: 16, class: "sector-border" }]);
    item("possible", "the agent may be here", square(SO_SHADE.possible));
    if (v.agent2) {
      item("possible2", "the second agent may be here", square(SO_SHADE.possible2));
      item("possible-both", "either agent may be here", square(SO_SHADE.possibleBoth));
    }
    item("last-seen", "Last Seen token (LS)", square(SO_SHADE.lastSeen), label("LS"));
    if (v.agent2) item("last-seen2", "the second agent's Last Seen (LS2)", square(SO_SHADE.lastSeen2), label("LS2"));
    item("agent", "the agent, revealed (A" + (v.agent2 ? ", A2" : "") + ")", open, label("A"));
    if (v.secret) {
      item("own-square", "your square (A)", square(SO_SHADE.square), label("A"));
      item("own-path", "your path this turn", square(SO_SHADE.path));
    }
    item("hunter", "a hunter (H1, H2, ...)", open, label("H1"));
    item("vehicle", "the vehicle (V)", square(terrain({ road: ["road"], terrain: "road" })), label("V"));
    item("smoke", "smoke: blocks sight", open, ["rect", { x: 0, y: 0, width: 16, height: 16, class: "smoke" }]);
    item("bearing", "motion sensor's bearing", open, ["polygon", { points: "0,16 16,0 16,9", class: "bearing" }]);
    item("step", "click: a step (or your action there)", square(terrain({}), "legal"));
    item("offer", "click: a card's target (offers its buttons)", square(terrain({}), "legal offer"));
    item("path", "the path being entered", square(terrain({}), "path"));
    box.lastElementChild.replaceChildren(...items);
  }
  // The board file's public marks: sector borders, objective sites, escape points (the
  // 5-player one only in a 5-player game).
  function boardMarkers(svg, g, v) {
    const b = g.board, z = g.size, markers = b.markers || {};
    const sector = new Map();
    for (const [k, squares] of Object.entries(markers)) if (k.startsWith("sector.")) for (const sq of squares) sector.set(sq, k);
    const byXY = new Map(b.squares.map((sq) => [sq.x + "," + sq.y, sq]));
    for (const sq of b.squares) {
      const here = sector.get(sq.name);
      const right = byXY.get(sq.x + 1 + "," + sq.y), down = byXY.get(sq.x + "," + (sq.y + 1));
      if (right && sector.get(right.name) !== here) svg.append(g.el("line", { x1: (sq.x + 1) * z, y1: sq.y * z, x2: (sq.x + 1) * z, y2: (sq.y + 1) * z, class: "sector-border" }));
      if (down && sector.get(down.name) !== here) svg.append(g.el("line", { x1: sq.x * z, y1: (sq.y + 1) * z, x2: (sq.x + 1) * z, y2: (sq.y + 1) * z, class: "sector-border" }));
      if (sq.terrain === "objective") svg.append(g.el("rect", { x: sq.x * z + 3, y: sq.y * z + 3, width: z - 6, height: z - 6, class: "site", "data-site": sq.name }));
    }
    const escapes = [...(markers.escape || []), ...(v.players === 5 ? markers["escape.five"] || [] : [])];
    for (const name of escapes) {
      const sq = b.squares.find((s) => s.name === name);
      if (sq) svg.append(g.el("rect", { x: sq.x * z + 1, y: sq.y * z + 1, width: z - 2, height: z - 2, class: "escape", "data-escape": name }));
    }
  }
  // The motion sensor's answers this round (SO-V6): a 45-degree wedge from the vehicle
  // toward each bearing, on every seat's board (the answers are public).
  const BEARING = { N: -90, NE: -45, E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: -135 };
  function sensorBearings(svg, g, v) {
    if (!v.vehicle || !v.vehicle.square) return;
    const at = g.board.squares.find((sq) => sq.name === v.vehicle.square);
    if (!at) return;
    const cx = (at.x + 0.5) * g.size, cy = (at.y + 0.5) * g.size;
    const reach = Math.hypot(g.board.width, g.board.height) * g.size;
    for (const e of v.events || []) {
      if (e.kind !== "sensor" || !(e.answer in BEARING)) continue;
      const a = BEARING[e.answer] * Math.PI / 180, h = Math.PI / 8;
      const p = (t) => (cx + reach * Math.cos(t)).toFixed(1) + "," + (cy + reach * Math.sin(t)).toFixed(1);
      const wedge = g.el("polygon", { points: cx + "," + cy + " " + p(a - h) + " " + p(a + h), class: "bearing", "data-bearing": e.answer });
      const title = g.el("title"); title.textContent = "sensor (" + e.hunter + "): " + e.answer;
      wedge.append(title);
      svg.append(wedge);
    }
  }
  // A panel of facts beside the board: the box, and row(label, text) adding a line to it
  // (text as text, never markup). Every rule set's panel is made of these.
  function factsBox(className) {
    const box = document.createElement("div"); box.className = className;
    const row = (label, text) => {
      const p = document.createElement("p"); const b = document.createElement("b");
      b.textContent = label + ": "; p.append(b, text); box.append(p);
    };
    return { box, row };
  }
  // What a Specter Ops seat knows beside the board: its own secrets (the agent: its
  // character, health, cards and sites; a hunter: its role) and the public facts.
  function specterOpsPanel(m) {
    const v = m.view.view || {};
    const { box, row } = factsBox("so-panel");
    row("Round", v.round + " of " + v.max_rounds + " — " + v.phase);
    const sec = v.secret;
    if (sec) {
      row("You", (sec.character || "the agent") + ", health " + sec.health + (sec.steps_left !== null && sec.steps_left !== undefined ? ", steps left " + sec.steps_left : ""));
      const ul = document.createElement("ul"); ul.className = "so-cards";
      for (const [card, uses] of Object.entries(sec.cards || {})) {
        const li = document.createElement("li"); li.dataset.card = card;
        li.textContent = card + " — " + uses + (uses === 1 ? " use" : " uses");
        ul.append(li);
      }
      const b = document.createElement("b"); b.textContent = "Your equipment:"; box.append(b, ul);
      if (sec.objective_sites) row("Objective sites", sec.objective_sites.join(", "));
      if (sec.traitor) row("The traitor", sec.traitor);
    }
    if (v.role) row("Your role", v.role.role + (v.role.concealed ? " (concealed)" : "") + (v.role.proves ? "; the record proves " + v.role.proves + " the traitor: accuse it" : ""));
    const a = v.agent || {};
    // An agent's health and wounds (public, SO-X*), and where it stands: its figure on
    // the board when revealed (SO-A5), its Last Seen token, or gone.
    const condition = (x) => (x.health !== null && x.health !== undefined ? ", health " + x.health : "") + (x.wounds ? ", wounds " + x.wounds : "");
    const whereabouts = (x) => (x.revealed_at ? ", seen at " + x.revealed_at : "") + (x.last_seen ? ", last seen " + x.last_seen : "") + (x.escaped ? ", escaped" : "");
    row("The agent", "objectives " + a.objectives_done + condition(a) + (a.character ? ", " + a.character : "") + whereabouts(a));
    if (v.possible_count !== undefined && !a.escaped) row("Squares the agent may be on", String(v.possible_count));
    const a2 = v.agent2;
    if (a2) {
      // SO-T5: the revealed traitor's second agent, hidden like the first.
      row("The second agent (A2)", (a2.character || "character hidden") + condition(a2) + whereabouts(a2));
      if (!a2.escaped) row("Squares the second agent may be on", String((v.possible2 || []).length));
    }
    for (const h of v.hunters || []) row(h.id + " (" + h.seat + ")", (h.character || "hunter") + " at " + h.square + (h.aboard ? ", aboard" : "") + (h.stunned ? ", stunned" : ""));
    const sensed = (v.events || []).filter((e) => e.kind === "sensor").map((e) => e.hunter + ": " + e.answer);
    if (sensed.length) row("Sensor this round", sensed.join(", "));
    if (v.traitor && v.traitor.dealt) {
      const acc = Object.entries(v.traitor.accusations || {}).map(([k, x]) => k + " → " + x).join(", ");
      row("Traitor", (v.traitor.revealed ? "revealed: " + v.traitor.revealed : "not revealed") + (acc ? "; accusations: " + acc : ""));
    }
    return box;
  }
  return { panel: { "specter-ops": specterOpsPanel }, factsBox, "specter-ops": specterOps, "zero-dark": (m, ui) => generic(m, ui, {}), generic };
})();
