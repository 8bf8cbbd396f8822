"""How every app looks: the phone-width CSS, scoped under ``.tc-app``, and its sizes.

Layouts wrap at 390 px instead of scrolling sideways, text is at least 16 px, and buttons,
checkboxes and list options are tap targets. Labels are text only (Voila loads Font
Awesome from a CDN, so icon names would show as blanks at an offline table).
"""

from __future__ import annotations

import ipywidgets as widgets

from companion.widgets.markup import Markup, el, frag

__all__ = [
    "APP_MAX_WIDTH",
    "CSS",
    "MIN_BUTTON_HEIGHT",
    "TAP_ANSWER_MS",
    "style_tag",
]

MIN_BUTTON_HEIGHT = "44px"
"""Smallest tap target: a fingertip on a phone at the table."""


APP_MAX_WIDTH = "760px"
"""Wider apps are hard to read on a laptop; on a phone the screen is the limit."""


_DARK = ("--tc-error: #ff8a80; --tc-muted: #c4c4c4; --tc-line: #444; --tc-edge: #9e9e9e; "
         "--tc-focus: #8ab4f8; --tc-strong: #e0e0e0; --tc-ok: #81c995; --tc-panel: #2a2a2a; "
         "--tc-card: #1e1e1e; --tc-warn-bg: #4a3b10; --tc-bad-bg: #4a1f1f; --tc-turn-bg: #1c2b45;")
"""The app's own colours on a dark page (tables are often dimly lit); light ones in CSS."""

