"""ipywidgets components: thin views over the core's plain models (no rule logic here).

``from companion.widgets import DiceTray; DiceTray()`` works in any Jupyter notebook and is
what ``widgets/dice_tray.ipynb`` shows under Voila. Shared building blocks are in
[companion.widgets.base][].
"""

from __future__ import annotations

from typing import Any

__all__ = ["DiceTray", "HistoryView"]


def __getattr__(name: str) -> Any:
    # Lazy so that importing companion.widgets.base never pulls in the dice engine.
    if name == "DiceTray":
        from companion.widgets.dice_tray import DiceTray

        return DiceTray
    if name == "HistoryView":
        from companion.widgets.base import HistoryView

        return HistoryView
    raise AttributeError(f"module 'companion.widgets' has no attribute {name!r}")
