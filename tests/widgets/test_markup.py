"""The element builder escapes by default (issue 43): text and attribute values a player
typed come back as the same text and never as a tag."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.widgets.markup import Markup, el, frag, join


class _Read(HTMLParser):
    """What a browser's parser makes of a fragment: its tags, attributes and text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.ends: list[str] = []
        self.text: list[str] = []
        self.other: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        self.ends.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.other.append(f"comment {data}")

    def handle_decl(self, decl: str) -> None:
        self.other.append(f"decl {decl}")

    def handle_pi(self, data: str) -> None:
        self.other.append(f"pi {data}")

    def unknown_decl(self, data: str) -> None:
        self.other.append(f"unknown {data}")


def read(markup: str) -> _Read:
    parser = _Read()
    parser.feed(markup)
    parser.close()
    return parser


def test_text_and_attributes_are_escaped_and_quoted() -> None:
    made = el("span", "<b>Ann</b> & 'Bo'", class_="tc-who", title='"><script>x</script>',
              data_n=3)
    assert made == ('<span class="tc-who" title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" '
                    'data-n="3">&lt;b&gt;Ann&lt;/b&gt; &amp; &#x27;Bo&#x27;</span>')
    assert isinstance(made, Markup)


def test_markup_goes_in_as_it_is_and_plain_text_does_not() -> None:
    inner = el("b", "x")
    assert el("div", inner, "<b>y</b>") == "<div><b>x</b>&lt;b&gt;y&lt;/b&gt;</div>"
    assert frag(inner, None, False, [1, (2, "<")]) == "<b>x</b>12&lt;"
    assert join(["a&b", inner, 3], ", ") == "a&amp;b, <b>x</b>, 3"
    assert join([], ", ") == ""


def test_boolean_attributes_and_void_elements() -> None:
    assert el("input", type="checkbox", checked=True, disabled=False, title=None) == (
        '<input type="checkbox" checked>')
    assert el("ol", el("li", "a"), reversed=True) == "<ol reversed><li>a</li></ol>"
    assert el("td", "x", attrs={"aria-label": "a<b"}) == '<td aria-label="a&lt;b">x</td>'
    with pytest.raises(ValueError, match="holds nothing"):
        el("br", "x")


@pytest.mark.parametrize(("tag", "attributes"), [
    ("b onclick=x", {}), ("<b>", {}), ("", {}), ("b", {"attrs": {"x onclick": "y"}}),
    ("b", {"attrs": {'x"': "y"}}),
])
def test_a_tag_or_attribute_name_that_is_not_one_is_refused(
        tag: str, attributes: dict[str, dict[str, str]]) -> None:
    with pytest.raises(ValueError, match=r"el: .* is not"):
        el(tag, "x", **attributes)  # type: ignore[arg-type]


def test_true_is_not_content() -> None:
    with pytest.raises(TypeError, match="True is not content"):
        el("b", True)


def test_two_fragments_added_stay_a_fragment_and_a_plain_string_does_not() -> None:
    both = el("b", "x") + el("i", "y")
    assert isinstance(both, Markup) and both == "<b>x</b><i>y</i>"
    mixed = el("b", "x") + "<i>"
    assert not isinstance(mixed, Markup)
    assert frag(mixed) == "&lt;b&gt;x&lt;/b&gt;&lt;i&gt;"


@given(st.text())
def test_any_text_reads_back_as_the_same_text_and_never_a_tag(text: str) -> None:
    parsed = read(el("span", text))
    assert parsed.tags == [("span", [])] and parsed.ends == ["span"] and parsed.other == []
    assert "".join(parsed.text) == text


@given(st.text(), st.text())
def test_any_attribute_value_reads_back_as_the_same_value(title: str, data: str) -> None:
    parsed = read(el("b", "x", title=title, data_v=data))
    assert parsed.tags == [("b", [("title", title), ("data-v", data)])]
    assert parsed.text == ["x"] and parsed.ends == ["b"]


@given(st.lists(st.text(), max_size=5))
def test_any_text_joined_makes_no_tag(parts: list[str]) -> None:
    parsed = read(el("p", join(parts, el("br"))))
    assert [tag for tag, _ in parsed.tags] == ["p"] + ["br"] * max(0, len(parts) - 1)
    assert parsed.other == []