CSS = ("""
/* Readable at arm's length on a phone: body text 16px (phone browsers also zoom the page
   into any box whose text is smaller when it is focused). The variables are ipywidgets' and
   JupyterLab's own, so labels, HTML, inputs and selects follow them. */
.tc-app { box-sizing: border-box; max-width: min(100%, 760px); width: 100%;
  font-size: 16px; line-height: 1.4;
  --jp-widgets-font-size: 16px; --jp-ui-font-size1: 16px; --jp-content-font-size1: 16px;
  --jp-widgets-inline-height: 44px; --jp-widgets-inline-label-width: auto;
  --tc-error: #b00020; --tc-muted: #555; --tc-line: #ddd; --tc-edge: #767676;
  --tc-focus: #0b57d0; --tc-strong: #333; --tc-ok: #0a6b2c; --tc-panel: #f6f6f6;
  --tc-card: #fff; --tc-warn-bg: #fff4d6; --tc-bad-bg: #fde2e2; --tc-turn-bg: #e8f0fe; }
.tc-app * { box-sizing: border-box; }
.tc-app .widget-label, .tc-app .widget-label-basic, .tc-app .widget-html-content,
.tc-app .widget-inline-hbox label, .tc-app .widget-html, .tc-app td, .tc-app th,
.tc-app li, .tc-app p { font-size: 16px; }
.tc-app .widget-label, .tc-app .widget-inline-hbox .widget-label { line-height: 1.4;
  height: auto; min-height: 44px; display: flex; align-items: center; }
.tc-app .tc-row { display: flex; flex-flow: row wrap; gap: 6px; align-items: center;
  max-width: 100%; margin: 3px 0; }
.tc-app .tc-row > * { margin: 0; }
.tc-app .tc-btn, .tc-app .tc-btn.jupyter-button, .tc-app .jupyter-button { min-height: 44px;
  height: auto; min-width: 44px; width: auto; padding: 4px 10px; font-size: 16px; }
.tc-app .tc-text { max-width: 100%; min-width: 0; flex: 1 1 160px; }
.tc-app .tc-text input { min-height: 44px; font-size: 16px; }
.tc-app .widget-text, .tc-app .widget-dropdown { height: auto; min-height: 44px;
  align-items: center; }
.tc-app .widget-text input, .tc-app .widget-dropdown select, .tc-app textarea,
.tc-app .widget-select select { min-height: 44px; font-size: 16px; }
.tc-app .widget-text input, .tc-app .widget-dropdown select { height: 44px; }
/* A box shows its value at 390 px: its input never narrower than a few digits, a list
   never narrower than its options; a label too long for the box puts the input under it
   instead of squeezing it (number boxes were 18 px wide, a list 2 px). */
.tc-app .widget-inline-hbox { flex-wrap: wrap; max-width: 100%; }
.tc-app .widget-text input, .tc-app .widget-dropdown select { min-width: 4.5em; }
.tc-app .widget-select select { min-width: 10em; max-width: 100%; }
/* Checkboxes: the whole label is the tap target, 44px tall; the box itself 32px. */
.tc-app .widget-checkbox { height: auto; min-height: 44px; }
.tc-app .widget-checkbox label { min-height: 44px; display: flex; align-items: center;
  gap: 8px; font-size: 16px; cursor: pointer; }
.tc-app .widget-checkbox input { width: 32px; height: 32px; margin: 4px; flex: none; }
/* List options (Select, SelectMultiple, RadioButtons, ToggleButtons) 44px tall. */
.tc-app .widget-select select, .tc-app select[multiple], .tc-app select[size] {
  height: auto; }
.tc-app .widget-select option, .tc-app select[multiple] option, .tc-app select[size] option {
  min-height: 44px; padding: 10px 6px; line-height: 20px; font-size: 16px; }
.tc-app .widget-radio-box label { min-height: 44px; display: flex; align-items: center;
  font-size: 16px; }
.tc-app .widget-radio-box input { width: 24px; height: 24px; margin: 0 8px 0 0; }
.tc-app .widget-toggle-button { min-height: 44px; height: auto; font-size: 16px; }
.tc-app .tc-error { color: var(--tc-error); font-weight: 600; min-height: 1.4em; font-size: 16px;
  overflow-wrap: anywhere; }
.tc-app .tc-error:empty { display: none; }
/* A refusal is shown under its box; the app's error line only carries it. */
.tc-app .tc-error.tc-echoed { display: none; }
/* A checked box: the input, and under it its one-line refusal. */
.tc-app .tc-checked { max-width: 100%; min-width: 0; flex: 0 1 auto; }
.tc-app .tc-checked .tc-refusal { min-height: 0; margin: 2px 0 0 0; }
.tc-app .tc-checked.tc-bad input { border: 2px solid var(--tc-error); }
.tc-app .widget-html-content, .tc-app .widget-html { max-width: 100%; overflow-wrap: anywhere; }
.tc-app svg { max-width: 100%; height: auto; }
.tc-app svg text { fill: currentColor; }  /* a chart's labels follow the theme */
.tc-app .tc-fold-body { padding: 0 0 0 6px; border-left: 3px solid var(--tc-line); }
.tc-app .tc-fold-title { font-weight: 700; }
/* The way back above an app (table/site.py), and the Voila rules page: the apps' look. */
.tc-way-back .tc-nav { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0; }
.tc-way-back a.tc-link, .tc-rules-page a.tc-link { display: inline-flex; align-items: center;
  min-height: 44px; padding: 4px 10px; border: 1px solid var(--tc-edge, #767676);
  border-radius: 4px; text-decoration: none; color: inherit; font-size: 16px; }
.tc-rules-page { font-size: 16px; line-height: 1.4; max-width: 100%; }
.tc-rules-page li { margin: 6px 0; }
.tc-app .tc-link { display: inline-flex; align-items: center; min-height: 44px;
  padding: 4px 10px; border: 1px solid var(--tc-edge); border-radius: 4px; text-decoration: none;
  color: inherit; margin: 0 4px 0 0; font-size: 16px; }
.tc-app .tc-history { margin: 0; padding: 0 0 0 0; list-style: none; max-height: 45vh;
  overflow-y: auto; font-size: 16px; }
.tc-app .tc-history li { padding: 4px 0; border-bottom: 1px solid var(--tc-line); font-size: 16px; }
.tc-app .tc-history .tc-h-total { font-weight: 700; font-size: 18px; }
.tc-app .tc-history .tc-h-meta { color: var(--tc-muted); font-size: 16px; }
.tc-app .tc-history-more { color: var(--tc-muted); font-size: 16px; }
/* A check's total and verdict are read from across the table. */
.tc-app .tc-result span.tc-total { font-size: 30px; font-weight: 800; vertical-align: middle; }
.tc-app .tc-result .tc-verdict { font-size: 18px; vertical-align: middle; }
.tc-app del { text-decoration: line-through; }
/* A roll's seed folded under "details" (markup.details_html): quiet until tapped open. */
.tc-app details.tc-details { display: inline-block; vertical-align: middle; }
.tc-app details.tc-details > summary { display: inline-flex; align-items: center;
  min-height: 44px; padding: 0 6px; cursor: pointer; color: var(--tc-muted);
  text-decoration: underline; }
/* Secondary text (an exact fraction, a note) is read too: 16px, told apart by its colour. */
.tc-app small, .tc-app .tc-note { font-size: 16px; color: var(--tc-muted); }
/* Every control a thumb can reach is at least 44px tall, whatever a module's own CSS says
   (min-height beats any smaller height). A checkbox's tap target is its whole label. */
.tc-app button, .tc-app select:not([multiple]):not([size]), .tc-app textarea,
.tc-app input:not([type=checkbox]):not([type=radio]), .tc-app a.tc-link,
.tc-app .widget-checkbox label, .tc-app .widget-radio-box label {
  min-height: 44px !important; }
/* Keyboard use: where the focus is must be seen, on light and dark alike. */
.tc-app :focus-visible, .tc-app .jupyter-button:focus-visible {
  outline: 3px solid var(--tc-focus) !important; outline-offset: 2px; }
"""
    # Dark: the device's choice on a Voila page (the page template loads JupyterLab's dark
    # variables under the same media query) and on a serverless app's page (its app.css
    # sets them); in JupyterLab itself, the notebook's theme.
    "@media (prefers-color-scheme: dark) { body[data-voila] .tc-app, "
    f"body[data-tc-static] .tc-app {{ {_DARK} }} }}\n"
    f'body[data-jp-theme-light="false"]:not([data-voila]) .tc-app {{ {_DARK} }}\n'
)
"""Phone-width rules, scoped under ``.tc-app`` so they never leak into a notebook."""


