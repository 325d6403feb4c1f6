"""The engine as a service for front ends in any language: HTTP + JSON (``http``, needs the
``serve`` extra) and JSON lines on stdio (``stdio``, standard library only), both answering
the same operations (``operations``) with the same error objects (``problems``).
See docs/service.md."""
