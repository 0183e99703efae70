// Results entry from a paper score sheet: one key per result, then on to the next board.
(function () {
  "use strict";
  var KEYS = { "1": "1-0", "0": "0-1", "=": "1/2-1/2", "5": "1/2-1/2", "d": "1/2-1/2",
               "+": "+/-", "-": "-/+" };
  var results = Array.prototype.slice.call(document.querySelectorAll("select.result"));
  results.forEach(function (select, index) {
    select.addEventListener("keydown", function (event) {
      var value = KEYS[event.key.toLowerCase()];
      if (!value || event.ctrlKey || event.metaKey || event.altKey) { return; }
      event.preventDefault();
      select.value = value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      // On to the next board with players; after the last one, to the save button.
      var next = results.slice(index + 1).filter(function (other) {
        var white = other.closest(".pairing").querySelector("select:not(.result)");
        return white && white.value;
      })[0];
      if (next) { next.focus(); } else { select.form.querySelector("[type=submit]").focus(); }
    });
  });
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
