// Boards drawn as SVG from the static board (GET /api/tables/ID/board) and the seat's
// view: the grid, its terrain and what the view shows on it. Card games have no board.
"use strict";
window.FogBoard = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const SIZE = 16;
  // By what a square does, not its name: every board file names its own terrains.
  function fill(sq) {
    if (!sq.passable) return sq.opaque ? "#5c5346" : "#8d8271";
    if (sq.opaque) return "#a89f8c";
    if (sq.cyl > 0) return "#cfc6b0";
    if (sq.road.length || sq.terrain === "road") return "#d9d4c7";
    return "#fbfaf6";
  }
  function el(name, attrs) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  function draw(host, board, message, ui) {
    if (!board) return false;
    // A margin above and to the left for the columns' letters and the rows' numbers:
    // the log and the notation name squares (K14), and a player must find them.
    const M = 10;
    const svg = el("svg", { viewBox: -M + " " + -M + " " + (board.width * SIZE + M) + " " + (board.height * SIZE + M), width: (board.width * SIZE + M) * 1.6, id: "board-svg" });
    for (const sq of board.squares) {
      const [, col, row] = /^(.*?)(\d+)$/.exec(sq.name) || [];
      if (col === undefined) continue;
      if (sq.y === 0) {
        const t = el("text", { x: sq.x * SIZE + SIZE / 2, y: -3, class: "coord", "text-anchor": "middle" });
        t.textContent = col; svg.append(t);
      }
      if (sq.x === 0) {
        const t = el("text", { x: -2, y: sq.y * SIZE + SIZE / 2 + 2.5, class: "coord", "text-anchor": "end" });
        t.textContent = row; svg.append(t);
      }
    }
    const marker = window.FogMarks[message.ruleset] || window.FogMarks.generic;
    const marks = marker(message, ui);
    for (const sq of board.squares) {
      const r = el("rect", { x: sq.x * SIZE, y: sq.y * SIZE, width: SIZE, height: SIZE, class: "square", "data-square": sq.name, fill: marks.squares[sq.name] || fill(sq) });
      if (marks.legal.has(sq.name)) {
        r.classList.add("legal");
        if (marks.offers && marks.offers.has(sq.name)) r.classList.add("offer");
        r.addEventListener("click", () => marks.click(sq.name));
      }
      if (ui.path.includes(sq.name)) r.classList.add("path");
      if (marks.hover) r.addEventListener("mouseenter", () => marks.hover(sq.name));
      svg.append(r);
      const label = marks.labels[sq.name];
      if (label) {
        // Several pieces on one square share it: a longer label gets a smaller type,
        // and one still wider than the square is squeezed into it (the next square
        // would cover the rest: "H1,H2,H3,V" read "H1,H2,H"). The whole label is the
        // square's tooltip.
        const size = label.length > 5 ? 4 : label.length > 3 ? 5 : 7;
        const t = el("text", { x: sq.x * SIZE + 1, y: sq.y * SIZE + 11 });
        t.style.fontSize = size + "px";
        if (label.length * size * 0.6 > SIZE - 2) {
          t.setAttribute("textLength", SIZE - 2);
          t.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
        t.textContent = label; svg.append(t);
        const tip = el("title", {}); tip.textContent = label; r.append(tip);
      }
    }
    for (const [x1, y1, x2, y2] of board.walls) {
      svg.append(el("line", { x1: x1 * SIZE, y1: y1 * SIZE, x2: x2 * SIZE, y2: y2 * SIZE, stroke: "#2b2620", "stroke-width": 2 }));
    }
    for (const d of board.doors) {
      const [x1, y1, x2, y2] = d.segment;
      svg.append(el("line", { x1: x1 * SIZE, y1: y1 * SIZE, x2: x2 * SIZE, y2: y2 * SIZE, stroke: "#b08b57", "stroke-width": 3, "stroke-dasharray": "3 2" }));
    }
    // What a rule set draws over the squares (facings, pings, sight): its marks say.
    if (marks.overlay) marks.overlay(svg, { size: SIZE, el, board });
    host.replaceChildren(svg);
    return true;
  }
  // The terrain's fill too: the legends draw their samples with it.
  return { draw, fill };
})();
