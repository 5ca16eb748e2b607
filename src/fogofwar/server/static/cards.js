// Card games (Rock-n-Roll, Warfighter) drawn as card tables, from the seat's view alone
// (message.view.view) and the seat's own legal actions: nothing else a message carries
// is read here, so the table shows no more than the seat may know.
//
// Every card is an element with class "card" and data-card = its id as the actions name
// it (a unit "V3", an order "VO4", a Point "A", a Soldier "S1", a Location "L2", a
// Hostile "H1", a check "K1"). A card that a legal action names is "playable": a click
// sends the action when exactly one names it; otherwise the card is selected, the
// #actions buttons are narrowed to the actions naming every selected card, and a click
// on a further card ("target") narrows on, until one action is left (then it is sent).
"use strict";
window.FogCards = (function () {
  // ---------------------------------------------------------------- small helpers
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const plural = (n, one, many) => n + " " + (n === 1 ? one : (many || one + "s"));
  const signed = (n) => (n > 0 ? "+" + n : String(n));
  const SIDE_NAME = { vietnam: "Vietnam", vpa: "VPA", locals: "Locals", squad: "Squad", hostiles: "Hostiles" };
  const sideName = (s) => SIDE_NAME[s] || String(s);

  // A card's face: a corner (its id), a badge (cost / value), a name, lines, stats.
  function card(id, o) {
    o = o || {};
    const c = el("div", "card" + (o.cls ? " " + o.cls : ""));
    if (id) c.dataset.card = id;
    const top = el("div", "card-top");
    top.append(el("span", "card-id", o.corner !== undefined ? o.corner : (id || "")));
    if (o.badge !== undefined && o.badge !== null && o.badge !== "") {
      const b = el("span", "card-badge", o.badge);
      if (o.badgeTitle) b.title = o.badgeTitle;
      top.append(b);
    }
    c.append(top);
    if (o.name) c.append(el("div", "card-name", o.name));
    for (const line of o.lines || []) if (line) c.append(el("div", "card-line", line));
    if (o.stats && o.stats.length) {
      const st = el("div", "card-stats");
      for (const [label, value, title] of o.stats) {
        const f = el("span", "stat");
        f.append(el("b", null, value), el("small", null, label));
        if (title) f.title = title;
        st.append(f);
      }
      c.append(st);
    }
    if (o.title) c.title = o.title;
    return c;
  }
  // A face-down card: only what the view says of it (an id where the actions name it).
  function back(id, text, cls) {
    const c = el("div", "card back" + (cls ? " " + cls : ""));
    if (id) c.dataset.card = id;
    if (text) c.append(el("span", "back-text", text));
    return c;
  }
  // A deck or a hidden pile: a back with its count.
  function pile(label, count, id) {
    const c = el("div", "card back pile");
    if (id) c.dataset.card = id;
    c.append(el("b", "pile-count", count), el("span", "back-text", label));
    c.title = label + ": " + plural(count, "card");
    return c;
  }
  // A labelled row of cards (data-row, data-side say which, for people and tests).
  function row(label, name, side, items, cls) {
    const r = el("section", "fc-row" + (cls ? " " + cls : ""));
    r.dataset.row = name;
    if (side) r.dataset.side = side;
    r.append(el("h4", "fc-label", label));
    const body = el("div", "fc-cards");
    if (items.length) body.append(...items);
    else body.append(el("span", "fc-empty", "none"));
    r.append(body);
    return r;
  }
  function chip(text, cls, title) {
    const c = el("span", "fc-chip" + (cls ? " " + cls : ""), text);
    if (title) c.title = title;
    return c;
  }
  function facts(pairs) {
    const p = el("div", "fc-facts");
    for (const x of pairs) if (x) p.append(typeof x === "string" ? chip(x) : x);
    return p;
  }

  // ---------------------------------------------------------------- Rock-n-Roll
  function rnrUnit(u, extra) {
    const owner = u.owner || "locals";
    const feats = [];
    if (u.kind === "blocking") feats.push("blocking");
    if (u.feature) feats.push(u.feature);
    let cls = "unit side-" + owner;
    if (u.dead) cls += " dead";
    if (u.hits) cls += " hurt";
    if (extra) cls += " " + extra;
    const lines = [feats.join(" · ")];
    if (u.side && u.owner && u.side !== u.owner) lines.push("recruited (" + sideName(u.side) + ")");
    if (u.dead) lines.push("dead");
    const stats = [["dice", u.strength, "strength: attack dice"], ["tough", u.toughness, "toughness: hits to kill"]];
    if (u.hits) stats.push(["hits", u.hits, "hits taken this round"]);
    return card(u.id, { cls, name: u.name, lines, stats, title: u.id + " " + u.name + " (" + sideName(owner) + ")" });
  }
  function rnrOrder(o) {
    return card(o.id, {
      cls: "order kind-" + o.kind,
      name: o.name,
      badge: o.value ? "+" + o.value : "",
      badgeTitle: o.kind === "supply" ? "RD gained" : "extra dice",
      lines: [o.kind],
      title: o.id + " " + o.name + " (" + o.kind + (o.value ? " +" + o.value : "") + ")",
    });
  }
  const rnrCard = (c) => ("strength" in c ? rnrUnit(c) : rnrOrder(c));
  function rnrOperation(o) {
    return card(o.id, {
      cls: "operation",
      name: o.name,
      lines: ["if " + o.condition + " " + o.amount, "→ " + o.reward + " " + o.reward_amount],
      title: o.id + " " + o.name + ": " + o.condition + " " + o.amount + " → " + o.reward + " " + o.reward_amount,
    });
  }
  const mini = (id, cls) => card(id, { cls: "mini " + (cls || "") });

  function rnrStatus(v, me, replay) {
    const bar = el("div", "fc-status");
    const items = [
      chip("Round " + v.round + " of " + v.rounds_limit + " (first to " + v.round_wins + " rounds)", "strong"),
      chip("Turn: " + sideName(v.turn), "side-" + v.turn),
      chip("Phase: " + v.phase),
      chip("To act: " + (v.to_act.length ? v.to_act.map(sideName).join(", ") : "nobody")),
    ];
    if (me && !replay && v.to_act.includes(me)) items.push(chip("Your move", "yours"));
    const sides = Object.keys(v.sides);
    items.push(chip("Rounds won: " + sides.map((s) => sideName(s) + " " + v.sides[s].rounds_won).join(", ")));
    bar.append(...items);
    const p = v.pending;
    if (p) {
      const parts = ["Waiting for " + sideName(p.seat) + ": " + p.kind + (p.arrival ? " (the arrival's units: from the deck or the HQ)" : "")];
      for (const k of ["purpose", "card", "unit", "target", "local"]) if (p[k]) parts.push(k + " " + p[k]);
      if (p.points) parts.push("points " + p.points.join(" "));
      if (p.paid) parts.push("paid " + (p.paid.join(" ") || "nothing yet"));
      if (p.left !== undefined) parts.push(p.left + " left");
      if (p.candidates) parts.push("candidates " + p.candidates.join(" "));
      if (p.options) parts.push("options " + p.options.join(" "));
      bar.append(chip(parts.join(" · "), "pending"));
    }
    if (v.named) bar.append(chip("Named: " + v.named));
    if (v.last_roll) {
      const r = v.last_roll;
      const dice = el("span", "fc-chip dice");
      dice.append(el("span", null, "Last roll (" + sideName(r.side) + ", " + r.kind + (r.reroll ? ", re-rolled" : "") + "): "));
      for (const d of r.dice) dice.append(el("span", "die" + (d >= 5 ? " hit" : ""), d));
      bar.append(dice);
    }
    for (const r of v.results || []) {
      const vals = Object.entries(r.values).map(([s, n]) => sideName(s) + " " + n).join(", ");
      bar.append(chip("Round " + r.round + ": " + (r.winner ? sideName(r.winner) + " won" : "level") + " (" + vals + ")"
        + (r.revealed_by_winner && r.revealed_by_winner.length ? ", revealed " + r.revealed_by_winner.join(" ") : "")));
    }
    return bar;
  }
  function rnrSide(v, side, me) {
    const s = v.sides[side];
    const mine = side === me;
    const box = el("section", "fc-side side-" + side + (mine ? " mine" : ""));
    box.dataset.side = side;
    box.append(el("h3", "fc-side-name", sideName(side) + (mine ? " (you)" : me ? " (opponent)" : "")));
    const rd = el("span", "fc-chip rd", "RD " + s.rd);
    rd.title = "resource dice";
    if (mine) { rd.classList.add("card", "token"); rd.dataset.card = "rd"; }  // "pay rd"
    const flags = [];
    if (s.deal_used) flags.push(chip("Devil's hand used", "flag"));
    else flags.push(chip("Devil's hand ready", "flag ready"));
    if (s.rnr_available) flags.push(chip("ROCK'N'ROLL ready", "flag ready"));
    if (s.effective_twos) flags.push(chip("2s effective", "flag"));
    box.append(facts([rd, "rounds won " + s.rounds_won, "held value " + s.held_value,
      plural(s.hand, "card") + " in hand", plural(s.operations, "operation") + " held", ...flags]));
    // The hand: the seat's own face up; another's as backs (its count) until the end.
    const open = v.hands && v.hands[side] ? v.hands[side] : (mine && v.hand ? v.hand : null);
    const hand = open ? open.map(rnrCard) : Array.from({ length: s.hand }, () => back(null, sideName(side)));
    box.append(row("Hand (" + plural(open ? open.length : s.hand, "card") + (open ? "" : ", face down") + ")",
      "hand", side, hand, "hand"));
    const ops = v.held_operations && v.held_operations[side] ? v.held_operations[side]
      : (mine && v.operations ? v.operations : null);
    const opCards = ops ? ops.map(rnrOperation) : Array.from({ length: s.operations }, () => back(null, "operation"));
    const lower = el("div", "fc-side-lower");
    if (opCards.length) lower.append(row("Operations" + (ops ? "" : " (face down)"), "operations", side, opCards));
    lower.append(row("Prisoners at the base", "prisoners", side, s.prisoners.map((u) => rnrUnit(u, "prisoner"))));
    lower.append(row("HQ", "hq", side, s.hq.map((u) => rnrUnit(u))));
    // "take deck" (the arrival's units or the Devil's hand) names the seat's own unit deck.
    const decks = [pile("unit deck", s.unit_deck, mine ? "deck" : null), pile("order deck", s.order_deck)];
    lower.append(row("Decks", "decks", side, decks));
    const discard = s.order_discard.map((id) => mini(id, "order"));
    lower.append(row("Order discard (" + s.order_discard.length + ")", "discard", side, discard, "discard"));
    box.append(lower);
    return box;
  }
  function rnrPoints(v, top, bottom) {
    const line = el("div", "fc-points");
    for (const p of v.points) {
      const col = el("div", "fc-point-col");
      const stack = (units) => {
        const s = el("div", "fc-stack");
        for (const u of units) s.append(rnrUnit(u));
        return s;
      };
      const pc = card(p.letter, {
        cls: "point" + (p.held_by ? " held-" + p.held_by : ""),
        corner: p.letter,
        badge: p.value,
        badgeTitle: "victory value",
        name: "Point " + p.letter,
        lines: ["held: " + (p.held_by ? sideName(p.held_by) : "nobody")],
        stats: [["value", p.value], ["RD", "+" + p.income, "RD income"]],
      });
      const locals = p.units.filter((u) => !u.owner);
      const mid = el("div", "fc-point-mid");
      mid.append(pc);
      if (locals.length) { const l = stack(locals); l.classList.add("fc-locals"); l.title = "locals"; mid.append(l); }
      col.append(stack(p.units.filter((u) => u.owner === top)), mid, stack(p.units.filter((u) => u.owner === bottom)));
      line.append(col);
    }
    const r = row("Points", "points", null, [line], "points-row");
    return r;
  }
  function rnrCommon(v) {
    const box = el("section", "fc-common");
    box.append(row("Locals and operations", "common", null, [
      pile("locals deck", v.locals_deck), pile("operations deck", v.operations_deck),
    ]));
    if (v.locals_discard.length) box.append(row("Locals discard", "locals-discard", null, v.locals_discard.map((id) => mini(id, "side-locals"))));
    if (v.executed.length) box.append(row("Executed", "executed", null, v.executed.map((id) => mini(id, "dead"))));
    return box;
  }
  function rockNRoll(root, ctx) {
    const v = ctx.view;
    const sides = Object.keys(v.sides);
    const me = sides.includes(ctx.seat) ? ctx.seat : null;
    const bottom = me || (sides.includes("vietnam") ? "vietnam" : sides[0]);
    const top = sides.find((s) => s !== bottom);
    root.append(rnrStatus(v, me, ctx.replay), rnrSide(v, top, me), rnrPoints(v, top, bottom), rnrSide(v, bottom, me), rnrCommon(v));
    const p = v.pending;
    if (p) {
      const named = new Set([p.card, p.unit, p.target, p.local, ...(p.candidates || []), ...(p.points || [])].filter(Boolean));
      for (const c of root.querySelectorAll(".card[data-card]")) if (named.has(c.dataset.card)) c.classList.add("pending");
    }
  }

  // ---------------------------------------------------------------- Warfighter
  function wfHostile(h) {
    const lines = [];
    if (h.cover_in_force !== h.cover) lines.push("Cover in force " + h.cover_in_force);
    if (h.suppressed) lines.push("suppressed");
    const d = h.door;
    if (d) {
      lines.push("Door: Cover " + d.cover + ", Hits " + d.hits + (d.pick === null ? "" : ", Pick " + signed(d.pick)));
      lines.push(d.breached ? "Breached (" + d.breached + ")" : "Door EKIAs " + d.ekias + "/" + d.hits);
    }
    return card(h.id, {
      cls: "hostile" + (h.suppressed ? " suppressed" : "") + (d ? " has-door" : ""),
      name: h.name,
      lines,
      stats: [["cover", h.cover], ["hits", h.hits], ["EKIA", h.ekias]],
      title: h.id + " " + h.name,
    });
  }
  function wfCheck(k) {
    const state = k.spent ? "spent" : k.rolled ? "rolled" : "open";
    return card(k.id, {
      cls: "check kind-" + k.kind + " " + state,
      name: k.ability + (k.modifier ? " " + signed(k.modifier) : ""),
      badge: k.kind === "fail" ? "fail" : "success",
      lines: [...k.headings, state + (k.attempts ? ", " + plural(k.attempts, "attempt") : "") + (k.upgun ? "" : ", no upgun"),
        "from " + k.source],
      title: k.id + " check " + k.ability + " (" + k.kind + ", " + state + ")",
    });
  }
  function wfSoldier(s) {
    const lines = [
      "at " + s.location,
      s.abilities.length ? s.abilities.join(", ") : "no abilities",
      s.weapon.name + " (" + plural(s.weapon.shots, "shot") + (s.weapon.suppressive ? ", suppressive" : "") + ")",
    ];
    if (s.out) lines.unshift("OUT");
    return card(s.id, {
      cls: "soldier" + (s.out ? " out" : "") + (s.wounds ? " hurt" : ""),
      name: s.name,
      badge: s.out ? "out" : s.actions + " act",
      badgeTitle: "Actions left this turn",
      lines,
      stats: [["actions", s.actions], ["cover", s.cover], ["wounds", s.wounds + "/3"]],
      title: s.id + " " + s.name,
    });
  }
  function warfighter(root, ctx) {
    const v = ctx.view;
    const bar = el("div", "fc-status");
    bar.append(chip(v.mission, "strong"), chip("Turn " + v.turn + " of " + v.turns), chip("Phase: " + v.phase),
      chip("Waiting for: " + (v.waiting_for.length ? v.waiting_for.join(", ") : "nobody")));
    if (ctx.seat && !ctx.replay && v.waiting_for.includes(ctx.seat)) bar.append(chip("Your move", "yours"));
    if (v.outcome) bar.append(chip("Over: " + (v.outcome.sides || []).map(sideName).join(", ") + " — " + v.outcome.reason, "pending"));
    for (const p of v.pending) bar.append(chip("To roll now: " + p.check + " by " + (p.roller || "a Soldier there (you choose)") + " [" + p.rule + "]", "pending"));
    root.append(bar);
    const here = {};
    for (const s of v.soldiers) if (!s.out) (here[s.location] = here[s.location] || []).push(s);
    const line = el("div", "fc-locations");
    for (const loc of v.locations) {
      const col = el("div", "fc-loc-col" + (loc.objective ? " objective" : ""));
      const name = loc.revealed ? loc.card : loc.objective ? loc.card : null;
      const c = loc.revealed
        ? card(loc.id, { cls: "location" + (loc.objective ? " objective" : ""), name, lines: [loc.objective ? "Objective" : "Location"] })
        : back(loc.id, loc.id + (name ? " — Objective: " + name : "") + " (face down)", "location" + (loc.objective ? " objective" : ""));
      if (!loc.revealed) c.title = loc.id + " face down";
      col.append(c);
      const squad = el("div", "fc-here");
      for (const s of here[loc.id] || []) squad.append(chip(s.id + " " + s.name, "soldier-mark", s.name + " is here"));
      col.append(squad);
      const stack = el("div", "fc-stack");
      for (const h of loc.hostiles || []) stack.append(wfHostile(h));
      for (const k of loc.checks || []) stack.append(wfCheck(k));
      col.append(stack);
      line.append(col);
    }
    root.append(row("Locations", "locations", null, [line], "points-row"));
    root.append(row("Squad (" + v.soldiers.filter((s) => !s.out).length + " of " + v.soldiers.length + " in action)",
      "squad", ctx.seat || "squad", v.soldiers.map(wfSoldier), "hand"));
    root.append(row("Decks", "decks", null, [pile("Location deck", v.location_deck), pile("Hostile deck", v.hostile_deck)]));
    root.append(row("Hostile discard (" + v.hostile_discard.length + ")", "discard", null,
      v.hostile_discard.map((n) => card(null, { cls: "mini hostile", name: n }))));
    const c = v.counts;
    root.append(facts(["Hostiles killed " + c.hostiles_killed, "checks rolled " + c.checks_rolled, "failed " + c.checks_failed,
      "lacking " + c.checks_lacking, "Doors breached by attack " + c.breaches_attack, "by pick " + c.breaches_pick]));
  }

  // What the seat is asked, in words, for the move's panel beside the buttons: the
  // interrupt's offer (PT-D3) and the interrupt being played. From the seat's view and
  // its own legal actions alone (the orders named are in its own hand).
  function rnrPrompt(message) {
    const v = message.view.view, me = message.seat;
    if (!me || message.over || !v.turn) return null;
    const lines = [];
    const they = sideName(v.turn === me ? Object.keys(v.sides).find((s) => s !== me) : v.turn);
    const has = (text) => message.notation.includes(text);
    const p = v.pending;
    if (v.turn !== me && v.to_act.includes(me) && !p) {
      lines.push(they + " is on turn (" + v.phase + " phase) and about to act: before each of its actions"
        + " you are offered an interrupt with your Devil's hand [PT-D3].");
      const orders = (v.hand || []).filter((c) => !("strength" in c)).map((c) => c.id + " " + c.name);
      if (has("deal interrupt")) {
        lines.push(["deal interrupt", "strike your Devil's hand (once a match) and play one order of your hand now"
          + (orders.length ? " (" + orders.join(", ") + ")" : "") + "; then " + they + "'s turn goes on."]);
      } else lines.push("You hold no order you could play now: you can only let it go.");
      if (has("pass")) lines.push(["pass", "let this action go; you are asked again before its next one."]);
      if (has("pass turn")) lines.push(["pass turn", "let the rest of " + they + "'s turn go."]);
      if (has("pass round")) lines.push(["pass round", "let the rest of the round go; you are not asked again until the next."]);
    } else if (p && p.kind === "interrupt" && p.seat === me) {
      lines.push("Your interrupt: play one order of your hand now; then " + they + "'s turn goes on [PT-D3].");
    } else if (p && p.kind === "interrupt") {
      lines.push(they + " struck its Devil's hand to interrupt: it plays one order, then your turn goes on [PT-D3].");
    } else if (v.turn === me && !p && !v.to_act.includes(me) && v.to_act.length) {
      lines.push(they + " answers the offer of its interrupt first (it may strike its Devil's hand once a match);"
        + " then you act [PT-D3].");
    }
    if (!lines.length) return null;
    const box = el("div", "fc-prompt");
    // A line is a sentence, or a button's words and what it does.
    for (const line of lines) {
      const para = el("p", null, typeof line === "string" ? line : null);
      if (typeof line !== "string") para.append(el("b", null, line[0]), ": " + line[1]);
      box.append(para);
    }
    return box;
  }

  // ---------------------------------------------------------------- clicking
  const GAMES = { "rock-n-roll": rockNRoll, "warfighter": warfighter };
  const PROMPTS = { "rock-n-roll": rnrPrompt };
  let selection = { key: null, ids: [] };
  let last = null;

  // The legal actions (their indices) whose arguments name every id of `ids`.
  function naming(message, ids) {
    const out = [];
    message.legal.forEach((a, i) => {
      const args = Array.isArray(a.args) ? a.args : [];
      if (ids.every((id) => args.includes(id))) out.push(i);
    });
    return out;
  }
  function send(message, i) {
    selection.ids = [];
    redraw();  // the selection goes at once; the new state follows from the server
    window.FOGOFWAR.send({ action: message.legal[i] });
  }
  // Show only the #actions buttons of these actions (null: all of them).
  function narrow(message, indices) {
    const allowed = indices ? new Set(indices.map((i) => message.notation[i])) : null;
    for (const b of document.querySelectorAll("#actions button")) {
      if (b.dataset.action !== undefined) b.hidden = allowed ? !allowed.has(b.dataset.action) : false;
    }
  }
  function clickCard(id) {
    const message = last.message;
    if (selection.ids.includes(id)) {
      selection.ids = selection.ids.filter((x) => x !== id);
      return redraw();
    }
    let ids = [...selection.ids, id];
    let found = naming(message, ids);
    if (!found.length) { ids = [id]; found = naming(message, ids); }  // a fresh choice
    if (!found.length) return;
    if (found.length === 1) return send(message, found[0]);
    selection.ids = ids;
    redraw();
  }
  function selectionBar(message) {
    const bar = el("div", "fc-selection");
    const found = naming(message, selection.ids);
    bar.append(el("span", null, "Selected: " + selection.ids.join(" ") + " — " + plural(found.length, "action")
      + " name it: click a highlighted card or an action button."));
    const clear = el("button", "fc-clear", "Clear");
    clear.type = "button";
    clear.addEventListener("click", () => { selection.ids = []; redraw(); });
    bar.append(clear);
    return bar;
  }
  function wire(root, message) {
    const named = new Set();
    for (const a of message.legal) for (const x of a.args || []) if (typeof x === "string") named.add(x);
    const extend = selection.ids.length ? new Set() : null;
    if (extend) for (const i of naming(message, selection.ids)) for (const x of message.legal[i].args) if (typeof x === "string") extend.add(x);
    for (const c of root.querySelectorAll(".card[data-card]")) {
      const id = c.dataset.card;
      if (!named.has(id)) continue;
      c.classList.add("playable");
      if (selection.ids.includes(id)) c.classList.add("selected");
      else if (extend && extend.has(id)) c.classList.add("target");
      else if (extend) c.classList.add("dim");
      c.tabIndex = 0;
      c.setAttribute("role", "button");
      const n = naming(message, [id]).length;
      c.setAttribute("aria-label", id + ": " + plural(n, "action"));
      c.addEventListener("click", (ev) => { ev.stopPropagation(); clickCard(id); });
      c.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); clickCard(id); }
      });
    }
  }
  function render(host, message) {
    const view = message.view.view;
    const root = el("div", "fc-table fc-" + message.ruleset);
    const seat = message.view.seat !== undefined ? message.view.seat : message.seat;
    // A replay shows a seat's past view: no chip tells the reader "Your move" then.
    GAMES[message.ruleset](root, { view, seat, replay: !!message.replay });
    if (selection.ids.length) root.prepend(selectionBar(message));
    wire(root, message);
    // A row that scrolls sideways (the points, the locations) keeps where the player
    // scrolled it through each new view, and says when there is more off either edge:
    // a phone's scroll bars are hidden until touched.
    const kept = {};
    for (const s of host.querySelectorAll(SCROLLERS)) kept[s.className.split(" ")[0]] = s.scrollLeft;
    host.replaceChildren(root);
    for (const s of root.querySelectorAll(SCROLLERS)) {
      s.scrollLeft = kept[s.className.split(" ")[0]] || 0;
      s.addEventListener("scroll", () => edges(s), { passive: true });
      edges(s);
    }
    narrow(message, selection.ids.length ? naming(message, selection.ids) : null);
  }
  const SCROLLERS = ".fc-points, .fc-locations";
  function edges(s) {
    s.classList.toggle("more-left", s.scrollLeft > 1);
    s.classList.toggle("more-right", s.scrollLeft + s.clientWidth < s.scrollWidth - 1);
  }
  window.addEventListener("resize", () => { for (const s of document.querySelectorAll(SCROLLERS)) edges(s); });
  function redraw() { if (last) render(last.host, last.message); }

  function draw(host, message) {
    if (!GAMES[message.ruleset] || !message.view || !message.view.view) return false;
    const key = message.ruleset + "|" + message.seat + "|" + message.version;
    if (selection.key !== key) selection = { key, ids: [] };
    // Keep only selected cards the new legal list still names.
    selection.ids = selection.ids.filter((id) => naming(message, [id]).length);
    if (selection.ids.length && !naming(message, selection.ids).length) selection.ids = [];
    last = { host, message };
    render(host, message);
    return true;
  }
  // The rule set's words for what the seat is asked now (an element), or null.
  function prompt(message) {
    const said = PROMPTS[message.ruleset];
    return said && message.view && message.view.view ? said(message) : null;
  }
  return { draw, prompt };
})();
