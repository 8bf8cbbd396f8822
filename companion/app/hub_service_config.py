"""jupyter_server settings of the club's table service: ``python -m companion.app.hub``
passes this file as ``--config`` (see ``companion.app.hub``). Read as a config file it has
``get_config``; imported as a module (a sweep over the package's modules) it does nothing."""

from companion.app.hub import configure

try:
    _config = get_config()  # type: ignore[name-defined]
except NameError:  # imported, not read as a config file
    _config = None
if _config is not None:
    configure(_config)
