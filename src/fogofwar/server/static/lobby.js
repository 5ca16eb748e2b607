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
    // An option the program fills in (a data file's digest) is no choice for people.
    for (const o of rs.options.filter((o) => !o.filled)) {
      let input;
      if (o.file_suffix) {
        // A board, map or mission: the server plays only what it offers (its shipped
        // ones and its operator's files), so they are a pick-list; the default first
        // (an empty one is "none").
        input = document.createElement("select");
        const values = [o.default, ...o.offered.filter((c) => c !== o.default)];
        for (const c of values) { const e = document.createElement("option"); e.value = c; e.textContent = c === "" ? "(none)" : c; input.append(e); }
        input.value = o.default;
      } else if (o.choices) {
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
      input.dataset.default = JSON.stringify(o.default === null ? "" : o.default);
      opts.append(field(o.name, input, o.help));
    }
    for (const input of opts.querySelectorAll("[data-option]")) input.addEventListener("change", refreshSeats);
    seatsOf({ seats: rs.default_seats, bots: Object.fromEntries(rs.default_seats.map((s) => [s, rs.bots])), default_bots: rs.default_bots });
    refreshSeats();
  }
  // The options the form changed from their defaults (the inputs of the options list
  // only). An option left alone is not sent: a mission sets its own (the-spy's task, Red
  // Force, win conditions), and a default sent with it would override them.
  function config() {
    const out = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const t = input.dataset.type;
      let value;
      if (t === "bool") value = input.checked;
      else if (t === "int" || t === "float") value = Number(input.value);
      else value = input.value;
      if (JSON.stringify(value) !== input.dataset.default) out[input.dataset.option] = value;
    }
    return out;
  }
  // A player per seat of the options chosen (a player count, a mode): a seat that stays
  // keeps its choice; the first seat is human, the others their default bots.
  function seatsOf(answer) {
    const seats = $("seats");
    const before = {};
    for (const s of seats.querySelectorAll("select[data-seat]")) before[s.dataset.seat] = s.value;
    seats.replaceChildren(seats.firstElementChild);
    answer.seats.forEach((seat, i) => {
      const s = document.createElement("select"); s.dataset.seat = seat; s.name = "seat-" + seat;
      const who = ["human", ...(answer.bots[seat] || [])];
      for (const w of who) { const e = document.createElement("option"); e.value = w; e.textContent = w; s.append(e); }
      const kept = before[seat];
      s.value = kept && who.includes(kept) ? kept : i === 0 ? "human" : (answer.default_bots[seat] || "random");
      seats.append(field(seat, s));
    });
  }
  let asked = 0;
  async function refreshSeats() {
    const mine = ++asked, id = select.value;
    const res = await fetch("/api/rulesets/" + encodeURIComponent(id) + "/seats", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ config: config() }) });
    const data = await res.json();
    if (mine !== asked || id !== select.value) return;  // a later change asked again
    $("error").textContent = res.ok ? "" : data.message;
    // Said beside the seats too: the options chosen fit no seats (Zero Dark's Versus on a
    // map without a second zone), and the seats shown are the last ones that did.
    $("seats-error").hidden = res.ok;
    $("seats-error").textContent = res.ok ? "" : "No seats for these options: " + data.message;
    if (res.ok) seatsOf(data);
  }
  select.addEventListener("change", build);
  build();
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("error").textContent = "";
    // Only the form's own inputs: the links of a table made before carry data-seat too.
    const seats = {};
    for (const s of $("seats").querySelectorAll("select[data-seat]")) seats[s.dataset.seat] = s.value;
    const body = { ruleset: select.value, config: config(), seats };
    // Clocks (optional): minutes per human seat, seconds added each time it has acted.
    const minutes = Number($("clock").value), increment = Number($("clock-increment").value);
    if (minutes > 0) {
      body.options = { clock: minutes * 60 };
      if (increment > 0) body.options.clock_increment = increment;
    }
    // The bots' pause (optional): the server's own when left empty.
    const pause = $("bot-pause").value.trim();
    if (pause !== "") body.options = { ...(body.options || {}), bot_pause: Number(pause) };
    const seed = $("seed").value.trim();
    let text = JSON.stringify(body);
    if (/^\d+$/.test(seed)) {
      // A whole number goes as a JSON number of exactly its digits: Number() would round
      // one past 2**53, and a seeded table is only reproducible from its exact seed.
      text = text.slice(0, -1) + ',"seed":' + seed.replace(/^0+(?=\d)/, "") + "}";
    } else if (seed) {
      text = JSON.stringify({ ...body, seed });
    }
    $("links").hidden = true;  // a refusal must not sit under the links of a table made before
    let res, data;
    try {
      res = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: text });
      data = await res.json();
    } catch (e) {
      $("error").textContent = "The server cannot be reached: no table was made.";
      return;
    }
    if (!res.ok) { $("error").textContent = data.message; return; }
    const made = { links: data.links, spectator: data.spectator, commitment: data.commitment };
    // The server hands the links out once: kept for this tab, so that going back from a
    // link opened here, or a reload, shows them again.
    try { sessionStorage.setItem("fogofwar-table", JSON.stringify(made)); } catch (e) { /* private mode */ }
    showLinks(made);
  });
  // A table's links: each opens in a new tab (the lobby, and the others' links, stay
  // here) and can be copied to send to its player.
  function showLinks(made) {
    const list = $("link-list"); list.replaceChildren();
    const add = (name, url) => {
      const li = document.createElement("li"); const a = document.createElement("a");
      a.href = url; a.textContent = url; a.dataset.seat = name; a.target = "_blank"; a.rel = "noopener";
      const copy = document.createElement("button"); copy.type = "button"; copy.textContent = "Copy";
      copy.className = "copy"; copy.setAttribute("aria-label", "copy " + name + "'s link");
      copy.addEventListener("click", () => {
        const done = () => { copy.textContent = "Copied"; setTimeout(() => { copy.textContent = "Copy"; }, 1500); };
        if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, () => selectLink(a));
        else selectLink(a);
      });
      li.append(name + ": ", a, " ", copy); list.append(li);
    };
    for (const [seat, url] of Object.entries(made.links)) add(seat, url);
    add("spectator", made.spectator);
    $("commitment").textContent = made.commitment;
    $("links").hidden = false;
  }
  // Without the clipboard (a page not served over https or from localhost): the link's
  // text selected, for the player to copy.
  function selectLink(a) {
    const range = document.createRange(); range.selectNodeContents(a);
    const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
  }
  try {
    const kept = JSON.parse(sessionStorage.getItem("fogofwar-table") || "null");
    if (kept && kept.links) showLinks(kept);
  } catch (e) { /* nothing kept */ }
})();
