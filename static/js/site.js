// Every page. A script file, not inline code: the pages' CSP allows no inline script.

// A Print button ([data-print]) prints the page. Without this script the browser's own
// menu prints it.
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});

// The menu button on a narrow screen opens and closes the menu: all the script the site
// needed of Bootstrap's bundle (80 KB), so the bundle is not loaded.
document.addEventListener("click", function (event) {
  var toggler = event.target.closest("[data-menu-toggle]");
  if (!toggler) {
    return;
  }
  var menu = document.getElementById(toggler.getAttribute("aria-controls"));
  var open = menu.classList.toggle("show");
  toggler.setAttribute("aria-expanded", open ? "true" : "false");
});

// Escape closes the open menu (as a menu is expected to close), and the focus goes back
// to the menu button when it was inside the menu, so that it is not lost on a hidden link.
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") {
    return;
  }
  document.querySelectorAll("[data-menu-toggle][aria-expanded=true]").forEach(function (toggler) {
    var menu = document.getElementById(toggler.getAttribute("aria-controls"));
    menu.classList.remove("show");
    toggler.setAttribute("aria-expanded", "false");
    if (menu.contains(document.activeElement)) {
      toggler.focus();
    }
  });
});

// A form that came back with errors: its error summary takes the focus, so that a screen
// reader reads what to correct first and the keyboard goes on from there to the fields.
document.addEventListener("DOMContentLoaded", function () {
  var summary = document.querySelector("[data-error-summary]");
  if (summary) {
    summary.focus();
  }
});

// A table wider than the screen scrolls in its box (.table-responsive): the box takes the
// keyboard's focus, so that the arrow keys scroll it, and is named after its table (its
// caption, else the heading before it), so that a screen reader says what it is. One rule
// here for the site's every such box, the tables django-tables2 draws included.
function nameOf(box) {
  var caption = box.querySelector("caption");
  if (caption && caption.textContent.trim()) {
    return caption.textContent.trim();
  }
  var headings = document.querySelectorAll("h1, h2, h3, h4, h5, h6");
  var before = null;
  headings.forEach(function (heading) {
    if (heading.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING) {
      before = heading;
    }
  });
  return before ? before.textContent.trim().replace(/\s+/g, " ") : "Table";
}
// Each name once on a page (a region is a landmark, and two of one name are one too many):
// "Table: Players", then "Table: Players (2)".
var names = {};
document.querySelectorAll(".table-responsive").forEach(function (box) {
  if (!box.hasAttribute("tabindex")) {
    box.setAttribute("tabindex", "0");
  }
  if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
    var name = "Table: " + nameOf(box);
    names[name] = (names[name] || 0) + 1;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", names[name] > 1 ? name + " (" + names[name] + ")" : name);
  }
});

// A result typed with one key, on every page where results are typed (the round page, the
// round-robin grid, the calculator): each menu says in data-result-keys which of its
// values a key means ("=" a draw everywhere), the server's reading (rules/results.py
// KEYS). A menu alone goes by the first letter of its words, so "=" found no "½".
document.addEventListener("keydown", function (event) {
  var select = event.target;
  if (!select.matches || !select.matches("select[data-result-keys]")) { return; }
  if (event.ctrlKey || event.metaKey || event.altKey) { return; }
  var keys = JSON.parse(select.getAttribute("data-result-keys"));
  var value = keys[event.key.toLowerCase()];
  if (value === undefined) { return; }
  event.preventDefault();
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  select.dispatchEvent(new CustomEvent("result-keyed", { bubbles: true }));
});
