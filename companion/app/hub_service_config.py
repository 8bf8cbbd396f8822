"""jupyter_server settings of the club's table service: ``python -m companion.app.hub``
passes this file as ``--config`` (see ``companion.app.hub``). Not a module to import."""

from companion.app.hub import configure

configure(get_config())  # type: ignore[name-defined]  # noqa: F821
