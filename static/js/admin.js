// The admin's pages, for WCAG 2.1 AA: names for the controls Django's admin and its
// widgets draw without one (axe-core checks every admin page:
// tests/browser/test_accessibility.py). A script, because the markup is Django's own
// templates and widgets; it runs once the page and the admin's widgets are set up.
(function () {
  "use strict";

  function text(element) {
    return element ? element.textContent.replace(/\s+/g, " ").replace(/:$/, "").trim() : "";
  }

  function named(control) {
    if (control.hasAttribute("aria-label") || control.hasAttribute("aria-labelledby")) {
      return true;
    }
    if (control.id && document.querySelector('label[for="' + control.id + '"]')) {
      return true;
    }
    return Boolean(control.closest("label"));
  }

  // A tabular inline's boxes: named after their column and their row ("Round, row 2").
  function nameInlineControls() {
    document.querySelectorAll(".tabular table").forEach(function (table) {
      var heads = Array.prototype.slice.call(table.querySelectorAll("thead th"));
      table.querySelectorAll("thead th.original").forEach(function (th) {
        if (!text(th)) {
          var td = document.createElement("td");
          td.className = th.className;
          th.replaceWith(td);
        }
      });
      table.querySelectorAll("tbody tr.form-row").forEach(function (row, index) {
        Array.prototype.forEach.call(row.children, function (cell) {
          var column = heads[cell.cellIndex];
          cell.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (control) {
            if (!named(control)) {
              var name = text(column) || (control.name.match(/DELETE$/) ? "Delete" : control.name);
              control.setAttribute("aria-label", name + ", row " + (index + 1));
            }
          });
        });
      });
    });
  }

  // A date and time in two boxes (the admin's split widget): "Closed at, date".
  function nameSplitDateTimes() {
    document.querySelectorAll("input.vDateField, input.vTimeField").forEach(function (input) {
      if (named(input)) {
        return;
      }
      var row = input.closest(".form-row, .fieldBox, fieldset, td");
      var label = row ? row.querySelector("legend, label") : null;
      var part = input.classList.contains("vDateField") ? "date" : "time";
      input.setAttribute("aria-label", (text(label) || input.name) + ", " + part);
    });
  }

  // The search box (select2) of an autocomplete field: its name is its field's.
  function nameAutocompletes() {
    document.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
      var container = select.nextElementSibling;
      if (!container || !container.classList.contains("select2")) {
        return;
      }
      var label = select.id ? document.querySelector('label[for="' + select.id + '"]') : null;
      var name = text(label) || select.getAttribute("aria-label") || select.name;
      container.querySelectorAll("[role=combobox], [role=textbox]").forEach(function (box) {
        box.removeAttribute("aria-labelledby");
        box.setAttribute("aria-label", name);
      });
    });
  }

  // A filter's choice for the empty value, drawn as a link with no text.
  function nameEmptyFilterChoices() {
    document.querySelectorAll("#changelist-filter a").forEach(function (link) {
      if (!text(link)) {
        link.textContent = "(blank)";
      }
    });
  }

  // The filter boxes' help icons carry a label: as images, which may have one.
  function roleHelpIcons() {
    document.querySelectorAll(".help-tooltip[aria-label]:not([role])").forEach(function (icon) {
      icon.setAttribute("role", "img");
    });
  }

  function run() {
    nameInlineControls();
    nameSplitDateTimes();
    nameEmptyFilterChoices();
    nameAutocompletes();
    roleHelpIcons();
  }

  window.addEventListener("load", run);
  // The autocomplete boxes are drawn by a jQuery ready handler (autocomplete.js), which
  // may run after "load": a ready handler registered after it runs after it.
  if (window.django && window.django.jQuery) {
    window.django.jQuery(run);
  }
  // A row added to an inline gets its widgets after this event: name them next.
  document.addEventListener("formset:added", function () {
    window.setTimeout(run, 0);
  });
})();
