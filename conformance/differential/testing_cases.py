"""``chainer.testing`` and ``chainer.utils`` as users meet them, for any
Chainer-like ``chainer`` module: run by ``test_testing.py`` with Kusari's
drop-in and by ``oracle_testing.py`` with Chainer 7.8.1.

Two parts. :func:`run_user_tests` runs the user-style test modules of
``user_tests/`` (``check_*.py``) with pytest in a given interpreter and
returns every collected test id with its outcome (and a failure's
exception type), and what the tests recorded. :func:`evaluate` computes
the ``chainer.utils`` cases: convolution output sizes, COO matrices,
``experimental`` and a user-written ``check_type_forward``.

Only NumPy and the standard library are imported here. Both return a
flat dict of arrays (``name -> array``) that both sides write and the
test compares.
"""
import itertools
import json
import os
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy

USER_TESTS = Path(__file__).resolve().parent / 'user_tests'
# gpu-marked tests are deselected, as Chainer's own CPU runs do: Chainer
# runs them where no GPU is (and they fail), Kusari skips them.
PYTEST_ARGS = ('-q', '-rA', '-p', 'no:cacheprovider', '-p',
               '_outcomes_plugin', '-m', 'not gpu')

SIZES = (1, 5, 8)
KERNELS = (1, 2, 3)
STRIDES = (1, 2, 3)
PADS = (0, 1, 2)
DILATIONS = (1, 2)
# (size, k, s, p, cover_all, d) that are not a plain valid geometry.
ODD_SIZES = {
    'stride_zero': (5, 3, 0, 0, False, 1),
    'stride_zero_cover_all': (5, 3, 0, 0, True, 1),
    'kernel_too_big': (2, 5, 1, 0, False, 1),
    'numpy_ints': (numpy.int64(7), numpy.int32(3), numpy.int64(2), 1,
                   False, 1),
    'float_size': (7.0, 3, 2, 1, False, 1),
}

# The class name suffix of inject_backend_tests' plain CPU config.
CPU = ('use_chainerx_false__chainerx_device_None__use_cuda_false__'
       'cuda_device_None__use_cudnn_never__cudnn_deterministic_false__'
       'autotune_false__cudnn_fast_batch_normalization_false__'
       'use_ideep_never')
CONDITIONS = 'check_conditions.py::'
FUNCTIONS = 'check_function_cases.py::'
LINKS = 'check_link_cases.py::'
PARAMETERIZED = 'check_parameterized.py::'

# Cases (test ids, test classes, records, result names) kept out of the
# compared set: case -> reason.
KNOWN_DIFFERENCES = {
    # Chainer 7.8.1 is wrong.
    f'{CONDITIONS}TestFixRandom': 'Chainer 7.8.1 bug: fix_random on a '
    'class alone puts a bundle object in its place, so pytest collects '
    'nothing; Kusari keeps the class',
    'fix_random_class': f'as {CONDITIONS}TestFixRandom (what it records)',
    f'{PARAMETERIZED}TestBackends::test_not_injected': 'Chainer 7.8.1 bug: '
    'inject_backend_tests with method names puts a bundle in place of the '
    'class keeping the other tests (they vanish); Kusari keeps them',
    f'{PARAMETERIZED}TestPlainClassBackends_{CPU}': 'Chainer 7.8.1 bug: on '
    'a plain (not unittest) class pytest takes backend_config for a '
    'missing fixture (error); Kusari passes the config',
    'variable': 'Chainer 7.8.1 to_coo fails on a Variable (TypeError from '
    'its != test); Kusari takes a Variable or an array, as documented',
    # Deliberate in Kusari.
    f'{FUNCTIONS}_Square': 'Chainer 7.8.1 collects a FunctionTestCase '
    'subclass no backend is injected into (its tests fail: no '
    'backend_config); Kusari collects only the injected ones',
    f'{FUNCTIONS}_Abs': f'as {FUNCTIONS}_Square',
    f'{FUNCTIONS}_ForwardOnly': f'as {FUNCTIONS}_Square',
    'mock_trainer_initial': 'before its first update Chainer\'s mock '
    'updater says is_new_epoch True (and an int epoch_detail 0); Kusari\'s '
    'says what a real updater does (False, 0.0)',
    'fix_random_python': 'Chainer 7.8.1 fix_random seeds numpy.random only '
    '(Python\'s random draws differ from run to run); Kusari seeds both',
}


