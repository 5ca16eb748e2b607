// The lobby: a form built from each rule set's options (GET /api/rulesets), a player
// per seat, and POST /api/tables; then the links to hand out.
"use strict";
(async function () {
  const $ = (id) => document.getElementById(id);
  const rulesets = await (await fetch("/api/rulesets")).json();
  const select = $("ruleset");
  for (const rs of rulesets) {
    const o = document.createElement("option");
    o.value = rs.id; o.textContent = rs.name + " (" + rs.id + ")";
    select.append(o);
  }
  function current() { return rulesets.find((r) => r.id === select.value); }
  function field(label, input, help) {
    const l = document.createElement("label");
    l.append(label + " ", input);
    if (help) {
      // What the option does, in the rule set's words, beside it (not only on hover).
      const h = document.createElement("span"); h.className = "option-help"; h.textContent = help;
      l.append(h);
    }
    return l;
  }
  function build() {
    const rs = current();
    $("description").textContent = rs.description || "";
    const opts = $("options"); opts.replaceChildren(opts.firstElementChild);
    for (const o of rs.options) {
      let input;
      if (o.choices) {
        input = document.createElement("select");
        for (const c of o.choices) { const e = document.createElement("option"); e.value = e.textContent = c; input.append(e); }
        input.value = o.default;
      } else if (o.type === "bool") {
        input = document.createElement("input"); input.type = "checkbox"; input.checked = !!o.default;
      } else {
        input = document.createElement("input");
        input.value = o.default === null ? "" : o.default;
        if (o.type === "int") { input.type = "number"; if (o.minimum !== null) input.min = o.minimum; if (o.maximum !== null) input.max = o.maximum; }
      }
      input.dataset.option = o.name; input.dataset.type = o.type; input.title = o.help || "";
      opts.append(field(o.name, input, o.help));
    }
    const seats = $("seats"); seats.replaceChildren(seats.firstElementChild);
    rs.default_seats.forEach((seat, i) => {
      const s = document.createElement("select"); s.dataset.seat = seat; s.name = "seat-" + seat;
      for (const who of ["human", ...rs.bots]) { const e = document.createElement("option"); e.value = who; e.textContent = who; s.append(e); }
      s.value = i === 0 ? "human" : (rs.default_bots[seat] || "random");
      seats.append(field(seat, s));
    });
  }
  select.addEventListener("change", build);
  build();
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("error").textContent = "";
    const config = {}, seats = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      const t = input.dataset.type;
      if (t === "bool") config[input.dataset.option] = input.checked;
      else if (t === "int") config[input.dataset.option] = Number(input.value);
      else config[input.dataset.option] = input.value;
    }
    for (const s of document.querySelectorAll("[data-seat]")) seats[s.dataset.seat] = s.value;
    const body = { ruleset: select.value, config, seats };
    // Clocks (optional): minutes per human seat, seconds added each time it has acted.
    const minutes = Number($("clock").value), increment = Number($("clock-increment").value);
    if (minutes > 0) {
      body.options = { clock: minutes * 60 };
      if (increment > 0) body.options.clock_increment = increment;
    }
    const seed = $("seed").value.trim();
    if (seed) body.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
    const res = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) { $("error").textContent = data.message; return; }
    const list = $("link-list"); list.replaceChildren();
    const add = (name, url) => {
      const li = document.createElement("li"); const a = document.createElement("a");
      a.href = url; a.textContent = url; a.dataset.seat = name; li.append(name + ": ", a); list.append(li);
    };
    for (const [seat, url] of Object.entries(data.links)) add(seat, url);
    add("spectator", data.spectator);
    $("commitment").textContent = data.commitment;
    $("links").hidden = false;
  });
})();
