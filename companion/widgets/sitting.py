"""The sitting beside the roll log: provably fair seeds in plain words (issue 32).

[SittingPanel][companion.widgets.sitting.SittingPanel] sits in the roll log
([RollLogPanel][companion.widgets.rolls.RollLogPanel]) and says, before any tap:

- the current **sitting** ("Sitting 3, open since entry 41: the server's seed is sealed"),
  or that none is open and the next roll opens one; the sitting's published hash, client
  seeds and roll count are folded under *details*
  ([details_html][companion.widgets.markup.details_html]);
- this seat's **client seed** (the one published in the sitting, or the one it set for
  the next sitting: issue 49 fixes a sitting's client seeds at its opening; else that this
  device draws one with the seat's first roll), and a box and button to set the seat's own
  ([Session.set_client_seed][companion.table.session.Session.set_client_seed]; an empty
  box draws a fresh one on this device);
- for the GM, **Close the sitting**
  ([Session.close_sitting][companion.table.session.Session.close_sitting]): a destructive
  button (it publishes the server seed, and with it the seeds of hidden rolls not yet
  revealed), so it asks for a second, separate tap
  ([confirm_button][companion.widgets.controls.confirm_button]);
- once the newest sitting is closed, how to check it: ``companion log NAME --json >
  log.json && companion verify log.json``, or the site's Fair dice page.

A view only: every change goes through the page's table session, which checks the seat
against the store. The close button exists on every seat's page but is shown to the GM
only; a player's crafted message that presses it is refused by the session ("only the GM
closes a sitting") and nothing is stored.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.sittings import seat_name
from companion.table.session import Session
from companion.widgets.base import ErrorLine, button, confirm_button, disable_for, row, text_box
from companion.widgets.markup import Markup, details_html, el, frag, join

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["CLOSE_PROMPT", "SittingPanel", "check_command"]

#: What the close button says after its first tap (the second, separate tap closes).
CLOSE_PROMPT = "Tap again to close: the server's seed is published"


def check_command(name: str) -> str:
    """The shell line that checks a closed sitting of campaign ``name``.

    >>> check_command("Tuesday group")
    "companion log 'Tuesday group' --json > log.json && companion verify log.json"
    """
    return f"companion log {shlex.quote(name)} --json > log.json && companion verify log.json"


class SittingPanel(widgets.VBox):
    """The sitting of ``campaign`` as this page's seat sees it (``.tc-sitting-panel``): the
    status line (``.tc-sitting-status``), the client seed box (``.tc-text-client-seed``)
    and button (``.tc-btn-client-seed``), the GM's close button
    (``.tc-btn-close-sitting``) and, after a close, how to check it
    (``.tc-sitting-check``). [render][companion.widgets.sitting.SittingPanel.render]
    draws it again (the roll log calls it on every change of the campaign)."""

    def __init__(self, session: Session, *, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error if error is not None else ErrorLine()
        #: A client seed this page set while no sitting was open (published with the
        #: seat's first roll of the next one).
        self._waiting_seed: str | None = None
        self.status = widgets.HTML()
        self.status.add_class("tc-sitting-status")
        self.seed_box = text_box("your own client seed (empty: a fresh one)",
                                 name="client-seed")
        self.seed_button = button("Set my client seed", self.set_seed, error=self.error,
                                  name="client-seed")
        self.close_button = confirm_button(
            "Close the sitting", self.close_sitting, risky=lambda: self.session.sitting.open,
            prompt=CLOSE_PROMPT, error=self.error, name="close-sitting")
        self.check_line = widgets.HTML()
        self.check_line.add_class("tc-sitting-check")
        seats = self.session.may_roll() is None
        self.seed_row = row(self.seed_box, self.seed_button)
        self.seed_row.layout.display = "" if seats else "none"
        # Made on every page (a crafted message can press any widget the kernel made:
        # the session refuses a player's close), shown to the GM only.
        self.close_button.layout.display = "" if self.session.may_close_sitting() is None \
            else "none"
        self.children = [
            widgets.HTML(el("div", "Fair dice", class_="tc-section")),
            self.status, self.seed_row, self.close_button, self.check_line,
            *([self.error] if error is None else []),
        ]
        self.add_class("tc-sitting-panel")
        self.render()

    # -- reading ---------------------------------------------------------------------------

    @property
    def seat(self) -> str:
        """The name this seat's client seed is published under."""
        return seat_name(self.session.who, self.session.seat_role)

    def render(self) -> None:
        """Say the sitting, this seat's client seed and, after a close, how to check it."""
        state = self.session.sitting
        if state.open:
            said = (f"Sitting {state.number}, open since entry {state.opened_at}: the "
                    "server's seed is sealed. Nobody can pick a roll; the seed is published "
                    "when the GM closes the sitting.")
            clients = join((frag(f"{seat}: ", el("code", seed))
                            for seat, seed in sorted(state.clients.items())), "; ")
            fold = details_html(frag(
                "Server seed's SHA-256: ", el("code", state.hash), "; ",
                f"{state.rolls} roll{'s' if state.rolls != 1 else ''} so far; client seeds: ",
                clients or "none yet"), "sitting")
        elif state.number:
            said = (f"Sitting {state.number} is closed: its server seed is published. The "
                    f"next roll opens sitting {state.number + 1}.")
            fold = Markup()
        else:
            said = ("No sitting yet: the next roll opens one, its server seed sealed before "
                    "anyone rolls.")
            fold = Markup()
        self.status.value = frag(
            el("div", said, " ", fold, class_="tc-sitting", data_sitting=state.number,
               data_state="open" if state.open else "closed" if state.number else "none"),
            self._seed_html())
        # Any change of the campaign (a roll, another screen's close) puts the label back:
        # a close armed before it asks again.
        self.close_button.disarm()
        disable_for(self.close_button, None if state.open else
                    "no sitting is open: the next roll opens one")
        self.check_line.value = self._check_html() if state.number and not state.open else ""

    def _seed_html(self) -> Markup:
        if self.session.may_roll() is not None:  # a watcher sets no client seed
            return Markup()
        state = self.session.sitting
        published = state.clients.get(self.seat) if state.open else None
        coming = state.pending.get(self.seat)
        # The seed itself is for whoever checks the log: folded, like a roll's seed.
        if published is not None:
            said = frag("Your client seed is published in this sitting: every roll mixes it "
                        "in. ", details_html(frag(
                            f"Client seed of {self.seat}: ", el("code", published),
                            " (the log must show this one)"), "client-seed"))
        elif coming is not None:
            said = frag("Your client seed for the next sitting is published: it is fixed "
                        "when that sitting opens. ", details_html(frag(
                            f"Client seed of {self.seat} for the next sitting: ",
                            el("code", coming), " (the log must show this one)"),
                            "client-seed"))
        elif state.open and state.fixed:
            said = frag("This sitting's client seeds were fixed when it opened; your device "
                        "offers a fresh one for the next sitting with your first roll, or set "
                        "your own below.")
        elif self._waiting_seed is not None:
            said = frag("Your client seed is published with your first roll of the next "
                        "sitting. ", details_html(frag(
                            "Client seed: ", el("code", self._waiting_seed)), "client-seed"))
        else:
            said = frag("Your device draws your client seed with your first roll of the "
                        f"{'' if state.open else 'next '}sitting; or set your own below.")
        return el("div", said, class_="tc-client-seed", data_seat=self.seat)

    def _check_html(self) -> Markup:
        number = self.session.sitting.number
        command = check_command(self.session.name)
        return el("div", f"To check sitting {number}: ", el("code", command),
                  ", or drop the exported log on the site's ", el("b", "Fair dice"), " page.",
                  class_="tc-roll-note", data_sitting=number)

    # -- acting (through the session) ------------------------------------------------------

    def set_seed(self) -> None:
        """Set this seat's client seed to the box's text (empty: a fresh one)."""
        text = str(self.seed_box.value).strip()
        stored = self.session.set_client_seed(text or None)
        self._waiting_seed = None if stored is not None or self.session.sitting.open \
            else self.session.client_seed
        self.seed_box.value = ""
        self.render()

    def close_sitting(self) -> None:
        """Close the open sitting (the GM's; the session refuses anyone else)."""
        self.session.close_sitting()
        self.render()