def _outcomes(lines):
    """``test id -> outcome`` from the phases ``_outcomes_plugin``
    recorded: the first phase that did not pass decides (``failure:<type>``
    in the test itself, ``error:<type>`` in its setup or teardown,
    ``skipped``), else ``passed``."""
    outcomes = {}
    for line in lines.splitlines():
        test_id, phase, outcome = json.loads(line)
        if outcomes.get(test_id, 'passed') != 'passed':
            continue  # an earlier phase decided
        if outcome.startswith('failed'):
            kind = 'failure' if phase == 'call' else 'error'
            outcome = kind + outcome[len('failed'):]
        outcomes[test_id] = outcome
    return outcomes


def _pytest(python, tests, records, arguments, environment):
    """Run pytest in ``tests`` and return what ``_outcomes_plugin``
    recorded, as ``test id -> outcome``."""
    done = subprocess.run(
        [str(python), '-m', 'pytest', *PYTEST_ARGS, *arguments], cwd=tests,
        capture_output=True, text=True, timeout=300,
        env={**os.environ, **environment, 'USER_TESTS_OUT': str(records)})
    outcomes = records / 'outcomes.jsonl'
    if not outcomes.exists():
        raise RuntimeError(f'pytest did not run:\n{done.stdout}\n'
                           f'{done.stderr}')
    found = _outcomes(outcomes.read_text())
    outcomes.unlink()
    return found


def run_user_tests(python, workdir):
    """Run ``user_tests/check_*.py`` with pytest in the interpreter
    ``python`` (in a copy under ``workdir``, out of any conftest's way);
    ``user/<test id>`` holds each outcome, ``record/<name>`` the lines
    the tests recorded, ``gpu_limit/<test id>`` the outcomes of the GPU
    tests where ``CHAINER_TEST_GPU_LIMIT`` is 0."""
    workdir = Path(workdir)
    tests = workdir / 'user_tests'
    records = workdir / 'records'
    shutil.copytree(USER_TESTS, tests, ignore=shutil.ignore_patterns(
        '__pycache__'))
    (tests / 'pytest.ini').write_text('[pytest]\n')
    records.mkdir()
    files = sorted(path.name for path in tests.glob('check_*.py'))
    results = {f'user/{test_id}': numpy.array(outcome)
               for test_id, outcome in _pytest(
                   python, tests, records, files, {}).items()}
    results.update({f'record/{path.stem}': numpy.array(path.read_text())
                    for path in records.glob('*.jsonl')})
    # Both skip a test needing more GPUs than the limit, where Chainer
    # would run (and fail) a GPU test without it.
    gpu_tests = ['-m', 'gpu', 'check_conditions.py', 'check_parameterized.py']
    results.update({f'gpu_limit/{test_id}': numpy.array(outcome)
                    for test_id, outcome in _pytest(
                        python, tests, records, gpu_tests,
                        {'CHAINER_TEST_GPU_LIMIT': '0'}).items()})
    return results


def _outcome(compute):
    """What ``compute()`` returns, or ``error:<type>`` if it raises."""
    try:
        return compute()
    except Exception as error:
        return numpy.array(f'error:{type(error).__name__}')


def _sizes(utils):
    results = {}
    geometries = {
        f'{size}_{k}_{s}_{p}_{cover_all}_{d}': (size, k, s, p, cover_all, d)
        for size, k, s, p, cover_all, d in itertools.product(
            SIZES, KERNELS, STRIDES, PADS, (False, True), DILATIONS)}
    geometries.update(ODD_SIZES)
    for name, (size, k, s, p, cover_all, d) in geometries.items():
        for function in ('get_conv_outsize', 'get_deconv_outsize'):
            results[f'{function}/{name}'] = _outcome(
                lambda: numpy.array(getattr(utils, function)(
                    size, k, s, p, cover_all=cover_all, d=d)))
    return results


