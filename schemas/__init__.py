"""The JSON Schemas as package data (installed as ``rulesengine.schemas``; read through
rulesengine/shipped.py with importlib.resources)."""
