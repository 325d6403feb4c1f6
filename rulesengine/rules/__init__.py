"""Ruleset files → a frozen, typed model: safe YAML with positions, the JSON Schema layer,
semantic building and the model itself. Builds on :mod:`rulesengine.dice`; knows nothing of
rolling or odds (that is :mod:`rulesengine.run`)."""