def _coo_arrays(prefix, coo):
    data = coo.data
    return {
        f'{prefix}/data': numpy.asarray(data.array),
        f'{prefix}/row': numpy.asarray(coo.row),
        f'{prefix}/col': numpy.asarray(coo.col),
        f'{prefix}/shape': numpy.array(coo.shape),
        f'{prefix}/order': numpy.array(str(coo.order)),
        f'{prefix}/requires_grad': numpy.array(data.requires_grad),
        f'{prefix}/dense': numpy.asarray(coo.to_dense()),
    }


def _coo(chainer):
    utils = chainer.utils
    dense = numpy.array([[0, 1.5, 0], [2, 0, -3], [0, 0, 0], [4, 0, 0]],
                        numpy.float32)
    batch = numpy.stack([dense, numpy.eye(4, 3), numpy.zeros((4, 3))]
                        ).astype(numpy.float32)
    row = numpy.array([2, 0, 1], numpy.int32)
    col = numpy.array([0, 1, 1], numpy.int32)
    data = numpy.array([1.0, 2.0, 3.0], numpy.float32)

    def coo(*args, **kwargs):
        return lambda: utils.CooMatrix(*args, **kwargs)
    matrices = {
        'dense': lambda: utils.to_coo(dense),
        'dense_ldnz': lambda: utils.to_coo(dense, ldnz=7),
        'dense_grad': lambda: utils.to_coo(dense, requires_grad=True),
        'variable': lambda: utils.to_coo(chainer.Variable(dense)),
        'batch': lambda: utils.to_coo(batch),
        'batch_ldnz': lambda: utils.to_coo(batch, ldnz=5),
        'batch_grad': lambda: utils.to_coo(batch, requires_grad=True),
        'float64': lambda: utils.to_coo(dense.astype(numpy.float64)),
        'given_c': coo(data, numpy.sort(row), col, (3, 2), order='C'),
        'given_other': coo(data, row, col, (3, 2), order='other'),
        'found_order': coo(data, row, col, (3, 2)),
        'sorted_rows': coo(data, numpy.sort(row), col, (3, 2)),
        'sorted_cols': coo(data, row, numpy.sort(col), (3, 2)),
        'padded': coo(numpy.append(data, 0), numpy.append(row, -1),
                      numpy.append(col, -1), (3, 2)),
        'batched': coo(numpy.stack([data, -data]), numpy.stack([row, col]),
                       numpy.stack([col, row]), (3, 3)),
        'requires_grad': coo(data, row, col, (3, 2), requires_grad=True),
    }
    results = {}
    for name, make in matrices.items():
        matrix = _outcome(make)
        if isinstance(matrix, numpy.ndarray):  # an error
            results[f'coo/{name}'] = matrix
        else:
            results.update(_coo_arrays(f'coo/{name}', matrix))
    errors = {
        'to_coo_1d': lambda: utils.to_coo(numpy.ones(3, numpy.float32)),
        'to_coo_4d': lambda: utils.to_coo(numpy.ones((1, 1, 2, 2),
                                                     numpy.float32)),
        'bad_order': coo(data, row, col, (3, 2), order='X'),
        'bad_shape': coo(data, row, col, (3, 2, 1)),
        'row_col_mismatch': coo(data, row, col[:2], (3, 2)),
        'data_3d': coo(data[None, None], row[None, None], col[None, None],
                       (3, 2)),
    }
    for name, compute in errors.items():
        results[f'coo_error/{name}'] = _outcome(
            lambda: compute() and numpy.array('no error'))
    return results


def _experimental(chainer):
    results = {}
    for disabled in (False, True):
        chainer.disable_experimental_feature_warning = disabled
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            chainer.utils.experimental('my.api')
        results[f'experimental/disabled_{disabled}'] = numpy.array(
            [f'{w.category.__name__}: {w.message}' for w in caught]
            + ['end'])
    chainer.disable_experimental_feature_warning = False
    return results


