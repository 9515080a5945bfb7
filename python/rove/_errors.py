# Written from rove's error codes (crates/rove/src/python_api.rs): do not edit.
"""rove's error codes as exceptions: one class per exit class, one per code under it."""

from __future__ import annotations

from ._error import RoveError


class BadInputError(RoveError):
    """The call was wrong: fix its arguments (exit status 2)."""


class CommandRejected(BadInputError):
    """COMMAND_REJECTED"""

    code = "COMMAND_REJECTED"


class UploadDenied(BadInputError):
    """UPLOAD_DENIED"""

    code = "UPLOAD_DENIED"


class PageStateError(RoveError):
    """The page was not as the call assumed: look again (exit status 3)."""


class RefNotFound(PageStateError):
    """REF_NOT_FOUND"""

    code = "REF_NOT_FOUND"


class StaleState(PageStateError):
    """STALE_STATE"""

    code = "STALE_STATE"


class NotActionable(PageStateError):
    """NOT_ACTIONABLE"""

    code = "NOT_ACTIONABLE"


class DialogOpen(PageStateError):
    """DIALOG_OPEN"""

    code = "DIALOG_OPEN"


class ScreenshotBudgetExceeded(PageStateError):
    """SCREENSHOT_BUDGET_EXCEEDED"""

    code = "SCREENSHOT_BUDGET_EXCEEDED"


class EvaluationFailed(PageStateError):
    """EVALUATION_FAILED"""

    code = "EVALUATION_FAILED"


class NavigationError(RoveError):
    """A navigation failed or was refused (exit status 4)."""


class NavigationInProgress(NavigationError):
    """NAVIGATION_IN_PROGRESS"""

    code = "NAVIGATION_IN_PROGRESS"


class NavigationFailed(NavigationError):
    """NAVIGATION_FAILED"""

    code = "NAVIGATION_FAILED"


class NavigationBlocked(NavigationError):
    """NAVIGATION_BLOCKED"""

    code = "NAVIGATION_BLOCKED"


class DeadlineError(RoveError):
    """A deadline passed; `action_sent` says whether the action may have happened (exit status 5)."""


class Timeout(DeadlineError):
    """TIMEOUT"""

    code = "TIMEOUT"


class BrowserError(RoveError):
    """The browser or its tab is missing, gone or did not start (exit status 6)."""


class TargetCrashed(BrowserError):
    """TARGET_CRASHED"""

    code = "TARGET_CRASHED"


class NoTab(BrowserError):
    """NO_TAB"""

    code = "NO_TAB"


class NoBrowser(BrowserError):
    """NO_BROWSER"""

    code = "NO_BROWSER"


class LaunchFailed(BrowserError):
    """LAUNCH_FAILED"""

    code = "LAUNCH_FAILED"


class BrowserDisconnected(BrowserError):
    """BROWSER_DISCONNECTED"""

    code = "BROWSER_DISCONNECTED"


class NoSolver(BrowserError):
    """NO_SOLVER"""

    code = "NO_SOLVER"


class SolverFailed(BrowserError):
    """SOLVER_FAILED"""

    code = "SOLVER_FAILED"


class DesktopUnavailable(BrowserError):
    """DESKTOP_UNAVAILABLE"""

    code = "DESKTOP_UNAVAILABLE"


class DesktopPermissionRequired(BrowserError):
    """DESKTOP_PERMISSION_REQUIRED"""

    code = "DESKTOP_PERMISSION_REQUIRED"


class ModelError(RoveError):
    """The language model failed (exit status 7)."""


class ModelFailed(ModelError):
    """MODEL_FAILED"""

    code = "MODEL_FAILED"


class InternalError(RoveError):
    """A bug in rove (exit status 70)."""


class Internal(InternalError):
    """INTERNAL"""

    code = "INTERNAL"


#: Each code's class, for `RoveError.of`.
BY_CODE: dict[str, type[RoveError]] = {
    "REF_NOT_FOUND": RefNotFound,
    "STALE_STATE": StaleState,
    "NOT_ACTIONABLE": NotActionable,
    "DIALOG_OPEN": DialogOpen,
    "NAVIGATION_IN_PROGRESS": NavigationInProgress,
    "NAVIGATION_FAILED": NavigationFailed,
    "NAVIGATION_BLOCKED": NavigationBlocked,
    "TIMEOUT": Timeout,
    "TARGET_CRASHED": TargetCrashed,
    "NO_TAB": NoTab,
    "NO_BROWSER": NoBrowser,
    "LAUNCH_FAILED": LaunchFailed,
    "BROWSER_DISCONNECTED": BrowserDisconnected,
    "COMMAND_REJECTED": CommandRejected,
    "SCREENSHOT_BUDGET_EXCEEDED": ScreenshotBudgetExceeded,
    "UPLOAD_DENIED": UploadDenied,
    "EVALUATION_FAILED": EvaluationFailed,
    "MODEL_FAILED": ModelFailed,
    "INTERNAL": Internal,
    "NO_SOLVER": NoSolver,
    "SOLVER_FAILED": SolverFailed,
    "DESKTOP_UNAVAILABLE": DesktopUnavailable,
    "DESKTOP_PERMISSION_REQUIRED": DesktopPermissionRequired,
}
