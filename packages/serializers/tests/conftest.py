import os
import sys

import pytest

# With --import-mode=importlib (the repository's pytest setting) no test
# directory is on sys.path; the test modules share serializer_fakes.py.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serializer_fakes import FORMATS  # noqa: E402


@pytest.fixture(params=FORMATS, ids=repr)
def fmt(request):
    """Each file format in turn: run a test on NPZ and on HDF5."""
    return request.param
