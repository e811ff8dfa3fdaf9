"""Testing utilities (``chainer.testing``): assertions, parameterized and
per-backend test classes, the function test case, and test annotations."""
try:
    import pytest  # NOQA: F401
except ImportError as error:
    raise ModuleNotFoundError(
        'kusari.autograd.testing (chainer.testing) builds on pytest, which '
        'is not installed: pip install pytest (or install kusari-autograd '
        'with its "testing" extra: pip install "packages/autograd[testing]"'
        ')', name='pytest') from error

from kusari.autograd.testing import attr  # NOQA
from kusari.autograd.testing import backend  # NOQA
from kusari.autograd.testing import condition  # NOQA
from kusari.autograd.testing.array import assert_allclose  # NOQA
from kusari.autograd.testing.backend import BackendConfig  # NOQA
from kusari.autograd.testing.backend import inject_backend_tests  # NOQA
from kusari.autograd.testing.function_test_case import (  # NOQA
    FunctionTestCase, FunctionTestError)
from kusari.autograd.testing.helper import patch  # NOQA
from kusari.autograd.testing.helper import with_requires  # NOQA
from kusari.autograd.testing.helper import without_requires  # NOQA
from kusari.autograd.testing.matrix import generate_matrix  # NOQA
from kusari.autograd.testing.parameterized import (  # NOQA
    from_pytest_parameterize)
from kusari.autograd.testing.parameterized import parameterize  # NOQA
from kusari.autograd.testing.parameterized import (  # NOQA
    parameterize_pytest)
from kusari.autograd.testing.parameterized import product  # NOQA
from kusari.autograd.testing.parameterized import product_dict  # NOQA
from kusari.autograd.testing.random import fix_random  # NOQA
from kusari.autograd.testing.random import generate_seed  # NOQA
from kusari.autograd.testing.runner import run_module  # NOQA
from kusari.autograd.testing.unary_math_function import (  # NOQA
    unary_math_function_unittest)
from kusari.autograd.testing.warning import assert_warns  # NOQA
