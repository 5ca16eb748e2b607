// The table page's boot data (its rule set and seat), from a JSON block the page
// carries as data: the pages' Content-Security-Policy runs no inline script.
"use strict";
window.FOGOFWAR = JSON.parse(document.getElementById("boot").textContent);
