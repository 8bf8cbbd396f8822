// A code block or table wider than the screen scrolls sideways: make it reachable by
// keyboard (tabindex) so it can be scrolled without a mouse (WCAG 2.1.1). Material wraps
// tables in their scrolling box from its own script, so this runs again once all loaded.
function reachableScrollers() {
  for (const el of document.querySelectorAll(
      ".md-typeset pre > code, .md-typeset__scrollwrap")) {
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  }
}
document.addEventListener("DOMContentLoaded", reachableScrollers);
window.addEventListener("load", reachableScrollers);
