"""``mock`` for Chainer 7.8.1's ``testing.training``, which imports the
old backport of :mod:`unittest.mock` (the same API); Kusari needs none."""
from unittest.mock import *  # NOQA
