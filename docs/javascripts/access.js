// A code block or table wider than the screen scrolls sideways: make it reachable by
// keyboard (tabindex) so it can be scrolled without a mouse (WCAG 2.1.1). Material wraps
// tables in their scrolling box from its own script, so this runs again once all loaded.
function reachableScrollers() {
  for (const el of document.querySelectorAll(
      ".md-typeset pre > code, .md-typeset__scrollwrap")) {
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  }
}

// A table that must still scroll sideways (issue 45) says so: its box is marked
// data-tc-scrolls (a shadow at the edge, access.css) and a line above it tells the reader
// to swipe. Checked again when the screen turns or resizes.
function scrollCues() {
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap")) {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    const cue = wrap.previousElementSibling?.classList.contains("tc-scroll-cue")
      ? wrap.previousElementSibling : null;
    if (scrolls && !cue) {
      const line = document.createElement("p");
      line.className = "tc-scroll-cue";
      line.textContent = "Swipe sideways for more columns \u2192";
      wrap.before(line);
    } else if (!scrolls && cue) {
      cue.remove();
    }
    wrap.toggleAttribute("data-tc-scrolls", scrolls);
  }
}

function onLoad() { reachableScrollers(); scrollCues(); }
document.addEventListener("DOMContentLoaded", reachableScrollers);
window.addEventListener("load", onLoad);
window.addEventListener("resize", scrollCues);
// A table inside a closed <details> (a roller cell's odds) has no width until it opens.
document.addEventListener("toggle", scrollCues, true);
