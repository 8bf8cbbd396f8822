// A code block wider than the screen scrolls sideways: make it reachable by keyboard
// (tabindex) so it can be scrolled without a mouse (WCAG 2.1.1).
document.addEventListener("DOMContentLoaded", () => {
  for (const code of document.querySelectorAll(".md-typeset pre > code")) {
    if (!code.hasAttribute("tabindex")) code.setAttribute("tabindex", "0");
  }
});
