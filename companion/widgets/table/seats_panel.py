"""The start app's seats panel: the GM invites, renews and revokes seats.

Shown to the GM only (a player's or spectator's page never builds its contents), and
never in the serverless apps (the campaign lives on one device, passed round): the GM's
own link to bookmark; *Invite* (a name and gm/player) makes a seat and shows its link with
a QR code that a phone scans to join (drawn as SVG by ``segno``); *New link* gives a seat a
new secret (the old link opens nothing); *Revoke* (a second tap) closes a seat. A secret is
shown once, to the GM who made it: the database keeps only its hash
([companion.store.seats][]). *Table trust* (two switches and *Save table trust*): whether
players may enter their own dice for saves and checks, and edit their own numbers (both
off until the GM turns them on; [Campaign.set_trust][companion.store.campaign.Campaign.set_trust]).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.names import same_name
from companion.table import Session
from companion.widgets.base import ErrorLine, button, check_box, confirm_button, name_box, row
from companion.widgets.markup import Markup, el
from companion.widgets.table.binding import (
    WIDGET_LOCK,
    hub_service,
    hub_user,
    page_address,
    seat_key_of,
    serverless,
)

if TYPE_CHECKING:
    from companion.widgets.table.start import TableApp

__all__ = ["SeatsPanel", "phone_url", "qr_svg", "seat_url"]


def seat_url(campaign: str, secret: str) -> str:
    """The start app's address that opens ``campaign`` as the seat ``secret``."""
    from companion.links import seat_link

    return seat_link(campaign, secret, page_address())


def phone_url(campaign: str, secret: str, rulesets: tuple[str, ...]) -> str | None:
    """The phone app's address (issue 44: no kernel on the server) that opens
    ``campaign`` as the seat ``secret`` (``""``: as the hub's login says): the first app
    of the campaign's rulesets that this server's phone build holds
    (``companion.app.phone_dir``); ``None`` when it holds none, or the address is not a
    Voila page's (the link is then the start app's)."""
    from urllib.parse import urlencode

    from companion.app import phone_dir
    from companion.widgets.table.apps import APPS

    folder = phone_dir()
    address = page_address()
    if folder is None or "/voila/" not in address:
        return None
    built = {p.stem for p in folder.glob("*.html")}
    app = next((a.key for a in APPS if a.key in built and a.ruleset in rulesets), None)
    if app is None:
        return None
    root = address.split("/voila/", 1)[0]
    # Under the hub no secret goes in the address: the hub's login decides the seat.
    query = {"campaign": campaign, **({"seat": secret} if secret else {})}
    return f"{root}/phone/{app}.html?{urlencode(query)}"


def qr_svg(text: str) -> Markup:
    """``text`` as a QR code, inline SVG (no script, no image request)."""
    import segno

    # segno writes the SVG itself, from the text's bits only: markup as it comes.
    return Markup(segno.make(text, error="m").svg_inline(scale=4, border=2, dark="#000",
                                                       light="#fff"))


#: What an invitation says on the club's hub (``companion.app.hub``) instead of a link.
HUB_INVITE = ("sign in to the club's hub as {name} and open the table (no link needed; "
              "the hub name is the seat)")


