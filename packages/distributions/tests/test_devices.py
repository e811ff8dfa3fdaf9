"""Distributions live on the device of their parameters and move with
to_device."""
import numpy
import pytest

from kusari import distributions as D
from kusari.array import backend

from distribution_builders import every_distribution


def test_cpu_distributions_use_numpy():
    for dist, _ in every_distribution():
        assert dist.xp is numpy
        assert dist.device == backend.CpuDevice()
        assert dist.to_device('@numpy') is dist
        assert isinstance(dist.sample(2).array, numpy.ndarray)


def test_to_device_moves_every_parameter_and_the_base():
    dist = D.Independent(D.Normal(numpy.zeros((2, 3)), numpy.ones((2, 3))))
    moved = []

    class Recorder(backend.CpuDevice):
        def send_array(self, array):
            moved.append(array.shape)
            return super().send_array(array)

    dist.to_device(Recorder())
    assert moved == [(2, 3), (2, 3)]


@pytest.mark.gpu
def test_to_device_moves_to_the_gpu_and_draws_there():
    import cupy
    for dist, event_shape in every_distribution():
        dist.to_device('@cupy:0')
        assert dist.xp is cupy
        assert dist.device == backend.get_device('@cupy:0')
        for value in dist.params.values():
            assert isinstance(value.array, cupy.ndarray)
        draws = dist.sample(3)
        assert isinstance(draws.array, cupy.ndarray)
        assert isinstance(dist.log_prob(draws).array, cupy.ndarray)
        dist.to_cpu()
        assert dist.xp is numpy
