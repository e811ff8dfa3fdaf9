"""Warning categories of Chainer's API."""


class PerformanceWarning(RuntimeWarning):
    """A computation takes a slower path than it could (for example a GPU
    kernel falling back to a generic one); code filters it by this class."""