def _type_check(chainer):
    type_check = chainer.utils.type_check

    class Affine(chainer.FunctionNode):
        """A user-written function with a typical check_type_forward."""

        def check_type_forward(self, in_types):
            type_check.expect(in_types.size() == 2)
            x_type, w_type = in_types
            type_check.expect(
                x_type.dtype.kind == 'f',
                x_type.dtype == w_type.dtype,
                x_type.ndim == 2,
                w_type.ndim == 2,
                x_type.shape[1] == w_type.shape[1],
            )
            if type_check.eval(x_type.shape[0]) > 3:
                type_check.expect(x_type.shape[0] <= 3)

        def forward(self, inputs):
            x, w = inputs
            return x.dot(w.T),

    class Named(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            type_check._argname(in_types, ('x',))
            x_type, = in_types
            type_check.expect(x_type.shape[0] == 2, x_type.dtype.kind == 'f')

        def forward(self, inputs):
            return inputs[0] * 2,

    class Checked(chainer.FunctionNode):
        """Identity checked by ``expectations(x_type)``, a list of
        expressions one user might write."""

        def __init__(self, expectations):
            self.expectations = expectations

        def check_type_forward(self, in_types):
            x_type, = in_types
            type_check.expect(*self.expectations(x_type))

        def forward(self, inputs):
            return inputs[0].copy(),

    f32 = numpy.float32
    x234 = (numpy.ones((2, 3, 4), f32),)
    expressions = {
        'dtype_is': lambda x: [x.dtype == numpy.float64],
        'dtype_char': lambda x: [x.dtype.char == 'd'],
        'ndim_ge': lambda x: [x.ndim >= 4],
        'shape_slice': lambda x: [x.shape[1:] == (3, 5)],
        'shape_negative': lambda x: [x.shape[-1] == 3],
        'arithmetic': lambda x: [x.shape[0] * 2 == x.shape[2] + 1],
        'ndim_range': lambda x: [0 < x.ndim, x.ndim < 3],
        'bool_of_expr': lambda x: [bool(x.ndim == 3)],
        'good_many': lambda x: [x.shape[1:] == (3, 4), x.ndim == 3,
                                x.dtype.kind == 'f', x.size == 24],
    }
    calls = {name: (lambda e=e: Checked(e), x234)
             for name, e in expressions.items()}
    calls.update({
        'good': (Affine, (numpy.ones((2, 3), f32), numpy.ones((4, 3), f32))),
        'one_input': (Affine, (numpy.ones((2, 3), f32),)),
        'int_x': (Affine, (numpy.ones((2, 3), numpy.int32),
                           numpy.ones((4, 3), f32))),
        'dtypes': (Affine, (numpy.ones((2, 3), f32),
                            numpy.ones((4, 3), numpy.float64))),
        'ndim': (Affine, (numpy.ones((2, 3, 1), f32),
                          numpy.ones((4, 3), f32))),
        'shape': (Affine, (numpy.ones((2, 3), f32), numpy.ones((4, 2), f32))),
        'eval_rows': (Affine, (numpy.ones((5, 3), f32),
                               numpy.ones((4, 3), f32))),
        'named_good': (Named, (numpy.ones((2, 2), f32),)),
        'named_bad': (Named, (numpy.ones((3, 2), f32),)),
    })
    results = {}
    for name, (function, inputs) in calls.items():
        try:
            y, = function().apply(inputs)
            outcome = [str(y.shape)]
        except type_check.InvalidType as error:
            outcome = ['InvalidType', error.expect, error.actual,
                       str(error).strip().splitlines()[0]]
        except Exception as error:
            outcome = [f'error:{type(error).__name__}']
        results[f'type_check/{name}'] = numpy.array(outcome)
    return results


def evaluate(chainer):
    """The ``chainer.utils`` cases for the ``chainer`` module given."""
    results = _sizes(chainer.utils)
    results.update(_coo(chainer))
    results.update(_experimental(chainer))
    results.update(_type_check(chainer))
    return results
