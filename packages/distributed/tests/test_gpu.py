"""The communicators on CuPy arrays, and pure_nccl: where CuPy and GPUs
are present (skipped elsewhere, saying why)."""
import pytest

import _jobs


def _assert_passes(name):
    outcomes, job = _jobs.run_checks(2, [name])
    assert name in outcomes, job.stderr
    assert not outcomes[name], outcomes[name]


@pytest.mark.gpu
def test_naive_communicator_on_gpu_arrays():
    _assert_passes('gpu_arrays')


@pytest.mark.gpu
def test_non_cuda_aware_stages_one_buffer_through_the_host():
    _assert_passes('non_cuda_aware_on_gpu')


@pytest.mark.multi_gpu
def test_pure_nccl_averages_on_the_gpus():
    _assert_passes('pure_nccl')
