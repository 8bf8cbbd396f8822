"""Skill tests with their yield, social checks and knowledge checks, as one app.

[SkillTestPanel][companion.widgets.cairn_srd.skills.SkillTestPanel] rolls a task
([task][companion.rulesets.cairn_srd.skills.task]) with its exact chance shown;
[SocialPanel][companion.widgets.cairn_srd.skills.SocialPanel] tries a doubtful tactic on an
NPC and moves the disposition on a success;
[KnowledgePanel][companion.widgets.cairn_srd.skills.KnowledgePanel] answers "does the
character know it?". [TasksApp][companion.widgets.cairn_srd.skills.TasksApp] holds the three.
Every roll draws a seed (shown beside the result); the same seed gives the same roll as
``python -m companion cairn skill|social|knowledge --seed S``. Every roll takes a roll mode
and can be entered from real dice ([common][companion.widgets.cairn_srd.common]).

- Interpretation: a social check this screen may not see (a player's blind roll) leaves
  the disposition shown unchanged: the GM moves it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.rule_rolls import RuleCall
from companion.rulesets.cairn_srd import skills, social
from companion.widgets.base import app_box, disable_for, first_bad_box, int_box, row
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, labelled, pct
from companion.widgets.markup import el

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["KnowledgePanel", "SkillTestPanel", "SocialPanel", "TasksApp"]


class SkillTestPanel(widgets.VBox):
    """Skill, time and tools (0-3), a situational modifier, and the yield of a success."""

    def __init__(self, app: CairnAppBase) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.app = app
        self.have = int_box("Of skill/time/tools", 2, "skill-have", 0, 3, width="200px")
        self.modifier = int_box("Modifier", 0, "skill-modifier", -skills.MAX_MODIFIER,
                                skills.MAX_MODIFIER, width="130px")
        self.produces = widgets.Checkbox(value=False, description="Produces something",
                                         indent=False)
        self.produces.add_class("tc-skill-produces")
        self.steps = int_box("Yield steps up", 0, "skill-steps", 0, skills.MAX_STEPS_UP,
                             width="160px")
        self.chance = widgets.HTML()
        self.roll_button = app.btn("Roll the test", self.roll, "skill-roll", "primary")
        self.children = (widgets.HTML("<b>Skill test</b>"), row(self.have, self.modifier),
                         row(self.produces, self.steps), row(self.roll_button, self.chance))
        for box in (self.have, self.modifier, self.steps):
            box.observe(lambda _c: self.render(), "value")
        self.produces.observe(lambda _c: self.render(), "value")
        self.render()

    def roll(self) -> None:
        steps = self.steps.read() if self.produces.value else 0
        have, modifier, produces = self.have.read(), self.modifier.read(), self.produces.value
        # A task moves no tracker: the declared rule, made again by verify from the log.
        self.app.roll("skill test", skills.task_call(have, modifier, produces=produces,
                                                     steps_up=steps))

    def render(self) -> None:
        bad = first_bad_box(self.have, self.modifier, self.steps)
        self.steps.disabled = not self.produces.value
        disable_for(self.roll_button, bad)
        if bad:
            self.chance.value = ""
            return
        text = pct(skills.skill_chance(self.have.read(), self.modifier.read()))
        die = (skills.yield_die(self.have.read(), self.steps.read())
               if self.produces.value and self.have.read() >= 2 else None)
        self.chance.value = el("span", "chance ", text, die and f" · yield d{die}",
                               class_="tc-side")


class SocialPanel(widgets.VBox):
    """A doubtful tactic on an NPC: 5+ on a d6 with the modifier; a success moves the
    disposition one level toward friendly."""

    def __init__(self, app: CairnAppBase) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.app = app
        levels = social.dispositions()
        self.disposition = widgets.Dropdown(tooltip="Disposition", options=levels, value=levels[2],
                                            layout=widgets.Layout(width="260px"))
        self.disposition.add_class("tc-social-disposition")
        self.modifier = int_box("Modifier", 0, "social-modifier", -skills.MAX_MODIFIER,
                                skills.MAX_MODIFIER, width="130px")
        self.chance = widgets.HTML()
        self.roll_button = app.btn("Try the tactic", self.roll, "social-roll", "primary")
        self.children = (widgets.HTML("<b>Social check</b>"),
                         row(labelled("Disposition", self.disposition)),
                         row(self.modifier, self.roll_button, self.chance))
        self.modifier.observe(lambda _c: self.render(), "value")
        self.render()

    def roll(self) -> None:
        modifier, before = self.modifier.read(), self.disposition.value

        # It moves no tracker: the declared rule (its value: the disposition before and
        # the test), made again by verify from the log.
        out = self.app.roll("social check", social.social_call(modifier, before))
        # A roll this screen may not see leaves the disposition to the GM.
        if out.value is not None and out.shown and out.value[1].success:
            self.disposition.value = social.shift_disposition(before, 1)

    def render(self) -> None:
        bad = first_bad_box(self.modifier)
        disable_for(self.roll_button, bad)
        self.chance.value = "" if bad else el(
            "span", "chance ", pct(skills.skill_chance(2, self.modifier.read())),
            class_="tc-side")


class KnowledgePanel(widgets.VBox):
    """Does the character know it? Common: yes; specialised: the die of fate; esoteric:
    an expert or research."""

    def __init__(self, app: CairnAppBase) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.app = app
        self.buttons = [app.btn(label, self._check(kind), f"know-{kind}")
                        for label, kind in (("Common", "common"),
                                            ("Specialised (die of fate)", "specialized"),
                                            ("Esoteric", "esoteric"))]
        # Perception needs no roll: what is noticed follows how visible the thing is.
        self.seen = [app.btn(label, self._perceive(kind), f"perceive-{kind}")
                     for label, kind in (("Obvious", "obvious"), ("Obscured", "obscured"),
                                         ("Hidden", "hidden"))]
        self.children = (widgets.HTML("<b>Knowledge check</b>"), row(*self.buttons),
                         widgets.HTML("<b>Perception: the thing is…</b>"), row(*self.seen))

    def _perceive(self, kind: str) -> Callable[[], None]:
        return lambda: self.app.show(f"{kind}: {social.perceive(kind)}")

    def _check(self, kind: str) -> Callable[[], None]:
        def check() -> None:
            if kind != "specialized":
                self.app.show(str(social.knowledge_check(kind)))
                return
            # The die of fate moves no tracker: the declared rule, made again by verify.
            self.app.roll("knowledge check (specialised)",
                          RuleCall(social.KNOWLEDGE_CALL))
        return check


class TasksApp(CairnAppBase):
    """Skill tests (with yield), social checks and knowledge checks."""

    dice_hint = "d6"

    def __init__(self, *, seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.skill = SkillTestPanel(self)
        self.social = SocialPanel(self)
        self.knowledge = KnowledgePanel(self)
        app_box(cairn_css(), self.skill, self.social, self.knowledge, self.error,
                self.outcome, self.seed_row, box=self)
