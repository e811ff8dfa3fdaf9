"""The state of the generators Kusari draws from: captured, restored, and
seeded by CHAINER_SEED."""
import os
import subprocess
import sys

import numpy
import pytest

from kusari.array import random_state


def test_set_state_restores_numpy_random():
    numpy.random.seed(1)
    numpy.random.standard_normal()  # leaves a cached Gaussian in the state
    state = random_state.get_state()
    expected = (numpy.random.random_sample(5), numpy.random.standard_normal())
    numpy.random.seed(2)
    random_state.set_state(state)
    drawn = (numpy.random.random_sample(5), numpy.random.standard_normal())
    numpy.testing.assert_array_equal(drawn[0], expected[0])
    assert drawn[1] == expected[1]


def test_capturing_does_not_change_numpy_random():
    numpy.random.seed(5)
    expected = numpy.random.random_sample(3)
    numpy.random.seed(5)
    random_state.get_state()
    numpy.testing.assert_array_equal(numpy.random.random_sample(3), expected)


def test_gpu_generators_that_are_not_here_are_left_out():
    # A snapshot of a GPU run resumed on the host (or on fewer GPUs).
    numpy.random.seed(6)
    state = random_state.get_state()
    expected = numpy.random.random_sample(3)
    random_state.set_state(random_state.GeneratorStates(
        state.host, {**state.devices, 4096: 12345}))
    numpy.testing.assert_array_equal(numpy.random.random_sample(3), expected)


def _draws_in_subprocess(env_vars):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('CHAINER_', 'CUPY_'))}
    env.update(env_vars)
    code = ('import os, numpy, kusari.array\n'
            'print(numpy.random.randint(1 << 30), '
            'os.environ.get("CUPY_SEED"))')
    return subprocess.run([sys.executable, '-c', code], env=env,
                          capture_output=True, text=True, timeout=60)


def test_chainer_seed_seeds_numpy_and_cupy_at_import():
    result = _draws_in_subprocess({'CHAINER_SEED': '42'})
    assert result.returncode == 0, result.stderr
    numpy.random.seed(42)
    assert result.stdout.split() == [str(numpy.random.randint(1 << 30)),
                                     '42']


def test_cupy_seed_wins_over_chainer_seed_for_cupy():
    result = _draws_in_subprocess({'CHAINER_SEED': '42', 'CUPY_SEED': '7'})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[1] == '7'


def test_without_chainer_seed_numpy_is_not_seeded():
    draws = {_draws_in_subprocess({}).stdout for _ in range(2)}
    assert len(draws) == 2


@pytest.mark.parametrize('seed', ['-1', str(2 ** 32)])
def test_chainer_seed_out_of_range_fails_clearly(seed):
    result = _draws_in_subprocess({'CHAINER_SEED': seed})
    assert result.returncode != 0
    assert 'CHAINER_SEED must be an integer from 0 to 2**32 - 1' \
        in result.stderr


@pytest.mark.gpu
def test_cupy_generators_are_restored():
    import cupy
    cupy.random.seed(3)
    cupy.random.random_sample(4)
    state = random_state.get_state()
    device = cupy.cuda.Device().id
    assert set(state.devices) >= {device}
    expected = cupy.random.random_sample(6).get()
    cupy.random.seed(9)
    random_state.set_state(state)
    numpy.testing.assert_array_equal(cupy.random.random_sample(6).get(),
                                     expected)


@pytest.mark.gpu
def test_capturing_cupy_state_is_deterministic():
    import cupy
    draws = []
    for _ in range(2):
        cupy.random.seed(3)
        random_state.get_state()
        draws.append(cupy.random.random_sample(4).get())
    numpy.testing.assert_array_equal(*draws)
