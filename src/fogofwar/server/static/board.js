// Boards drawn as SVG from the static board (GET /api/tables/ID/board) and the seat's
// view: the grid, its terrain and what the view shows on it. Card games have no board.
"use strict";
window.FogBoard = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const SIZE = 16;
  const FILL = { open: "#fbfaf6", wall: "#5c5346", structure: "#8d8271", road: "#d9d4c7", water: "#9cc3d5", door: "#b08b57" };
  function el(name, attrs) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  function draw(host, board, message, ui) {
    if (!board) return false;
    const svg = el("svg", { viewBox: "0 0 " + board.width * SIZE + " " + board.height * SIZE, width: board.width * SIZE * 1.6, id: "board-svg" });
    const marks = (window.FogMarks && window.FogMarks[message.ruleset]) ? window.FogMarks[message.ruleset](message, ui) : { squares: {}, labels: {}, legal: new Set() };
    for (const sq of board.squares) {
      const r = el("rect", { x: sq.x * SIZE, y: sq.y * SIZE, width: SIZE, height: SIZE, class: "square", "data-square": sq.name, fill: marks.squares[sq.name] || FILL[sq.terrain] || FILL.open });
      if (marks.legal.has(sq.name)) {
        r.classList.add("legal");
        r.addEventListener("click", () => marks.click(sq.name));
      }
      if (ui.path.includes(sq.name)) r.classList.add("path");
      svg.append(r);
      const label = marks.labels[sq.name];
      if (label) { const t = el("text", { x: sq.x * SIZE + 2, y: sq.y * SIZE + 11 }); t.textContent = label; svg.append(t); }
    }
    host.replaceChildren(svg);
    return true;
  }
  function pathNotation(message, path) {
    const f = window.FogMarks && window.FogMarks.notation && window.FogMarks.notation[message.ruleset];
    return f ? f(message, path) : path.join(" ");
  }
  return { draw, pathNotation };
})();
