// Public pages: the calculator's "Add a game" without a reload.
// It works without this script: "Add a game"
// submits the form, which comes back with one more row.
document.addEventListener("click", function (event) {
  var add = event.target.closest("[data-add-row]");
  if (!add) return;
  var template = document.getElementById("game-row-template");
  var total = document.getElementById("id_g-TOTAL_FORMS");
  if (!template || !total) return;
  event.preventDefault();
  var index = parseInt(total.value, 10);
  var html = template.innerHTML.replace(/__prefix__/g, String(index));
  document.getElementById("game-rows").insertAdjacentHTML("beforeend", html);
  total.value = String(index + 1);
  var first = document.getElementById("id_g-" + index + "-opponent");
  if (first) first.focus();
});
// The list's Print button opens the whole list (not one page of it) with #print.
if (window.location.hash === "#print") {
  window.addEventListener("load", function () {
    if (window.history.replaceState) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    window.print();
  });
}
