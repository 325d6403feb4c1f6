"""The shipped rulesets as package data (installed as ``rulesengine.rulesets``; read through
rulesengine/shipped.py with importlib.resources). Only the YAML files here are rulesets."""
