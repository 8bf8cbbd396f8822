"""The application layer: a campaign opened as one seat, the one way every face acts
([companion.table.session][])."""

from companion.table.session import RuleRoll, Session, shared_session

__all__ = ["RuleRoll", "Session", "shared_session"]
