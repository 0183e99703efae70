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
