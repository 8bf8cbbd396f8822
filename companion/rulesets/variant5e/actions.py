"""The other actions and free activities of a turn, as the document restates them.

- **Disengage.** Your movement provokes no opportunity attacks for the rest of the turn.
- **Dodge.** Until your next turn starts, attackers you can see roll with disadvantage
  against you and your Dexterity saves have advantage; being incapacitated or dropping
  to speed 0 ends it.
- **Help.** The creature you aid has advantage on its next ability check for the task, if
  made before your next turn starts; or, against a foe within 5 feet of you, the first
  attack roll an ally makes against it before your next turn has advantage.
- **Hide.** A Dexterity (Stealth) check; success brings the benefits of being unseen.
- **Search.** A Wisdom (Perception) or Intelligence (Investigation) check, as the DM says.
- **Ready.** Name a perceivable trigger and the action (or a move up to your speed) to
  take with your reaction when it happens, or let it pass. A readied spell (casting time
  1 action) is cast now and held with concentration until released; holding it ends any
  other concentration. If the concentration ends (dropped, or broken by damage) before
  the release, the spell dissipates without taking effect: there is nothing left to
  release.
- **Improvising an action.** Anything else you describe; the DM rules whether it can be
  done and what roll, if any, decides it.
- **End concentration.** At any time, no action needed.
- **Other activities.** Talking briefly and gesturing cost nothing; one interaction with
  an object or feature (open a door, draw a weapon) is free during your move or action;
  a second needs your action, and the DM may ask for an action when the object is
  stubborn (a stuck door, a drawbridge crank).

Interpretation: a readied spell not released by the start of your next turn is lost as
any readied action is ("before the start of your next turn"), and so is the
concentration that held it.

[Turn][companion.rulesets.variant5e.actions.Turn] keeps one creature's action economy through a
round.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError, StateError
from companion.state import Tracker, move, state_field

__all__ = ["ACTIONS", "CASTING_TIMES", "OBJECT_INTERACTIONS", "Turn"]

#: The actions a turn may use, with what each does in a few words.
ACTIONS: dict[str, str] = {
    "attack": "one melee or ranged attack (more with Extra Attack)",
    "dash": "extra movement equal to your speed this turn",
    "disengage": "your movement provokes no opportunity attacks this turn",
    "dodge": "attacks against you have disadvantage, Dex saves advantage",
    "help": "an ally gains advantage on a check or its first attack",
    "hide": "Dexterity (Stealth) check to hide",
    "identify a spell": "Intelligence (Arcana) vs DC 15 + spell level",
    "improvise": "anything else; the DM decides the roll",
    "ready": "prepare a reaction to a trigger",
    "search": "Wisdom (Perception) or Intelligence (Investigation) check",
    "use an object": "an object that needs your action, or a second object",
}

#: Examples of things done alongside movement and action (the seed's list).
OBJECT_INTERACTIONS: tuple[str, ...] = (
    "draw or sheathe a sword", "open or close a door", "withdraw a potion from your backpack",
    "pick up a dropped axe", "take a bauble from a table", "remove a ring from your finger",
    "stuff some food into your mouth", "plant a banner in the ground",
    "fish a few coins from your belt pouch", "drink all the ale in a flagon",
    "throw a lever or a switch", "pull a torch from a sconce",
    "take a book from a shelf you can reach", "extinguish a small flame", "don a mask",
    "pull the hood of your cloak up and over your head", "put your ear to a door",
    "kick a small stone", "turn a key in a lock", "tap the floor with a 10-foot pole",
    "hand an item to another character",
)


#: Longest trigger or spell name a turn keeps (in characters).
MAX_TEXT = 200

#: Casting times a spell may have (the usual ones); only the first may be readied.
CASTING_TIMES: tuple[str, ...] = ("1 action", "1 bonus action", "1 reaction", "1 minute",
                                  "10 minutes", "1 hour", "8 hours", "12 hours", "24 hours")


@dataclass
class Turn(Tracker):
    """One creature's action, reaction, free object interaction and lasting effects."""

    action: str = state_field("", choices=("", *ACTIONS))
    reaction_used: bool = False
    object_interactions: int = state_field(0, min=0, max=2)
    dodging: bool = False
    disengaged: bool = False
    readied: str = state_field("", max_len=MAX_TEXT)
    concentrating: str = state_field("", max_len=MAX_TEXT)
    #: The spell held by the readied action ("" when the readied action is no spell);
    #: held with concentration, so it names the spell concentrated on.
    readied_spell: str = state_field("", max_len=MAX_TEXT)
    #: A readied spell that dissipated when concentration ended (kept to say why it cannot
    #: be released); cleared by the next turn or the next Ready.
    dissipated: str = state_field("", max_len=MAX_TEXT)

    def check_state(self) -> None:
        """What a turn can never be: Dodge, Disengage or a readied trigger without the
        action that gives it; a second object handled without spending the action."""
        for flag, action in (("dodging", "dodge"), ("disengaged", "disengage"),
                             ("readied", "ready")):
            if getattr(self, flag) and self.action != action:
                raise StateError(f"field '{flag}' is set but the action taken is "
                                 f"{self.action or 'none'}, not {action}")
        if self.object_interactions == 2 and self.action != "use an object":
            raise StateError("field 'object_interactions' is 2 but the action was not spent "
                             "on the second object")
        if self.readied_spell and (not self.readied
                                   or self.concentrating != self.readied_spell):
            raise StateError("field 'readied_spell' is set but no readied action holds it "
                             "with concentration")
        if self.dissipated and (self.readied or self.action != "ready"):
            raise StateError("field 'dissipated' is set but the readied action was not lost")

    @move
    def take_action(self, name: str) -> None:
        """Take one of [ACTIONS][companion.rulesets.variant5e.actions.ACTIONS] (a readied action is
        set with [ready][companion.rulesets.variant5e.actions.Turn.ready])."""
        key = name.strip().lower()
        if key not in ACTIONS or key == "ready":
            known = ", ".join(k for k in ACTIONS if k != "ready")
            raise RuleError(f"actions: unknown action {name!r} (known: {known}; use ready())")
        self._use_action(key)
        if key == "dodge":
            self.dodging = True
        if key == "disengage":
            self.disengaged = True
        self.describe(f"action: {key}")

    @move
    def interact_with_object(self, what: str = "an object") -> None:
        """Handle an object: the first is free, the second takes the action."""
        if self.object_interactions >= 1:
            self._use_action("use an object")
            self.object_interactions = 2
            self.describe(f"{what}: second object, uses the action")
            return
        self.object_interactions = 1
        self.describe(f"{what}: free object interaction")

    @move
    def ready(self, trigger: str, spell: str = "", casting_time: str = "1 action") -> None:
        """Ready a response to ``trigger``; a readied ``spell`` is held with concentration.

        ``casting_time``: the spell's (one of
        [CASTING_TIMES][companion.rulesets.variant5e.actions.CASTING_TIMES]); to be readied a
        spell must have a casting time of 1 action, so any other is refused. It says
        nothing when no spell is readied; the default is the one casting time Ready allows,
        for a table that names only spells it may ready.
        """
        if not trigger.strip():
            raise RuleError("Ready: name the perceivable circumstance that triggers it")
        if len(trigger.strip()) > MAX_TEXT or len(spell.strip()) > MAX_TEXT:
            raise RuleError(f"Ready: a trigger or spell name is at most {MAX_TEXT} characters")
        timing = " ".join(str(casting_time).lower().split())
        if timing not in CASTING_TIMES:
            raise RuleError(f"Ready: a casting time is one of {', '.join(CASTING_TIMES)}, not "
                            f"{str(casting_time)[:40]!r}")
        if spell.strip() and timing != CASTING_TIMES[0]:
            raise RuleError(f"Ready: a readied spell must have a casting time of 1 action; "
                            f"{spell.strip()[:40]} takes {timing}")
        self._use_action("ready")
        self.readied = trigger.strip()
        self.dissipated = ""
        if spell.strip():
            dropped = self.concentrating
            self.concentrating = self.readied_spell = spell.strip()
            self.describe(f"ready {spell} on: {trigger}" +
                          (f" (ends concentration on {dropped})" if dropped else ""))
        else:
            self.describe(f"ready on: {trigger}")

    @move
    def release_readied(self) -> None:
        """The trigger happens: act with the reaction."""
        if not self.readied and self.dissipated:
            raise RuleError(f"Ready: {self.dissipated} dissipated without taking effect when "
                            "concentration ended; nothing is readied")
        if not self.readied:
            raise RuleError("Ready: nothing is readied")
        if self.reaction_used:
            raise RuleError("Ready: the reaction is already spent this round")
        self.reaction_used = True
        self.readied = ""
        spell, self.readied_spell = self.readied_spell, ""
        if spell:
            # The spell takes effect; concentration stays for a spell that needs it (the
            # table ends it with end_concentration when the spell does not).
            self.describe(f"readied {spell} released (reaction)")
        else:
            self.describe("readied action released (reaction)")

    @move
    def use_reaction(self, what: str = "reaction") -> None:
        """Spend the reaction (an opportunity attack, a spell...)."""
        if self.reaction_used:
            raise RuleError("reactions: only one reaction per round")
        self.reaction_used = True
        self.describe(f"{what} (reaction)")

    @move
    def end_concentration(self) -> None:
        """Drop concentration, no action needed (a held readied spell dissipates)."""
        if not self.concentrating:
            raise RuleError("End Concentration: not concentrating on anything")
        self.describe(f"ends concentration on {self.concentrating}{self._lose_readied()}")
        self.concentrating = ""

    @move
    def break_concentration(self, cause: str = "") -> None:
        """Concentration is broken (damage and a failed save, incapacitated...): the spell
        concentrated on ends, and a readied spell dissipates without taking effect."""
        if not self.concentrating:
            raise RuleError("Concentration: not concentrating on anything, nothing to break")
        if len(cause.strip()) > MAX_TEXT:
            raise RuleError(f"Concentration: a cause is at most {MAX_TEXT} characters")
        why = f" ({cause.strip()})" if cause.strip() else ""
        self.describe(f"concentration on {self.concentrating} broken{why}"
                      f"{self._lose_readied()}")
        self.concentrating = ""

    def _lose_readied(self) -> str:
        """The readied spell dissipates with its concentration; the note for the log."""
        if not self.readied_spell:
            return ""
        spell = self.readied_spell
        self.readied, self.readied_spell, self.dissipated = "", "", spell
        return f": readied {spell} dissipates without taking effect"

    @move
    def lose_dodge(self) -> None:
        """Incapacitated or speed 0: the Dodge benefit ends."""
        if not self.dodging:
            raise RuleError("Dodge: not dodging")
        self.dodging = False
        self.describe("loses the Dodge benefit")

    @move
    def start_turn(self) -> None:
        """A new turn: action, reaction and free interaction back; Dodge and readied end."""
        self.action = ""
        self.reaction_used = False
        self.object_interactions = 0
        self.dodging = False
        self.disengaged = False
        note = ""
        if self.readied_spell:
            # Held only until this turn starts (see the module's Interpretation).
            note = f"; readied {self.readied_spell} was never released and is lost"
            self.concentrating = ""
        self.readied = self.readied_spell = self.dissipated = ""
        self.describe(f"turn starts{note}")

    def _use_action(self, name: str) -> None:
        if self.action:
            raise RuleError(f"actions: the action is already used this turn ({self.action})")
        self.action = name
