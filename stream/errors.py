"""One exception hierarchy: every error has a reason `code` and says whether a retry may help."""

from __future__ import annotations


class CitegateError(Exception):
    """Base of citegate's errors. `retriable` tells callers whether trying again may succeed."""

    code: str = "error"
    retriable: bool = False

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.code


class InputError(CitegateError):
    """The input itself is wrong (bad JSON, schema violation, too large): never retried."""

    code = "input_invalid"


class UsageError(CitegateError):
    """A command line or configuration mistake."""

    code = "usage"


class CorpusError(CitegateError):
    """A corpus store refused an operation for a reason a retry will not fix."""

    code = "corpus_error"


class ImmutableDocumentError(CorpusError):
    """Re-importing an existing document version with different text."""

    code = "document_immutable"


class CorpusUnavailableError(CorpusError):
    """The corpus store cannot be reached right now."""

    code = "corpus_unavailable"
    retriable = True


class BrokerError(CitegateError):
    """The broker could not take or give records right now (connection, timeout, metadata)."""

    code = "broker_error"
    retriable = True


class OutputRejectedError(BrokerError):
    """The broker refused one output record for good (too large): retrying cannot help."""

    code = "output_rejected"
    retriable = False


class StalledError(CitegateError):
    """The consume loop made no progress for too long, or the broker lost its data: retrying
    in this process cannot help; the worker exits 1 so its supervisor starts it afresh."""

    code = "stalled"
    retriable = False


def is_retriable(exc: BaseException) -> bool:
    """The one retry rule: a `CitegateError` says so itself; anything else is not retried."""
    return isinstance(exc, CitegateError) and exc.retriable
