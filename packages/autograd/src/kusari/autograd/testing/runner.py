"""Running a test module as a script: ``python test_foo.py``."""
import sys

import pytest


def run_module(name, file):
    """Run the tests of the calling module with pytest, when it is the main
    script; do nothing when it is imported (by pytest, say).

    Call it at the end of a test module as
    ``testing.run_module(__name__, __file__)``. The process then exits with
    pytest's exit status.
    """
    if name == '__main__':
        sys.exit(pytest.main([file, '-v', '-x']))
