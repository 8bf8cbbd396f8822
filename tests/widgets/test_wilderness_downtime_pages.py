"""The Cairn wilderness and downtime apps' flows, in-process, on the pages their notebooks
build (the demos).

These were the rule steps of tests/browser/test_wilderness_downtime_apps.py: a route planned
from the tables, a watch stepped through (the roll's seed shown), a refusal under its box; a
downtime cycle's upkeep paid and its step finished. The browser keeps one phone journey per
app (layout, tap targets, the round trip); every rule assertion is made here.
"""

from __future__ import annotations

from companion.rulesets.cairn_srd import wilderness as wd
from tests.widgets.app_page import AppPage


def test_wilderness_route_and_a_watch() -> None:
    page = AppPage("wilderness")
    page.fill("traveller", "Ash")
    page.tap("add-traveller")
    page.outcome(1)
    page.one("tc-select-path").value = "Trails"
    page.one("tc-select-distance").value = "Long"
    page.one("tc-select-terrain").value = "Swamp"
    page.tap("add-leg")
    page.outcome(2)
    watches = wd.plan_leg(wd.make_leg("Trails", "Long", "Swamp")).watches  # 1 + 3 + 2
    assert f"Total {watches} watches" in page.find_text("tc-route-total")
    assert page.button("travel").disabled
    page.tap("weather")
    page.outcome(3)
    page.tap("choose")
    page.outcome(4)
    assert page.has("tc-watch", data_step="3")
    page.tap("travel")
    travelled = page.find("tc-outcome", data_n="5")
    seed = travelled.split('data-seed="', 1)[1].split('"', 1)[0]
    assert f"seed {seed}" in page.outcome(5)
    page.tap("light")
    page.outcome(6)
    page.tap("event")
    page.outcome(7)
    assert page.has("tc-watch", data_step="1")
    assert "evening watch" in page.find_text("tc-watch")
    page.fill("sea", "7")
    assert "too high" in page.refusal("sea")


def test_downtime_upkeep_and_step() -> None:
    page = AppPage("downtime")
    page.fill("member", "Bo")
    page.fill("purse", "40")
    page.tap("add-member")
    page.outcome(1)
    assert page.button("finish-step").disabled
    page.one("tc-select-way").value = "pay"
    page.one("tc-select-lifestyle").value = "Comfortable"
    page.tap("upkeep")
    assert "pays 25 silver (comfortable)" in page.outcome(2)
    assert "15" in page.find_text("tc-members")
    page.tap("finish-step")
    page.outcome(3)
    assert page.has("tc-cycle", data_step="2")
    page.fill("amount", "0")
    assert page.refusal("amount")
