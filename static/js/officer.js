// Results entry from a paper score sheet: one key per result (site.js reads the key into
// the menu), then on to the next board.
(function () {
  "use strict";
  var results = Array.prototype.slice.call(document.querySelectorAll("select.result"));
  results.forEach(function (select, index) {
    select.addEventListener("result-keyed", function () {
      // On to the next board: its result when it has players, its white when it is still
      // empty and someone is not on a board yet; after the last board, the save button.
      var next = null;
      var rest = results.slice(index + 1);
      for (var i = 0; i < rest.length && !next; i++) {
        var white = rest[i].closest(".pairing").querySelector("select:not(.result)");
        if (white && white.value) { next = rest[i]; }
        else if (white && unplaced(select.form) && i === 0) { next = white; }
      }
      if (next) { next.focus(); } else { select.form.querySelector("[type=submit]").focus(); }
    });
  });

  // Whether some player is on no board yet (the menus offer every player of the event).
  function unplaced(form) {
    var menus = form.querySelectorAll(".pairing select:not(.result)");
    if (!menus.length) { return false; }
    var placed = {};
    Array.prototype.forEach.call(menus, function (menu) {
      if (menu.value) { placed[menu.value] = true; }
    });
    var everyone = Array.prototype.filter.call(menus[0].options, function (option) {
      return option.value;
    });
    return everyone.some(function (option) { return !placed[option.value]; });
  }
})();
// Round-robin grid: below the diagonal, each game as the other player scored it, kept in
// step with the cell above the diagonal where it is entered.
(function () {
  "use strict";
  var MIRRORED = { "1": "0", "=": "½", "0": "1", "+": "−", "-": "+", "--": "−−" };
  Array.prototype.forEach.call(document.querySelectorAll("[data-mirror-of]"), function (shown) {
    var select = document.getElementById(shown.getAttribute("data-mirror-of"));
    if (!select) { return; }
    select.addEventListener("change", function () {
      shown.textContent = MIRRORED[select.value] || "";
    });
  });
})();
// A new event's kind follows its date as the club's habit has it (the kind it records
// most on that day of the week), until the officer picks a kind.
(function () {
  "use strict";
  var kind = document.querySelector("select[data-kind-by-weekday]");
  if (!kind) { return; }
  var byDay = JSON.parse(kind.getAttribute("data-kind-by-weekday"));
  var usual = kind.getAttribute("data-usual-kind");
  var date = kind.form.querySelector("[name=start_date]");
  var picked = false;
  kind.addEventListener("change", function (event) { if (event.isTrusted) { picked = true; } });
  if (!date) { return; }
  date.addEventListener("change", function () {
    var parts = (date.value || "").split("-");
    if (picked || parts.length !== 3) { return; }
    var day = new Date(+parts[0], +parts[1] - 1, +parts[2]).getDay() || 7;  // 7: Sunday
    kind.value = byDay[day] || usual;
  });
})();
