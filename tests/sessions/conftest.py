"""The recorded store (tests/recorded.py) as the tests here use it: a private copy per test
(``store_url``, ``env``, ``store``), the viewer on it, and the viewer over the documented flows."""

from recorded import env, flows_viewer, store, store_url, viewer  # noqa: F401  (fixtures)
