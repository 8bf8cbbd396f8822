"""The application layer: a campaign opened as one seat, the one way every face acts
([companion.table.session][])."""

from companion.names import same_name
from companion.table.session import RuleRoll, Session, shared_session

# ``same_name``: the one name rule, for a face that says "your own seat" (it decides
# nothing: the seam does).
__all__ = ["RuleRoll", "Session", "same_name", "shared_session"]
