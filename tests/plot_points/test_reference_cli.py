"""The generated reference page and `companion check`."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from companion import rulesets
from companion.cli import main
from companion.rulesets.plot_points import PlotCheck
from companion.rulesets.plot_points.reference import reference_pages


def test_reference_page_has_every_difficulty_and_exact_chance() -> None:
    pages = reference_pages()
    assert list(pages) == ["success-chances.md"]
    page = pages["success-chances.md"]
    assert rulesets.get("plot_points").reference_module() is not None
    sections = page.split("\n## ")
    assert sections[1].startswith("Without advantage")
    for section, advantage in zip(sections[1:5], (0, 1, -1, 3), strict=True):
        rows = [line for line in section.splitlines() if re.match(r"^\| \d+ \|", line)]
        assert [int(r.split("|")[1]) for r in rows] == list(range(5, 26))
        for row in rows:
            cells = row.strip("|").split("|")
            dc = int(cells[0])
            exact = [Fraction(m) for m in re.findall(r"\(([\d/]+)\)", row)]
            assert exact == [PlotCheck(a, 0, advantage, dc).chance()  # type: ignore[arg-type]
                             for a in ("weak", "average", "strong")]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_check_json_gives_exact_chance(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--ability", "strong", "--bonus", "2",
                         "--advantage", "-2", "--dc", "15", "--json")
    data = json.loads(out)
    assert status == 0
    assert Fraction(data["p_success"]) == PlotCheck("strong", 2, -2, 15).chance()
    assert data["expr"] == "2d20kh1 + 2 - 1d6"


def test_check_roll_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "check", "--ability", "weak", "--dc", "9", "--roll", "--seed",
                      "11", "--json")
    _, again, _ = run(capsys, "check", "--ability", "weak", "--dc", "9", "--roll", "--seed",
                      "11", "--json")
    assert first == again
    roll = json.loads(first)["roll"]
    assert roll["total"] == PlotCheck("weak", 0, 0, 9).roll(seed=11).total
    totals = set()
    for seed in range(20):  # the library's roll for each seed; other seeds, other totals
        _, out, _ = run(capsys, "check", "--ability", "weak", "--dc", "9", "--roll", "--seed",
                        str(seed), "--json")
        total = json.loads(out)["roll"]["total"]
        assert total == PlotCheck("weak", 0, 0, 9).roll(seed=seed).total, seed
        totals.add(total)
    assert len(totals) > 3
    status, text, _ = run(capsys, "check", "--ability", "weak", "--dc", "9", "--roll",
                          "--seed", "11")
    assert status == 0 and "success 3/5" not in text and "vs difficulty 9" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--ability", "mighty", "--dc", "3"], "invalid choice"),
        (["check", "--ability", "weak"], "--dc"),
        (["check", "--ability", "weak", "--dc", "x"], "invalid int"),
        (["check", "--ability", "weak", "--dc", "3", "--advantage", "500"], "beyond"),
    ],
)
def test_check_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                   message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error:") and message in err