#: How long (ms) a button waits at most for the answer to its tap before it takes the
#: next one: only for an answer that never comes (a kernel gone, a page cut off); every
#: tap a button's handler runs for is answered ([TapButton][companion.widgets.controls.TapButton]).
TAP_ANSWER_MS = 10_000

# A tap on a button while the page still waits for the answer to that button's last tap
# is dropped, in the page, before ipywidgets sends it: the same act again while it is
# pending (a double tap on "Take damage" would otherwise reach the kernel as two moves,
# the second sent before the first was stored). The answer is the button's own: its
# answer class flips once its handlers have run (TapButton), so a tap after the answer
# counts however soon it comes (two quick taps on "+1" are two), and nothing else on the
# page (another phone's move re-rendering the sheet) ends the wait early. Typing in a box
# between two taps ends the wait as well: a player who types a new amount and taps again
# means a second tap. The page runs this once (an image's onerror: ipywidgets HTML runs
# no <script>).
_ONE_TAP_JS = (
    "if(!window.tcOneTap){window.tcOneTap=1;var w=[];"
    "function all(){var d=w;w=[];d.forEach(function(f){f();});}"
    "document.addEventListener('input',all,true);"
    "document.addEventListener('change',all,true);"
    "document.addEventListener('click',function(e){"
    "var b=e.target&&e.target.closest&&e.target.closest('.tc-btn');if(!b)return;"
    "if(b.tcWaiting){e.stopImmediatePropagation();e.preventDefault();return;}"
    "var mark=function(){return b.classList.contains('tc-answer-1');},was=mark();"
    "b.tcWaiting=1;var t=0,o=new MutationObserver(function(){if(mark()!==was)done();});"
    "function done(){b.tcWaiting=0;o.disconnect();clearTimeout(t);"
    "var i=w.indexOf(done);if(i>=0)w.splice(i,1);}w.push(done);"
    "o.observe(b,{attributes:true,attributeFilter:['class']});"
    "t=setTimeout(done," + str(TAP_ANSWER_MS) + ");"
    "},true);}")


def style_tag() -> widgets.HTML:
    """An HTML widget carrying [CSS][companion.widgets.styles.CSS], and the page's guard
    against a double tap reaching the kernel as two moves (see ``_ONE_TAP_JS``).

    [app_box][companion.widgets.layout.app_box] adds it once per app.
    """
    # The style sheet is trusted markup (its child selectors must stay ``>``).
    return widgets.HTML(frag(el("style", Markup(CSS)),
                             el("img", alt="", style="display:none", src="data:,",
                                onerror=_ONE_TAP_JS)),
                        layout=widgets.Layout(display="none"))
