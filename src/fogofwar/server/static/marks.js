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
  // several actions name that square, offers them).
  function targets(message) {
    const by = new Map();
    message.legal.forEach((a, i) => {
      const sq = [...a.args].reverse().find((x) => typeof x === "string" && SQUARE.test(x));
      if (sq) { if (!by.has(sq)) by.set(sq, []); by.get(sq).push(i); }
    });
    return by;
  }
  function generic(message, ui, shade) {
    const view = message.view.view || {};
    const squares = {}, labels = {};
    for (const [sq, colour] of Object.entries(shade || {})) squares[sq] = colour;
    const found = [];
    pieces(view, found);
    for (const [sq, id] of found) labels[sq] = labels[sq] ? labels[sq] + "," + id : id;
    const by = targets(message);
    return {
      squares, labels, legal: new Set(by.keys()),
      click(sq) {
        const options = by.get(sq) || [];
        if (options.length === 1) window.FOGOFWAR.send({ action: message.legal[options[0]] });
        else if (options.length > 1) {
          for (const b of document.querySelectorAll("#actions button")) b.hidden = !b.dataset.action.endsWith(" " + sq);
        }
      },
    };
  }
  function specterOps(message, ui) {
    const v = message.view.view || {};
    const shade = {};
    for (const sq of v.possible || []) shade[sq] = "#f2c4c4";         // where the agent may be
    for (const o of v.objectives || []) shade[o.site] = o.done ? "#b5d99c" : "#ffe28a";
    if (v.agent && v.agent.last_seen) shade[v.agent.last_seen] = "#e07a5f";
    const secret = v.secret;
    if (secret) { for (const sq of secret.path || []) shade[sq] = "#f3c677"; shade[secret.square] = "#d1495b"; }
    const marks = generic(message, ui, shade);
    // A seat that steps enters its path square by square (table.js asks the server
    // which steps are legal after it); its other square actions are clicked as usual.
    const steps = (ui.pathLegal || message.legal).filter((a) => a.kind === "step");
    if (steps.length || ui.path.length) {
      const next = new Set(steps.map((a) => a.args[0]));
      const plain = ui.path.length ? new Set() : marks.legal;
      const click = marks.click;
      const last = ui.path[ui.path.length - 1];
      marks.legal = new Set([...plain, ...next, ...(last ? [last] : [])]);
      marks.click = (sq) => {
        if (sq === last) ui.setPath(ui.path.slice(0, -1));          // a step back
        else if (next.has(sq)) ui.setPath([...ui.path, sq]);
        else click(sq);
      };
    }
    if (v.vehicle && v.vehicle.square) marks.labels[v.vehicle.square] = (marks.labels[v.vehicle.square] ? marks.labels[v.vehicle.square] + "," : "") + "V";
    if (secret) marks.labels[secret.square] = (marks.labels[secret.square] ? marks.labels[secret.square] + "," : "") + "A";
    if (v.agent && v.agent.last_seen) marks.labels[v.agent.last_seen] = (marks.labels[v.agent.last_seen] || "") + "LS";
    return marks;
  }
  return { "specter-ops": specterOps, "zero-dark": (m, ui) => generic(m, ui, {}), generic };
})();
