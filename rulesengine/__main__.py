"""``python -m rulesengine`` is the same as the ``rulesengine`` command."""

from .cli import main

raise SystemExit(main())
