"""Every built HTML page, checked without a browser (issue 27).

The browser sweep (``test_site_pages.py``) visits one page per template, because hundreds of
pages share a template and each visit costs a second or more. What can be read from the HTML
alone is checked here over *every* page, in a few seconds:

- every link inside the site reaches a file of the site, and a ``#fragment`` an element of
  the page it points to;
- no id is used twice on one page (``aria-labelledby``, ``label for`` and fragments would
  then point at the wrong element);
- every link, button, image and form control has an accessible name (text, ``aria-label``,
  ``aria-labelledby``, ``title``, ``alt`` or a ``<label>``);
- the page says its language and has a title.
"""

from __future__ import annotations

import functools
import html.parser
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

# Elements whose content never holds a name (void elements close themselves).
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
CONTROLS = {"input", "select", "textarea"}
#: Inputs that need no name: hidden ones, and buttons named by their value.
UNNAMED_INPUT_TYPES = {"hidden", "submit", "reset", "button", "image"}
#: Material's state checkboxes (drawer, search, nav sections): its CSS never shows them, so
#: no one reaches them (axe skips them too); their labels are the visible controls.
CSS_HIDDEN_CLASS = "md-toggle"


@dataclass
class _Named:
    """An element that needs an accessible name, and what it has collected so far."""

    tag: str
    attrs: dict[str, str]
    line: int
    text: list[str] = field(default_factory=list)

    def named(self, labels: set[str]) -> bool:
        a = self.attrs
        if any(a.get(k, "").strip() for k in ("aria-label", "aria-labelledby", "title")):
            return True
        if self.tag == "img":
            return "alt" in a  # alt="" marks a decorative image, which is allowed
        if self.tag in CONTROLS:
            return a.get("id", "") in labels or a.get("type", "") in UNNAMED_INPUT_TYPES
        return bool("".join(self.text).strip())


class PageReader(html.parser.HTMLParser):
    """Collects ids, links and the elements that need a name from one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[tuple[str, int]] = []
        self.label_targets: set[str] = set()
        self.needs_name: list[_Named] = []
        self.lang = ""
        self.title = ""
        self._open: list[_Named] = []  # links and buttons whose text is being read
        self._in_label = 0
        self._in_title = False
        self._hidden_depth = 0  # inside aria-hidden content (not read out, needs no name)
        self._stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attr_list}
        line = self.getpos()[0]
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "html":
            self.lang = attrs.get("lang", "")
        if tag == "title":
            self._in_title = True
        if tag == "label":
            if attrs.get("for"):
                self.label_targets.add(attrs["for"])
            self._in_label += 1
        if tag == "a" and "href" in attrs:
            self.links.append((attrs["href"], line))
        hidden = attrs.get("aria-hidden") == "true"
        if tag not in VOID:
            self._stack.append((tag, hidden))
            if hidden:
                self._hidden_depth += 1
        if self._hidden_depth:
            return
        if tag in ("a", "button") and (tag == "button" or "href" in attrs):
            item = _Named(tag, attrs, line)
            self.needs_name.append(item)
            self._open.append(item)
        elif tag == "img" or (tag in CONTROLS and not self._in_label
                              and CSS_HIDDEN_CLASS not in attrs.get("class", "").split()):
            self.needs_name.append(_Named(tag, attrs, line))
        if tag == "img" and attrs.get("alt", "").strip():
            for item in self._open:  # an image's alt names the link around it
                item.text.append(attrs["alt"])
        if tag == "svg" and attrs.get("aria-label"):
            for item in self._open:
                item.text.append(attrs["aria-label"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag == "label" and self._in_label:
            self._in_label -= 1
        if tag in ("a", "button") and self._open and self._open[-1].tag == tag:
            self._open.pop()
        # Close up to the matching open tag (browsers forgive unclosed inline tags).
        for depth in range(len(self._stack) - 1, -1, -1):
            if self._stack[depth][0] == tag:
                for _tag, hidden in self._stack[depth:]:
                    if hidden:
                        self._hidden_depth -= 1
                del self._stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if not self._hidden_depth:
            for item in self._open:
                item.text.append(data)


@functools.cache
def read_page(path: Path) -> PageReader:
    reader = PageReader()
    reader.feed(path.read_text(encoding="utf-8"))
    reader.close()
    return reader


def _pages(site: Path) -> list[Path]:
    # The static apps are drawn by the widget manager at run time (their HTML is a shell):
    # the app tests check them in a browser, with the apps running.
    return sorted(p for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] not in ("apps", "assets"))


def _target(site: Path, page: Path, href: str) -> tuple[Path | None, str]:
    """The file a site-internal ``href`` of ``page`` reaches (None for another host or
    scheme) and its fragment."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None, ""
    if not parts.path:
        return page, unquote(parts.fragment)
    path = unquote(parts.path)
    # The 404 page links from the site's root (it is served at any depth).
    base = "" if path.startswith("/") else page.parent.relative_to(site).as_posix()
    joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
    target = site / joined
    if parts.path.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target, unquote(parts.fragment)


