// Zero Dark's map marks: models, facings, states, pings and sight on hover.
//
// Everything drawn comes from the link's message (message.view.view: the models, the
// doors as they stand, the objectives, the active model) and the board's public facts;
// the sight shown when a square is hovered comes from GET /api/tables/ID/sight, which
// the server works out from this seat's view alone.
"use strict";
(function () {
  const FACE = { NE: [1, -1], SE: [1, 1], SW: [-1, 1], NW: [-1, -1] };
  // Sight shading: [fill, opacity] per kind of square (see the legend).
  const SHADE = {
    "zd-field": ["#2b9348", 0.45],
    "zd-field-obscured": ["#e85d04", 0.42],
    "zd-seen": ["#80b918", 0.25],
    "zd-obscured": ["#f48c06", 0.28],
  };
  const COLOUR = {
    hero: "#2f6690", ally: "#2a9d8f", foe: "#e76f51", bogey: "#b5172a", ping: "#7b4fa8",
  };
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const tableId = location.pathname.split("/").pop();
  // The hover's state, kept across redraws (each message draws a new map).
  const hover = { square: null, version: null, cache: new Map(), layer: null, info: null, timer: null, size: 16, pos: null };

  function sightUrl(sq) {
    return "/api/tables/" + encodeURIComponent(tableId) + "/sight?token=" + encodeURIComponent(token) + "&square=" + encodeURIComponent(sq);
  }

  // Whose a model is, for its colour: the seat's own characters, the other team's, the
  // Red Force (bogeys), the pings (face-down counters).
  function side(m, seat) {
    if (m.kind === "ping") return "ping";
    if (m.kind === "bogey") return "bogey";
    const mine = seat === null ? (!m.team || m.team === "team1") : (!m.team || m.team === seat);
    if (!mine) return "foe";
    return m.kind === "ally" ? "ally" : "hero";
  }

  function modelAt(models, id) { return models.find((m) => m.id === id); }

  // The squares a click stands for: each legal action's square, by action kind.
  function targets(message, models, active) {
    const by = new Map(), doors = new Map(), faces = new Map();
    const add = (sq, i) => { if (!sq) return; if (!by.has(sq)) by.set(sq, []); by.get(sq).push(i); };
    const home = active ? active.squares[0] : null;
    message.legal.forEach((a, i) => {
      const arg = a.args[0];
      switch (a.kind) {
        case "step": add(arg, i); break;
        case "activate": case "shoot": case "dotlight": case "verify": {
          const m = modelAt(models, arg); if (m) add(m.squares[0], i); break;
        }
        case "stop": case "exit": add(home, i); break;
        case "door": doors.set(a.args[0] + " " + a.args[1], i); break;
        case "face": faces.set(arg, i); break;
        default: break;
      }
    });
    return { by, doors, faces };
  }

  function send(message, i) { window.FOGOFWAR.send({ action: message.legal[i] }); }

  // Several actions on one square (shoot or dotlight; stop or exit): show only theirs.
  function offer(options) {
    const keep = new Set(options);
    document.querySelectorAll("#actions button").forEach((b, i) => { b.hidden = !keep.has(i); });
  }

  function clearSight() {
    if (hover.layer) hover.layer.replaceChildren();
    if (hover.info) hover.info.textContent = "Hover a square to see what would be seen from it.";
  }

  function showSight(answer) {
    const layer = hover.layer, pos = hover.pos, size = hover.size;
    if (!layer || !pos) return;
    layer.replaceChildren();
    const NS = "http://www.w3.org/2000/svg";
    const rect = (sq, kind) => {
      const at = pos.get(sq); if (!at) return;
      const r = document.createElementNS(NS, "rect");
      const [fill, alpha] = SHADE[kind];
      for (const [k, v] of Object.entries({ x: at[0] * size, y: at[1] * size, width: size, height: size, fill, "fill-opacity": alpha, class: "zd-sight " + kind, "data-square": sq })) r.setAttribute(k, v);
      layer.append(r);
    };
    const field = new Set(answer.field || []), fieldObscured = new Set(answer.field_obscured || []);
    const obscured = new Set(answer.obscured || []);
    for (const sq of answer.seen || []) {
      if (field.has(sq)) rect(sq, fieldObscured.has(sq) ? "zd-field-obscured" : "zd-field");
      else rect(sq, obscured.has(sq) ? "zd-obscured" : "zd-seen");
    }
    const at = pos.get(answer.from);
    if (at) {
      const r = document.createElementNS(NS, "rect");
      for (const [k, v] of Object.entries({ x: at[0] * size + 0.75, y: at[1] * size + 0.75, width: size - 1.5, height: size - 1.5, fill: "none", stroke: "#111", "stroke-width": 1.5, class: "zd-from", "data-square": answer.from })) r.setAttribute(k, v);
      layer.append(r);
    }
    if (hover.info) {
      if (answer.error) { hover.info.textContent = answer.from + ": " + answer.error; return; }
      const v = answer.viewer || {};
      let text = "From " + answer.from + (v.id ? " (" + v.id + ", facing " + v.facing + ")" : " (a Cyl " + v.cyl + " stand-in, all round)") +
        ": " + (answer.seen || []).length + " squares in line of sight, " + (answer.obscured || []).length + " of them obscured";
      if (answer.field) text += "; " + answer.field.length + " in its field of view";
      hover.info.textContent = text + ".";
    }
  }

  // Ask the server what the seat would see from sq (once per version and square).
  function look(sq) {
    hover.square = sq;
    if (hover.timer) { clearTimeout(hover.timer); hover.timer = null; }
    const key = hover.version + " " + sq;
    const known = hover.cache.get(key);
    if (known) { showSight(known); return; }
    hover.timer = setTimeout(() => {
      hover.timer = null;
      fetch(sightUrl(sq)).then((r) => (r.ok ? r.json() : null)).then((d) => {
        if (!d || !d.sight) return;
        if (hover.cache.size > 400) hover.cache.clear();
        hover.cache.set(key, d.sight);
        if (hover.square === sq && key === hover.version + " " + sq) showSight(d.sight);
      }).catch(() => {});
    }, 40);
  }

  function legend(neutral) {
    const area = document.getElementById("board-area");
    if (!area || document.getElementById("zd-legend")) return;
    const box = document.createElement("div"); box.id = "zd-legend";
    box.style.cssText = "font-size:13px;margin-top:.4rem;display:flex;flex-wrap:wrap;gap:.2rem .9rem;align-items:center";
    const NS = "http://www.w3.org/2000/svg";
    const item = (draw, text) => {
      const span = document.createElement("span");
      span.style.cssText = "display:inline-flex;align-items:center;gap:.3rem";
      const svg = document.createElementNS(NS, "svg");
      svg.setAttribute("width", "16"); svg.setAttribute("height", "16"); svg.setAttribute("viewBox", "0 0 16 16");
      draw(svg, (name, attrs) => { const e = document.createElementNS(NS, name); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); return e; });
      const label = document.createElement("span"); label.textContent = text;
      span.append(svg, label); box.append(span);
    };
    const disc = (colour, extra) => (svg, el) => el("circle", Object.assign({ cx: 8, cy: 8, r: 6, fill: colour, stroke: "#111", "stroke-width": 0.6 }, extra || {}));
    const swatch = (fill, alpha) => (svg, el) => el("rect", { x: 1, y: 1, width: 14, height: 14, fill, "fill-opacity": alpha, stroke: "#999", "stroke-width": 0.5 });
    item(disc(COLOUR.hero), neutral ? "team1's heroes" : "your heroes");
    item(disc(COLOUR.ally), "allies");
    item(disc(COLOUR.foe), neutral ? "team2's heroes" : "the other team");
    item(disc(COLOUR.bogey), "bogeys");
    item((svg, el) => el("rect", { x: 3, y: 3, width: 10, height: 10, fill: COLOUR.ping, transform: "rotate(45 8 8)" }), "pings (unknown)");
    item((svg, el) => { el("circle", { cx: 8, cy: 8, r: 5, fill: "#888" }); el("path", { d: "M8 1 L15 1 L15 8 Z", fill: "#111" }); }, "facing");
    item(disc("#999", { "fill-opacity": 0.55, "stroke-dasharray": "2 1" }), "down / prone / out of action");
    item(swatch(SHADE["zd-field"][0], SHADE["zd-field"][1]), "in its field of view");
    item(swatch(SHADE["zd-field-obscured"][0], SHADE["zd-field-obscured"][1]), "in it, obscured");
    item(swatch(SHADE["zd-seen"][0], SHADE["zd-seen"][1]), "in line of sight (all round)");
    item(swatch(SHADE["zd-obscured"][0], SHADE["zd-obscured"][1]), "obscured");
    item((svg, el) => el("line", { x1: 8, y1: 1, x2: 8, y2: 15, stroke: "#6b4423", "stroke-width": 3 }), "closed door");
    item((svg, el) => { el("line", { x1: 8, y1: 1, x2: 8, y2: 15, stroke: "#ccc", "stroke-width": 1, "stroke-dasharray": "1 1" }); el("line", { x1: 8, y1: 1, x2: 15, y2: 4, stroke: "#6b4423", "stroke-width": 1.5 }); }, "open door");
    item((svg, el) => el("line", { x1: 8, y1: 1, x2: 8, y2: 15, stroke: "#2f6690", "stroke-opacity": 0.45, "stroke-width": 6 }), "click: open / close");
    item((svg, el) => el("path", { d: "M15 1 L9 1 L15 7 Z", fill: "#ff9f1c", stroke: "#111", "stroke-width": 0.5 }), "click: face that corner");
    item(swatch("#ffe28a", 1), "objective");
    item(swatch("#b5d99c", 1), "objective worked");
    item((svg, el) => el("rect", { x: 2, y: 2, width: 12, height: 12, fill: "none", stroke: "#2d6a4f", "stroke-width": 2, "stroke-dasharray": "3 1.5" }), "exit");
    item(swatch("#9ad0ec", 1), "click to act");
    const info = document.createElement("p"); info.id = "zd-sight-info"; info.style.cssText = "margin:.3rem 0;font-size:13px;flex-basis:100%";
    box.append(info);
    area.append(box);
    hover.info = info;
    clearSight();
  }

  function marks(message, ui) {
    const view = message.view.view || {};
    const models = view.models || [];
    const seat = message.seat;
    const active = view.active ? modelAt(models, view.active) : null;
    const { by, doors, faces } = targets(message, models, active);
    if (hover.version !== message.version) { hover.version = message.version; hover.cache.clear(); }
    const squares = {}, labels = {};
    for (const [sq, done] of Object.entries(view.objectives || {})) squares[sq] = done ? "#b5d99c" : "#ffe28a";
    return {
      squares, labels, legal: new Set(by.keys()),
      click(sq) {
        const options = by.get(sq) || [];
        if (options.length === 1) send(message, options[0]);
        else if (options.length > 1) offer(options);
      },
      hover(sq) { look(sq); },
      overlay(svg, ctx) {
        const { size, el, board } = ctx;
        const pos = new Map(), name = new Map();
        for (const s of board.squares) { pos.set(s.name, [s.x, s.y]); name.set(s.x + "," + s.y, s.name); }
        hover.size = size; hover.pos = pos;
        const centre = (sq) => { const at = pos.get(sq); return at ? [at[0] * size + size / 2, at[1] * size + size / 2] : null; };
        // The sight layer lies over the squares, under the walls and the models.
        const layer = el("g", { id: "zd-sight", "pointer-events": "none" });
        const firstLine = svg.querySelector("line");
        if (firstLine) svg.insertBefore(layer, firstLine); else svg.append(layer);
        hover.layer = layer;
        // Exits (the board's markers).
        for (const sq of (board.markers && board.markers.exit) || []) {
          const at = pos.get(sq); if (!at) continue;
          svg.append(el("rect", { x: at[0] * size + 1.5, y: at[1] * size + 1.5, width: size - 3, height: size - 3, fill: "none", stroke: "#2d6a4f", "stroke-width": 1.5, "stroke-dasharray": "3 1.5", class: "zd-exit", "pointer-events": "none" }));
        }
        // Doors as the view shows them: closed (solid) or open (a leaf swung aside);
        // a door the seat may open or close now is clickable.
        const doorState = view.doors || {};
        for (const d of board.doors) {
          const [x1, y1, x2, y2] = d.segment;
          let edge;
          if (y1 === y2) edge = y1 === 0 ? name.get(x1 + ",0") + " n" : name.get(x1 + "," + (y1 - 1)) + " s";
          else edge = x1 === 0 ? name.get("0," + y1) + " w" : name.get((x1 - 1) + "," + y1) + " e";
          const open = edge in doorState ? doorState[edge] : d.open;
          const g = el("g", { class: "zd-door " + (open ? "zd-open" : "zd-closed"), "data-door": edge, "pointer-events": "none" });
          const X1 = x1 * size, Y1 = y1 * size, X2 = x2 * size, Y2 = y2 * size;
          if (open) {
            g.append(el("line", { x1: X1, y1: Y1, x2: X2, y2: Y2, stroke: "#fbfaf6", "stroke-width": 3 }));
            const lx = y1 === y2 ? X1 : X1 + size * 0.7, ly = y1 === y2 ? Y1 + size * 0.7 : Y1;
            g.append(el("line", { x1: X1, y1: Y1, x2: lx, y2: ly, stroke: "#6b4423", "stroke-width": 1.2 }));
          } else {
            g.append(el("line", { x1: X1, y1: Y1, x2: X2, y2: Y2, stroke: "#6b4423", "stroke-width": 3 }));
          }
          svg.append(g);
          if (doors.has(edge)) {
            const i = doors.get(edge);
            const hit = el("line", { x1: X1, y1: Y1, x2: X2, y2: Y2, stroke: "#2f6690", "stroke-opacity": 0.45, "stroke-width": 6, "stroke-linecap": "round", class: "zd-door-action legal", "data-door": edge, style: "cursor:pointer" });
            hit.addEventListener("click", () => send(message, i));
            svg.append(hit);
          }
        }
        // A CQB waiting: a line between the two.
        for (const [a, b] of view.cqb || []) {
          const ma = modelAt(models, a), mb = modelAt(models, b);
          const ca = ma && centre(ma.squares[0]), cb = mb && centre(mb.squares[0]);
          if (ca && cb) svg.append(el("line", { x1: ca[0], y1: ca[1], x2: cb[0], y2: cb[1], stroke: "#b5172a", "stroke-width": 1.5, "stroke-dasharray": "2 1", "pointer-events": "none", class: "zd-cqb" }));
        }
        // The models: a disc (a diamond for a ping) in its side's colour, its id, its
        // facing as a wedge toward the corner it faces, its state.
        const layerModels = el("g", { id: "zd-models", "pointer-events": "none" });
        for (const m of models) {
          const who = side(m, seat);
          const sqs = m.squares.map((s) => pos.get(s)).filter(Boolean);
          if (!sqs.length) continue;
          const big = sqs.length > 1;
          const x0 = Math.min(...sqs.map((p) => p[0])) * size, y0 = Math.min(...sqs.map((p) => p[1])) * size;
          const span = big ? 2 * size : size;
          const cx = x0 + span / 2, cy = y0 + span / 2, r = span * 0.38;
          const g = el("g", { class: "zd-model zd-" + m.kind + " zd-" + who + " zd-state-" + m.state, "data-model": m.id, "data-square": m.squares[0] });
          const standing = m.state === "active";
          const style = { fill: COLOUR[who], stroke: m.id === view.active ? "#f4d35e" : "#111", "stroke-width": m.id === view.active ? 2 : 0.6 };
          if (!standing) Object.assign(style, { "fill-opacity": 0.5, "stroke-dasharray": "2 1" });
          if (m.kind === "ping") {
            g.append(el("rect", Object.assign({ x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, transform: "rotate(45 " + cx + " " + cy + ")" }, style)));
            const q = el("text", { x: cx, y: cy + 2.2, "text-anchor": "middle", fill: "#fff", style: "font-size:6px;font-weight:700" });
            // Its tier's letter once the game is over (the view tells it then), else "?".
            q.textContent = { grunt: "g", elite: "e", boss: "b", special: "s" }[m.tier] || "?"; g.append(q);
          } else {
            if (m.state === "prone") g.append(el("ellipse", Object.assign({ cx, cy, rx: r, ry: r * 0.6 }, style)));
            else g.append(el("circle", Object.assign({ cx, cy, r }, style)));
            const [dx, dy] = FACE[m.facing] || [1, -1];
            // The wedge: its tip toward the facing corner, its base on the disc.
            const tipX = cx + dx * span * 0.47, tipY = cy + dy * span * 0.47;
            const bx = cx + dx * r * 0.55, by2 = cy + dy * r * 0.55;
            const px = -dy * r * 0.45, py = dx * r * 0.45;
            g.append(el("path", { d: "M" + tipX + " " + tipY + " L" + (bx + px) + " " + (by2 + py) + " L" + (bx - px) + " " + (by2 - py) + " Z", fill: "#111", class: "zd-facing", "data-model": m.id, "data-facing": m.facing }));
            const t = el("text", { x: cx, y: cy + 1.8, "text-anchor": "middle", fill: "#fff", style: "font-size:" + (big ? 7 : 5) + "px;font-weight:700" });
            t.textContent = m.id; g.append(t);
            if (m.state === "ooa" || m.state === "down") {
              g.append(el("path", { d: "M" + (cx - r) + " " + (cy - r) + " L" + (cx + r) + " " + (cy + r) + " M" + (cx + r) + " " + (cy - r) + " L" + (cx - r) + " " + (cy + r), stroke: "#111", "stroke-width": 0.7, class: "zd-state" }));
            }
            if (m.targeted) g.append(el("circle", { cx: x0 + span - 2.5, cy: y0 + 2.5, r: 1.8, fill: "#ff2d2d", stroke: "#fff", "stroke-width": 0.4, class: "zd-targeted" }));
            if (m.support) {
              const s = el("text", { x: x0 + 1, y: y0 + span - 1, fill: "#111", style: "font-size:4px" });
              s.textContent = "+" + m.support; g.append(s);
            }
          }
          layerModels.append(g);
          // What the view says of it, as the square's tooltip.
          const facts = [m.id, m.kind, m.tier, m.state, m.kind === "ping" ? "" : "facing " + m.facing];
          if (m.wounds) facts.push(m.wounds + " wound" + (m.wounds > 1 ? "s" : ""));
          if (m.support) facts.push(m.support + " support");
          if (m.targeted) facts.push("targeted");
          if (m.role) facts.push(m.role);
          for (const sq of m.squares) {
            const cell = svg.querySelector('rect.square[data-square="' + sq + '"]');
            if (cell) { const title = el("title", {}); title.textContent = facts.filter(Boolean).join(", "); cell.append(title); }
          }
        }
        svg.append(layerModels);
        // The active model's facing handles: click a corner to face it.
        if (active && faces.size) {
          const at = pos.get(active.squares[0]);
          if (at) {
            for (const [f, i] of faces) {
              const [dx, dy] = FACE[f];
              const cx = at[0] * size + (dx > 0 ? size : 0), cy = at[1] * size + (dy > 0 ? size : 0);
              const k = size * 0.32;
              const h = el("path", { d: "M" + cx + " " + cy + " L" + (cx - dx * k) + " " + cy + " L" + cx + " " + (cy - dy * k) + " Z", fill: "#ff9f1c", stroke: "#111", "stroke-width": 0.4, class: "zd-face-action legal", "data-facing": f, style: "cursor:pointer" });
              h.addEventListener("click", () => send(message, i));
              svg.append(h);
            }
          }
        }
        svg.addEventListener("mouseleave", () => { hover.square = null; if (hover.timer) clearTimeout(hover.timer); clearSight(); });
        // A spectator of a Versus game has no team of its own: the two teams by name.
        legend(seat === null && view.mode === "versus");
        // Still hovering after a new message: look again from the same square.
        if (hover.square) look(hover.square);
      },
    };
  }

  // What a Zero Dark seat knows beside the board, as the terminal's facts say it: the
  // turn, the mission and its objectives, the Control Deck and the seat's hand, its
  // heroes, and what else it sees. From the seat's view alone.
  function panel(m) {
    const v = m.view.view || {};
    const { box, row } = window.FogMarks.factsBox("so-panel zd-panel");
    const sides = v.sides || {};
    const mine = m.seat && sides[m.seat] ? m.seat : Object.keys(sides)[0];
    row("Turn", v.turn + " — " + v.phase + (v.active ? ", " + v.active + " acting" : "") + (v.turn_seat && v.mode !== "solo" ? ", " + v.turn_seat + "'s turn" : ""));
    const mission = (v.config || {}).mission;
    row("Mission", (mission ? mission + " on " : "") + v.map + " (" + v.mode + ")");
    const objectives = Object.entries(v.objectives || {});
    if (objectives.length) {
      const done = objectives.filter(([, d]) => d).length;
      row("Objectives", done + " of " + objectives.length + " done: " + objectives.map(([sq, d]) => sq + (d ? " done" : " open")).join(", "));
    }
    const deck = v.deck || {};
    row("Control Deck", deck.left + " left" + ((deck.discard || []).length ? ", " + deck.discard.length + " discarded" : "") + (deck.second_deck ? ", the second deck" : ""));
    if (v.hand) row("Your hand", v.hand.length ? v.hand.join(" ") : "empty");
    row("Steps", v.steps + (v.bonus ? " (+" + v.bonus + " bonus)" : "") + (v.cautious ? ", cautious" : ""));
    // A spectator of a Versus game: each team by name, none of them "yours".
    const neutral = !m.seat && v.mode === "versus";
    const task = (sd) => sd.task + (sd.buying_time ? ", buying time" : "");
    if (neutral) {
      for (const [name, sd] of Object.entries(sides)) if (sd && sd.task && sd.task !== "none") row(name + "'s task", task(sd));
    } else {
      const side = sides[mine];
      if (side && side.task && side.task !== "none") row("Priority task", task(side));
    }
    const counts = {};
    for (const x of v.models || []) {
      const own = x.kind === "hero" && (v.mode === "solo" || x.team === mine) && !neutral;
      if (own) {
        const at = x.squares.join(" ") + (x.facing ? " facing " + x.facing : "");
        row(x.id + (x.role ? " (" + x.role + ")" : ""), at + (x.state !== "active" ? ", " + x.state : "") + (x.wounds ? ", " + x.wounds + (x.wounds === 1 ? " wound" : " wounds") : "") + ((v.xp || {})[x.id] ? ", " + v.xp[x.id] + " XP" : ""));
      } else {
        const kind = neutral && x.kind === "hero" ? x.team + "'s heroes"
          : { hero: "enemy heroes", ally: "allies", bogey: "bogeys", ping: "pings" }[x.kind] || x.kind;
        counts[kind] = (counts[kind] || 0) + 1;
      }
    }
    const seen = Object.entries(counts).map(([k, n]) => n + " " + k);
    if (seen.length) row("Also on the board", seen.join(", "));
    return box;
  }

  window.FogMarks["zero-dark"] = marks;
  window.FogMarks.panel["zero-dark"] = panel;
})();
