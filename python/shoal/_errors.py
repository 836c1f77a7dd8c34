"""Exceptions raised by the shoal package."""
from __future__ import annotations


class ShoalError(RuntimeError):
    """A shoal C call returned a status other than SHOAL_STATUS_SUCCESS.

    ``status`` is the numeric shoal_status, ``name`` its enumerator name
    (e.g. ``"SHOAL_STATUS_INVALID_VALUE"``), ``function`` the C function that returned it.
    """

    def __init__(self, status: int, text: str, function: str, detail: str = "") -> None:
        self.status = status
        self.name = text.split(":", 1)[0].strip()
        self.function = function
        message = f"{function}: {text}"
        if detail:
            message += f" ({detail})"
        super().__init__(message)


class LibraryNotFoundError(OSError):
    """libshoal could not be loaded; the message lists every place that was tried."""
