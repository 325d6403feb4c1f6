"""``python -m rulesengine`` is the same as the ``rulesengine`` command."""

from .collector import collect_less

collect_less()  # from the first import on (rulesengine/collector.py); main() keeps it so

from .cli import main  # noqa: E402

raise SystemExit(main())
