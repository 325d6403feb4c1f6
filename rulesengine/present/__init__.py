"""Presentation: a ruleset or a result in words, tables and JSON. Reads the model and the
results of :mod:`rulesengine.run`; nothing below imports it."""
