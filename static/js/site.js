// Every page: a Print button ([data-print]) prints the page. Without this script the
// browser's own menu prints it. (A script file, not an onclick: the pages' CSP allows no
// inline script.)
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
