"""The documentation as package data (installed as ``rulesengine.docs``; read through
rulesengine/shipped.py and printed by ``rulesengine docs TOPIC``). Only the Markdown files
here are pages; this folder stays where people read and edit them."""
