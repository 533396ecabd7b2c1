"""The local web viewer and the export API (`tuner serve`). Imports FastAPI: only `serve` and
the tests load this package, so `tuner --help` stays fast."""

from tuner.web.app import create_app
from tuner.web.auth import Login

__all__ = ["create_app", "Login"]
