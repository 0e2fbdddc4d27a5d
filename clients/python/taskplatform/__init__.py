"""The official Python client of the task platform API (standard library only; Python >= 3.10).

Webhook and manifest verification (Verifier) needs the ``cryptography``
package for Ed25519 (Debian: ``apt-get install python3-cryptography``).
"""

from .client import (DEFAULT_BASE_URL, Answer, Client, ListenDelivery, RunResult, Submission, job_error,
                     urllib_transport)
from .errors import (APIError, AuthenticationError, ConflictError, CreditsError, InternalError, InvalidRequestError,
                     NotFoundError, PermissionDeniedError, RateLimitError, UnreachableError, VerificationError,
                     error_for)
from .verify import Delivery, Verifier, signed_message

__all__ = [
    "DEFAULT_BASE_URL", "Answer", "Client", "ListenDelivery", "RunResult", "Submission", "job_error",
    "urllib_transport", "APIError", "AuthenticationError", "ConflictError", "CreditsError", "InternalError",
    "InvalidRequestError", "NotFoundError", "PermissionDeniedError", "RateLimitError", "UnreachableError",
    "VerificationError", "error_for", "Delivery", "Verifier", "signed_message",
]