class SeatsPanel(widgets.VBox):
    """The seats of ``app``'s open campaign, for its GM (see the module docs)."""

    #: Whose seat link ``invite_out`` shows ("": none), so revoking that seat hides it.
    shown_for = ""

    def __init__(self, app: TableApp) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%", display="none"))
        self.add_class("tc-seats")
        self.app = app
        self.error = ErrorLine()
        self.gm_link = widgets.HTML()
        self.gm_link.add_class("tc-gm-link")
        self.listing = widgets.HTML()
        self.listing.add_class("tc-seat-list")
        self.invite_out = widgets.HTML()
        self.invite_out.add_class("tc-invite")
        self.name = name_box("Seat for", "", "seat-who", max_len=40, required=False,
                             placeholder="a player's name")
        self.seat_role = widgets.Dropdown(tooltip="The seat's role",
                                          options=[("Player", "player"), ("GM", "gm")],
                                          value="player",
                                          layout=widgets.Layout(width="120px",
                                                                min_height="40px"))
        self.seat_role.add_class("tc-seat-role")
        self.invite_button = button("Invite", self.invite, error=self.error, name="invite",
                                    style="primary")
        self.pick = widgets.Dropdown(tooltip="A seat", options=[], description="Seat",
                                     layout=widgets.Layout(width="auto", min_height="40px"))
        self.pick.add_class("tc-seat-pick")
        self.renew_button = button("New link", self.renew, error=self.error, name="renew-seat")
        self.revoke_button = confirm_button(
            "Revoke", self.revoke, risky=lambda: True, prompt="Tap again: revoke the seat",
            error=self.error, name="revoke-seat")
        self.own_dice = check_box("Players may enter their own dice for saves and checks",
                                  "trust-own-dice")
        self.own_numbers = check_box("Players may edit their own numbers",
                                     "trust-own-numbers")
        self.trust_button = button("Save table trust", self.save_trust, error=self.error,
                                   name="save-trust")
        self.children = (
            widgets.HTML(el("b", "Seats")), self.gm_link,
            row(self.name, self.seat_role, self.invite_button),
            row(self.pick, self.renew_button, self.revoke_button),
            widgets.HTML(el("b", "Table trust")), self.own_dice, self.own_numbers,
            self.trust_button, self.error, self.invite_out, self.listing)

    def _campaign(self) -> str:
        return self._session().name

    def _session(self) -> Session:
        """The page's table session: it decides who manages seats (the GM, read again
        from the store), not this panel."""
        session = self.app.session
        if session is None:
            raise CompanionError("only the campaign's GM manages its seats")
        refusal = session.may_manage_seats()  # asked first: before any word on the choice
        if refusal is not None:
            raise CompanionError(refusal)
        return session

    def render(self) -> None:
        """Show the panel to the GM (hide it, empty, from anyone else)."""
        # Serverless: the campaign lives on this device; links, QR codes and the server's
        # address would lead nowhere (and the QR package is not in the page's bundle).
        if self.app.session is None or not self.app.session.is_gm or serverless():
            self.layout.display = "none"
            for part in (self.gm_link, self.listing, self.invite_out):
                part.value = ""
            self.pick.options = []
            return
        self.layout.display = ""
        context = self.app.context
        if context.seat:
            link = seat_url(context.campaign, context.seat)
            self.gm_link.value = el(
                "div", "Your GM link: bookmark it (it opens this campaign as you, on any "
                "device): ", el("a", link, href=link), class_="tc-gm-link-line")
        elif hub_user():
            self.gm_link.value = el("div", "Signed in through the hub as ", el("b", hub_user()),
                                    ": no link needed.", class_="tc-gm-link-line")
        else:
            self.gm_link.value = ""
        trust = self.app.session.trust
        self.own_dice.value, self.own_numbers.value = trust.own_dice, trust.own_numbers
        self._list()

    def save_trust(self) -> None:
        """Set the table's trust as the two switches say (the GM's move, in the log)."""
        session = self._session()
        if not session.is_gm:  # the holder's page (code) is not the campaign's GM
            raise CompanionError("only the campaign's GM sets the table's trust")
        session.set_trust(own_dice=bool(self.own_dice.value),
                          own_numbers=bool(self.own_numbers.value))

    def _list(self) -> None:
        seats = self._session().seats()
        items = [el("li", f"{s.who} ({'GM' if s.role == 'gm' else 'player'}; made "
                    f"{s.created[:10]})", data_who=s.who) for s in seats]
        self.listing.value = el("ul", items, class_="tc-seat-items") if items else ""
        options = [(f"{s.who} ({'GM' if s.role == 'gm' else 'player'})", s.who) for s in seats]
        if list(self.pick.options) != options:
            keep = self.pick.value
            self.pick.options = options
            keys = [k for _, k in options]
            self.pick.value = keep if keep in keys else (keys[0] if keys else None)
        self.renew_button.disabled = self.revoke_button.disabled = not options

    def _show(self, who: str, role: str, secret: str) -> None:
        if hub_service():  # the club's hub: the seat is the hub name, no secret to pass on
            self.shown_for = who
            session = self.app.session
            phone = phone_url(self._campaign(), "", session.rulesets
                              if session is not None else ()) if role == "player" else None
            on_a_phone = () if phone is None else (
                " On a phone (no kernel on the server; sign in to the hub there): ",
                el("a", phone, href=phone, target="_blank"),
                el("div", qr_svg(phone), class_="tc-qr"))
            self.invite_out.value = el(
                "div", el("b", who), f" has a {'GM' if role == 'gm' else 'player'} seat: "
                f"{HUB_INVITE.format(name=who)}.", *on_a_phone,
                class_="tc-seat-link tc-seat-hub", data_who=who)
            return
        link = seat_url(self._campaign(), secret)
        if role == "player":  # a player's phone opens the phone app (the GM keeps Voila)
            session = self.app.session
            link = phone_url(self._campaign(), secret,
                             session.rulesets if session is not None else ()) or link
        self.shown_for = who
        self.invite_out.value = el(
            "div", el("b", who), f"'s link ({'GM' if role == 'gm' else 'player'}): scan it or "
            "send it; it is shown only now. ", el("a", link, href=link, target="_blank"),
            el("div", qr_svg(link), class_="tc-qr"), class_="tc-seat-link", data_who=who)

    def invite(self) -> None:
        """Make (or renew) the seat typed and show its link and QR code."""
        session = self._session()
        who = " ".join(self.name.read().split())
        role = str(self.seat_role.value)
        with WIDGET_LOCK:  # renewing one's own seat and following it: one step (see renew)
            secret = session.invite(who, role)
            if same_name(who, session.who):  # the GM's own, renewed
                self._moved_own_seat(secret)
        self.name.value = ""
        self._show(who, role, secret)
        self._list()

    def renew(self) -> None:
        """Give the chosen seat a new secret: its old link opens nothing."""
        session = self._session()
        chosen = str(self.pick.value or "")
        seat = next((s for s in session.seats() if s.who == chosen), None)
        if seat is None:
            raise CompanionError("choose a seat first")
        own = same_name(seat.who, session.who)
        # Renewing one's own seat and following it are one step for the live watcher's seat
        # check (it demotes under the same lock): else it could read the old link between
        # the two and turn the GM into a spectator (seen under load).
        with WIDGET_LOCK:
            secret = session.invite(seat.who, seat.role)
            if own:
                self._moved_own_seat(secret)
        self._show(seat.who, seat.role, secret)
        self._list()

    def revoke(self) -> None:
        """Revoke the chosen seat (not the GM's own: that would lock the GM out)."""
        session = self._session()
        chosen = str(self.pick.value or "")
        if not chosen:
            raise CompanionError("choose a seat first")
        session.revoke_seat(chosen)
        if self.shown_for == chosen and self.invite_out.value:
            self.invite_out.value = ""
        self._list()

    def _moved_own_seat(self, secret: str) -> None:
        """The GM renewed their own seat: this page follows it to the new link."""
        from companion.widgets.table.binding import live, url_script

        self.app.context = self.app.context.with_(seat=secret)
        self.app.url.value = url_script(self.app.context)
        if self.app.session is not None:  # the seat check follows the new secret
            key = seat_key_of(self.app.context)
            if key is not None:  # the same seat proven anew: its session follows it
                self.app.session.renew(key)
            live(self.app.session, self.app.context)
        self.render()