def test_every_internal_link_reaches_a_page_and_its_anchor(built_site: Path) -> None:
    pages = _pages(built_site)
    assert len(pages) > 200
    broken: list[str] = []
    checked = 0
    for page in pages:
        for href, line in read_page(page).links:
            target, fragment = _target(built_site, page, href)
            if target is None:
                continue
            checked += 1
            where = f"{page.relative_to(built_site)}:{line} -> {href}"
            if not target.is_file():
                broken.append(f"{where} (no such file)")
            elif fragment and target.suffix == ".html" and fragment not in read_page(target).ids:
                broken.append(f"{where} (no id {fragment!r} there)")
    assert checked > 1000, checked
    assert broken == [], "\n".join(broken[:40])


def test_no_id_is_used_twice_on_a_page(built_site: Path) -> None:
    repeated = []
    for page in _pages(built_site):
        seen: set[str] = set()
        for ident in read_page(page).ids:
            if ident in seen:
                repeated.append(f"{page.relative_to(built_site)}: id {ident!r}")
            seen.add(ident)
    assert repeated == [], "\n".join(repeated[:40])


def test_every_link_button_image_and_control_has_a_name(built_site: Path) -> None:
    unnamed = []
    for page in _pages(built_site):
        reader = read_page(page)
        for item in reader.needs_name:
            if not item.named(reader.label_targets):
                attrs = " ".join(f'{k}="{v}"' for k, v in list(item.attrs.items())[:4])
                unnamed.append(f"{page.relative_to(built_site)}:{item.line} <{item.tag} {attrs}>")
    assert unnamed == [], "\n".join(unnamed[:40])


def test_every_page_has_a_language_and_a_title(built_site: Path) -> None:
    missing = [str(p.relative_to(built_site)) for p in _pages(built_site)
               if not read_page(p).lang or not read_page(p).title.strip()]
    assert missing == []


@pytest.mark.parametrize("bad", [
    '<a href="nowhere/">x</a>',
    '<a href="#no-such-id">x</a>',
    '<a href="../index.html"><span aria-hidden="true">icon</span></a>',
    '<p id="x"></p><p id="x"></p>',
    '<input type="text" id="q">',
    '<img src="a.png">',
])
def test_the_checks_catch_what_they_look_for(bad: str, tmp_path: Path) -> None:
    """Each check above fails on a page with its fault (a check that cannot fail guards
    nothing)."""
    site = tmp_path / "site"
    (site / "page").mkdir(parents=True)
    (site / "index.html").write_text('<html lang="en"><title>Home</title></html>')
    page = site / "page" / "index.html"
    page.write_text(f'<html lang="en"><title>T</title><body>{bad}</body></html>')
    read_page.cache_clear()
    reader = read_page(page)
    faults = [href for href, _ in reader.links
              if (t := _target(site, page, href))[0] is None or not t[0].is_file()
              or (t[1] and t[1] not in read_page(t[0]).ids)]
    faults += [i for i in reader.ids if reader.ids.count(i) > 1]
    faults += [i.tag for i in reader.needs_name if not i.named(reader.label_targets)]
    read_page.cache_clear()
    assert faults, bad
