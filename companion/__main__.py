"""``python -m companion`` is the same CLI as the ``companion`` console script."""

from companion.cli import main

raise SystemExit(main())
